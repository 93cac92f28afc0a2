/**
 * The delivery worker. Design note:
 *
 * - Claiming: due rows (`next_attempt_at <= now`, lease free or expired) are claimed by writing a lease
 *   (`lease_owner`, `lease_until`) in one synchronous transaction. A process that dies leaves leases behind; they
 *   expire after `delivery.lease` and the rows are claimed again, so an accepted message is never stranded.
 * - Concurrency: at most `concurrency` attempts in flight, and `per_destination_concurrency` per recipient domain,
 *   so one slow domain cannot take every slot.
 * - Results: each attempt's result, its event and any suppression are one durable write; the lease is cleared
 *   in the same write. A result is applied only while the row is still in a deliverable state.
 * - Duplicates: delivery is at-least-once. If the process dies after the remote side accepted but before the
 *   result was committed, the attempt is repeated after the lease expires — with the same Message-ID, so
 *   receivers and the capture store can recognise the repeat.
 * - Shutdown: `stop()` stops claiming and waits for attempts in flight to be recorded.
 */
import { and, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { deliveries, emailContents, emails } from "../db/schema/index.ts";
import type { Writer } from "../db/writer.ts";
import type { EventLog } from "../events/service.ts";
import type { KeyMode } from "../keys/model.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import type { DeliveryJob, DeliveryResult, Provider } from "../providers/types.ts";
import type { SuppressionService } from "../suppressions/service.ts";
import { createPoller } from "./poller.ts";
import { planRetry, type RetryPolicy } from "./schedule.ts";

export interface WorkerOptions extends RetryPolicy {
  concurrency: number;
  perDestinationConcurrency: number;
  leaseMs: number;
  pollMs: number;
}

export interface DeliveryWorker {
  start(): void;
  /** Looks for due work now (called after messages are accepted). */
  wake(): void;
  /** Claims what is due now and waits until those attempts are recorded (tests, drills). */
  runOnce(): Promise<number>;
  /** Stops claiming and waits for attempts in flight. */
  stop(): Promise<void>;
  readonly inFlight: number;
}

interface Claimed {
  id: string;
  emailId: string;
  organizationId: string;
  recipient: string;
  destination: string;
  attempts: number;
  mode: KeyMode;
  envelopeFrom: string;
  messageId: string;
  dueSince: number;
}

/** Rows read per free slot: a destination can reach its cap within one claim, leaving rows to skip. */
const CLAIM_WINDOW_FACTOR = 2;

export function createDeliveryWorker(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  events: EventLog;
  suppressions: SuppressionService;
  providerFor: (mode: KeyMode) => Provider;
  options: WorkerOptions;
  logger: Logger;
  metrics: Metrics;
}): DeliveryWorker {
  const { db, writer, clock, events, suppressions, options, logger, metrics } = deps;
  const owner = newId();
  const running = new Map<string, Promise<void>>();
  const perDestination = new Map<string, number>();
  /** Claiming on its own (timer, wake-ups) happens only between start() and stop(); runOnce() works regardless. */
  const poller = createPoller(() => pump(), options.pollMs);

  metrics.counter("mailroom_deliveries_total", "Delivery attempts by outcome.");

  // Prepared once: claiming runs every time delivery slots free up.
  const findDue = db
    .select({
      id: deliveries.id,
      emailId: deliveries.emailId,
      organizationId: deliveries.organizationId,
      recipient: deliveries.recipient,
      destination: deliveries.destination,
      attempts: deliveries.attempts,
      mode: emails.mode,
      envelopeFrom: emails.envelopeFrom,
      messageId: emails.messageId,
      createdAt: emails.createdAt,
      scheduledAt: emails.scheduledAt,
    })
    .from(deliveries)
    .innerJoin(emails, eq(emails.id, deliveries.emailId))
    .where(
      and(
        lte(deliveries.nextAttemptAt, sql.placeholder("now")),
        or(isNull(deliveries.leaseUntil), lt(deliveries.leaseUntil, sql.placeholder("now"))),
        // Skipped in SQL rather than in JS: rows of a destination at its cap, or already in flight here, would
        // otherwise be read and mapped on every claim (one busy domain can have thousands due).
        sql`${deliveries.destination} NOT IN (SELECT value FROM json_each(${sql.placeholder("saturated")}))`,
        sql`${deliveries.id} NOT IN (SELECT value FROM json_each(${sql.placeholder("inFlight")}))`,
      ),
    )
    .orderBy(deliveries.nextAttemptAt)
    .limit(sql.placeholder("limit"))
    .prepare();
  const lease = db
    .update(deliveries)
    .set({ leaseOwner: owner, leaseUntil: sql.placeholder("until") as unknown as number })
    .where(sql`${deliveries.id} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`)
    .prepare();

  const claim = (): Claimed[] => {
    const free = options.concurrency - running.size;
    // Claim in batches: a claim query per freed slot would cost more than the deliveries themselves.
    if (free <= 0 || poller.stopping || (running.size > 0 && free < Math.max(1, options.concurrency >> 3))) return [];
    const now = clock.now();
    const chosen: Claimed[] = [];
    const planned = new Map<string, number>();
    const saturated = [...perDestination].filter(([, busy]) => busy >= options.perDestinationConcurrency).map(([destination]) => destination);
    const candidates = findDue.all({ now, limit: free * CLAIM_WINDOW_FACTOR, saturated: JSON.stringify(saturated), inFlight: JSON.stringify([...running.keys()]) });
    for (const row of candidates) {
      if (chosen.length >= free) break;
      const busy = (perDestination.get(row.destination) ?? 0) + (planned.get(row.destination) ?? 0);
      if (busy >= options.perDestinationConcurrency) continue;
      planned.set(row.destination, (planned.get(row.destination) ?? 0) + 1);
      const dueSince = Math.max(Date.parse(row.createdAt), row.scheduledAt ? Date.parse(row.scheduledAt) : 0);
      chosen.push({ ...row, dueSince });
    }
    // The lease only matters to another process after this one died, so it rides along with the next group commit
    // instead of costing a disk flush per claim; within this process `running` already keeps a row from being taken
    // twice. Should the process die before the lease commits, the row is simply free to claim at restart. The writer
    // commits in order, so the attempt's result (which clears the lease) always lands after it.
    if (chosen.length) {
      const ids = JSON.stringify(chosen.map((c) => c.id));
      writer.write(() => lease.run({ until: now + options.leaseMs, ids })).catch((error) => logger.error("could not record delivery leases", { err: error }));
    }
    return chosen;
  };

  const statusOf = db.select({ status: deliveries.status }).from(deliveries).where(eq(deliveries.id, sql.placeholder("id"))).prepare();
  const placeholder = <T>(name: string) => sql.placeholder(name) as unknown as T;
  const saveAttempt = db
    .update(deliveries)
    .set({
      status: placeholder<string>("status"),
      attempts: placeholder<number>("attempts"),
      nextAttemptAt: placeholder<number | null>("nextAttemptAt"),
      leaseOwner: null,
      leaseUntil: null,
      lastResponse: placeholder<string>("lastResponse"),
      provider: placeholder<string>("provider"),
      providerMessageId: placeholder<string | null>("providerMessageId"),
      updatedAt: placeholder<string>("updatedAt"),
    })
    .where(eq(deliveries.id, sql.placeholder("id")))
    .prepare();
  const rawOf = db.select({ raw: emailContents.raw }).from(emailContents).where(eq(emailContents.emailId, sql.placeholder("id"))).prepare();

  const record = (job: Claimed, result: DeliveryResult) =>
    writer.write((tx) => {
      const now = clock.now();
      const current = statusOf.get({ id: job.id });
      if (!current || (current.status !== "queued" && current.status !== "deferred")) return;
      const attempts = job.attempts + 1;
      const save = (status: string, nextAttemptAt: number | null) =>
        saveAttempt.run({
          id: job.id,
          status,
          attempts,
          nextAttemptAt,
          lastResponse: result.response,
          provider: provider(job).name,
          providerMessageId: result.providerMessageId ?? null,
          updatedAt: isoTime(now),
        });
      const event = { organizationId: job.organizationId, emailId: job.emailId, recipient: job.recipient };
      const bounce = (type: "Permanent" | "Transient") => {
        save("bounced", null);
        events.append(tx, {
          ...event,
          type: "email.bounced",
          data: { bounce: { type, sub_type: result.subType ?? "General", message: result.response, diagnostic_code: result.response }, attempts },
        });
      };
      switch (result.outcome) {
        case "delivered":
        case "sent":
          save(result.outcome, null);
          events.append(tx, { ...event, type: result.outcome === "delivered" ? "email.delivered" : "email.sent", data: { response: result.response, attempts } });
          break;
        case "temporary": {
          const decision = planRetry(options, { now, dueSince: job.dueSince, failedAttempts: attempts, hintMs: result.retryAfterMs });
          if ("giveUp" in decision) {
            bounce("Transient");
            break;
          }
          save("deferred", decision.retryAt);
          events.append(tx, { ...event, type: "email.delivery_delayed", data: { response: result.response, attempts, next_attempt_at: isoTime(decision.retryAt) } });
          break;
        }
        case "permanent":
          bounce("Permanent");
          suppressions.addInTransaction(tx, job.organizationId, { email: job.recipient, origin: "bounce", sourceId: job.emailId, reason: result.response });
          break;
      }
    });

  const provider = (job: Claimed) => deps.providerFor(job.mode);

  const attempt = async (job: Claimed) => {
    let result: DeliveryResult;
    try {
      const row = rawOf.get({ id: job.emailId });
      if (!row) return; // The message was deleted with its organisation; nothing left to deliver.
      const deliveryJob: DeliveryJob = {
        deliveryId: job.id,
        emailId: job.emailId,
        organizationId: job.organizationId,
        envelopeFrom: job.envelopeFrom,
        recipient: job.recipient,
        messageId: job.messageId,
        raw: row.raw,
      };
      result = await provider(job).deliver(deliveryJob);
    } catch (error) {
      logger.error("delivery attempt failed unexpectedly", { delivery_id: job.id, email_id: job.emailId, err: error });
      result = { outcome: "temporary", response: "451 4.3.0 Mailroom internal error; will retry" };
    }
    metrics.inc("mailroom_deliveries_total", { outcome: result.outcome, provider: provider(job).name });
    try {
      await record(job, result);
    } catch (error) {
      // The lease stays; after it expires the row is claimed and attempted again (at-least-once).
      logger.error("could not record delivery result", { delivery_id: job.id, email_id: job.emailId, err: error });
    }
  };

  const dispatch = (job: Claimed): Promise<void> => {
    perDestination.set(job.destination, (perDestination.get(job.destination) ?? 0) + 1);
    const done = attempt(job).finally(() => {
      running.delete(job.id);
      const left = (perDestination.get(job.destination) ?? 1) - 1;
      if (left > 0) perDestination.set(job.destination, left);
      else perDestination.delete(job.destination);
      poller.wake();
    });
    running.set(job.id, done);
    return done;
  };

  const pump = (): Promise<void>[] => {
    try {
      return claim().map(dispatch);
    } catch (error) {
      logger.error("could not claim deliveries", { err: error });
      return [];
    }
  };

  return {
    start: poller.start,
    wake: poller.wake,
    async runOnce() {
      const started = pump();
      await Promise.all(started);
      return started.length;
    },
    async stop() {
      poller.stop();
      await Promise.all(running.values());
    },
    get inFlight() {
      return running.size;
    },
  };
}

/** Queue depth and the age of the oldest due delivery, for /metrics. */
export function queueGauges(db: Db, clock: Clock) {
  return () => {
    const now = clock.now();
    const row = db
      .select({ due: sql<number>`count(*)`, oldest: sql<number | null>`min(${deliveries.nextAttemptAt})` })
      .from(deliveries)
      .where(lte(deliveries.nextAttemptAt, now))
      .get();
    const pending = db.select({ n: sql<number>`count(*)` }).from(deliveries).where(sql`${deliveries.nextAttemptAt} IS NOT NULL`).get();
    return { due: row?.due ?? 0, pending: pending?.n ?? 0, oldestDueAgeSeconds: row?.oldest ? (now - row.oldest) / 1000 : 0 };
  };
}
