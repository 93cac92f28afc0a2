/** Queries and row mappers of the webhook tables; no rules (those live in service.ts and dispatcher.ts). */
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
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

/** The organisation's enabled endpoints, for fan-out (runs inside the event's transaction). */
export function enabledEndpoints(tx: Db, organizationId: string): Array<{ id: string; eventTypes: string[] }> {
  return tx
    .select({ id: webhookEndpoints.id, eventTypes: webhookEndpoints.eventTypes })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.organizationId, organizationId), eq(webhookEndpoints.enabled, true)))
    .all();
}

/** The message fields every `email.*` payload carries. */
export function emailFields(tx: Db, emailId: string) {
  return tx
    .select({ messageId: emails.messageId, from: emails.fromHeader, to: emails.to, cc: emails.cc, subject: emails.subject, tags: emails.tags })
    .from(emails)
    .where(eq(emails.id, emailId))
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
