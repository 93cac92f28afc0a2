/**
 * A domain's tracking subdomain and TLS policy (docs/deliverability.md): `tracking_subdomain` (e.g. `links`: its CNAME to this
 * server is among the domain's records, and once found the domain's tracking and unsubscribe links use
 * `https://links.<domain>`); `tls_policy`, `opportunistic` or `enforced` (direct MX delivery only over STARTTLS
 * with a certificate valid for the MX name).
 *
 * `mta_sts_policies` is the MTA-STS policy cache (RFC 8461 §3.3) of recipient domains, shared by the instances and
 * kept across restarts: the policy (mode, MX patterns, max_age) as JSON, the TXT record id it was fetched under,
 * and until when it holds. A cache held in memory alone loses its protection at every restart, which is when an
 * attacker who can strip a TXT record would strike.
 */
const sql = (millis: string, json: string) => `
ALTER TABLE domains ADD COLUMN tracking_subdomain TEXT;
ALTER TABLE domains ADD COLUMN tls_policy TEXT NOT NULL DEFAULT 'opportunistic';
CREATE TABLE mta_sts_policies (
  domain TEXT PRIMARY KEY,
  policy_id TEXT NOT NULL,
  policy ${json} NOT NULL,
  expires_at ${millis} NOT NULL
);
`;

export default sql("INTEGER", "TEXT");
export const postgres = sql("BIGINT", "JSONB");
