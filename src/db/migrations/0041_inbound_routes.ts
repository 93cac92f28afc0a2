/**
 * Inbound routes (docs/inbound.md#routes): an organisation's ordered rules for its received mail — which recipient
 * (an address or `*@domain`) and header they match, and what becomes of the message (store, webhook, forward,
 * reject, drop), with a spam score over which the message is refused. `received_emails` gains the spam verdict of
 * a local rspamd (null when none was asked or it did not answer) and the route that decided.
 */
const table = (json: string, real: string) => `
CREATE TABLE inbound_routes (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  match_recipient TEXT,
  match_header_name TEXT,
  match_header_contains TEXT,
  action TEXT NOT NULL CHECK (action IN ('store', 'webhook', 'forward', 'reject', 'drop')),
  forward_to ${json} NOT NULL,
  webhook_ids ${json} NOT NULL,
  spam_threshold ${real},
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX inbound_routes_order ON inbound_routes(organization_id, position);
ALTER TABLE received_emails ADD COLUMN spam ${json};
ALTER TABLE received_emails ADD COLUMN route_id TEXT;
`;

export default table("TEXT", "REAL");
export const postgres = table("JSONB", "DOUBLE PRECISION");
