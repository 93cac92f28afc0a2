/** Queries and row mappers of the webhook tables; no rules (those live in service.ts and dispatcher.ts). */
import { and, eq, gt, isNull, lt, lte, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { inJsonArray, lockedForClaim } from "../db/dialect.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import { perConnection, prepareAs } from "../db/prepared.ts";
import type { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../db/schema/index.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import type { EventType } from "../events/model.ts";
import { isoTime } from "../lib/clock.ts";
import type { AttemptView, DeliveryDetail, DeliveryView, WebhookEventStatus, WebhookView } from "./model.ts";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

export const toWebhookView = (row: EndpointRow): WebhookView => ({
  object: "webhook",
  id: row.id,
  endpoint: row.url,
  events: row.eventTypes as EventType[],
  description: row.description ?? null,
  status: row.enabled ? "enabled" : "disabled",
  disabled_reason: row.disabledReason ?? null,
  disabled_at: row.disabledAt ?? null,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

/** The stored status as Resend names it: a pending delivery already tried is `attempting`. */
export const eventStatus = (status: string, attemptCount: number): WebhookEventStatus =>
  status === "succeeded" ? "success" : status === "failed" ? "failed" : attemptCount > 0 ? "attempting" : "pending";

/** Resend's status filter as stored statuses and attempt counts. */
export function eventStatusCondition(
  table: { status: AnyColumn; attemptCount: AnyColumn },
  status: WebhookEventStatus,
): SQL {
  switch (status) {
    case "success":
      return eq(table.status, "succeeded");
    case "failed":
      return eq(table.status, "failed");
    case "pending":
      return and(eq(table.status, "pending"), eq(table.attemptCount, 0))!;
    case "attempting":
      return and(eq(table.status, "pending"), gt(table.attemptCount, 0))!;
  }
}

export const toDeliveryView = (row: DeliveryRow): DeliveryView => ({
  object: "webhook_event",
  id: row.id,
  webhook_id: row.endpointId,
  event_id: row.eventId ?? null,
  type: row.eventType,
  status: eventStatus(row.status, row.attemptCount),
  attempt_count: row.attemptCount,
  next_attempt_at: row.status === "pending" && row.nextAttemptAt !== null ? isoTime(row.nextAttemptAt) : null,
  last_attempt_at: row.lastAttemptAt ?? null,
  last_status_code: row.lastStatusCode ?? null,
  last_error: row.lastError ?? null,
  created_at: row.createdAt,
});

export const toAttemptView = (row: AttemptRow): AttemptView => ({
  object: "webhook_attempt",
  id: row.id,
  sent_at: row.attemptedAt,
  http_status_code: row.statusCode ?? null,
  response: row.responseBody ?? null,
  error: row.error ?? null,
  duration_ms: row.durationMs,
});

export async function findEndpoint(db: Db, organizationId: string, id: string): Promise<EndpointRow | undefined> {
  const { webhookEndpoints } = tablesOf(db);
  return first(
    db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId))),
  );
}

export async function listDeliveries(
  db: Db,
  endpointId: string,
  options: PageOptions & { status?: WebhookEventStatus },
) {
  const { webhookDeliveries } = tablesOf(db);
  const filters: SQL[] = [
    eq(webhookDeliveries.endpointId, endpointId),
    ...(options.status ? [eventStatusCondition(webhookDeliveries, options.status)] : []),
  ];
  const { page, hasMore } = await pageById(webhookDeliveries.id, filters, options, (where, order, limit) =>
    db.select().from(webhookDeliveries).where(where).orderBy(order).limit(limit),
  );
  return { data: page.map(toDeliveryView), has_more: hasMore };
}

/** A delivery's attempts, newest first (Resend's attempts list). */
export async function listAttempts(db: Db, deliveryId: string, options: PageOptions) {
  const { webhookAttempts } = tablesOf(db);
  const { page, hasMore } = await pageById(
    webhookAttempts.id,
    [eq(webhookAttempts.deliveryId, deliveryId)],
    options,
    (where, order, limit) => db.select().from(webhookAttempts).where(where).orderBy(order).limit(limit),
  );
  return { data: page.map(toAttemptView), has_more: hasMore };
}

export async function findDelivery(db: Db, endpointId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
  const { webhookDeliveries } = tablesOf(db);
  return first(
    db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId))),
  );
}

export async function deliveryDetail(db: Db, row: DeliveryRow): Promise<DeliveryDetail> {
  const { webhookAttempts } = tablesOf(db);
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, row.id))
    .orderBy(webhookAttempts.id);
  return { ...toDeliveryView(row), payload: JSON.parse(row.payload), attempts: attempts.map(toAttemptView) };
}

