/**
 * People (docs/teams.md): users who sign in, their memberships of organisations with a role, their sessions, and
 * one-time links (the first start's setup link, a password to set or reset).
 * - `users.email` is stored lower-cased and unique: one person, one sign-in name, whatever the case typed.
 * - A session and a one-time link are stored by the SHA-256 of their token, never the token itself.
 * - The people scopes (members:read, members:write, audit:read) are part of full_access. A key stores its scopes
 *   expanded, so every key that held every scope there was before them gains them, at the end, where they stand in
 *   canonical order (as migration 0017 did).
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
];
const ADDED = ["members:read", "members:write", "audit:read"];
const list = (scopes: string[]) => scopes.map((scope) => `'${scope}'`).join(", ");

const tables = (boolean: string, falseValue: string, millis: string) => `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  password_hash TEXT,
  instance_admin ${boolean} NOT NULL DEFAULT ${falseValue},
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE memberships (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
  created_at TEXT NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX memberships_user ON memberships(user_id);
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at ${millis} NOT NULL,
  last_seen_at ${millis} NOT NULL,
  ip TEXT,
  user_agent TEXT
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE TABLE one_time_links (
  token_hash TEXT PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('setup', 'password')),
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at ${millis}
);
`;

export default `
${tables("INTEGER", "0", "INTEGER")}
UPDATE api_keys
  SET scopes = json_insert(scopes, ${ADDED.map((scope) => `'$[#]', '${scope}'`).join(", ")})
  WHERE (SELECT count(DISTINCT value) FROM json_each(api_keys.scopes) WHERE value IN (${list(BEFORE)})) = ${BEFORE.length}
    AND NOT EXISTS (SELECT 1 FROM json_each(api_keys.scopes) WHERE value IN (${list(ADDED)}));
`;

export const postgres = `
${tables("BOOLEAN", "false", "BIGINT")}
UPDATE api_keys SET scopes = scopes || '${JSON.stringify(ADDED)}'::jsonb
  WHERE scopes @> '${JSON.stringify(BEFORE)}'::jsonb AND NOT scopes ?| ARRAY[${list(ADDED)}];
`;
