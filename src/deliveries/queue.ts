/**
 * The delivery queue as an operator sees and steers it (docs/operations.md): what waits and why — each waiting recipient
 * with its attempts, next attempt and last reply; counts by status, destination domain and provider, and the
 * oldest — and the actions on waiting recipients: retry now, cancel, release, one at a time or in bulk by filter.
 * Invariants: every change is a cause of the lifecycle table (deliveries/lifecycle.ts), so a delivered, bounced or
 * failed recipient never changes and each change appends its event; a recipient being attempted now (its lease
 * live) is left to its attempt, whose result is recorded as it comes; an organisation sees and changes only its own.
 */
import { and, count, eq, gt, inArray, isNull, lte, min, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Actor } from "../access.ts";
import { recordAudit } from "../audit/log.ts";
import { requireScope } from "../access.ts";
import { lockedForUpdate } from "../db/dialect.ts";
import { inIdBatches, pageById, type PageOptions } from "../db/pages.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import type { Cause, Lifecycle } from "./lifecycle.ts";
import { LANES, WAITING_STATUSES, type RecipientStatus } from "./model.ts";
import type { BulkResult, DeliveryView, QueueStatus, QueueSummary } from "./wire.ts";

export { QUEUE_STATUSES, type BulkResult, type DeliveryView, type QueueStatus, type QueueSummary } from "./wire.ts";

export interface QueueFilter {
  status?: QueueStatus;
  /** The recipient's domain. */
  domain?: string;
  provider?: string;
  emailId?: string;
}

type WaitingCounts = Omit<QueueSummary["by_domain"][number], "domain">;

/** The queue's actions: each one cause of the lifecycle table, for the recipients in that cause's `from`. */
export const QUEUE_ACTIONS = {
  retry: { cause: "retried", from: ["deferred"] },
  cancel: { cause: "recipient_canceled", from: ["queued", "deferred", "held"] },
  release: { cause: "released", from: ["held"] },
} as const satisfies Record<string, { cause: Cause; from: readonly RecipientStatus[] }>;
export type QueueAction = keyof typeof QUEUE_ACTIONS;

export interface DeliveryQueue {
  list(
    actor: Actor,
    options: PageOptions & QueueFilter,
  ): Promise<{ object: "list"; has_more: boolean; data: DeliveryView[] }>;
  summary(actor: Actor): Promise<QueueSummary>;
  /** One recipient; 409 when it is being attempted now or the action does not apply to its status. */
  act(actor: Actor, action: QueueAction, id: string): Promise<DeliveryView>;
  /** Every recipient of the filter (at least one given) the action applies to, in batches. */
  actOnAll(actor: Actor, action: QueueAction, filter: QueueFilter): Promise<BulkResult>;
}

/** A recipient is not being attempted: its lease is none, or past (`leaseUntil` the deliveries' column). */
export const leaseFree = (leaseUntil: AnyColumn, now: number) => or(isNull(leaseUntil), lte(leaseUntil, now))!;

/** Recipients changed per transaction of a bulk action: no write holds the store for long. */
const BULK_BATCH = 500;

