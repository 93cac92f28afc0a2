/**
 * Retention and quotas (docs/operations.md).
 * - Per-organisation settings: a daily quota (messages per UTC day) and retention overrides in days (null: the
 *   configured default); a per-key daily quota.
 * - `content_removed_at`: when retention removed a message's content (its record stays). The partial index holds
 *   only the messages that still keep content, so each run of content retention walks those, not the whole past.
 * - Webhook deliveries by organisation and age: retention removes those that are over after the metadata window.
 * - `daily_usage`: messages accepted per bucket (`org:<id>` live mail, `key:<id>`) and UTC day, counted in the
 *   acceptance's own transaction: what a quota is checked against, across instances.
 * - `event_rollups`: the statistics' counts of events that metadata retention removed, per organisation, UTC hour,
 *   mode and event type, written in the transaction that removes them; the statistics add them to the log's.
 * - `organization_storage`: what each organisation stores (messages, bytes of content), kept by the retention job
 *   from the messages accepted since its cursor and what it removed.
 */
const COMMON = `
CREATE TABLE daily_usage (
  bucket TEXT NOT NULL,
  day TEXT NOT NULL,
  used INTEGER NOT NULL,
  PRIMARY KEY (bucket, day)
);
CREATE TABLE event_rollups (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  hour TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  type TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (organization_id, hour, mode, type)
);
CREATE TABLE organization_storage (
  organization_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  messages INTEGER NOT NULL,
  content_bytes BIGINT NOT NULL,
  counted_through TEXT NOT NULL,
  measured_at TEXT NOT NULL
);
ALTER TABLE organizations ADD COLUMN daily_quota INTEGER;
ALTER TABLE organizations ADD COLUMN content_retention_days INTEGER;
ALTER TABLE organizations ADD COLUMN metadata_retention_days INTEGER;
ALTER TABLE api_keys ADD COLUMN daily_quota INTEGER;
ALTER TABLE emails ADD COLUMN content_removed_at TEXT;
CREATE INDEX emails_content_kept ON emails(organization_id, id) WHERE content_removed_at IS NULL;
CREATE INDEX webhook_deliveries_created ON webhook_deliveries(organization_id, created_at);
`;

export default COMMON;

export const postgres = COMMON;
