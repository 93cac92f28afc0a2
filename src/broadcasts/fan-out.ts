/**
 * A broadcast's fan-out (docs/broadcasts.md#the-fan-out): the segment's contacts, reached in id order in batches,
 * each turned into one message through the one funnel (`emails.submit`, the broadcast lane). Design note:
 *
 * - Work on the one leased-queue engine (queue/leased-queue.ts): a queued broadcast is a row due at `next_attempt_at`;
 *   a claim leases it, `attempt` makes one batch's messages, and `record` moves the cursor and makes it due again at
 *   once (or marks it sent). Batches never hold the event loop: composition runs on the CPU pool, and each batch is
 *   a few reads, then the funnel's group-committed writes.
 * - Eligibility is judged as each contact is reached: not unsubscribed, not on the suppression list, and receiving the
 *   topic when there is one. A contact reached later than a change sees the change.
 * - Exactly once per contact (docs/broadcasts.md#exactly-once): a message carries `(broadcast_id, contact_id)`,
 *   unique, on its own row, so it and its mark commit together. A batch redone after a crash (its lease expired, the
 *   cursor not yet moved) skips the contacts that already have one, and a funnel insert that meets the unique index
 *   (a second instance that took over an expired lease) is counted as made, not made again. A record whose lease was
 *   taken over changes nothing.
 * - Cancel: the fan-out reads the status between chunks and stops; a record that finds the broadcast canceled cancels
 *   the recipients of the messages its batch made while the cancel ran.
 */
import { and, eq } from "drizzle-orm";
import type { Actor } from "../access.ts";
import { findTopic } from "../contacts/audience-repo.ts";
import { findSegment } from "../contacts/repo.ts";
import type { ContactService } from "../contacts/service.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import type { SubmitInput } from "../emails/model.ts";
import type { EmailService } from "../emails/service.ts";
import { parseSendRequest } from "../emails/validate.ts";
import { AppError } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { domainOf } from "../lib/addresses.ts";
import type { PreferenceService } from "../preferences/service.ts";
import { createLeasedQueue, type LeasedQueue } from "../queue/leased-queue.ts";
import type { SuppressionService } from "../suppressions/service.ts";
import { personalize, withPreviewText, type Personalisation } from "./personalize.ts";
import {
  contactsWithMessage,
  fanOutStatements,
  segmentContacts,
  type BroadcastRow,
  type FanOutJob,
  type SegmentContact,
} from "./repo.ts";

export interface FanOutOptions {
  /** Contacts read per batch. */
  batch: number;
  /** Messages submitted together (one funnel batch, one transaction). */
  chunk: number;
  /** Chunks of a batch in flight at once. */
  parallel: number;
  leaseMs: number;
  pollMs: number;
  /** How long a batch the store or a quota refused waits before it is tried again. */
  retryMs: number;
}

// Sized on PostgreSQL, where a chunk's transaction waits on round trips (docs/broadcasts.md#the-fan-out).
export const FAN_OUT_DEFAULTS: FanOutOptions = {
  batch: 1_000,
  chunk: 100,
  parallel: 8,
  leaseMs: 15_000,
  pollMs: 1_000,
  retryMs: 60_000,
};

type Outcome =
  | { kind: "batch"; cursor: string; made: number; skipped: number; done: boolean }
  | { kind: "retry"; reason: string }
  | { kind: "stale" }
  /** Its segment or topic was deleted since it was queued: it stops, canceled (docs/broadcasts.md#statuses). */
  | { kind: "orphaned" };

/** Refusals that say "not now" rather than "not this contact": the batch is tried again later, cursor unmoved. */
const NOT_NOW = new Set(["daily_quota_exceeded", "rate_limit_exceeded", "service_unavailable"]);

