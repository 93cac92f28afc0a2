/**
 * Invitations (docs/teams.md): a one-time link, valid 7 days, that lets the person at `email` join an organisation with
 * `role` — setting a password, or with the one they have. Stored by the SHA-256 of the link's token.
 */
const table = (millis: string) => `
CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
  token_hash TEXT NOT NULL UNIQUE,
  invited_by TEXT,
  created_at TEXT NOT NULL,
  expires_at ${millis} NOT NULL,
  accepted_at TEXT
);
CREATE INDEX invitations_organization ON invitations(organization_id, id);
`;

export default table("INTEGER");
export const postgres = table("BIGINT");
