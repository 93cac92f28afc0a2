/**
 * The one leased-queue engine, serving the delivery queue and the webhook outbox. Design note:
 *
 * - Claiming: due rows whose lease is free or expired are read and leased (`lease_owner`, `lease_until`) in one
 *   write — on PostgreSQL one statement, which locks the rows it leases with FOR UPDATE SKIP LOCKED, so instances
 *   sharing the store never claim the same row (`claimOnPostgres`). Work starts only after the claim committed.
 *   Claims of one process run one at a time, so the free slots a claim counts are really free.
 * - Concurrency: at most `concurrency` jobs in flight, and `perKeyConcurrency` per key (destination domain,
 *   endpoint), so one slow key cannot take every slot; rows of a key at its cap are skipped in SQL.
 * - Results: a job's work (`attempt`) is done once; its result is then recorded (`record`, which clears the lease).
 *   A store that cannot take the record now (disk full, database unreachable or read-only: `service_unavailable`)
 *   does not undo work already done: the record is tried again, backing off, until the store takes it, so a message
 *   sent or a webhook posted is not sent again once the store is back. Any other error would fail the same way
 *   again, and `stop()` does not wait for a store: then the lease is left to expire and the job runs again.
 * - Crashes: a process that dies leaves leases behind; they expire after `leaseMs` and the rows are claimed
 *   again (at-least-once).
 * - Lanes: a queue may name lanes in claim order (the delivery queue: transactional, then broadcast); a claim fills
 *   its free slots from the first lane's due rows, then the next's, each read by its own range of the due index, so
 *   any number of later-lane rows due never stand in front of an earlier lane's. A lane's `reserve` keeps that many
 *   slots — overall and of each key — for the lanes before it: with every slot of a slow destination busy with a
 *   newsletter, a password reset to it still starts at the next claim (docs/operations.md#sending-lanes).
 * - Wake-ups: `wake()` after new rows were committed, plus a poll every `pollMs` (which also finds rows other
 *   instances wrote and leases that expired).
 * - Shutdown: `stop()` stops claiming, lets a claim that is committing finish, and waits for every job in flight,
 *   cutting short the retries of a record the store refuses (also of the jobs that claim dispatches).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { isStoreUnavailable } from "../db/faults.ts";
import { namedStatement } from "../db/prepared.ts";
import type { Db, Writer } from "../db/store.ts";
import type { Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import type { Logger } from "../lib/logger.ts";
import { createPoller } from "./poller.ts";

/**
 * A queue's claim: one statement that reads, chooses, leases and answers the jobs (PostgreSQL: a round trip, and
 * rows locked for that statement only), or three steps (SQLite, whose RETURNING cannot name a joined table).
 */
export type ClaimStatements<J> = ClaimSteps<J> | { claim: OneStatementClaim<J> };

/**
 * The claim in one statement: of the first `limit` rows `due` would read — of each key no more than `perKeyCap` less
 * what `busy` (key → jobs in flight here, as JSON) counts — the first `free`, leased to `owner` until `until`;
 * answers their jobs, each with its key.
 */
export interface OneStatementClaim<J> {
  execute(values: {
    now: number;
    /** The lane read (a queue with lanes), else undefined. */
    lane: string | undefined;
    limit: number;
    free: number;
    saturated: string;
    inFlight: string;
    busy: string;
    /** What a key `busy` does not name counts as (a lane's reserve of each key). */
    idle: number;
    perKeyCap: number;
    owner: string;
    until: number;
  }): Promise<Array<{ job: J; key: string }>>;
}

/** What a queue's claim in one statement reads and answers, in SQL (see `claimOnPostgres`). */
export interface PostgresClaimParts {
  /** The queue's table, and its column whose concurrency is capped (the destination domain, the endpoint). */
  table: string;
  key: string;
  /** The column naming a row's lane, for a queue with lanes: a claim reads one lane at a time. */
  lane?: string;
  /** What else makes a row due, on the table as `q` (and `join`'s tables): e.g. its endpoint is enabled. */
  join?: string;
  where?: string;
  /** The jobs' other tables (FROM items) and their link to the row, the table as `d`; the jobs' columns. */
  jobsFrom: string;
  jobsWhere: string;
  returning: string;
}

