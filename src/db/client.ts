/**
 * Opens the SQLite store: WAL, synchronous=FULL (a committed transaction is on disk — a 200 promises that),
 * foreign keys, busy timeout; applies embedded migrations. Invariant: one `Database` per process.
 */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { MIGRATIONS } from "./migrations/index.ts";
import * as schema from "./schema/index.ts";

export type Db = BunSQLiteDatabase<typeof schema>;

export interface Store {
  sqlite: Database;
  db: Db;
  close(): void;
}

export function openStore(path: string): Store {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = FULL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  migrate(sqlite);
  return { sqlite, db: drizzle(sqlite, { schema }), close: () => sqlite.close() };
}

function migrate(sqlite: Database): void {
  sqlite.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
  const applied = new Set(sqlite.query<{ version: number }, []>("SELECT version FROM schema_migrations").all().map((row) => row.version));
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    sqlite.transaction(() => {
      sqlite.exec(migration.sql);
      sqlite.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(migration.version, migration.name, new Date().toISOString());
    })();
  }
}
