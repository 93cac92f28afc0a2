/**
 * DMARC aggregate reports (docs/deliverability.md) received at a domain's `rua` address (`dmarc@<return-path subdomain>.<domain>`),
 * stored once per domain name, reporter and report id — a receiver resending a report adds nothing — with their
 * rows as JSON. Read per domain name by the newest period first, and pruned by that period's end.
 */
const table = (json: string) => `
CREATE TABLE dmarc_reports (
  id TEXT PRIMARY KEY,
  domain_name TEXT NOT NULL,
  reporter TEXT NOT NULL,
  report_id TEXT NOT NULL,
  begin_at TEXT NOT NULL,
  end_at TEXT NOT NULL,
  rows ${json} NOT NULL,
  received_at TEXT NOT NULL
);
CREATE UNIQUE INDEX dmarc_reports_once ON dmarc_reports(domain_name, reporter, report_id);
CREATE INDEX dmarc_reports_period ON dmarc_reports(domain_name, end_at);
`;

export default table("TEXT");
export const postgres = table("JSONB");