/**
 * PostgreSQL's claim in one statement, prepared as `name` on the connection of `tx`: a window of due rows read
 * unlocked; each key's first rows within its cap; the first `free` of those locked — skipping any another instance's
 * claim holds, and checked again as they are now — and leased; their jobs answered by the UPDATE's RETURNING. Only
 * the rows leased are locked: a lock is a write of the row in PostgreSQL, and the window is twice the rows a claim
 * takes. `jobOf` reads a returned row (which also carries `claim_key`).
 */
export function claimOnPostgres<J>(
  tx: Db,
  name: string,
  parts: PostgresClaimParts,
  jobOf: (row: Record<string, unknown>) => J,
): OneStatementClaim<J> {
  const { table, key } = parts;
  const due = `q.next_attempt_at <= $1 AND (q.lease_until IS NULL OR q.lease_until < $1)`;
  const statement = namedStatement<Record<string, unknown>>(
    tx,
    name,
    `WITH due AS MATERIALIZED (
  SELECT q.id, q.${key} AS key, q.next_attempt_at FROM ${table} q ${parts.join ?? ""}
  WHERE ${due}${parts.where ? ` AND ${parts.where}` : ""}${parts.lane ? ` AND q.${parts.lane} = $11` : ""}
    AND NOT q.${key} = ANY(ARRAY(SELECT json_array_elements_text($2::json)))
    AND NOT q.id = ANY(ARRAY(SELECT json_array_elements_text($3::json)))
  ORDER BY q.next_attempt_at LIMIT $4
), chosen AS MATERIALIZED (
  SELECT id FROM (
    SELECT id, key, next_attempt_at, row_number() OVER (PARTITION BY key ORDER BY next_attempt_at, id) AS nth FROM due
  ) ranked
  WHERE nth <= $5::integer - COALESCE(($6::jsonb ->> key)::integer, $10::integer)
  ORDER BY next_attempt_at, id LIMIT $7
), locked AS MATERIALIZED (
  SELECT q.id FROM ${table} q WHERE q.id = ANY(ARRAY(SELECT id FROM chosen)) AND ${due}
  FOR UPDATE SKIP LOCKED
)
UPDATE ${table} d SET lease_owner = $8, lease_until = $9
FROM locked, ${parts.jobsFrom}
WHERE d.id = locked.id AND ${parts.jobsWhere}
RETURNING d.${key} AS claim_key, ${parts.returning}`,
  );
  return {
    execute: async (v) =>
      (
        await statement.execute([
          v.now,
          v.saturated,
          v.inFlight,
          v.limit,
          v.perKeyCap,
          v.busy,
          v.free,
          v.owner,
          v.until,
          v.idle,
          ...(parts.lane ? [v.lane] : []),
        ])
      ).map((row) => ({ job: jobOf(row), key: row.claim_key as string })),
  };
}

/**
 * A queue's three claim statements, prepared with named parameters; lists travel as JSON arrays of text (see
 * db/dialect.ts `inJsonArray`), so one prepared statement serves every claim.
 */
export interface ClaimSteps<J> {
  /**
   * Due rows with a free or expired lease, oldest due first, at most `limit`, locked for the claim (db/dialect.ts
   * `lockedForClaim`); none of a key in `saturated` (at its cap in this process) nor an id in `inFlight` (in flight
   * here, its lease perhaps expired during a long attempt). Only the id and `key`, whose concurrency is capped (the
   * destination domain, the endpoint): a claim reads up to twice the rows it takes, and whole jobs are read for the
   * rows taken only (`jobs`).
   */
  due: {
    execute(values: {
      now: number;
      /** The lane read (a queue with lanes), else undefined. */
      lane: string | undefined;
      limit: number;
      saturated: string;
      inFlight: string;
    }): PromiseLike<Array<{ id: string; key: string }>> | Array<{ id: string; key: string }>;
  };
  /** The jobs of the rows `ids`. */
  jobs: { execute(values: { ids: string }): PromiseLike<J[]> | J[] };
  /** Leases the rows `ids` to `owner` until `until`. */
  lease: { execute(values: { owner: string; until: number; ids: string }): unknown };
}

/** A lane of a queue; `reserve`: slots, overall and of each key, this lane leaves to the lanes claimed before it. */
export interface QueueLane {
  name: string;
  reserve?: { slots: number; perKey: number };
}

