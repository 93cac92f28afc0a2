/**
 * The audit log (docs/teams.md): who changed what, and every sign-in, failed sign-in and sign-out, one row per event,
 * written in the transaction of the change it records. Append-only: nothing in Mailroom updates a row; retention
 * removes rows older than `[retention] audit`. `organization_id` is null for what concerns no organisation (a
 * failed sign-in with an address nobody has).
 */
const table = (json: string) => `
CREATE TABLE audit_events (
  id TEXT PRIMARY KEY,
  organization_id TEXT REFERENCES organizations(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  actor_type TEXT NOT NULL CHECK (actor_type IN ('user', 'api_key', 'cli', 'system')),
  actor_id TEXT,
  actor_name TEXT,
  action TEXT NOT NULL,
  target_type TEXT,
  target_id TEXT,
  target_name TEXT,
  ip TEXT,
  user_agent TEXT,
  changes ${json}
);
CREATE INDEX audit_events_organization ON audit_events(organization_id, id);
`;

export default table("TEXT");
export const postgres = table("JSONB");
