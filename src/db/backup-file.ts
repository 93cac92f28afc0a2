/**
 * What a SQLite backup file holds, read before it is restored (docs/operations.md#backup): whether it is a sound
 * SQLite database Mailroom wrote, which migrations it carries, and one sealed secret to try the master key on.
 * Invariant: the file is opened read-only and never changed; a file that is not a database Mailroom can open is
 * said so before anything is copied.
 */
import { Database } from "bun:sqlite";
import { openSync, readSync, closeSync } from "node:fs";

const SQLITE_HEADER = "SQLite format 3\0";

export interface BackupFile {
  /** The migrations the backup has applied (`schema_migrations`). */
  migrations: number[];
  /** A sealed DKIM private key, when the backup has one: opening it proves the master key is the right one. */
  sealedSample: string | null;
  counts: { domains: number; keys: number; messages: number };
}

/** Reads `path` as a Mailroom SQLite backup, or throws an Error that says what is wrong with it. */
export function readBackupFile(path: string): BackupFile {
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, "r");
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (header.toString("latin1") !== SQLITE_HEADER) throw new Error(`${path} is not a SQLite database`);
  const db = new Database(path, { readonly: true });
  try {
    const integrity = db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all();
    if (integrity[0]?.integrity_check !== "ok")
      throw new Error(`${path} is damaged: ${integrity.map((row) => row.integrity_check).join("; ")}`);
    const tables = new Set(
      db
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((r) => r.name),
    );
    if (!tables.has("schema_migrations")) throw new Error(`${path} is a SQLite database but not a Mailroom store`);
    const migrations = db
      .query<{ version: number }, []>("SELECT version FROM schema_migrations ORDER BY version")
      .all()
      .map((row) => row.version);
    const count = (table: string) =>
      tables.has(table) ? db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n : 0;
    const sample = tables.has("dkim_keys")
      ? db.query<{ private_key: string }, []>("SELECT private_key FROM dkim_keys LIMIT 1").get()
      : null;
    return {
      migrations,
      sealedSample: sample?.private_key ?? null,
      counts: { domains: count("domains"), keys: count("api_keys"), messages: count("emails") },
    };
  } finally {
    db.close();
  }
}
