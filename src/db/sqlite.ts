/**
 * The embedded SQLite engine: WAL, synchronous=FULL (a committed transaction is on disk — a 200 promises that),
 * foreign keys, busy timeout, embedded migrations. Two connections: one writes, through the group-commit writer
 * (db/writer.ts), the other reads, so a read never sees a batch that has not committed yet. Invariant: one
 * store per data directory per process (a second instance needs PostgreSQL).
 */
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { dirname } from "node:path";
import { sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { silentLogger, type Logger } from "../lib/logger.ts";
import { createPrivateFile, ensurePrivateDirectory, keepPrivate } from "../lib/private-files.ts";
import { MIGRATIONS } from "./migrations/index.ts";
import * as schema from "./schema/index.ts";
import { createContentThread, type ContentThread } from "./content-writes.ts";
import type { Db, Store } from "./store.ts";
import { createWriter } from "./writer.ts";

export interface SqliteStore extends Store {
  /** The writing connection, for drills that provoke engine faults (tests). */
  readonly sqlite: Database;
}

export interface SqliteOptions {
  /** Locates content-thread.ts (built by the composition root, as the CPU pool's thread is): large bodies are then
   * written off the event loop (db/content-writes.ts). Without it they are written in the group commit. */
  contentThread?: URL;
}

export function openSqliteStore(path: string, logger: Logger = silentLogger, options: SqliteOptions = {}): SqliteStore {
  const inMemory = path === ":memory:";
  if (!inMemory) createOwnerOnly(path, logger);
  // The writing connection commits without waiting for the disk; its writes answer after `walSync` (writer.ts).
  const sqlite = connect(path, inMemory ? "FULL" : "NORMAL");
  reusableSpace(sqlite, logger);
  migrate(sqlite);
  const writing = drizzle(sqlite, { schema });
  // An in-memory database exists only on its own connection: there, reads share the writing one.
  const reader = inMemory ? sqlite : connect(path, "FULL");
  const reading: Db = inMemory ? writing : drizzle(reader, { schema });
  const listeners = new Map<string, Array<() => void>>();
  const syncWal = inMemory ? undefined : walSync(`${path}-wal`);
  let walGrew = false;
  const writer = createWriter(sqlite, writing, {
    ...(syncWal && {
      durable: () => {
        walGrew = true;
        return syncWal();
      },
    }),
    committed: (channels) => {
      for (const channel of channels) for (const onNotify of listeners.get(channel) ?? []) onNotify();
    },
  });
  const contents =
    options.contentThread && !inMemory ? createContentThread(path, options.contentThread, writer) : undefined;
  const checkpoints =
    contents &&
    checkpointOffLoop(sqlite, contents, () => {
      const grew = walGrew;
      walGrew = false;
      return grew;
    });
  return {
    engine: "sqlite",
    shared: false,
    sqlite,
    db: reading,
    write: writer.write,
    ...(contents && {
      stageContent: contents.stageContent,
      readContent: contents.readContent,
      appendRows: contents.appendRows,
    }),
    flush: writer.flush,
    async reclaimSpace() {
      // A step at a time, each its own short write, so that sending is never held for long.
      while (freePages(sqlite) > 0) {
        await writer.write(async (tx) => void tx.all(sql.raw(`PRAGMA incremental_vacuum(${RECLAIM_PAGES})`)));
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
    // One instance per SQLite store: what a write notifies is heard in this process, after its commit.
    listen(channel, onNotify) {
      listeners.set(channel, [...(listeners.get(channel) ?? []), onNotify]);
    },
    async query<T>(statement: SQL) {
      return reading.all<T>(statement);
    },
    async backup(target: string) {
      // VACUUM INTO fills an empty file it is given and would create a missing one 0644: the copy holds every message.
      createPrivateFile(target, { exclusive: true });
      try {
        sqlite.query("VACUUM INTO ?").run(target);
      } catch (error) {
        rmSync(target, { force: true });
        throw error;
      }
    },
    async close() {
      await writer.flush();
      checkpoints?.stop();
      contents?.close();
      if (reader !== sqlite) reader.close();
      sqlite.close();
    },
  };
}

/**
 * The WAL's fsync on a thread of the runtime, so that the event loop never waits for the disk: what was committed
 * before a call is on disk when its promise resolves. One fsync at a time; calls made while one runs share the next
 * (a commit made during an fsync may not be in it). An fsync of the file by path syncs what SQLite's own descriptor
 * wrote: both are the one file's pages.
 */
function walSync(walPath: string): () => Promise<void> {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const sync = async () => {
    const file = await open(walPath, "r");
    try {
      await file.sync();
    } finally {
      await file.close();
    }
  };
  const start = () => {
    const run = sync();
    running = run;
    const done = () => {
      if (running === run) running = undefined;
    };
    run.then(done, done);
    return run;
  };
  return () => {
    if (!running) return start();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
}

/** How often the WAL is checkpointed off the event loop, when anything was committed since the last time. */
const CHECKPOINT_INTERVAL_MS = 1_000;

/**
 * WAL checkpoints on the content thread rather than in a COMMIT on the event loop: SQLite's automatic checkpoint runs
 * inside the commit that takes the WAL past 1,000 pages, copying them into the database file and syncing it — a
 * stall of the loop of 10 ms and more (COMMIT p99 10.7 ms in `npm run bench`'s statement timings). The writing
 * connection's own checkpoints are turned off; every second in which something was committed (`grew`), the thread
 * checkpoints what readers allow (PASSIVE, beside the writer, never waiting for its lock). The WAL starts again from
 * its beginning once all of it is in the database file, as before.
 */
function checkpointOffLoop(writing: Database, contents: ContentThread, grew: () => boolean) {
  writing.exec("PRAGMA wal_autocheckpoint = 0");
  let running = false;
  const timer = setInterval(() => {
    if (running || !grew()) return;
    running = true;
    contents
      .checkpoint()
      .catch(() => undefined)
      .finally(() => {
        running = false;
      });
  }, CHECKPOINT_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * The database file exists owner-only (0600) before SQLite opens it: SQLite would create it 0644, and creates the
 * WAL and shared-memory files with the database file's mode, so those follow. Files of an older install are
 * narrowed (the WAL and shared-memory files can outlive a crash).
 */
function createOwnerOnly(path: string, logger: Logger): void {
  ensurePrivateDirectory(dirname(path), logger);
  createPrivateFile(path);
  for (const file of [path, `${path}-wal`, `${path}-shm`]) keepPrivate(file, logger);
}

/**
 * `synchronous`: FULL makes each COMMIT wait for the WAL's fsync; NORMAL leaves it to `walSync` (the WAL is still
 * synced before every checkpoint, and the database file after it).
 */
function connect(path: string, synchronous: "FULL" | "NORMAL"): Database {
  const connection = new Database(path, { create: true, strict: true });
  connection.exec("PRAGMA journal_mode = WAL");
  connection.exec(`PRAGMA synchronous = ${synchronous}`);
  connection.exec("PRAGMA foreign_keys = ON");
  connection.exec("PRAGMA busy_timeout = 5000");
  // Reads through memory-mapped pages: the reading connection's page cache is dropped whenever the writer commits,
  // and mapped pages make reading them again cheap (measured: acceptance 0.86× of the one-connection build without
  // it, 1.05-1.09× with it; npm run bench). Mapped pages count in the process's RSS as they are touched, and the
  // gain does not grow with the window: 16 MiB against 256 MiB, acceptance 0.95× then 0.99× (three rounds each,
  // within the VM's noise), look-ups on a 1M-message store unchanged, RSS after 30 s of acceptance 228-238 MiB
  // against 269-300 MiB.
  connection.exec("PRAGMA mmap_size = 16777216");
  return connection;
}

/** Pages one step of `reclaimSpace` returns to the file system: 1 MiB at the default page size. */
const RECLAIM_PAGES = 256;

const freePages = (sqlite: Database) =>
  sqlite.query<{ freelist_count: number }, []>("PRAGMA freelist_count").get()?.freelist_count ?? 0;

/**
 * `auto_vacuum = INCREMENTAL` (docs/operations.md): pages freed by retention can be given back to the file system a step at
 * a time (`reclaimSpace`), where SQLite would otherwise only reuse them. The setting takes effect through a VACUUM
 * (WAL mode is already on): instant on a new database; a database made before it is rebuilt once, at this start,
 * which takes a while on a large one.
 */
function reusableSpace(sqlite: Database, logger: Logger): void {
  const mode = sqlite.query<{ auto_vacuum: number }, []>("PRAGMA auto_vacuum").get()?.auto_vacuum;
  if (mode === INCREMENTAL) return;
  const tables = sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_master").get()?.n ?? 0;
  if (tables > 0)
    logger.info("rebuilding the store once so that retention can give space back (auto_vacuum = incremental)");
  sqlite.exec("PRAGMA auto_vacuum = INCREMENTAL");
  sqlite.exec("VACUUM");
}
const INCREMENTAL = 2;

function migrate(sqlite: Database): void {
  sqlite.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
  );
  const applied = new Set(
    sqlite
      .query<{ version: number }, []>("SELECT version FROM schema_migrations")
      .all()
      .map((row) => row.version),
  );
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    // SQLite's procedure for rebuilding a table others refer to: foreign keys off (a pragma that only takes effect
    // outside a transaction), then checked inside it, before the commit.
    if (migration.rebuildsTables) sqlite.exec("PRAGMA foreign_keys = OFF");
    try {
      sqlite.transaction(() => {
        if (typeof migration.sqlite === "string") sqlite.exec(migration.sqlite);
        else migration.sqlite(sqlite);
        if (migration.rebuildsTables && sqlite.query("PRAGMA foreign_key_check").all().length)
          throw new Error(`migration ${migration.version} (${migration.name}) left rows pointing at nothing`);
        sqlite
          .query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
          .run(migration.version, migration.name, new Date().toISOString());
      })();
    } finally {
      if (migration.rebuildsTables) sqlite.exec("PRAGMA foreign_keys = ON");
    }
  }
}
