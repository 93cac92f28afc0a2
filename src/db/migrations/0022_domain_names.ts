/**
 * Domain names per organisation (docs/teams.md): a name is unique within an organisation, and several organisations
 * may add and verify the same one (each proves control of its DNS with its own DKIM selector), but only one may
 * receive mail for it.
 *
 * SQLite cannot drop the column's UNIQUE constraint in place, so `domains` is rebuilt by SQLite's own procedure
 * (foreign keys off around the migration, a new table, the rows copied, the old dropped, the new renamed, its indexes
 * made again, `foreign_key_check` before the commit): the DKIM keys that refer to it stay with their domains.
 */
import type { Database } from "bun:sqlite";

const INDEXES = `
CREATE UNIQUE INDEX domains_organization_name ON domains(organization_id, name);
CREATE UNIQUE INDEX domains_receiving ON domains(name) WHERE receiving_enabled;
`;

export function sqlite(db: Database): void {
  const table = db
    .query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'domains'")
    .get()!.sql;
  const indexes = db
    .query<{ sql: string }, []>(
      "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'domains' AND sql IS NOT NULL",
    )
    .all();
  const rebuilt = table
    .replace(/^CREATE TABLE "?domains"?/, "CREATE TABLE domains_rebuilt")
    .replace(/\bname TEXT NOT NULL UNIQUE\b/, "name TEXT NOT NULL");
  db.exec(rebuilt);
  db.exec("INSERT INTO domains_rebuilt SELECT * FROM domains");
  db.exec("DROP TABLE domains");
  db.exec("ALTER TABLE domains_rebuilt RENAME TO domains");
  for (const index of indexes) db.exec(index.sql);
  db.exec(INDEXES);
}

export const postgres = `
ALTER TABLE domains DROP CONSTRAINT domains_name_key;
${INDEXES}
`;
