/**
 * Periodic jobs (domain re-checks, pruning) that run once across every instance sharing the store. Each job has a
 * row in `periodic_jobs` with its next turn; an instance takes a turn by moving `next_run_at` forward in a
 * compare-and-set write, and only the instance whose write matched runs it. Invariants: a turn is taken once
 * across instances; within an instance a job never overlaps itself; `stop()` waits for the runs in progress.
 */
import { and, eq, lte } from "drizzle-orm";
import { tablesOf, type Db, type Writer } from "../db/store.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";

/** How often an instance looks whether a job's turn has come (at most; a shorter interval looks more often). */
const LOOK_MS = 5_000;

export interface PeriodicJobs {
  /** Runs `work` every `intervalMs`, once across the instances; the first turn is due at once. */
  every(name: string, intervalMs: number, work: () => Promise<unknown>): void;
  start(): void;
  /** Takes the job's turn if it is due; true when this instance ran it (tests drive it). */
  runIfDue(name: string): Promise<boolean>;
  stop(): Promise<void>;
}

interface Job {
  intervalMs: number;
  work: () => Promise<unknown>;
  running?: Promise<boolean>;
}

export function createPeriodicJobs(deps: { db: Db; writer: Writer; clock: Clock; logger: Logger }): PeriodicJobs {
  const { writer, clock, logger } = deps;
  const { periodicJobs } = tablesOf(deps.db);
  const jobs = new Map<string, Job>();
  const timers: Array<ReturnType<typeof setInterval>> = [];

  /** The turn, if it is due and no other instance took it first. */
  const takeTurn = (name: string, intervalMs: number) =>
    writer.write(async (tx) => {
      const now = clock.now();
      await tx.insert(periodicJobs).values({ name, nextRunAt: now }).onConflictDoNothing();
      const taken = await tx
        .update(periodicJobs)
        .set({ nextRunAt: now + intervalMs })
        .where(and(eq(periodicJobs.name, name), lte(periodicJobs.nextRunAt, now)))
        .returning({ name: periodicJobs.name });
      return taken.length > 0;
    });

  const runIfDue = (name: string): Promise<boolean> => {
    const job = jobs.get(name);
    if (!job) throw new Error(`unknown periodic job ${name}`);
    job.running ??= takeTurn(name, job.intervalMs)
      .then(async (turn) => {
        if (turn) await job.work();
        return turn;
      })
      .catch((error) => {
        logger.error("periodic job failed", { job: name, err: error });
        return false;
      })
      .finally(() => (job.running = undefined));
    return job.running;
  };

  return {
    every(name, intervalMs, work) {
      jobs.set(name, { intervalMs, work });
    },
    start() {
      for (const [name, job] of jobs) {
        timers.push(setInterval(() => void runIfDue(name), Math.min(job.intervalMs, LOOK_MS)));
        void runIfDue(name);
      }
    },
    runIfDue,
    async stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      await Promise.all([...jobs.values()].map((job) => job.running));
    },
  };
}
