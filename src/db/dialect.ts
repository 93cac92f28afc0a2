/**
 * The few SQL fragments whose spelling differs between the engines, chosen by the engine behind `db`. Everything
 * else repositories write is portable SQL (drizzle renders the placeholders). Invariant: a fragment means the
 * same on both engines and takes the same parameters, so a prepared statement binds alike on either.
 */
import { sql, type SQL } from "drizzle-orm";
import * as sqliteTables from "./schema/index.ts";
import { tablesOf, type Db, type Engine } from "./store.ts";

/**
 * The SQLite adapter hands drizzle exactly this module's tables, so one comparison tells the engines apart. It
 * compares with SQLite's so that a SQLite process never loads the PostgreSQL schema (nor pg).
 */
export function engineOf(db: Db): Engine {
  return (tablesOf(db) as object) === sqliteTables ? "sqlite" : "postgres";
}

/**
 * `value IN (the elements of jsonArray)`, where jsonArray is a JSON array of strings passed as text. On PostgreSQL
 * as `= ANY(ARRAY(…))`, which the planner answers from an index on `value`: as `IN (SELECT …)` of a set-returning
 * function, whose size it guesses at 100 rows, it scanned the whole table and hashed (a claim's lease of 16 rows in
 * a table of 4,300: 2.7 ms, against 0.2 ms by the index).
 */
export function inJsonArray(db: Db, value: unknown, jsonArray: unknown): SQL {
  return engineOf(db) === "postgres"
    ? sql`${value} = ANY(ARRAY(SELECT json_array_elements_text(${jsonArray}::json)))`
    : sql`${value} IN (SELECT value FROM json_each(${jsonArray}))`;
}

/**
 * PostgreSQL: one UPDATE of `table` for many rows, passed as one JSON parameter (`rows`, objects whose fields
 * `columns` declares, e.g. `id text, status text`) and matched on `table.key = v.rowKey`; `set` and `returning`
 * name the table's columns and `v`'s fields. The rows are read once, and their keys also compared as an array, so
 * that the planner finds the table's rows by its index rather than scanning it (see `inJsonArray`). Only constant
 * SQL goes in the fragments; the values travel in the parameter.
 */
export function updateFromJsonRows(update: {
  table: string;
  key: string;
  rowKey: string;
  columns: string;
  rows: object[];
  set: string;
  where?: string;
  returning?: string;
}): SQL {
  const { table, key, rowKey, columns, rows, set } = update;
  return sql`WITH v AS MATERIALIZED (SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(${sql.raw(columns)}))
UPDATE ${sql.raw(table)} SET ${sql.raw(set)} FROM v
WHERE ${sql.raw(`${table}.${key} = v."${rowKey}" AND ${table}.${key} = ANY(ARRAY(SELECT "${rowKey}" FROM v))`)}${sql.raw(update.where ? ` AND ${update.where}` : "")}${sql.raw(update.returning ? ` RETURNING ${update.returning}` : "")}`;
}

/**
 * `value` matches the LIKE `pattern` (escaped with `\`) whatever the case of its letters: PostgreSQL's ILIKE; SQLite's
 * own LIKE already ignores the case of ASCII letters, and is used bare because wrapping the column in lower() doubled a
 * search's cost over 10,000 rows (docs/contacts.md#search).
 */
export function likeAnyCase(db: Db, value: unknown, pattern: string): SQL {
  return engineOf(db) === "postgres"
    ? sql`${value} ILIKE ${pattern} ESCAPE '\\'`
    : sql`${value} LIKE ${pattern} ESCAPE '\\'`;
}

/** A JSON column holding an array of `{name, value}` objects has an element with this name (and value). */
export function hasTag(db: Db, column: unknown, name: string, value?: string): SQL {
  if (engineOf(db) === "postgres")
    return sql`${column} @> ${JSON.stringify([value === undefined ? { name } : { name, value }])}::jsonb`;
  return value === undefined
    ? sql`EXISTS (SELECT 1 FROM json_each(${column}) t WHERE json_extract(t.value, '$.name') = ${name})`
    : sql`EXISTS (SELECT 1 FROM json_each(${column}) t WHERE json_extract(t.value, '$.name') = ${name} AND json_extract(t.value, '$.value') = ${value})`;
}

