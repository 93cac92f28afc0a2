/**
 * Broadcasts (docs/broadcasts.md): a message to a segment, personalised per contact and sent through the one funnel.
 * - `broadcasts` holds the broadcast as Resend shows it (name, segment, from, subject, bodies or a template, topic,
 *   status, schedule) and its fan-out's state: `cursor` (the last contact id of the segment reached), the counts so
 *   far, and a leased-queue row's columns (`next_attempt_at`, `lease_owner`, `lease_until`) for the one engine.
 * - `emails.broadcast_id` and `emails.contact_id` name the broadcast and the contact a message was made for. The
 *   unique index on them is the fan-out's exactly-once guarantee: a contact's message and its mark are one row,
 *   committed together, so a crash or a second instance cannot give a contact two (docs/broadcasts.md#exactly-once).
 *   The index also answers a broadcast's recipients and counts.
 */
const sql = (json: string, millis: string) => `
CREATE TABLE broadcasts (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  segment_id TEXT,
  topic_id TEXT,
  from_address TEXT,
  subject TEXT,
  reply_to ${json},
  preview_text TEXT,
  html TEXT,
  text TEXT,
  template ${json},
  status TEXT NOT NULL,
  scheduled_at TEXT,
  sent_at TEXT,
  api_key_id TEXT,
  cursor TEXT,
  queued_count INTEGER NOT NULL DEFAULT 0,
  skipped_count INTEGER NOT NULL DEFAULT 0,
  next_attempt_at ${millis},
  lease_owner TEXT,
  lease_until ${millis},
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX broadcasts_page ON broadcasts(organization_id, id);
CREATE INDEX broadcasts_due ON broadcasts(next_attempt_at) WHERE next_attempt_at IS NOT NULL;

ALTER TABLE emails ADD COLUMN broadcast_id TEXT;
ALTER TABLE emails ADD COLUMN contact_id TEXT;
CREATE UNIQUE INDEX emails_broadcast_contact ON emails(broadcast_id, contact_id) WHERE broadcast_id IS NOT NULL;
`;

export default sql("TEXT", "INTEGER");
export const postgres = sql("JSONB", "BIGINT");
