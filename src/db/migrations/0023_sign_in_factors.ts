/**
 * Second factors and single sign-on (docs/teams.md).
 * - `users.totp_secret` is the RFC 6238 secret, sealed with the master key; `totp_pending_secret` one being enrolled,
 *   until a code confirms it; `totp_last_step` the time step of the last code accepted, so that a code works once.
 * - `recovery_codes` holds the SHA-256 of each unused recovery code; a code is deleted when used.
 * - `users.oidc_subject` is the identity provider's `iss` and `sub` of a person who signed in with SSO: unique.
 * - `sso_attempts` is a sign-in begun at the identity provider and not yet back: stored by the SHA-256 of its `state`,
 *   with the digest of the browser's cookie it belongs to, its nonce, its PKCE verifier and the invitation it answers (if any); deleted when it comes back, so
 *   a state, and the nonce with it, is used once.
 */
const tables = (millis: string) => `
ALTER TABLE users ADD COLUMN totp_secret TEXT;
ALTER TABLE users ADD COLUMN totp_pending_secret TEXT;
ALTER TABLE users ADD COLUMN totp_last_step ${millis};
ALTER TABLE users ADD COLUMN oidc_subject TEXT;
CREATE UNIQUE INDEX users_oidc_subject ON users(oidc_subject);
CREATE TABLE recovery_codes (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  PRIMARY KEY (user_id, code_hash)
);
CREATE TABLE sso_attempts (
  id TEXT PRIMARY KEY,
  browser_hash TEXT NOT NULL,
  nonce TEXT NOT NULL,
  code_verifier TEXT NOT NULL,
  invitation_id TEXT,
  expires_at ${millis} NOT NULL
);
`;

export default tables("INTEGER");
export const postgres = tables("BIGINT");