/** How many elements a JSON array column holds, counted by the store (the array never reaches the event loop). */
export function jsonArrayLength(db: Db, column: unknown): SQL<number> {
  return (engineOf(db) === "postgres" ? sql`jsonb_array_length(${column})` : sql`json_array_length(${column})`).mapWith(
    Number,
  );
}

/**
 * The elements `start` to `end` (exclusive) of a JSON array column, as JSON text, cut by the store: a page of a large
 * array without reading the array into the process.
 */
export function jsonArraySlice(db: Db, column: unknown, start: number, end: number): SQL<string> {
  return engineOf(db) === "postgres"
    ? sql<string>`(SELECT coalesce(jsonb_agg(t.e ORDER BY t.i), '[]'::jsonb)::text FROM jsonb_array_elements(${column}) WITH ORDINALITY AS t(e, i) WHERE t.i > ${start}::bigint AND t.i <= ${end}::bigint)`
    : sql<string>`(SELECT json_group_array(json(t.value)) FROM (SELECT value FROM json_each(${column}) WHERE key >= ${start} AND key < ${end} ORDER BY key) AS t)`;
}

/**
 * A claim's read of due rows: on PostgreSQL it locks what it returns and skips rows another instance's claim has
 * locked (FOR UPDATE SKIP LOCKED), so concurrent claims never return the same row; SQLite's single writer
 * serialises claims already.
 */
export function lockedForClaim<Q>(db: Db, query: Q, table: unknown): Q {
  if (engineOf(db) !== "postgres") return query;
  return (query as unknown as { for(strength: "update", config: { of: unknown; skipLocked: true }): Q }).for("update", {
    of: table,
    skipLocked: true,
  });
}

/**
 * A read inside a write that keeps the rows it returns from being deleted or changed until the write ends, so rows
 * the write then inserts referring to them stay valid (PostgreSQL FOR SHARE: a concurrent DELETE waits, or has
 * already removed the row and the read finds nothing); SQLite's single writer serialises every write already.
 */
export function lockedAgainstChange<Q>(db: Db, query: Q): Q {
  if (engineOf(db) !== "postgres") return query;
  return (query as unknown as { for(strength: "share"): Q }).for("share");
}

/**
 * A read inside a write of a row the write will then change according to what it read (a status it checks):
 * PostgreSQL FOR UPDATE, so two writes deciding on the same row take turns and the second sees the first's result;
 * SQLite's single writer serialises every write already.
 */
export function lockedForUpdate<Q>(db: Db, query: Q): Q {
  if (engineOf(db) !== "postgres") return query;
  return (query as unknown as { for(strength: "update"): Q }).for("update");
}

/** Where a write's notified channels are collected for this process's listeners (db/writer.ts, the PostgreSQL adapter). */
const commitNotices = new WeakMap<object, (channel: string) => void>();

/** Registers the collector of the notifications of the writes made through `db` (a connection, or a transaction). */
export function collectNotifications(db: Db, collect: (channel: string) => void): void {
  commitNotices.set(db, collect);
}

/**
 * Tells whoever listens on `channel` (`Store.listen`) that this write changed something, once it commits: this
 * process's listeners are called after the COMMIT by the store's writer, and on PostgreSQL a NOTIFY, delivered at
 * COMMIT and dropped on ROLLBACK, tells every other instance sharing the store.
 */
export async function notifyAtCommit(tx: Db, channel: string): Promise<void> {
  commitNotices.get(tx)?.(channel);
  if (engineOf(tx) === "postgres") await executeRaw(tx, sql`SELECT pg_notify(${channel}, '')`);
}

/** Raw SQL both engines run (with the syntax they share), its rows as they come. */
export async function rawRows<T>(db: Db, statement: SQL): Promise<T[]> {
  if (engineOf(db) === "postgres") return executeRaw<T>(db, statement);
  return (db as unknown as { all<R>(query: SQL): R[] }).all<T>(statement);
}

/** Raw SQL only PostgreSQL runs (its drizzle database executes it with `execute`), its rows as they come. */
export async function executeRaw<T>(db: Db, statement: SQL): Promise<T[]> {
  return ((await (db as unknown as { execute(query: SQL): Promise<{ rows: unknown[] }> }).execute(statement)).rows ??
    []) as T[];
}
