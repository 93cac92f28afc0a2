/**
 * The PostgreSQL engine, for one or many instances sharing a database. The writes of one event-loop turn share one
 * transaction on a pooled connection (`groupCommit`); migrations run at start under a transaction-scoped advisory
 * lock, so instances starting together migrate once and the others wait, then find nothing to do. Invariants:
 * `write()` resolves after COMMIT returned; a transaction that lost a serialization race or a deadlock runs again
 * (at most 3 times), any other failure rejects, connection trouble as `service_unavailable`; this instance's
 * listeners hear the channels a write notified once it committed, the other instances' by LISTEN.
 */
import { sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Logger } from "../../lib/logger.ts";
import { perTurn } from "../../lib/turn-batch.ts";
import { collectNotifications } from "../dialect.ts";
import { asStoreFault, engineCode } from "../faults.ts";
import { MIGRATIONS } from "../migrations/index.ts";
import { chunks } from "../prepared.ts";
import { CONTENT_TABLES } from "../store.ts";
import type { Db, Store } from "../store.ts";
import * as schema from "./schema.ts";

/** Any constant: instances of Mailroom agree on it, and nothing else in the database takes it. */
// "mailroom" in ASCII (0x6d61696c726f6f6d) modulo 2^31, as the float JavaScript reads that literal as: kept exact
// so that every version of Mailroom takes the same lock.
const MIGRATION_LOCK = 1_919_905_792;
const RETRIES = 3;
/** A large body goes up in pieces of this size (db/content-writes.ts). */
const CONTENT_PIECE_BYTES = 1024 * 1024;
/** serialization_failure, deadlock_detected: the transaction can simply run again. */
const RETRYABLE = new Set(["40001", "40P01"]);

export interface PostgresOptions {
  url: string;
  poolSize: number;
  logger: Logger;
}

/** `url` with the store kept in schema `schema` of that database (created at start when missing). */
export function urlInSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("options", `-c search_path=${schema}`);
  return parsed.toString();
}

export async function openPostgresStore(options: PostgresOptions): Promise<Store> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection the server closed must not take the process down; the next query gets a fresh one.
  pool.on("error", (error) => options.logger.warn("store connection lost", { error: error.message }));
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    throw asStoreFault(error);
  }
  // Same builder surface as the SQLite database (see store.ts `Db`), PostgreSQL tables behind it.
  const db = drizzle(pool, { schema }) as unknown as Db;
  const pgDb = db as unknown as ReturnType<typeof drizzle<typeof schema>>;
  const listener = createListener(options);

  return {
    engine: "postgres",
    shared: true,
    db,
    write: groupCommit(async (work) => {
      for (let attempt = 1; ; attempt++) {
        const notified = new Set<string>();
        try {
          const result = await pgDb.transaction((tx) => {
            collectNotifications(tx as unknown as Db, (channel) => void notified.add(channel));
            return work(tx as unknown as Db);
          });
          // This instance hears its own changes at once; its LISTEN hears them again, a moment later.
          for (const channel of notified) listener.heard(channel);
          return result;
        } catch (error) {
          if (attempt < RETRIES && RETRYABLE.has(engineCode(error) ?? "")) continue;
          throw asStoreFault(error);
        }
      }
    }),
    async stageContent(table, ownerId, raw) {
      // Best effort: pieces left behind are space, never content (no record names them).
      const dropPieces = () =>
        pool.query("DELETE FROM content_parts WHERE owner_id = $1", [ownerId]).then(
          () => undefined,
          () => undefined,
        );
      try {
        for (let seq = 0, at = 0; at < raw.length; seq++, at += CONTENT_PIECE_BYTES) {
          await pool.query("INSERT INTO content_parts (owner_id, seq, bytes) VALUES ($1, $2, $3)", [
            ownerId,
            seq,
            raw.subarray(at, at + CONTENT_PIECE_BYTES),
          ]);
        }
      } catch (error) {
        await dropPieces();
        throw asStoreFault(error);
      }
      const { owner } = CONTENT_TABLES[table];
      return {
        async place(tx) {
          const within = tx as unknown as typeof pgDb;
          await within.execute(
            sql`INSERT INTO ${sql.identifier(table)} (${sql.identifier(owner)}, raw) SELECT ${ownerId}, string_agg(bytes, ''::bytea ORDER BY seq) FROM content_parts WHERE owner_id = ${ownerId}`,
          );
          await within.execute(sql`DELETE FROM content_parts WHERE owner_id = ${ownerId}`);
        },
        discard: dropPieces,
      };
    },
    // Read in 1 MiB pieces: in one piece, the row of tens of megabytes (bytea's text form, a hex string twice its
    // size) is assembled and decoded by node-postgres in one go. pg's per-query `binary` option is no way out: it
    // decodes the bytes of a binary row as UTF-8 text. A body never changes once written, so its pieces are of one
    // body.
    async readContent(table, ownerId) {
      const { owner } = CONTENT_TABLES[table];
      try {
        const [found] = (
          await pool.query<{ size: number }>(`SELECT length(raw) AS size FROM ${table} WHERE ${owner} = $1`, [ownerId])
        ).rows;
        if (!found) return undefined;
        const body = Buffer.allocUnsafe(found.size);
        for (let at = 0; at < found.size; at += CONTENT_PIECE_BYTES) {
          const piece = `SELECT substring(raw FROM $2 FOR $3) AS piece FROM ${table} WHERE ${owner} = $1`;
          const [row] = (await pool.query<{ piece: Buffer }>(piece, [ownerId, at + 1, CONTENT_PIECE_BYTES])).rows;
          row!.piece.copy(body, at);
        }
        return body;
      } catch (error) {
        throw asStoreFault(error);
      }
    },
    listen: listener.listen,
    async query<T>(statement: SQL) {
      try {
        return (await pgDb.execute(statement)).rows as T[];
      } catch (error) {
        throw asStoreFault(error);
      }
    },
    async flush() {},
    async backup() {
      throw new Error("a PostgreSQL store is backed up with pg_dump (see README, Backup)");
    },
    async close() {
      await listener.close();
      if (!pool.ended) await pool.end();
    },
  };
}

