/**
 * Statements prepared once per connection, for queries on the hot path (every send, every delivery). Drizzle's
 * builder otherwise builds the SQL anew on each call, and SQLite prepares it again — about ten times the cost of
 * running a prepared statement. Invariant: a statement runs on the connection (or transaction) it was prepared
 * on, so inside a write it joins that write's transaction.
 */
import { sql } from "drizzle-orm";
import type { Db } from "./store.ts";

export function perConnection<T>(prepare: (db: Db) => T): (db: Db) => T {
  const statements = new WeakMap<Db, T>();
  return (db) => {
    let prepared = statements.get(db);
    if (prepared === undefined) statements.set(db, (prepared = prepare(db)));
    return prepared;
  };
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
