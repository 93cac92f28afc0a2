/**
 * Statements prepared once per connection, for queries on the hot path (every send, every delivery). Drizzle's
 * builder otherwise builds the SQL and asks SQLite to prepare it anew on each call — about ten times the cost of
 * running a prepared statement. Invariant: a statement runs on the connection it was prepared on, so inside a
 * writer transaction it joins that transaction.
 */
import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";

export function perConnection<T>(prepare: (db: Db) => T): (db: Db) => T {
  const statements = new WeakMap<Db, T>();
  return (db) => {
    let prepared = statements.get(db);
    if (prepared === undefined) statements.set(db, (prepared = prepare(db)));
    return prepared;
  };
}

/** `{key: sql.placeholder(key)}` for each key, for inserts and updates prepared with named parameters. */
export function placeholders<K extends string>(keys: readonly K[]): Record<K, never> {
  return Object.fromEntries(keys.map((key) => [key, sql.placeholder(key)])) as Record<K, never>;
}
