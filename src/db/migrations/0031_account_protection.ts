/**
 * Protecting accounts (docs/teams.md): what an invitation, single sign-on and repeated guessing may do to an account.
 * - `users.email_proven_at`: when the person followed a link mailed to their address (a password link by email).
 *   Single sign-on links an existing account with a password by email only once this is set: an invitation's link
 *   proves nothing, since whoever invited holds it too.
 * - `one_time_links.proves_email`: the link was mailed to the person's address, so following it proves the address.
 * - `sign_in_throttles`: failed attempts per account and factor (`password`, `totp`), counted in the store so that
 *   every instance sees them: `failures` since the last success, the last failure's time, and until when attempts
 *   are refused without being checked (epoch ms).
 */
const tables = (millis: string, bool: string) => `
ALTER TABLE users ADD COLUMN email_proven_at TEXT;
ALTER TABLE one_time_links ADD COLUMN proves_email ${bool};
CREATE TABLE sign_in_throttles (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  factor TEXT NOT NULL,
  failures INTEGER NOT NULL,
  last_failed_at ${millis} NOT NULL,
  locked_until ${millis} NOT NULL,
  PRIMARY KEY (user_id, factor)
);
`;

export default tables("INTEGER", "INTEGER NOT NULL DEFAULT 0");
export const postgres = tables("BIGINT", "BOOLEAN NOT NULL DEFAULT false");
