/**
 * Contacts and their audience (docs/contacts.md, Resend's audience API): contacts, the properties they may carry,
 * segments and who is in them, topics and each contact's own choice of them, and CSV imports with their counts.
 * - A contact's `email` is its address key (lower-case, as the suppression list keys addresses): one contact per
 *   address per organisation, enforced by `contacts_email`, which also answers every look-up by address.
 * - Lists page newest first by UUIDv7 id within one organisation (`contacts_page`, `segments_page`, …), and a
 *   segment's members by contact id within the segment (the primary key of `contact_segments`): never a scan.
 * - `contact_topics` holds only choices a contact made; a topic's `default_subscription` answers for the rest.
 *   Its primary key (contact_id, topic_id) answers the per-recipient topic check at send.
 */
const tables = (boolean: string, json: string) => `
CREATE TABLE contacts (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  first_name TEXT,
  last_name TEXT,
  unsubscribed ${boolean} NOT NULL,
  properties ${json} NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX contacts_email ON contacts(organization_id, email);
CREATE INDEX contacts_page ON contacts(organization_id, id);

CREATE TABLE contact_properties (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  type TEXT NOT NULL,
  fallback_value ${json},
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX contact_properties_key ON contact_properties(organization_id, key);
CREATE INDEX contact_properties_page ON contact_properties(organization_id, id);

CREATE TABLE segments (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX segments_page ON segments(organization_id, id);

CREATE TABLE contact_segments (
  segment_id TEXT NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
  contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (segment_id, contact_id)
);
CREATE INDEX contact_segments_contact ON contact_segments(contact_id, segment_id);

CREATE TABLE topics (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  default_subscription TEXT NOT NULL,
  visibility TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX topics_page ON topics(organization_id, id);

CREATE TABLE contact_topics (
  contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  topic_id TEXT NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
  subscription TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (contact_id, topic_id)
);
CREATE INDEX contact_topics_topic ON contact_topics(topic_id, contact_id);

CREATE TABLE contact_imports (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  on_conflict TEXT NOT NULL,
  column_map ${json} NOT NULL,
  segments ${json} NOT NULL,
  topics ${json} NOT NULL,
  file_path TEXT,
  file_bytes INTEGER NOT NULL,
  total INTEGER NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  skipped INTEGER NOT NULL,
  failed INTEGER NOT NULL,
  errors ${json} NOT NULL,
  error TEXT,
  lease_until INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  completed_at TEXT
);
CREATE INDEX contact_imports_page ON contact_imports(organization_id, id);
CREATE INDEX contact_imports_pending ON contact_imports(status, id);
`;

export default tables("INTEGER", "TEXT");
export const postgres = tables("BOOLEAN", "JSONB").replace("lease_until INTEGER", "lease_until BIGINT");
