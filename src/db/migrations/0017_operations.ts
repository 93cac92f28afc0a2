/**
 * Operations (docs/operations.md).
 * - Pauses: sending paused for an organisation, one of its sending domains or a provider; a recipient released by
 *   hand while one applies goes regardless (`hold_exempt`).
 * - The queue's index: the recipients still waiting (queued, deferred, held) of each organisation by status, in the
 *   order they came — a small part of the table, which the queue's list, its summary and its bulk actions read.
 * - The operations scopes (deliveries:read, deliveries:write, organization:read, organization:write) are part of
 *   full_access. A key stores its scopes expanded, so every key that held every scope there was before them — a
 *   full-access key — gains them, at the end, where they stand in canonical order; any other key keeps its own.
 */
const BEFORE = [
  "emails:send",
  "emails:read",
  "domains:read",
  "domains:write",
  "templates:read",
  "templates:write",
  "webhooks:read",
  "webhooks:write",
  "suppressions:read",
  "suppressions:write",
  "inbound:read",
  "api_keys:read",
  "api_keys:write",
  "ai:use",
];
const ADDED = ["deliveries:read", "deliveries:write", "organization:read", "organization:write"];
const list = (scopes: string[]) => scopes.map((scope) => `'${scope}'`).join(", ");

const WAITING_INDEX = `CREATE INDEX deliveries_waiting ON deliveries(organization_id, status, id)
  WHERE status IN ('queued', 'deferred', 'held');`;

const PAUSES = `CREATE TABLE sending_pauses (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  scope TEXT NOT NULL CHECK (scope IN ('organization', 'domain', 'provider')),
  name TEXT NOT NULL,
  reason TEXT,
  paused_at TEXT NOT NULL,
  paused_by TEXT,
  PRIMARY KEY (organization_id, scope, name)
);`;

export default `
${PAUSES}
ALTER TABLE deliveries ADD COLUMN hold_exempt INTEGER NOT NULL DEFAULT 0;
${WAITING_INDEX}
UPDATE api_keys
  SET scopes = json_insert(scopes, ${ADDED.map((scope) => `'$[#]', '${scope}'`).join(", ")})
  WHERE (SELECT count(DISTINCT value) FROM json_each(api_keys.scopes) WHERE value IN (${list(BEFORE)})) = ${BEFORE.length}
    AND NOT EXISTS (SELECT 1 FROM json_each(api_keys.scopes) WHERE value IN (${list(ADDED)}));
`;

export const postgres = `
${PAUSES}
ALTER TABLE deliveries ADD COLUMN hold_exempt BOOLEAN NOT NULL DEFAULT false;
${WAITING_INDEX}
UPDATE api_keys SET scopes = scopes || '${JSON.stringify(ADDED)}'::jsonb
  WHERE scopes @> '${JSON.stringify(BEFORE)}'::jsonb AND NOT scopes ?| ARRAY[${list(ADDED)}];
`;