const p = sql.placeholder;
/** A placeholder typed as the column's value, for `.set()` and `.values()` of prepared statements. */
const slot = <T>(name: string) => p(name) as unknown as T;

/**
 * The statements of the outbox's hot path — fan-out, claim, record — prepared once per connection: the query
 * builder would otherwise build and prepare the SQL anew for every event and every attempt.
 */
export const outboxStatements = perConnection((tx: Db) => {
  const { emails, webhookAttempts, webhookDeliveries: d, webhookEndpoints: e } = tablesOf(tx);
  return {
    enabledEndpoints: prepareAs(
      "webhook_enabledEndpoints",
      tx
        .select({ id: e.id, eventTypes: e.eventTypes })
        .from(e)
        .where(and(eq(e.organizationId, p("organizationId")), eq(e.enabled, true))),
    ),
    emailFields: prepareAs(
      "webhook_emailFields",
      tx
        .select({
          messageId: emails.messageId,
          from: emails.fromHeader,
          to: emails.to,
          cc: emails.cc,
          subject: emails.subject,
          tags: emails.tags,
          templateId: emails.templateId,
          broadcastId: emails.broadcastId,
          systemMail: emails.systemMail,
        })
        .from(emails)
        .where(eq(emails.id, p("emailId"))),
    ),
    insertDelivery: prepareAs(
      "webhook_insertDelivery",
      tx.insert(d).values({
        id: slot("id"),
        organizationId: slot("organizationId"),
        endpointId: slot("endpointId"),
        eventId: slot("eventId"),
        eventType: slot("eventType"),
        payload: slot("payload"),
        status: "pending",
        nextAttemptAt: slot("now"),
        createdAt: slot("createdAt"),
        updatedAt: slot("createdAt"),
      }),
    ),
    due: prepareAs(
      "webhook_due",
      lockedForClaim(
        tx,
        tx
          .select({ id: d.id, key: d.endpointId })
          .from(d)
          .innerJoin(e, eq(e.id, d.endpointId))
          .where(
            and(
              lte(d.nextAttemptAt, p("now")),
              or(isNull(d.leaseUntil), lt(d.leaseUntil, p("now"))),
              eq(e.enabled, true),
              sql`NOT ${inJsonArray(tx, d.endpointId, p("saturated"))}`,
              sql`NOT ${inJsonArray(tx, d.id, p("inFlight"))}`,
            ),
          )
          .orderBy(d.nextAttemptAt)
          .limit(p("limit")),
        d,
      ),
    ),
    jobs: prepareAs(
      "webhook_jobs",
      tx
        .select({
          id: d.id,
          endpointId: d.endpointId,
          organizationId: d.organizationId,
          payload: d.payload,
          url: e.url,
          secret: e.secret,
          previousSecret: e.previousSecret,
          previousSecretUntil: e.previousSecretUntil,
        })
        .from(d)
        .innerJoin(e, eq(e.id, d.endpointId))
        .where(inJsonArray(tx, d.id, p("ids"))),
    ),
    lease: prepareAs(
      "webhook_lease",
      tx
        .update(d)
        .set({ leaseOwner: slot("owner"), leaseUntil: slot("until") })
        .where(inJsonArray(tx, d.id, p("ids"))),
    ),
    current: prepareAs(
      "webhook_current",
      tx
        .select({ status: d.status, attemptCount: d.attemptCount, scheduleStep: d.scheduleStep })
        .from(d)
        .where(eq(d.id, p("id"))),
    ),
    insertAttempt: prepareAs(
      "webhook_insertAttempt",
      tx.insert(webhookAttempts).values({
        id: slot("id"),
        deliveryId: slot("deliveryId"),
        attemptedAt: slot("attemptedAt"),
        statusCode: slot("statusCode"),
        responseBody: slot("responseBody"),
        error: slot("error"),
        durationMs: slot("durationMs"),
      }),
    ),
    settle: prepareAs(
      "webhook_settle",
      tx
        .update(d)
        .set({
          status: slot("status"),
          attemptCount: slot("attemptCount"),
          scheduleStep: slot("scheduleStep"),
          nextAttemptAt: slot("nextAttemptAt"),
          leaseOwner: null,
          leaseUntil: null,
          lastStatusCode: slot("lastStatusCode"),
          lastError: slot("lastError"),
          lastAttemptAt: slot("at"),
          updatedAt: slot("at"),
        })
        .where(eq(d.id, p("id"))),
    ),
    resetFailures: prepareAs(
      "webhook_resetFailures",
      tx
        .update(e)
        .set({ consecutiveFailures: 0 })
        .where(and(eq(e.id, p("endpointId")), gt(e.consecutiveFailures, 0))),
    ),
  };
});
