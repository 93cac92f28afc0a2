/**
 * SMTP TLS reporting (RFC 8460, docs/deliverability.md): outcomes of direct deliveries' TLS sessions counted per reporting
 * period (`period_start`, ms, aligned to `[tls_rpt] interval`), recipient (policy) domain, policy, MX host, result
 * and addresses; the policy text is kept beside its counts. `tls_rpt_periods` records each period and domain whose
 * report was handled (sent, or nothing asked for one), so a report goes once, from whichever instance takes the job.
 */
const tables = (millis: string, json: string) => `
CREATE TABLE tls_rpt_counts (
  period_start ${millis} NOT NULL,
  policy_domain TEXT NOT NULL,
  policy_type TEXT NOT NULL,
  mx_host TEXT NOT NULL,
  result TEXT NOT NULL,
  sending_ip TEXT NOT NULL,
  receiving_ip TEXT NOT NULL,
  policy_string ${json},
  sessions INTEGER NOT NULL,
  PRIMARY KEY (period_start, policy_domain, policy_type, mx_host, result, sending_ip, receiving_ip)
);
CREATE TABLE tls_rpt_periods (
  period_start ${millis} NOT NULL,
  policy_domain TEXT NOT NULL,
  handled_at TEXT NOT NULL,
  outcome TEXT NOT NULL,
  PRIMARY KEY (period_start, policy_domain)
);
`;

export default tables("INTEGER", "TEXT");
export const postgres = tables("BIGINT", "JSONB");