export function createFanOut(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  logger: Logger;
  emails: Pick<EmailService, "submit" | "submitBatch">;
  contacts: Pick<ContactService, "subscribedTo">;
  suppressions: Pick<SuppressionService, "suppressedAmong">;
  preferences: Pick<PreferenceService, "contactPageUrl">;
  /** Cancels the recipients still waiting of a broadcast canceled while a batch ran. */
  cancelWaiting: (broadcastId: string) => Promise<number>;
  maxRecipients: number;
  options?: Partial<FanOutOptions>;
}): LeasedQueue {
  const { db, writer, clock, logger } = deps;
  const options = { ...FAN_OUT_DEFAULTS, ...deps.options };

  const broadcastOf = (tx: Db, id: string) => {
    const { broadcasts } = tablesOf(tx);
    return first(tx.select().from(broadcasts).where(eq(broadcasts.id, id)));
  };

  /** The broadcast's messages go as the key that sent it, within the organisation's quotas (docs/broadcasts.md#scopes). */
  const actorOf = (row: BroadcastRow): Actor => ({
    organizationId: row.organizationId,
    keyId: row.apiKeyId,
    mode: "live",
    scopes: new Set(["emails:send"]),
    domains: null,
    keyRateLimit: null,
    orgRateLimit: null,
    keyDailyQuota: null,
    user: null,
  });

  const fallbacksOf = async (organizationId: string) => {
    const { contactProperties } = tablesOf(db);
    const rows = await db
      .select({ key: contactProperties.key, fallback: contactProperties.fallbackValue })
      .from(contactProperties)
      .where(eq(contactProperties.organizationId, organizationId));
    return new Map(rows.map((row) => [row.key, row.fallback ?? null]));
  };

  /** One contact's message, personalised, as the funnel takes it (a contact whose address it refuses is skipped). */
  const inputFor = async (
    row: BroadcastRow,
    contact: SegmentContact,
    fallbacks: Personalisation["propertyFallbacks"],
  ): Promise<SubmitInput> => {
    const from = row.from!;
    const unsubscribeUrl = await deps.preferences.contactPageUrl({
      organizationId: row.organizationId,
      contactId: contact.id,
      topicId: row.topicId,
      fromDomain: domainOf(/<([^>]+)>\s*$/.exec(from)?.[1] ?? from),
    });
    const p: Personalisation = { contact, unsubscribeUrl, propertyFallbacks: fallbacks };
    const fields = parseSendRequest(
      {
        from,
        to: contact.email,
        subject: personalize(row.subject ?? "", p, false),
        ...(row.html && { html: withPreviewText(personalize(row.html, p, true), row.previewText) }),
        ...(row.text && { text: personalize(row.text, p, false) }),
        ...(row.replyTo && { reply_to: row.replyTo }),
      },
      { now: clock.now(), maxRecipients: deps.maxRecipients },
    );
    return {
      kind: "fields",
      source: "api",
      lane: "broadcast",
      broadcast: { id: row.id, contactId: contact.id },
      fields: { ...fields, ...(row.topicId && { topicId: row.topicId }) },
    };
  };

  /** Whether a refusal is the unique (broadcast_id, contact_id) taken: another holder made that message. */
  const taken = (error: unknown) => error instanceof AppError && error.name === "conflict";

  /**
   * One chunk's messages through the funnel together (one transaction); answers how many were made and how many
   * skipped. Should another holder have made one of them meanwhile, the chunk's write meets the unique index and
   * fails whole: then each is submitted alone, and the one taken counts as made.
   */
  const submitChunk = async (
    row: BroadcastRow,
    chunk: SegmentContact[],
    fallbacks: Personalisation["propertyFallbacks"],
  ) => {
    const inputs = await Promise.all(
      chunk.map((contact) =>
        inputFor(row, contact, fallbacks).catch((error: unknown) => {
          if (error instanceof AppError) return error;
          throw error;
        }),
      ),
    );
    const actor = actorOf(row);
    try {
      const { data, errors = [] } = await deps.emails.submitBatch(inputs, actor, {
        permissive: true,
        concurrently: true,
      });
      for (const refused of errors)
        logger.warn("broadcast: a contact's message was refused; skipped", {
          broadcast_id: row.id,
          contact_id: chunk[refused.index]?.id,
          reason: refused.message,
        });
      return { made: data.length, skipped: errors.length };
    } catch (error) {
      if (!taken(error)) throw error;
    }
    let made = 0;
    let skipped = 0;
    for (const input of inputs) {
      if (input instanceof AppError) {
        skipped++;
        continue;
      }
      try {
        await deps.emails.submit(input, actor);
        made++;
      } catch (error) {
        if (!(error instanceof AppError) || NOT_NOW.has(error.name)) throw error;
        if (taken(error)) made++;
        else skipped++;
      }
    }
    return { made, skipped };
  };

  const batchOf = async (job: FanOutJob): Promise<Outcome> => {
    const row = await broadcastOf(db, job.id);
    if (row?.status !== "queued" || row.leaseOwner !== job.owner) return { kind: "stale" };
    if (
      !row.segmentId ||
      !(await findSegment(db, row.organizationId, row.segmentId)) ||
      (row.topicId && !(await findTopic(db, row.organizationId, row.topicId)))
    )
      return { kind: "orphaned" };
    const reached = await segmentContacts(db, row.segmentId, row.cursor ?? "", options.batch);
    if (reached.length === 0) return { kind: "batch", cursor: row.cursor ?? "", made: 0, skipped: 0, done: true };
    const addresses = reached.map((contact) => contact.email);
    const suppressed = await deps.suppressions.suppressedAmong(row.organizationId, addresses);
    const receiving = row.topicId
      ? await deps.contacts.subscribedTo(row.organizationId, row.topicId, addresses)
      : undefined;
    const eligible = reached.filter(
      (c) => !c.unsubscribed && !suppressed.has(c.email) && (receiving === undefined || receiving.has(c.email)),
    );
    const made = await contactsWithMessage(
      db,
      row.id,
      eligible.map((c) => c.id),
    );
    const todo = eligible.filter((c) => !made.has(c.id));
    const fallbacks = await fallbacksOf(row.organizationId);
    // Contacts whose message a crashed holder already made count as made: their messages exist, once.
    let madeNow = made.size;
    let skipped = reached.length - eligible.length;
    const parts: SegmentContact[][] = [];
    for (let i = 0; i < todo.length; i += options.chunk) parts.push(todo.slice(i, i + options.chunk));
    // A few chunks at once: one is composed on the CPU pool while another is written.
    let next = 0;
    let canceled = false;
    const worker = async () => {
      while (next < parts.length && !canceled) {
        const k = next++;
        if (k > 0 && (await broadcastOf(db, row.id))?.status !== "queued") {
          canceled = true;
          return;
        }
        const chunk = await submitChunk(row, parts[k]!, fallbacks);
        madeNow += chunk.made;
        skipped += chunk.skipped;
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.parallel, parts.length) }, worker));
    if (canceled) return { kind: "stale" };
    return { kind: "batch", cursor: reached.at(-1)!.id, made: madeNow, skipped, done: reached.length < options.batch };
  };

  const record = async (job: FanOutJob, outcome: Outcome) => {
    const canceled = await writer.write(async (tx) => {
      const { broadcasts } = tablesOf(tx);
      const row = await broadcastOf(tx, job.id);
      // Taken over after this holder's lease expired: the new holder records.
      if (!row || row.leaseOwner !== job.owner) return false;
      const mine = and(eq(broadcasts.id, job.id), eq(broadcasts.leaseOwner, job.owner));
      const now = clock.now();
      const released = { leaseOwner: null, leaseUntil: null, updatedAt: isoTime(now) };
      if (outcome.kind === "stale" || row.status !== "queued") {
        // No longer queued (canceled, sent): nothing more is due.
        await tx
          .update(broadcasts)
          .set({ ...released, ...(row.status !== "queued" && { nextAttemptAt: null }) })
          .where(mine);
        return row.status === "canceled";
      }
      if (outcome.kind === "orphaned") {
        logger.warn("broadcast: its segment or topic is gone; canceled", { broadcast_id: job.id });
        await tx
          .update(broadcasts)
          .set({ ...released, status: "canceled", nextAttemptAt: null })
          .where(mine);
        return false;
      }
      if (outcome.kind === "retry") {
        await tx
          .update(broadcasts)
          .set({ ...released, nextAttemptAt: now + options.retryMs })
          .where(mine);
        return false;
      }
      await tx
        .update(broadcasts)
        .set({
          ...released,
          cursor: outcome.cursor,
          queuedCount: row.queuedCount + outcome.made,
          skippedCount: row.skippedCount + outcome.skipped,
          nextAttemptAt: outcome.done ? null : now,
          ...(outcome.done && { status: "sent" as const, sentAt: isoTime(now) }),
        })
        .where(mine);
      return false;
    });
    if (canceled) await deps.cancelWaiting(job.id);
  };

  return createLeasedQueue<FanOutJob, Outcome>({
    writer,
    clock,
    logger,
    spec: {
      name: "broadcast fan-out",
      // One batch per organisation at a time: a broadcast's batches follow each other, and two organisations' share.
      concurrency: 2,
      perKeyConcurrency: 1,
      leaseMs: options.leaseMs,
      pollMs: options.pollMs,
      statements: fanOutStatements,
      async attempt(job) {
        try {
          return await batchOf(job);
        } catch (error) {
          logger.error("broadcast: a fan-out batch failed; it is tried again", { broadcast_id: job.id, err: error });
          return { kind: "retry", reason: error instanceof Error ? error.message : String(error) };
        }
      },
      record,
    },
  });
}
