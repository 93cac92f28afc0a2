/**
 * The PostgreSQL engine's own guarantees: its migrations and the drizzle definitions describe the same tables, and
 * the same columns as the SQLite engine; instances starting together migrate once.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { is, sql } from "drizzle-orm";
import { getTableConfig as pgTableConfig, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { notifyAtCommit } from "../src/db/dialect.ts";
import { MIGRATIONS } from "../src/db/migrations/index.ts";
import { openPostgresStore, urlInSchema } from "../src/db/postgres/adapter.ts";
import * as pgSchema from "../src/db/postgres/schema.ts";
import * as sqliteSchema from "../src/db/schema/index.ts";
import type { Store } from "../src/db/store.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { freshSchema, postgresPeer, postgresUrl } from "./helpers/postgres.ts";

const pg = postgresPeer();
const opened: Store[] = [];
const open = async (schema: string) => {
  const store = await openPostgresStore({ url: urlInSchema(postgresUrl(), schema), poolSize: 4, logger: silentLogger });
  opened.push(store);
  return store;
};
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
});

type Column = { name: string; notNull: boolean };
const byName = (a: Column, b: Column) => a.name.localeCompare(b.name);
const pgTables = Object.values(pgSchema).filter((value) => is(value, PgTable)) as PgTable[];
const sqliteTables = Object.values(sqliteSchema).filter((value) => is(value, SQLiteTable)) as SQLiteTable[];

function declared(table: PgTable): Column[] {
  const config = pgTableConfig(table);
  const keyed = new Set(config.primaryKeys.flatMap((key) => key.columns.map((column) => column.name)));
  return config.columns
    .map((c) => ({ name: c.name, notNull: c.notNull || c.primary || keyed.has(c.name) }))
    .sort(byName);
}

// Static: runs whether or not a PostgreSQL is at hand.
test("both engines' drizzle definitions name the same tables and columns", () => {
  const columns = (names: Array<{ name: string; columns: Array<{ name: string }> }>) =>
    Object.fromEntries(
      names
        .map((t) => [t.name, t.columns.map((c) => c.name).sort()])
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
  expect(columns(pgTables.map(pgTableConfig))).toEqual(columns(sqliteTables.map(sqliteTableConfig)));
});

describe.skipIf(!pg.available)("PostgreSQL store", () => {
  test("a fresh database migrates to the tables the drizzle definitions describe, column for column", async () => {
    const schema = freshSchema("m");
    const store = await open(schema);
    const rows = await store.query<{ table_name: string; column_name: string; is_nullable: string }>(
      sql`SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = ${schema} AND table_name <> 'schema_migrations'`,
    );
    const migrated = new Map<string, Column[]>();
    for (const row of rows)
      migrated.set(row.table_name, [
        ...(migrated.get(row.table_name) ?? []),
        { name: row.column_name, notNull: row.is_nullable === "NO" },
      ]);
    expect([...migrated.keys()].sort()).toEqual(pgTables.map((table) => pgTableConfig(table).name).sort());
    for (const table of pgTables)
      expect({ table: pgTableConfig(table).name, columns: declared(table) }).toEqual({
        table: pgTableConfig(table).name,
        columns: migrated.get(pgTableConfig(table).name)!.sort(byName),
      });
  });

  test("ten instances starting at once on a fresh database migrate it once", async () => {
    const schema = freshSchema("m");
    const stores = await Promise.all(Array.from({ length: 10 }, () => open(schema)));
    const applied = await stores[0]!.query<{ version: number }>(
      sql`SELECT version FROM schema_migrations ORDER BY version`,
    );
    expect(applied.map((row) => row.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  test("a write's notification reaches another instance at commit, and not at all when it rolls back", async () => {
    const schema = freshSchema("m");
    const [writer, other] = [await open(schema), await open(schema)];
    const heard: string[] = [];
    other.listen("mailroom_test_wake", () => heard.push("wake"));
    // The listener connects in the background; a notification before it listens would be lost, so wait for it.
    for (let i = 0; i < 100 && heard.length === 0; i++) {
      await writer.write((tx) => notifyAtCommit(tx, "mailroom_test_wake"));
      await Bun.sleep(20);
    }
    expect(heard.length).toBeGreaterThan(0);
    heard.length = 0;
    await writer
      .write(async (tx) => {
        await notifyAtCommit(tx, "mailroom_test_wake");
        throw new Error("rolled back");
      })
      .catch(() => {});
    await Bun.sleep(200);
    expect(heard).toEqual([]);
    await writer.write((tx) => notifyAtCommit(tx, "mailroom_test_wake"));
    for (let i = 0; i < 500 && heard.length === 0; i++) await Bun.sleep(10);
    expect(heard).toEqual(["wake"]);
  });
});
