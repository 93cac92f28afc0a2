/**
 * Statements prepared once, for queries on the hot path (every send, every delivery). Drizzle's builder otherwise
 * builds the SQL anew on each call (0.1–0.4 ms each), and SQLite prepares it again — about ten times the cost of
 * running a prepared statement. SQLite: prepared once per connection (a write's `tx` is the connection itself).
 * PostgreSQL: built once per process and bound to the connection of each `db` it is asked for — the pool, or a
 * transaction's client, whose drizzle object is new for every transaction; the server parses a named statement
 * once per connection. Invariant: a statement runs on the connection (or transaction) it was asked for, so inside
 * a write it joins that write's transaction.
 */
import { getTableColumns, getTableName, is, Param, SQL, sql, type Table } from "drizzle-orm";
import { engineOf } from "./dialect.ts";
import type { Db } from "./store.ts";

/** What drizzle's node-postgres prepared query runs on: the pool, or a transaction's client. */
interface BoundToClient {
  client: object;
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

const isBoundToClient = (value: unknown): value is BoundToClient =>
  typeof value === "object" && value !== null && "client" in value && "rawQueryConfig" in value;

/** The client behind a node-postgres drizzle database or transaction. */
const clientOf = (db: Db) => (db as unknown as { session: { client: object } }).session.client;

/** `prepared` (a statement, or an object of statements) running on `client` instead. */
function rebound<T>(prepared: T, client: object): T {
  const rebind = (statement: unknown) => {
    if (!isBoundToClient(statement))
      throw new Error("perConnection: on PostgreSQL only prepared statements (or objects of them) can be rebound");
    return Object.assign(Object.create(statement) as BoundToClient, { client });
  };
  if (isBoundToClient(prepared)) return rebind(prepared) as T;
  return Object.fromEntries(Object.entries(prepared as object).map(([name, value]) => [name, rebind(value)])) as T;
}

export function perConnection<T>(prepare: (db: Db) => T): (db: Db) => T {
  const statements = new WeakMap<object, T>();
  let built: T | undefined;
  return (db) => {
    const postgres = engineOf(db) === "postgres";
    const connection = postgres ? clientOf(db) : db;
    let prepared = statements.get(connection);
    if (prepared === undefined) {
      if (postgres) prepared = rebound((built ??= prepare(db)), connection);
      else prepared = prepare(db);
      statements.set(connection, prepared);
    }
    return prepared;
  };
}

/**
 * PostgreSQL: a statement written in SQL — one the builder cannot say — prepared once per connection under `name`
 * (node-postgres keeps a client's named statements), run on the connection of `db`: the pool, or a transaction's
 * client, so that inside a write it joins that write's transaction. Its rows come as the driver gives them.
 */
export function namedStatement<R>(db: Db, name: string, text: string): { execute(values: unknown[]): Promise<R[]> } {
  const client = clientOf(db) as {
    query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
  };
  return { execute: async (values) => (await client.query({ name, text, values })).rows };
}

/**
 * Prepares `query` under `name`: PostgreSQL keeps named statements per connection, SQLite's are anonymous (the
 * name is ignored). Run it with `await statement.execute(values)` on either engine.
 */
export function prepareAs<P>(name: string, query: { prepare(): P }): P {
  return (query as unknown as { prepare(name: string): P }).prepare(name);
}

/** `{key: sql.placeholder(key)}` for each key, for inserts and updates prepared with named parameters. */
export function placeholders<K extends string>(keys: readonly K[]): Record<K, never> {
  return Object.fromEntries(keys.map((key) => [key, sql.placeholder(key)])) as Record<K, never>;
}

/**
 * Rows per multi-row insert: within both engines' bound-parameter limits (PostgreSQL 65,535; SQLite 32,766) for
 * tables of up to 60 columns.
 */
export const ROWS_PER_INSERT = 500;

/**
 * One statement's work for many rows, in the form each engine runs cheaper: on SQLite `each` row by row (a statement
 * prepared once per connection, a call in this process; a multi-row statement's SQL, new for each count of rows,
 * would be built and prepared every time — measured: 31 % of acceptance's event loop), on PostgreSQL `many` for each
 * slice of `slices` (default: ROWS_PER_INSERT rows), since there each statement is a round trip — `each` for a slice
 * of one row, whose statement is prepared where `many`'s SQL would be built anew. Answers the rows the
 * calls returned (a statement's RETURNING), in order.
 */
export async function forRows<R, O = never>(
  tx: Db,
  rows: readonly R[],
  forms: {
    each: (row: R) => unknown;
    many: (slice: R[]) => unknown;
    slices?: (rows: readonly R[]) => R[][];
  },
): Promise<O[]> {
  const answered: O[] = [];
  const keep = (result: unknown) => {
    if (Array.isArray(result)) answered.push(...(result as O[]));
  };
  if (engineOf(tx) === "sqlite") for (const row of rows) keep(await forms.each(row));
  else
    for (const slice of (forms.slices ?? ((all) => chunks(all, ROWS_PER_INSERT)))(rows))
      keep(await (slice.length === 1 ? forms.each(slice[0]!) : forms.many(slice)));
  return answered;
}

/** `items` in consecutive slices of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const slices: T[][] = [];
  for (let at = 0; at < items.length; at += size) slices.push(items.slice(at, at + size));
  return slices;
}

/** SQL texts of PostgreSQL's multi-row inserts, by table, columns and count of rows: built once each. */
const insertTexts = new Map<string, string>();
const MAX_INSERT_TEXTS = 4_096;

/**
 * PostgreSQL's multi-row insert of `rows` into `table`, as drizzle's `tx.insert(table).values(rows)` would write it,
 * without building it: drizzle makes an object per value and types each parameter on every call (a third of the event
 * loop's time in a fan-out to 30,000 contacts, docs/broadcasts.md#the-fan-out); here the SQL text is kept per shape
 * and the values go to the driver mapped by their columns. The columns are those any row gives; the others take the
 * table's default, as drizzle's `default` would. A shape this does not speak for — a row that leaves out a column
 * another gives, a value written in SQL, a column whose default is computed here — goes to drizzle as it is.
 */
export function insertMany(tx: Db, table: Table, rows: readonly Record<string, unknown>[]): Promise<unknown> {
  const builder = () => (tx as unknown as PgInsert).insert(table).values(rows as never);
  if (engineOf(tx) !== "postgres" || rows.length === 0) return builder();
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => rows.some((row) => row[key] !== undefined));
  const given = new Set(columns.map(([key]) => key));
  for (const [key, column] of Object.entries(getTableColumns(table)))
    if (!given.has(key) && (column.defaultFn !== undefined || column.onUpdateFn !== undefined)) return builder();
  const values: unknown[] = [];
  for (const row of rows)
    for (const [key, column] of columns) {
      const value = row[key];
      if (value === undefined || is(value, SQL) || is(value, Param)) return builder();
      values.push(value === null ? null : column.mapToDriverValue(value));
    }
  const shape = `${getTableName(table)}(${[...given].join(",")})×${rows.length}`;
  let text = insertTexts.get(shape);
  if (text === undefined) {
    const names = columns.map(([, column]) => `"${column.name}"`).join(", ");
    const tuples = rows.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(", ")})`);
    text = `INSERT INTO "${getTableName(table)}" (${names}) VALUES ${tuples.join(", ")}`;
    if (insertTexts.size >= MAX_INSERT_TEXTS) insertTexts.clear();
    insertTexts.set(shape, text);
  }
  return (clientOf(tx) as { query(config: { text: string; values: unknown[] }): Promise<unknown> }).query({
    text,
    values,
  });
}

type PgInsert = { insert(table: Table): { values(rows: never): Promise<unknown> } };