export function createDeliveryQueue(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  lifecycle: Lifecycle;
}): DeliveryQueue {
  const { db, writer, clock, lifecycle } = deps;
  const { deliveries } = tablesOf(db);

  const leased = (now: number) => gt(deliveries.leaseUntil, now);

  /** The conditions of a filter within the organisation, among the statuses `among`. */
  const conditionsOf = (
    organizationId: string,
    filter: QueueFilter,
    among: readonly RecipientStatus[],
    now: number,
  ) => {
    const conditions: SQL[] = [eq(deliveries.organizationId, organizationId)];
    const { status } = filter;
    if (status === "sending") conditions.push(inArray(deliveries.status, ["queued", "deferred"]), leased(now));
    else if (status) {
      conditions.push(eq(deliveries.status, status));
      if (status !== "held") conditions.push(leaseFree(deliveries.leaseUntil, now));
    }
    if (!status || status === "sending") conditions.push(inArray(deliveries.status, [...among]));
    if (filter.domain) conditions.push(eq(deliveries.destination, filter.domain.toLowerCase()));
    if (filter.provider) conditions.push(eq(deliveries.provider, filter.provider));
    if (filter.emailId) conditions.push(eq(deliveries.emailId, filter.emailId));
    return conditions;
  };

  const toView = (row: typeof deliveries.$inferSelect, now: number): DeliveryView => ({
    object: "delivery",
    id: row.id,
    email_id: row.emailId,
    recipient: row.recipient,
    status:
      (row.status === "queued" || row.status === "deferred") && row.leaseUntil !== null && row.leaseUntil > now
        ? "sending"
        : (row.status as RecipientStatus),
    provider: row.provider,
    attempts: row.attempts,
    next_attempt_at: row.nextAttemptAt === null ? null : isoTime(row.nextAttemptAt),
    last_response: row.lastResponse,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  });

  const waitingCounts = (row: Partial<Record<"queued" | "deferred" | "held" | "sending" | "oldestAt", unknown>>) =>
    ({
      queued: Number(row.queued ?? 0),
      deferred: Number(row.deferred ?? 0),
      held: Number(row.held ?? 0),
      sending: Number(row.sending ?? 0),
      oldest_at: (row.oldestAt as string | null) ?? null,
    }) satisfies WaitingCounts;

  /**
   * The action's cause for one recipient; answers 1 when it moved. A recipient released by hand goes whatever pause
   * applies (docs/operations.md: a held one goes now), so it is marked exempt from holds (deliveries/pauses.ts).
   */
  const applyAction = async (tx: Db, action: QueueAction, id: string) => {
    const applied = await lifecycle.apply(
      tx,
      QUEUE_ACTIONS[action].cause,
      { deliveryId: id },
      { response: RESPONSE[action] },
    );
    const moved = applied.outcome === "applied" ? applied.changed : 0;
    if (moved && action === "release")
      await tx.update(deliveries).set({ holdExempt: true }).where(eq(deliveries.id, id));
    return moved;
  };

  /** The recipient `id` of the actor's organisation, or 404. */
  const ownDelivery = async (tx: Db, actor: Actor, id: string) => {
    const row = await first(
      lockedForUpdate(
        tx,
        tx
          .select()
          .from(deliveries)
          .where(and(eq(deliveries.id, id), eq(deliveries.organizationId, actor.organizationId))),
      ),
    );
    if (!row) throw new AppError("not_found", "No such delivery.");
    return row;
  };

  return {
    async list(actor, options) {
      requireScope(actor, "deliveries:read");
      const now = clock.now();
      const { page, hasMore } = await pageById(
        deliveries.id,
        conditionsOf(actor.organizationId, options, WAITING_STATUSES, now),
        { ...options, oldestFirst: true },
        (where, order, limit) => db.select().from(deliveries).where(where).orderBy(order).limit(limit),
      );
      return { object: "list", has_more: hasMore, data: page.map((row) => toView(row, now)) };
    },

    async summary(actor) {
      requireScope(actor, "deliveries:read");
      const now = clock.now();
      const waiting = and(
        eq(deliveries.organizationId, actor.organizationId),
        inArray(deliveries.status, [...WAITING_STATUSES]),
      );
      const grouped = (by?: SQL) => {
        const select = db
          .select({
            key: by ? sql<string | null>`${by}` : sql<null>`NULL`,
            ...countsOver(now),
          })
          .from(deliveries)
          .where(waiting);
        return by ? select.groupBy(by) : select;
      };
      const [all] = await grouped();
      const domains = await grouped(sql`${deliveries.destination}`);
      const providers = await grouped(sql`${deliveries.provider}`);
      const lanes = new Map((await grouped(sql`${deliveries.lane}`)).map((row) => [row.key, row]));
      const byCount = <R extends { total: unknown }>(rows: R[]) =>
        rows.sort((a, b) => Number(b.total) - Number(a.total));
      const totals = waitingCounts(all ?? {});
      return {
        object: "queue_summary",
        by_status: { queued: totals.queued, deferred: totals.deferred, held: totals.held, sending: totals.sending },
        by_domain: byCount(domains)
          .slice(0, 20)
          .map((row) => ({ domain: row.key as string, ...waitingCounts(row) })),
        by_provider: byCount(providers).map((row) => ({ provider: row.key, ...waitingCounts(row) })),
        by_lane: LANES.map((lane) => ({ lane, ...waitingCounts(lanes.get(lane) ?? {}) })),
        oldest_waiting_at: totals.oldest_at,
      };
    },

    async act(actor, action, id) {
      requireScope(actor, "deliveries:write");
      const { from } = QUEUE_ACTIONS[action];
      const now = clock.now();
      const refusal = await writer.write(async (tx): Promise<string | null> => {
        const row = await ownDelivery(tx, actor, id);
        if (row.leaseUntil !== null && row.leaseUntil > now)
          return "This delivery is being attempted now; its result is recorded when the attempt ends.";
        if (!(from as readonly string[]).includes(row.status))
          return `Only a delivery that is ${from.join(" or ")} can be ${PAST[action]}; this one is ${row.status}.`;
        await applyAction(tx, action, id);
        await recordAudit(
          tx,
          actor,
          { action: `delivery.${PAST[action]}`, target: { type: "delivery", id, name: row.recipient } },
          now,
        );
        return null;
      });
      if (refusal) throw new AppError("conflict", refusal);
      const row = await first(db.select().from(deliveries).where(eq(deliveries.id, id)));
      return toView(row!, clock.now());
    },

    async actOnAll(actor, action, filter) {
      requireScope(actor, "deliveries:write");
      if (!filter.status && !filter.domain && !filter.provider && !filter.emailId)
        throw validationError([
          {
            path: "",
            message: "name at least one of status, domain, provider, email_id: a bulk action needs a filter",
          },
        ]);
      const { from } = QUEUE_ACTIONS[action];
      const now = clock.now();
      const among = filter.status
        ? from.filter((status) => status === filter.status || filter.status === "sending")
        : from;
      if (!among.length) return { object: "bulk", matched: 0, changed: 0 };
      const matching = and(...conditionsOf(actor.organizationId, filter, among, now));
      const [{ matched } = { matched: 0 }] = await db.select({ matched: count() }).from(deliveries).where(matching);
      const changed = await inIdBatches(writer, BULK_BATCH, async (tx, after) => {
        const rows = await lockedForUpdate(
          tx,
          tx
            .select({ id: deliveries.id })
            .from(deliveries)
            .where(and(matching, leaseFree(deliveries.leaseUntil, now), gt(deliveries.id, after)))
            .orderBy(deliveries.id)
            .limit(BULK_BATCH),
        );
        let counted = 0;
        for (const { id } of rows) counted += await applyAction(tx, action, id);
        // One record per batch, in its transaction: the filter, and how many this batch changed.
        if (counted)
          await recordAudit(
            tx,
            actor,
            { action: `delivery.bulk_${PAST[action]}`, changes: { filter: auditedFilter(filter), changed: counted } },
            now,
          );
        return { ids: rows.map((row) => row.id), counted };
      });
      return { object: "bulk", matched: Number(matched), changed };
    },
  };

  /** Waiting recipients counted by status; a lease counts as sending only while it is live (an expired one waits again). */
  function countsOver(now: number) {
    const live = sql`${deliveries.leaseUntil} > ${now}`;
    return {
      queued: sql<number>`sum(CASE WHEN ${deliveries.status} = 'queued' AND NOT COALESCE(${live}, false) THEN 1 ELSE 0 END)`,
      deferred: sql<number>`sum(CASE WHEN ${deliveries.status} = 'deferred' AND NOT COALESCE(${live}, false) THEN 1 ELSE 0 END)`,
      held: sql<number>`sum(CASE WHEN ${deliveries.status} = 'held' THEN 1 ELSE 0 END)`,
      sending: sql<number>`sum(CASE WHEN ${deliveries.status} <> 'held' AND COALESCE(${live}, false) THEN 1 ELSE 0 END)`,
      oldestAt: min(deliveries.createdAt),
      total: count(),
    };
  }
}

/** How each action is named in a refusal. */
const PAST: Record<QueueAction, string> = { retry: "retried", cancel: "canceled", release: "released" };

/** The recipient's last response after each action: what an operator did, in the record. */
const RESPONSE: Record<QueueAction, string> = {
  retry: "retried by the operator",
  cancel: "canceled by the operator",
  release: "released by the operator",
};

/** A bulk action's filter as the audit log keeps it: the API's snake_case names, only those given. */
function auditedFilter(filter: { status?: string; domain?: string; provider?: string; emailId?: string }) {
  const named = { status: filter.status, domain: filter.domain, provider: filter.provider, email_id: filter.emailId };
  return Object.fromEntries(Object.entries(named).filter(([, value]) => value !== undefined));
}
