/**
 * The raw MIME of each message moves to its own table, so that look-ups, lists and cancels read the message's
 * record without loading a blob of up to the size limit (40 MB by default); only delivery and `/raw` read it.
 */
export default `
CREATE TABLE email_contents (
  email_id TEXT PRIMARY KEY REFERENCES emails(id) ON DELETE CASCADE,
  raw BLOB NOT NULL
);
INSERT INTO email_contents (email_id, raw) SELECT id, raw FROM emails;
ALTER TABLE emails DROP COLUMN raw;
`;

/** PostgreSQL's first migration never put the raw MIME in emails: the table is all there is to add. */
export const postgres = `
CREATE TABLE email_contents (
  email_id TEXT PRIMARY KEY REFERENCES emails(id) ON DELETE CASCADE,
  raw BYTEA NOT NULL
);
`;
