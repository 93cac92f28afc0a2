/**
 * What each organisation's received mail takes in the store, as a running total (raw bytes, the `size` of its
 * received_emails rows): the inbound MX compares it with `[inbound] max_stored_bytes` at every RCPT, so it must be
 * one row read, never a sum over the organisation's mail. Kept by the inbound funnel (added in the write that
 * stores a message) and by retention (subtracted in the write that deletes it); filled here from what is stored.
 */
export default `
CREATE TABLE inbound_usage (
  organization_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  stored_bytes INTEGER NOT NULL
);
INSERT INTO inbound_usage (organization_id, stored_bytes)
  SELECT organization_id, SUM(size) FROM received_emails GROUP BY organization_id;
`;

export const postgres = `
CREATE TABLE inbound_usage (
  organization_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  stored_bytes BIGINT NOT NULL
);
INSERT INTO inbound_usage (organization_id, stored_bytes)
  SELECT organization_id, SUM(size) FROM received_emails GROUP BY organization_id;
`;
