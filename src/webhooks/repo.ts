/** Queries and row mappers of the webhook tables; no rules (those live in service.ts and dispatcher.ts). */
import { and, desc, eq, gt, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { emails, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../db/schema/index.ts";
import type { EventType } from "../events/model.ts";
import { isoTime } from "../lib/clock.ts";
import type { AttemptView, DeliveryDetail, DeliveryStatus, DeliveryView, WebhookView } from "./model.ts";

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

export const toDeliveryView = (row: DeliveryRow): DeliveryView => ({
  object: "webhook_delivery",
  id: row.id,
  webhook_id: row.endpointId,
  event_id: row.eventId ?? null,
  type: row.eventType,
  status: row.status,
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
  attempted_at: row.attemptedAt,
  status_code: row.statusCode ?? null,
  response_body: row.responseBody ?? null,
  error: row.error ?? null,
  duration_ms: row.durationMs,
});

export function findEndpoint(db: Db, organizationId: string, id: string): EndpointRow | undefined {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId)))
    .get();
}

export function listDeliveries(db: Db, endpointId: string, options: { limit: number; after?: string; status?: DeliveryStatus }) {
  const conditions: SQL[] = [eq(webhookDeliveries.endpointId, endpointId)];
  if (options.after) conditions.push(lt(webhookDeliveries.id, options.after));
  if (options.status) conditions.push(eq(webhookDeliveries.status, options.status));
  const rows = db
    .select()
    .from(webhookDeliveries)
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.id))
    .limit(options.limit + 1)
    .all();
  return { data: rows.slice(0, options.limit).map(toDeliveryView), has_more: rows.length > options.limit };
}

export function findDelivery(db: Db, endpointId: string, deliveryId: string): DeliveryRow | undefined {
  return db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)))
    .get();
}

export function deliveryDetail(db: Db, row: DeliveryRow): DeliveryDetail {
  const attempts = db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, row.id)).orderBy(webhookAttempts.id).all();
  return { ...toDeliveryView(row), payload: JSON.parse(row.payload), attempts: attempts.map(toAttemptView) };
}

const p = sql.placeholder;
/** A placeholder typed as the column's value, for `.set()` and `.values()` of prepared statements. */
const slot = <T>(name: string) => p(name) as unknown as T;

/**
 * The statements of the outbox's hot path — fan-out, claim, record — prepared once per connection: the query
 * builder would otherwise build and prepare the SQL anew for every event and every attempt.
 */
function prepareOutbox(tx: Db) {
  const d = webhookDeliveries;
  const e = webhookEndpoints;
  return {
    enabledEndpoints: tx
      .select({ id: e.id, eventTypes: e.eventTypes })
      .from(e)
      .where(and(eq(e.organizationId, p("organizationId")), eq(e.enabled, true)))
      .prepare(),
    emailFields: tx
      .select({ messageId: emails.messageId, from: emails.fromHeader, to: emails.to, cc: emails.cc, subject: emails.subject, tags: emails.tags })
      .from(emails)
      .where(eq(emails.id, p("emailId")))
      .prepare(),
    insertDelivery: tx
      .insert(d)
      .values({
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
      })
      .prepare(),
    // Candidates are read narrow (most are passed over when their endpoint is at its limit); the claimed few are
    // then read whole with `job`.
    due: tx
      .select({ id: d.id, endpointId: d.endpointId })
      .from(d)
      .innerJoin(e, eq(e.id, d.endpointId))
      .where(and(lte(d.nextAttemptAt, p("now")), or(isNull(d.leaseUntil), lt(d.leaseUntil, p("now"))), eq(e.enabled, true)))
      .orderBy(d.nextAttemptAt)
      .limit(p("limit"))
      .prepare(),
    job: tx
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
      .where(eq(d.id, p("id")))
      .prepare(),
    lease: tx
      .update(d)
      .set({ leaseOwner: slot("owner"), leaseUntil: slot("until") })
      .where(eq(d.id, p("id")))
      .prepare(),
    current: tx.select({ status: d.status, attemptCount: d.attemptCount, scheduleStep: d.scheduleStep }).from(d).where(eq(d.id, p("id"))).prepare(),
    insertAttempt: tx
      .insert(webhookAttempts)
      .values({
        id: slot("id"),
        deliveryId: slot("deliveryId"),
        attemptedAt: slot("attemptedAt"),
        statusCode: slot("statusCode"),
        responseBody: slot("responseBody"),
        error: slot("error"),
        durationMs: slot("durationMs"),
      })
      .prepare(),
    settle: tx
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
      .where(eq(d.id, p("id")))
      .prepare(),
    resetFailures: tx
      .update(e)
      .set({ consecutiveFailures: 0 })
      .where(and(eq(e.id, p("endpointId")), gt(e.consecutiveFailures, 0)))
      .prepare(),
  };
}

export type OutboxStatements = ReturnType<typeof prepareOutbox>;
const prepared = new WeakMap<Db, OutboxStatements>();

export function outboxStatements(tx: Db): OutboxStatements {
  let statements = prepared.get(tx);
  if (!statements) prepared.set(tx, (statements = prepareOutbox(tx)));
  return statements;
}
