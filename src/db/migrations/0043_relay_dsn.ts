/**
 * Delivery status notifications for the SMTP relay (RFC 3461, docs/smtp.md#delivery-status-notifications).
 *
 * - `deliveries.dsn_notify`: which outcomes of this recipient are reported to the relayed message's envelope sender
 *   (`failure`, `delay`, `success`, comma-separated); null: none ever is (API mail, a null sender, NOTIFY=NEVER, a
 *   message that is itself a report, `[smtp] dsn` off). `dsn_orcpt`: the ORCPT the client gave, decoded from xtext.
 * - `relay_envelopes`: per relayed message asking for reports, where they go (its MAIL FROM) and its RET and ENVID.
 * - `dsn_reports`: the outbox of reports the lifecycle asked for, written in the transaction that moved the
 *   recipient; one per recipient and action, so a recipient deferred ten times is warned of once.
 */
const tables = (millis: string) => `
ALTER TABLE deliveries ADD COLUMN dsn_notify TEXT;
ALTER TABLE deliveries ADD COLUMN dsn_orcpt TEXT;
CREATE TABLE relay_envelopes (
  email_id TEXT PRIMARY KEY,
  return_to TEXT NOT NULL,
  ret TEXT,
  envid TEXT
);
CREATE TABLE dsn_reports (
  delivery_id TEXT NOT NULL,
  action TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  email_id TEXT NOT NULL,
  recipient TEXT NOT NULL,
  response TEXT,
  created_at ${millis} NOT NULL,
  report_email_id TEXT,
  PRIMARY KEY (delivery_id, action)
);
CREATE INDEX dsn_reports_pending ON dsn_reports (created_at) WHERE report_email_id IS NULL;
`;

export default tables("INTEGER");
export const postgres = tables("BIGINT");