/** Writes per group transaction, so that one never holds its locks for long. */
const MAX_GROUP = 64;

type Work = (tx: Db) => Promise<unknown>;

/**
 * Group commit: the writes queued in one event-loop turn run in one transaction, one after another — one BEGIN and
 * one COMMIT (one WAL flush) for them all instead of one each. Should the group's transaction fail, its writes run
 * again each in a transaction of its own (`alone`), so that one write's failure is its own; a write may therefore
 * run more than once, as a transaction retried after a serialization failure does. Each promise settles after the
 * COMMIT that holds its write.
 */
function groupCommit(alone: (work: Work) => Promise<unknown>): <T>(work: (tx: Db) => Promise<T>) => Promise<T> {
  type Queued = { work: Work; resolve: (value: unknown) => void; reject: (error: unknown) => void };
  const run = async (group: Queued[]) => {
    if (group.length === 1) return alone(group[0]!.work).then(group[0]!.resolve, group[0]!.reject);
    let results: unknown[];
    try {
      results = (await alone(async (tx) => {
        const done: unknown[] = [];
        for (const item of group) done.push(await item.work(tx));
        return done;
      })) as unknown[];
    } catch {
      await Promise.all(group.map((item) => alone(item.work).then(item.resolve, item.reject)));
      return;
    }
    group.forEach((item, i) => item.resolve(results[i]));
  };
  const writeTogether = perTurn<Queued>((queued) => {
    for (const group of chunks(queued, MAX_GROUP)) void run(group);
  });
  return <T>(work: (tx: Db) => Promise<T>) =>
    new Promise<T>((resolve, reject) => writeTogether({ work, resolve: resolve as (value: unknown) => void, reject }));
}

/** How long a lost LISTEN connection waits before it connects again (polling covers the gap meanwhile). */
const RELISTEN_MS = 1_000;

/**
 * LISTEN on a connection of its own (a pooled one would be handed to queries), opened at the first `listen` and
 * opened again whenever it is lost, with every channel listened to again.
 */
function createListener(options: PostgresOptions) {
  const handlers = new Map<string, Array<() => void>>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let closed = false;

  const connect = (): Promise<void> =>
    (connecting ??= (async () => {
      const fresh = new pg.Client({ connectionString: options.url });
      fresh.on("notification", (message) => handlers.get(message.channel)?.forEach((onNotify) => onNotify()));
      fresh.on("error", (error) => {
        options.logger.warn("store notifications lost; listening again", { error: error.message });
        lost(fresh);
      });
      fresh.on("end", () => lost(fresh));
      try {
        await fresh.connect();
        for (const channel of handlers.keys()) await fresh.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
        if (closed) await fresh.end();
        else client = fresh;
      } catch (error) {
        options.logger.warn("store notifications unavailable; trying again", { error: (error as Error).message });
        lost(fresh);
      } finally {
        connecting = undefined;
      }
    })());

  const lost = (which: pg.Client) => {
    if (client === which) client = undefined;
    which.end().catch(() => {});
    if (!closed) setTimeout(() => void (client || connect()), RELISTEN_MS).unref();
  };

  return {
    /** Calls the handlers of `channel` (a notification this instance committed itself). */
    heard: (channel: string) => handlers.get(channel)?.forEach((onNotify) => onNotify()),
    listen(channel: string, onNotify: () => void) {
      const known = handlers.has(channel);
      handlers.set(channel, [...(handlers.get(channel) ?? []), onNotify]);
      if (client && !known) client.query(`LISTEN "${channel.replace(/"/g, '""')}"`).catch(() => {});
      else if (!client) void connect();
    },
    async close() {
      closed = true;
      await connecting;
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}

async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    // A store in a schema of its own (`?options=-c search_path=name` in the URL): the schema is created here.
    const { rows } = await client.query<{ current: string | null; wanted: string }>(
      "SELECT current_schema() AS current, current_setting('search_path') AS wanted",
    );
    const named = rows[0]!.wanted
      .split(",")[0]!
      .trim()
      .replace(/^"(.*)"$/, "$1");
    if (rows[0]!.current === null && named && !named.startsWith("$"))
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${named.replace(/"/g, '""')}"`);
    await client.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    const applied = new Set(
      (await client.query<{ version: number }>("SELECT version FROM schema_migrations")).rows.map((row) => row.version),
    );
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.postgres);
      await client.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [
        migration.version,
        migration.name,
        new Date().toISOString(),
      ]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
