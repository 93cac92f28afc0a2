/**
 * Pieces of a large message body on their way into its row (db/content-writes.ts). PostgreSQL stages bodies here, in
 * 1 MiB pieces, before the transaction that records the message joins them into its row: node-postgres copies a
 * bound bytea into its protocol buffer in one go on the event loop. SQLite commits large bodies whole on a thread of
 * its own; it has the table so that both engines describe the same tables.
 */
export default `
CREATE TABLE content_parts (
  owner_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  PRIMARY KEY (owner_id, seq)
);
`;

export const postgres = `
CREATE TABLE content_parts (
  owner_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  bytes BYTEA NOT NULL,
  PRIMARY KEY (owner_id, seq)
);
`;
