/**
 * The drizzle schema (what the code queries) and the migrations (what the database holds) describe the same
 * tables: every table and column of one is in the other, with the same NOT NULL and primary key.
 */
import { Database } from "bun:sqlite";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, test } from "bun:test";
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { SCOPES } from "../access.ts";
import { openSqliteStore as openStore } from "./sqlite.ts";
import { MIGRATIONS } from "./migrations/index.ts";
import * as schema from "./schema/index.ts";

type Column = { name: string; notNull: boolean; primaryKey: boolean };

const tables = Object.values(schema).filter((value) => is(value, SQLiteTable)) as SQLiteTable[];

function migratedColumns(sqlite: Database, table: string): Column[] {
  const rows = sqlite.query(`PRAGMA table_info(${JSON.stringify(table)})`).all() as Array<{
    name: string;
    notnull: number;
    pk: number;
  }>;
  // A PRIMARY KEY column is NOT NULL in drizzle's model (SQLite itself would allow NULL in a TEXT key).
  return rows
    .map((row) => ({ name: row.name, notNull: row.notnull === 1 || row.pk > 0, primaryKey: row.pk > 0 }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function declaredColumns(table: SQLiteTable): Column[] {
  const config = getTableConfig(table);
  const compositeKey = new Set(config.primaryKeys.flatMap((key) => key.columns.map((column) => column.name)));
  return config.columns
    .map((column) => ({
      name: column.name,
      notNull: column.notNull || column.primary || compositeKey.has(column.name),
      primaryKey: column.primary || compositeKey.has(column.name),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

describe("schema and migrations", () => {
  const store = openStore(":memory:");
  const migratedTables = (
    store.sqlite
      .query(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations'",
      )
      .all() as Array<{ name: string }>
  )
    .map((row) => row.name)
    .sort();

  test("name the same tables", () => {
    expect(tables.map((table) => getTableConfig(table).name).sort()).toEqual(migratedTables);
  });

  test.each(tables.map((table) => [getTableConfig(table).name, table] as const))(
    "%s has the same columns, NOT NULL and keys",
    (name, table) => {
      expect(declaredColumns(table)).toEqual(migratedColumns(store.sqlite, name));
    },
  );
});

describe("migration 4 (email_contents)", () => {
  test("moves every stored message's raw MIME to its own table, byte for byte", () => {
    const sqlite = new Database(":memory:");
    sqlite.exec("PRAGMA foreign_keys = ON");
    sqlite.exec(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    for (const migration of MIGRATIONS.filter((m) => m.version < 4)) {
      sqlite.exec(migration.sqlite as string);
      sqlite
        .query("INSERT INTO schema_migrations VALUES (?, ?, ?)")
        .run(migration.version, migration.name, "2026-11-01T00:00:00.000Z");
    }
    sqlite.exec("INSERT INTO organizations (id, name, created_at) VALUES ('org', 'Org', 'now')");
    const raw = Buffer.from("Subject: kept\r\n\r\n\u00e9\u0000binary\r\n", "latin1");
    sqlite
      .query(
        `INSERT INTO emails (id, organization_id, source, mode, message_id, from_header, envelope_from, to_addresses, cc_addresses, bcc_addresses, reply_to,
          subject, tags, status, size, raw, created_at, updated_at) VALUES ('e1', 'org', 'api', 'live', '<m@x>', 'a@x', 'a@x', '[]', '[]', '[]', '[]', 's', '[]', 'queued', ?, ?, 'now', 'now')`,
      )
      .run(raw.length, raw);
    const path = join(tmpdir(), `mailroom-migrate-${process.pid}.db`);
    sqlite.exec(`VACUUM INTO '${path}'`);
    const store = openStore(path);
    const row = store.sqlite.query("SELECT raw FROM email_contents WHERE email_id = 'e1'").get() as { raw: Uint8Array };
    expect(Buffer.from(row.raw).equals(raw)).toBe(true);
    expect(migratedColumns(store.sqlite, "emails").map((c) => c.name)).not.toContain("raw");
    store.close();
    rmSync(path, { force: true });
  });
});

/** The scopes a full-access key held before migration `version` added the next ones. */
const scopesBefore = (first: string) => SCOPES.slice(0, SCOPES.indexOf(first as (typeof SCOPES)[number]));

describe.each([
  [17, "operations", "deliveries:read", "members:read"],
  [19, "people", "members:read", "contacts:read"],
  [34, "contact_scopes", "contacts:read", "logs:read"],
  [39, "request_logs", "logs:read", undefined],
] as const)("migration %i (%s)", (version, _name, firstAdded, nextAdded) => {
  test("a full-access key gains the new scopes, in canonical order; any other key keeps its own", () => {
    const sqlite = new Database(":memory:");
    for (const { sqlite: step } of MIGRATIONS.filter((m) => m.version < version))
      typeof step === "string" ? sqlite.exec(step) : step(sqlite);
    sqlite.exec("INSERT INTO organizations (id, name, created_at) VALUES ('org', 'o', 'now')");
    const insertKey = sqlite.query(
      "INSERT INTO api_keys (id, organization_id, name, mode, token_prefix, token_hash, scopes, created_at) VALUES (?, 'org', 'k', 'live', ?, ?, ?, 'now')",
    );
    insertKey.run("full", "p1", "h1", JSON.stringify(scopesBefore(firstAdded)));
    insertKey.run("sender", "p2", "h2", JSON.stringify(["emails:send"]));
    sqlite.exec(MIGRATIONS.find((m) => m.version === version)!.sqlite as string);
    const scopesOf = (id: string) =>
      JSON.parse((sqlite.query("SELECT scopes FROM api_keys WHERE id = ?").get(id) as { scopes: string }).scopes);
    expect(scopesOf("full")).toEqual(nextAdded ? scopesBefore(nextAdded) : [...SCOPES]);
    expect(scopesOf("sender")).toEqual(["emails:send"]);
  });
});

describe("migration 22 (domain_names)", () => {
  test("rebuilds domains without the name's global uniqueness; its DKIM keys stay; one name per organisation", () => {
    const sqlite = new Database(":memory:");
    sqlite.exec("PRAGMA foreign_keys = ON");
    for (const migration of MIGRATIONS.filter((m) => m.version < 22)) sqlite.exec(migration.sqlite as string);
    sqlite.exec("INSERT INTO organizations (id, name, created_at) VALUES ('a', 'A', 'now'), ('b', 'B', 'now')");
    sqlite.exec(
      "INSERT INTO domains (id, organization_id, name, status, created_at, updated_at) VALUES ('d1', 'a', 'example.com', 'verified', 'now', 'now')",
    );
    sqlite.exec(
      "INSERT INTO dkim_keys (id, domain_id, selector, public_key, private_key, state, created_at) VALUES ('k1', 'd1', 's1', 'p', 'q', 'active', 'now')",
    );
    sqlite.exec("PRAGMA foreign_keys = OFF");
    (MIGRATIONS.find((m) => m.version === 22)!.sqlite as (db: Database) => void)(sqlite);
    sqlite.exec("PRAGMA foreign_keys = ON");
    expect(sqlite.query("PRAGMA foreign_key_check").all()).toEqual([]);
    expect(sqlite.query("SELECT id FROM dkim_keys WHERE domain_id = 'd1'").all()).toEqual([{ id: "k1" }]);
    const add = (id: string, org: string, receiving: number) =>
      sqlite.exec(
        `INSERT INTO domains (id, organization_id, name, status, receiving_enabled, created_at, updated_at) VALUES ('${id}', '${org}', 'example.com', 'pending', ${receiving}, 'now', 'now')`,
      );
    add("d2", "b", 0);
    expect(() => add("d3", "b", 0)).toThrow(/UNIQUE/);
    sqlite.exec("UPDATE domains SET receiving_enabled = 1 WHERE id = 'd1'");
    expect(() => sqlite.exec("UPDATE domains SET receiving_enabled = 1 WHERE id = 'd2'")).toThrow(/UNIQUE/);
    // Deleting the domain still takes its keys (the reference survived the rebuild).
    sqlite.exec("DELETE FROM domains WHERE id = 'd1'");
    expect(sqlite.query("SELECT id FROM dkim_keys").all()).toEqual([]);
  });
});

describe("migration 32 (key_creators)", () => {
  test("a key minted by a key takes its creator from the audit log; a key made by a person or the console has none", () => {
    const sqlite = new Database(":memory:");
    for (const { sqlite: step } of MIGRATIONS.filter((m) => m.version < 32))
      typeof step === "string" ? sqlite.exec(step) : step(sqlite);
    sqlite.exec("INSERT INTO organizations (id, name, created_at) VALUES ('org', 'o', 'now')");
    const insertKey = sqlite.query(
      "INSERT INTO api_keys (id, organization_id, name, mode, token_prefix, token_hash, scopes, created_at) VALUES (?, 'org', 'k', 'live', ?, ?, '[]', 'now')",
    );
    const created = sqlite.query(
      "INSERT INTO audit_events (id, organization_id, created_at, actor_type, actor_id, action, target_type, target_id) VALUES (?, 'org', 'now', ?, ?, 'api_key.created', 'api_key', ?)",
    );
    for (const [id, actorType, actorId] of [
      ["parent", "cli", null],
      ["child", "api_key", "parent"],
      ["by-person", "user", "u1"],
    ] as const) {
      insertKey.run(id, `p-${id}`, `h-${id}`);
      created.run(`e-${id}`, actorType, actorId, id);
    }
    insertKey.run("unrecorded", "p-u", "h-u");
    sqlite.exec(MIGRATIONS.find((m) => m.version === 32)!.sqlite as string);
    expect(sqlite.query("SELECT id, created_by_key_id AS creator FROM api_keys ORDER BY id").all()).toEqual([
      { id: "by-person", creator: null },
      { id: "child", creator: "parent" },
      { id: "parent", creator: null },
      { id: "unrecorded", creator: null },
    ]);
  });
});

describe("repositories", () => {
  test("use only the builder surface both engines share: no SQLite-only .get(), .all() or .run()", () => {
    const root = join(import.meta.dir, "..");
    // bun:sqlite itself is used by the SQLite adapter alone, by the SQLite step of a migration that rebuilds a table, and
    // by the restore's read-only look at a SQLite backup file before it is copied (never a store's repository).
    const allowed = new Set([
      "db/sqlite.ts",
      "db/backup-file.ts",
      "db/migrations/0022_domain_names.ts",
      "db/migrations/0036_sending_lanes.ts",
    ]);
    const offenders = readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !allowed.has(file))
      .flatMap((file) =>
        readFileSync(join(root, file), "utf8")
          .split("\n")
          .flatMap((line, i) =>
            /\.(get|all|run)\(\)/.test(line) && !line.trim().startsWith("*")
              ? [`${relative(root, join(root, file))}:${i + 1}`]
              : [],
          ),
      );
    expect(offenders).toEqual([]);
  });
});
