/**
 * The request log (docs/logs-and-mcp.md#the-request-log): one row per API request made with a key, its bodies with
 * their secrets already replaced (logs/redact.ts) — a row never holds a secret, so nothing reading it must remember to
 * hide one. Written in batches off the request path (logs/recorder.ts); removed after `[retention] logs`.
 * - `mode` is the key's: a test key reads the rows of test keys only.
 * - `logs:read` is part of full_access. A key stores its scopes expanded, so every key that held every scope there
 *   was before it gains it, at the end, where it stands in canonical order (as migrations 0017 and 0019 did).
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
  "deliveries:read",
  "deliveries:write",
  "organization:read",
  "organization:write",
  "members:read",
  "members:write",
  "audit:read",
];
const ADDED = ["logs:read"];
const list = (scopes: string[]) => scopes.map((scope) => `'${scope}'`).join(", ");

const table = (json: string) => `
CREATE TABLE request_logs (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  api_key_id TEXT,
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  created_at TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  method TEXT NOT NULL,
  response_status INTEGER NOT NULL,
  user_agent TEXT,
  request_body ${json},
  response_body ${json}
);
CREATE INDEX request_logs_organization ON request_logs(organization_id, id);
CREATE INDEX request_logs_created ON request_logs(created_at);
`;

export default `
${table("TEXT")}
UPDATE api_keys
  SET scopes = json_insert(scopes, ${ADDED.map((scope) => `'$[#]', '${scope}'`).join(", ")})
  WHERE (SELECT count(DISTINCT value) FROM json_each(api_keys.scopes) WHERE value IN (${list(BEFORE)})) = ${BEFORE.length}
    AND NOT EXISTS (SELECT 1 FROM json_each(api_keys.scopes) WHERE value IN (${list(ADDED)}));
`;

export const postgres = `
${table("JSONB")}
UPDATE api_keys SET scopes = scopes || '${JSON.stringify(ADDED)}'::jsonb
  WHERE scopes @> '${JSON.stringify(BEFORE)}'::jsonb AND NOT scopes ?| ARRAY[${list(ADDED)}];
`;
