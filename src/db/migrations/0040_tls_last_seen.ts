/**
 * When a TLS outcome was last seen (docs/deliverability.md#dane-per-destination): `tls_rpt_counts.last_at`, the time of
 * the last session a row counted, so a destination's last outcome (DANE verified, mismatched, or fallen back to
 * MTA-STS or the tls policy) is the row seen last — a row counts many sessions of one period, and its period alone
 * cannot say which came last. Rows counted before this migration take their period's start.
 */
const steps = (millis: string) => `
ALTER TABLE tls_rpt_counts ADD COLUMN last_at ${millis} NOT NULL DEFAULT 0;
UPDATE tls_rpt_counts SET last_at = period_start;
CREATE INDEX tls_rpt_counts_last ON tls_rpt_counts (policy_domain, last_at);
`;

export default steps("INTEGER");
export const postgres = steps("BIGINT");
