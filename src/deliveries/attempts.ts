/**
 * The delivery worker: a recipient's attempts, on the leased-queue engine (queue/leased-queue.ts: claims, leases,
 * caps, wake-ups, drain), keyed by destination domain. Design note:
 *
 * - Results: an attempt's result is a cause of the recipient's lifecycle (deliveries/lifecycle.ts: delivered, sent,
 *   temporary — planned again by the retry table, or bounced once it runs out — or permanent), carried out with its
 *   event and any suppression in one durable write that also clears the lease; the results of one event-loop turn
 *   share that write (`applyAttempts`). A result is applied only while the recipient still waits (queued or
 *   deferred): a report or a removed domain may have judged it meanwhile. A complaint reported with the acceptance
 *   (the simulator's `complained@`, providers/simulator.ts) follows its result in the same write.
 * - Duplicates: delivery is at-least-once. If the process dies after the remote side accepted but before the
 *   result was committed, the attempt is repeated after the lease expires — with the same Message-ID, so
 *   receivers and the capture store can recognise the repeat.
 * - Lanes: transactional recipients are claimed before broadcast ones, and the broadcast lane leaves an eighth of
 *   the slots and one slot of each destination to transactional mail (docs/operations.md#sending-lanes).
 */
import { and, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import { ASIDE_CONTENT_BYTES } from "../db/content-writes.ts";
import { isStoreUnavailable } from "../db/faults.ts";
import { engineOf, inJsonArray, lockedForClaim } from "../db/dialect.ts";
import { perConnection, prepareAs } from "../db/prepared.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { bounceData } from "../events/model.ts";
import type { KeyMode } from "../access.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import { perTurn, writeTogetherOrAlone } from "../lib/turn-batch.ts";
import type { DeliveryJob, DeliveryResult, Provider } from "../providers/types.ts";
import {
  claimOnPostgres,
  createLeasedQueue,
  type ClaimStatements,
  type LeasedQueue,
  type QueueLane,
} from "../queue/leased-queue.ts";
import { LANES, type Lane } from "./model.ts";
import { planRetry, type RetryPolicy } from "./retry-schedule.ts";
import type { AttemptCause, AttemptResult, Lifecycle } from "./lifecycle.ts";

export interface WorkerOptions extends RetryPolicy {
  concurrency: number;
  perDestinationConcurrency: number;
  leaseMs: number;
  pollMs: number;
}

export type DeliveryWorker = LeasedQueue;

interface PendingRecord {
  result: AttemptResult;
  /** A complaint the receiving side reported with its acceptance: recorded in the same write, after the result. */
  complaint?: { feedbackType: string };
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Claimed {
  id: string;
  emailId: string;
  organizationId: string;
  recipient: string;
  destination: string;
  attempts: number;
  /** Released by hand while a pause applied: no pause holds it (deliveries/pauses.ts). */
  holdExempt: boolean;
  lane: Lane;
  mode: KeyMode;
  envelopeFrom: string;
  messageId: string;
  /** The topic the message was sent for: its recipients get one-click unsubscribe headers (docs/contacts-preferences.md). */
  topicId: string | null;
  createdAt: string;
  scheduledAt: string | null;
  /** The message's size, or null when it is gone (deleted with its organisation). */
  rawBytes: number | null;
  /** The message, unless it is large (then read apart) or gone. */
  raw: Buffer | null;
}

/** Claiming runs for every delivery: its statements are prepared once per connection. */
const queueStatements = perConnection((tx: Db) => {
  const { deliveries, emailContents, emails } = tablesOf(tx);
  const due = tx
    .select({ id: deliveries.id, key: deliveries.destination })
    .from(deliveries)
    .where(
      and(
        // One lane at a time, by a range of the due index (lane, next_attempt_at): see the queue's lanes.
        eq(deliveries.lane, sql.placeholder("lane")),
        lte(deliveries.nextAttemptAt, sql.placeholder("now")),
        or(isNull(deliveries.leaseUntil), lt(deliveries.leaseUntil, sql.placeholder("now"))),
        // Skipped in SQL rather than in JS: rows of a destination at its cap, or already in flight here, would
        // otherwise be read on every claim (one busy domain can have thousands due).
        sql`NOT ${inJsonArray(tx, deliveries.destination, sql.placeholder("saturated"))}`,
        sql`NOT ${inJsonArray(tx, deliveries.id, sql.placeholder("inFlight"))}`,
      ),
    )
    .orderBy(deliveries.nextAttemptAt)
    .limit(sql.placeholder("limit"));
  const jobs = tx
    .select({
      id: deliveries.id,
      emailId: deliveries.emailId,
      organizationId: deliveries.organizationId,
      recipient: deliveries.recipient,
      destination: deliveries.destination,
      attempts: deliveries.attempts,
      holdExempt: deliveries.holdExempt,
      lane: deliveries.lane,
      mode: emails.mode,
      envelopeFrom: emails.envelopeFrom,
      messageId: emails.messageId,
      topicId: emails.topicId,
      createdAt: emails.createdAt,
      scheduledAt: emails.scheduledAt,
      // The message as it goes out, read with the claim rather than by a statement per delivery; a body this large is
      // read off the event loop where the store can (db/content-writes.ts), so the claim answers null in its place
      // (both engines know a blob's length without reading it). No body at all: the message is gone.
      rawBytes: sql<number | null>`length(${emailContents.raw})`.mapWith(Number),
      raw: sql<Buffer | null>`CASE WHEN length(${emailContents.raw}) < ${sql.raw(String(ASIDE_CONTENT_BYTES))} THEN ${emailContents.raw} END`.mapWith(
        emailContents.raw,
      ),
    })
    .from(deliveries)
    .innerJoin(emails, eq(emails.id, deliveries.emailId))
    .leftJoin(emailContents, eq(emailContents.emailId, deliveries.emailId))
    .where(inJsonArray(tx, deliveries.id, sql.placeholder("ids")));
  const slot = <T>(name: string) => sql.placeholder(name) as unknown as T;
  return {
    due: prepareAs("delivery_due", lockedForClaim(tx, due, deliveries)),
    jobs: prepareAs("delivery_jobs", jobs),
    lease: prepareAs(
      "delivery_lease",
      tx
        .update(deliveries)
        .set({ leaseOwner: slot<string>("owner"), leaseUntil: slot<number>("until") })
        .where(inJsonArray(tx, deliveries.id, sql.placeholder("ids"))),
    ),
  };
});

/** The claim statements on `tx`: PostgreSQL's one (leased-queue.ts `claimOnPostgres`), SQLite's three steps. */
function claimStatements(tx: Db): ClaimStatements<Claimed> {
  if (engineOf(tx) !== "postgres") return queueStatements(tx);
  return {
    claim: claimOnPostgres(
      tx,
      "delivery_claim",
      {
        table: "deliveries",
        key: "destination",
        lane: "lane",
        // The jobs as `delivery_jobs` reads them.
        jobsFrom: "emails e LEFT JOIN email_contents c ON c.email_id = e.id",
        jobsWhere: "e.id = d.email_id",
        returning: `d.id, d.email_id AS "emailId", d.organization_id AS "organizationId", d.recipient, d.destination,
  d.attempts, d.hold_exempt AS "holdExempt", d.lane, e.mode, e.envelope_from AS "envelopeFrom", e.message_id AS "messageId", e.topic_id AS "topicId",
  e.created_at AS "createdAt",
  e.scheduled_at AS "scheduledAt", length(c.raw) AS "rawBytes",
  CASE WHEN length(c.raw) < ${ASIDE_CONTENT_BYTES} THEN c.raw END AS raw`,
      },
      ({ claim_key: _key, ...job }) => job as unknown as Claimed,
    ),
  };
}

export function createDeliveryWorker(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  lifecycle: Lifecycle;
  /** The provider of a delivery: by its key's mode, or the simulator for a test address. */
  providerFor: (job: { mode: KeyMode; recipient: string }) => Provider;
  options: WorkerOptions;
  logger: Logger;
  metrics: Metrics;
  /** Why a delivery must wait instead of being attempted now (a pause, deliveries/pauses.ts), or undefined. */
  holdOf?: (job: {
    organizationId: string;
    envelopeFrom: string;
    mode: KeyMode;
    recipient: string;
    lane: Lane;
  }) => Promise<string | undefined>;
}): DeliveryWorker {
  const { db, writer, clock, lifecycle, options, logger, metrics } = deps;

  const { emailContents } = tablesOf(db);
  const rawOf = async (job: Claimed): Promise<Buffer | undefined> => {
    if (job.rawBytes === null) return undefined;
    if (job.raw !== null) return job.raw;
    if (writer.readContent) return writer.readContent("email_contents", job.emailId);
    return (
      await first(
        db.select({ raw: emailContents.raw }).from(emailContents).where(eq(emailContents.emailId, job.emailId)),
      )
    )?.raw;
  };

  /** The lifecycle's cause for `result` of an attempt at `job`, with what it records. */
  const causeOf = (job: Claimed, result: DeliveryResult): AttemptResult => {
    const now = clock.now();
    const attempts = job.attempts + 1;
    const dueSince = Math.max(Date.parse(job.createdAt), job.scheduledAt ? Date.parse(job.scheduledAt) : 0);
    const provider = providerName(job, result);
    const cause = (on: AttemptCause, nextAttemptAt: number | null, data: Record<string, unknown>): AttemptResult => ({
      on,
      deliveryId: job.id,
      change: {
        response: result.response,
        attempt: { attempts, provider, providerMessageId: result.providerMessageId ?? null, nextAttemptAt },
        data,
      },
    });
    const bounce = (type: "Permanent" | "Transient") =>
      cause(type === "Permanent" ? "attempt.permanent" : "attempt.retries_exhausted", null, {
        bounce: bounceData(type, result.subType ?? "General", result.response),
        attempts,
        provider,
      });
    switch (result.outcome) {
      case "delivered":
      case "sent":
        return cause(result.outcome === "delivered" ? "attempt.delivered" : "attempt.sent", null, {
          response: result.response,
          attempts,
          provider,
        });
      case "temporary": {
        const decision = planRetry(options, { now, dueSince, failedAttempts: attempts, hintMs: result.retryAfterMs });
        if ("giveUp" in decision) return bounce("Transient");
        return cause("attempt.temporary", decision.retryAt, {
          response: result.response,
          attempts,
          next_attempt_at: isoTime(decision.retryAt),
          provider,
        });
      }
      case "permanent":
        return bounce("Permanent");
    }
  };

  /**
   * The results of one turn are recorded in one write (the lifecycle's `applyAttempts`: on PostgreSQL a few
   * statements for them all instead of three each). Should that write fail for another reason than an unavailable
   * store, each result is written again alone, so that one result's failure is its own; an unavailable store fails
   * them all, and the queue tries each again (queue/leased-queue.ts).
   */
  const recordTogether = perTurn<PendingRecord>(
    (batch) =>
      void writeTogetherOrAlone(batch, {
        write: (pending) =>
          writer.write(async (tx) => {
            await lifecycle.applyAttempts(
              tx,
              pending.map((item) => item.result),
            );
            for (const { result, complaint } of pending) {
              if (!complaint) continue;
              await lifecycle.apply(
                tx,
                "provider.complaint",
                { deliveryId: result.deliveryId },
                {
                  data: { complaint: { type: complaint.feedbackType } },
                  reason: `feedback report: ${complaint.feedbackType}`,
                },
              );
            }
          }),
        written: (pending) => {
          for (const item of pending) item.resolve();
        },
        failed: (item, error) => item.reject(error),
        failsEvery: isStoreUnavailable,
      }),
  );
  const record = (job: Claimed, result: DeliveryResult) =>
    new Promise<void>((resolve, reject) =>
      recordTogether({ result: causeOf(job, result), complaint: result.complaint, resolve, reject }),
    );

  const provider = (job: Claimed) => deps.providerFor(job);
  /** The named provider the router chose, else the provider's own name (test mode's capture). */
  const providerName = (job: Claimed, result: DeliveryResult) => result.provider ?? provider(job).name;

  /** A delivery a pause holds: it waits as `held`, unattempted, until the pause ends (or it is released by hand). */
  const hold = (job: Claimed, reason: string) =>
    writer.write((tx) => lifecycle.apply(tx, "held", { deliveryId: job.id }, { response: reason }));

  /**
   * Undefined when the message is gone (deleted with its organisation): nothing to deliver, nothing to record; the
   * reason it is held when a pause applies.
   */
  const attempt = async (job: Claimed): Promise<DeliveryResult | { held: string } | undefined> => {
    const held = job.holdExempt ? undefined : await deps.holdOf?.(job);
    if (held) return { held };
    let result: DeliveryResult;
    try {
      const raw = await rawOf(job);
      if (!raw) return undefined;
      const deliveryJob: DeliveryJob = {
        deliveryId: job.id,
        emailId: job.emailId,
        organizationId: job.organizationId,
        envelopeFrom: job.envelopeFrom,
        recipient: job.recipient,
        attempts: job.attempts,
        messageId: job.messageId,
        ...(job.topicId && { topicId: job.topicId }),
        ...(job.lane === "broadcast" && { broadcast: true }),
        raw,
      };
      result = await provider(job).deliver(deliveryJob);
    } catch (error) {
      logger.error("delivery attempt failed unexpectedly", { delivery_id: job.id, email_id: job.emailId, err: error });
      result = { outcome: "temporary", response: "451 4.3.0 Mailroom internal error; will retry" };
    }
    metrics.inc("mailroom_deliveries_total", {
      outcome: result.outcome,
      provider: providerName(job, result),
      lane: job.lane,
    });
    return result;
  };

  return createLeasedQueue<Claimed, DeliveryResult | { held: string } | undefined>({
    writer,
    clock,
    logger,
    spec: {
      name: "delivery",
      concurrency: options.concurrency,
      perKeyConcurrency: options.perDestinationConcurrency,
      lanes: [
        { name: "transactional" },
        {
          name: "broadcast",
          reserve: {
            slots: options.concurrency > 1 ? Math.max(1, options.concurrency >> 3) : 0,
            perKey: options.perDestinationConcurrency > 1 ? 1 : 0,
          },
        },
      ] satisfies Array<{ name: Lane } & QueueLane>,
      leaseMs: options.leaseMs,
      pollMs: options.pollMs,
      statements: claimStatements,
      attempt,
      record: async (job, result) => {
        if (result && "held" in result) await hold(job, result.held);
        else if (result) await record(job, result);
      },
    },
  });
}

/**
 * Queue depth and the age of the oldest due delivery per lane, for /metrics: each lane read by its range of the due
 * index, as a claim reads it.
 */
export function queueGauges(db: Db, clock: Clock) {
  const { deliveries } = tablesOf(db);
  return async () => {
    const now = clock.now();
    const gauges = [];
    for (const lane of LANES) {
      const row = await first(
        db
          .select({
            due: sql<number>`count(*)`.mapWith(Number),
            oldest: sql<number | null>`min(${deliveries.nextAttemptAt})`.mapWith(Number),
          })
          .from(deliveries)
          .where(and(eq(deliveries.lane, lane), lte(deliveries.nextAttemptAt, now))),
      );
      const pending = await first(
        db
          .select({ n: sql<number>`count(*)`.mapWith(Number) })
          .from(deliveries)
          .where(and(eq(deliveries.lane, lane), sql`${deliveries.nextAttemptAt} IS NOT NULL`)),
      );
      gauges.push({
        lane,
        due: row?.due ?? 0,
        pending: pending?.n ?? 0,
        oldestDueAgeSeconds: row?.oldest ? (now - row.oldest) / 1000 : 0,
      });
    }
    return gauges;
  };
}