export interface QueueSpec<J extends { id: string }, R> {
  /** For logs. */
  name: string;
  concurrency: number;
  perKeyConcurrency: number;
  /** Lanes in claim order; none: one lane (the statements then read no lane). */
  lanes?: readonly QueueLane[];
  leaseMs: number;
  pollMs: number;
  /** The claim statements on `tx`. */
  statements(tx: Db): ClaimStatements<J>;
  /** Does the job's work (a delivery attempt, a webhook request); a failure of the work is its result, never thrown. */
  attempt(job: J): Promise<R>;
  /** Records the result in one write, clearing the lease; throws when the write fails. */
  record(job: J, result: R): Promise<void>;
}

export interface LeasedQueue {
  start(): void;
  /** Looks for due rows soon (after new rows were committed); ignored unless started. */
  wake(): void;
  /** Claims what is due now and waits until every job in flight is done (tests, drills); answers how many it claimed. */
  runOnce(): Promise<number>;
  /** Stops claiming and waits for the claim committing and the jobs in flight. */
  stop(): Promise<void>;
  readonly inFlight: number;
}

/** A job claimed, with its key and its lane (empty for a queue without lanes). */
interface ClaimedJob<J> {
  job: J;
  key: string;
  lane: string;
}

/** Rows read per free slot: a key can reach its cap within one claim, leaving rows to skip. */
const CLAIM_WINDOW_FACTOR = 2;
/** Waits between tries of a record the store refused: short at first (a busy moment), then at most every 5 s. */
const RECORD_RETRY_FIRST_MS = 100;
const RECORD_RETRY_MAX_MS = 5_000;

