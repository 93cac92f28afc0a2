/**
 * PostgreSQL stages a large message body here, in 1 MiB pieces, before the transaction that records the message
 * joins them into its row (db/content-writes.ts): node-postgres copies a bound bytea into its protocol buffer in one
 * go on the event loop, about 7 ms per MiB. SQLite writes large bodies on a thread of its own and needs no table.
 */
export default `
SELECT 1;
`;

export const postgres = `
CREATE TABLE content_parts (
  owner_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  bytes BYTEA NOT NULL,
  PRIMARY KEY (owner_id, seq)
);
`;