export function createLeasedQueue<J extends { id: string }, R>(deps: {
  writer: Writer;
  clock: Clock;
  logger: Logger;
  spec: QueueSpec<J, R>;
}): LeasedQueue {
  const { writer, clock, logger, spec } = deps;
  type Claimed = ClaimedJob<J>;
  const owner = newId();
  const running = new Map<string, Promise<void>>();
  const perKey = new Map<string, number>();
  /** Jobs in flight per lane, and per lane and key (`lane key`): what a lane's reserve is measured against. */
  const perLane = new Map<string, number>();
  const perLaneKey = new Map<string, number>();
  let claiming: Promise<Promise<void>[]> | undefined;
  let claimAgain = false;
  const poller = createPoller(() => pump(false), spec.pollMs);
  /** Aborted by `stop()`, for every job dispatched until the next `start()`; a record is then tried once. */
  let stopRequested = new AbortController();

  /**
   * The jobs claimed, each with its key as the due statement read it. `byHand`: asked for by `runOnce`, which
   * works after `stop()` too (drills); the poller's pumps stop then.
   */
  const claim = async (byHand: boolean): Promise<Claimed[]> => {
    const free = spec.concurrency - running.size;
    if (free <= 0 || (poller.stopping && !byHand)) return [];
    // Claim in batches: a claim per freed slot would cost more than the jobs themselves.
    if (running.size > 0 && free < Math.max(1, spec.concurrency >> 3)) return [];
    return writer.write(async (tx) => {
      const now = clock.now();
      const statements = spec.statements(tx);
      const claimed: Claimed[] = [];
      // Keys taken by this claim's earlier lanes count against the later lanes' caps.
      const taken = new Map<string, number>();
      for (const lane of spec.lanes ?? [undefined]) {
        const name = lane?.name ?? "";
        const reserve = lane?.reserve ?? { slots: 0, perKey: 0 };
        // The lane's own jobs stay `reserve` short of the caps; every job counts against the caps themselves.
        const laneFree = Math.min(free - claimed.length, spec.concurrency - reserve.slots - (perLane.get(name) ?? 0));
        if (laneFree <= 0) continue;
        const busyOf = (key: string) =>
          Math.max(
            (perKey.get(key) ?? 0) + (taken.get(key) ?? 0),
            reserve.perKey ? (perLaneKey.get(`${name} ${key}`) ?? 0) + reserve.perKey : 0,
          );
        const keys = new Set([...perKey.keys(), ...taken.keys()]);
        const jobs = await claimLane(statements, now, lane?.name, laneFree, keys, busyOf, reserve.perKey);
        for (const job of jobs) taken.set(job.key, (taken.get(job.key) ?? 0) + 1);
        claimed.push(...jobs.map((job) => ({ ...job, lane: name })));
      }
      return claimed;
    });
  };

  /** One lane's part of a claim: at most `free` rows, of each key no more than its cap less what `busyOf` counts. */
  const claimLane = async (
    statements: ClaimStatements<J>,
    now: number,
    lane: string | undefined,
    free: number,
    keys: Set<string>,
    busyOf: (key: string) => number,
    idle: number,
  ): Promise<Array<{ job: J; key: string }>> => {
    const perKeyCap = spec.perKeyConcurrency;
    const window = {
      now,
      lane,
      limit: free * CLAIM_WINDOW_FACTOR,
      saturated: JSON.stringify([...keys].filter((key) => busyOf(key) >= perKeyCap)),
      inFlight: JSON.stringify([...running.keys()]),
    };
    if ("claim" in statements)
      return statements.claim.execute({
        ...window,
        free,
        busy: JSON.stringify(Object.fromEntries([...keys].map((key) => [key, busyOf(key)]))),
        idle,
        perKeyCap,
        owner,
        until: now + spec.leaseMs,
      });
    const candidates = await statements.due.execute(window);
    const keyOf = new Map<string, string>();
    const planned = new Map<string, number>();
    for (const { id, key } of candidates) {
      if (keyOf.size >= free) break;
      if (busyOf(key) + (planned.get(key) ?? 0) >= perKeyCap) continue;
      planned.set(key, (planned.get(key) ?? 0) + 1);
      keyOf.set(id, key);
    }
    if (keyOf.size === 0) return [];
    const ids = JSON.stringify([...keyOf.keys()]);
    await statements.lease.execute({ owner, until: now + spec.leaseMs, ids });
    const jobs = await statements.jobs.execute({ ids });
    return jobs.map((job) => ({ job, key: keyOf.get(job.id)! }));
  };

  const recordDurably = async (job: J, result: R, stop: AbortSignal) => {
    for (let tries = 1, waitMs = RECORD_RETRY_FIRST_MS; ; tries++, waitMs = Math.min(waitMs * 2, RECORD_RETRY_MAX_MS)) {
      try {
        await spec.record(job, result);
        if (tries > 1) logger.info(`${spec.name}: result recorded after the store refused it`, { id: job.id, tries });
        return;
      } catch (error) {
        if (stop.aborted || !isStoreUnavailable(error)) {
          logger.error(`${spec.name}: result not recorded; the job runs again once its lease expires`, {
            id: job.id,
            err: error,
          });
          return;
        }
        if (tries === 1)
          logger.error(`${spec.name}: could not record a result; trying again until the store takes it`, {
            id: job.id,
            err: error,
          });
        // Rejects when `stop` aborts: the loop then tries once more and gives up.
        await sleep(waitMs, undefined, { signal: stop }).catch(() => {});
      }
    }
  };

  const dispatch = ({ job, key, lane }: Claimed): Promise<void> => {
    const counters = [
      [perKey, key],
      [perLane, lane],
      [perLaneKey, `${lane} ${key}`],
    ] as const;
    for (const [counter, name] of counters) counter.set(name, (counter.get(name) ?? 0) + 1);
    const stop = stopRequested.signal;
    const done = spec
      .attempt(job)
      .then((result) => recordDurably(job, result, stop))
      .catch((error) => logger.error(`${spec.name}: job failed unexpectedly`, { id: job.id, err: error }))
      .finally(() => {
        running.delete(job.id);
        for (const [counter, name] of counters) {
          const left = (counter.get(name) ?? 1) - 1;
          if (left > 0) counter.set(name, left);
          else counter.delete(name);
        }
        poller.wake();
      });
    running.set(job.id, done);
    return done;
  };

  /** One claim at a time; a pump asked for meanwhile runs once the current claim is done. */
  const pump = (byHand: boolean): Promise<Promise<void>[]> => {
    if (claiming) {
      claimAgain = true;
      return claiming;
    }
    claiming = claim(byHand)
      .then((jobs) => jobs.map(dispatch))
      .catch((error) => {
        logger.error(`${spec.name}: could not claim`, { err: error });
        return [];
      })
      .finally(() => {
        claiming = undefined;
        if (claimAgain && !poller.stopping) {
          claimAgain = false;
          poller.wake();
        }
      });
    return claiming;
  };

  return {
    start() {
      if (stopRequested.signal.aborted) stopRequested = new AbortController();
      poller.start();
    },
    wake: poller.wake,
    async runOnce() {
      if (claiming) await claiming;
      const started = await pump(true);
      // Jobs the running queue claimed on its own are waited for too: when this returns, nothing is in flight.
      await Promise.all([...started, ...running.values()]);
      return started.length;
    },
    async stop() {
      poller.stop();
      stopRequested.abort();
      if (claiming) await claiming;
      await Promise.all(running.values());
    },
    get inFlight() {
      return running.size;
    },
  };
}
