/**
 * The events sent to webhook endpoints (docs/events-and-webhooks.md#delivery-of-webhooks), up to the dispatcher:
 * the outbox rows every appended event fans out to (`fanOut`, which the composition root registers as an event-log
 * listener), test events, the log of events and attempts an endpoint shows, and replays.
 *
 * Invariants: the outbox row commits in the same transaction as its event — an event is never recorded without
 * its deliveries, nor a delivery without its event — and its payload is fixed then, so every attempt and replay
 * sends the same signed body with the same `webhook-id`; a replay starts the retry schedule over and never touches
 * a delivery still being attempted. System mail's events go to no endpoint (docs/teams.md#system-mail).
 */
import { and, eq } from "drizzle-orm";
import type { Actor } from "../access.ts";
import { mayReadContent, requireScope } from "../access.ts";
import { lockedAgainstChange, notifyAtCommit } from "../db/dialect.ts";
import type { PageOptions } from "../db/pages.ts";
import { POLICY_CHANGED, policyCache } from "../db/read-cache.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import { EVENT_TYPES, withoutContent, type EventType, type StoredEvent } from "../events/model.ts";
import { isoTime } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { WEBHOOKS_DUE } from "../queue/channels.ts";
import { auditWebhook, ownEndpoint, type WebhookDeps } from "./endpoints.ts";
import type { AttemptView, DeliveryDetail, DeliveryView, WebhookEventStatus } from "./model.ts";
import { buildPayload, samplePayload } from "./payload.ts";
import {
  deliveryDetail,
  findDelivery,
  listAttempts,
  listDeliveries,
  outboxStatements,
  toDeliveryView,
} from "./repo.ts";

export interface WebhookDeliveries {
  /**
   * Writes the outbox rows of an event for the enabled endpoints subscribed to its type, inside the event's own
   * transaction (an event-log listener: both commit, or neither).
   */
  fanOut(tx: Db, event: StoredEvent): Promise<void>;
  /** Queues a sample event of `type` for this endpoint, signed and retried like any other. */
  sendTest(actor: Actor, id: string, type?: string): Promise<DeliveryView>;
  listDeliveries(
    actor: Actor,
    id: string,
    options: PageOptions & { status?: WebhookEventStatus },
  ): Promise<{ object: "list"; data: DeliveryView[]; has_more: boolean }>;
  /** The attempts of one delivery, newest first. */
  listAttempts(
    actor: Actor,
    id: string,
    deliveryId: string,
    options: PageOptions,
  ): Promise<{ object: "list"; data: AttemptView[]; has_more: boolean }>;
  getDelivery(actor: Actor, id: string, deliveryId: string): Promise<DeliveryDetail>;
  /** Sends a delivery again from the start of the retry schedule, with the same `webhook-id` and body. */
  replay(actor: Actor, id: string, deliveryId: string): Promise<DeliveryView>;
  /** Replays every failed delivery of the endpoint. */
  replayFailed(actor: Actor, id: string): Promise<{ object: "replay"; webhook_id: string; replayed: number }>;
}

const eventNotFound = () => new AppError("not_found", "Webhook event not found.");

export function createWebhookDeliveries(deps: WebhookDeps): WebhookDeliveries {
  const { db, writer, clock } = deps;
  const { webhookDeliveries, webhookEndpoints } = tablesOf(db);
  const enabledEndpoints = policyCache<Array<{ id: string; eventTypes: string[] }>>(deps, POLICY_CHANGED, 10_000);

  /** Writes one outbox row, due now; `body` is the payload as sent. */
  const enqueue = async (
    tx: Db,
    endpointId: string,
    organizationId: string,
    eventId: string | null,
    type: string,
    body: string,
  ) => {
    const now = clock.now();
    const id = newId();
    await outboxStatements(tx).insertDelivery.execute({
      id,
      organizationId,
      endpointId,
      eventId,
      eventType: type,
      payload: body,
      now,
      createdAt: isoTime(now),
    });
    return id;
  };

  const replayRows = async (tx: Db, condition: ReturnType<typeof and>) => {
    const now = clock.now();
    const replayed = await tx
      .update(webhookDeliveries)
      .set({
        status: "pending",
        scheduleStep: 0,
        nextAttemptAt: now,
        leaseOwner: null,
        leaseUntil: null,
        updatedAt: isoTime(now),
      })
      .where(condition)
      .returning({ id: webhookDeliveries.id });
    return replayed.length;
  };

  return {
    async fanOut(tx, event) {
      // From memory: read every time, the endpoints were one statement more for every event of every send. A miss
      // reads in `tx`: a second connection taken inside a transaction can wait forever on a pool its peers hold.
      const targets = (
        await enabledEndpoints.get(event.organizationId, () =>
          outboxStatements(tx).enabledEndpoints.execute({ organizationId: event.organizationId }),
        )
      ).filter((endpoint) =>
        // An inbound route's chosen webhooks receive its mail whatever types they subscribe to: choosing them said so.
        event.webhookIds ? event.webhookIds.includes(endpoint.id) : endpoint.eventTypes.includes(event.type),
      );
      if (!targets.length) return;
      const payload = await buildPayload(tx, event);
      if (!payload) return;
      const body = JSON.stringify(payload);
      await notifyAtCommit(tx, WEBHOOKS_DUE);
      for (const endpoint of targets) await enqueue(tx, endpoint.id, event.organizationId, event.id, event.type, body);
      deps.wake();
    },

    async sendTest(actor, id, type = "email.sent") {
      requireScope(actor, "webhooks:write");
      if (!(EVENT_TYPES as readonly string[]).includes(type))
        throw validationError([{ path: "type", message: `unknown event type; known: ${EVENT_TYPES.join(", ")}` }]);
      const endpoint = await ownEndpoint(db, actor, id);
      if (!endpoint.enabled)
        throw new AppError("conflict", "The webhook is disabled; enable it before sending a test event.");
      const payload = samplePayload(type as EventType, isoTime(clock.now()));
      // Read back inside the write: a DELETE of the endpoint committed right after would take the row with it.
      const row = await writer.write(async (tx) => {
        const endpointNow = lockedAgainstChange(
          tx,
          tx
            .select({ id: webhookEndpoints.id })
            .from(webhookEndpoints)
            .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, actor.organizationId))),
        );
        if (!(await first(endpointNow))) return undefined;
        const deliveryId = await enqueue(tx, id, actor.organizationId, null, payload.type, JSON.stringify(payload));
        return findDelivery(tx, id, deliveryId);
      });
      if (!row) throw new AppError("not_found", "Webhook not found.");
      deps.wake();
      return toDeliveryView(row);
    },

    async listDeliveries(actor, id, options) {
      requireScope(actor, "webhooks:read");
      await ownEndpoint(db, actor, id);
      return { object: "list", ...(await listDeliveries(db, id, options)) };
    },

    async listAttempts(actor, id, deliveryId, options) {
      requireScope(actor, "webhooks:read");
      await ownEndpoint(db, actor, id);
      if (!(await findDelivery(db, id, deliveryId))) throw eventNotFound();
      return { object: "list", ...(await listAttempts(db, deliveryId, options)) };
    },

    async getDelivery(actor, id, deliveryId) {
      requireScope(actor, "webhooks:read");
      await ownEndpoint(db, actor, id);
      const row = await findDelivery(db, id, deliveryId);
      if (!row) throw eventNotFound();
      const detail = await deliveryDetail(db, row);
      // A click's payload names the link, a piece of the message a viewer does not read (docs/teams.md#roles).
      if (mayReadContent(actor)) return detail;
      return { ...detail, payload: { ...detail.payload, data: withoutContent(detail.payload.data) } };
    },

    async replay(actor, id, deliveryId) {
      requireScope(actor, "webhooks:write");
      await ownEndpoint(db, actor, id);
      const row = await findDelivery(db, id, deliveryId);
      if (!row) throw eventNotFound();
      if (row.status === "pending")
        throw new AppError(
          "conflict",
          "This delivery is still being attempted; replay it once it has succeeded or failed.",
        );
      const replayed = await writer.write(async (tx) => {
        await replayRows(tx, and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, id)));
        await auditWebhook(tx, clock, actor, {
          action: "webhook.replayed",
          id,
          url: null,
          changes: { deliveries: [deliveryId] },
        });
        return findDelivery(tx, id, deliveryId);
      });
      if (!replayed) throw eventNotFound();
      deps.wake();
      return toDeliveryView(replayed);
    },

    async replayFailed(actor, id) {
      requireScope(actor, "webhooks:write");
      await ownEndpoint(db, actor, id);
      const replayed = await writer.write(async (tx) => {
        const count = await replayRows(
          tx,
          and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, "failed")),
        );
        await auditWebhook(tx, clock, actor, {
          action: "webhook.replayed",
          id,
          url: null,
          changes: { failed_deliveries: count },
        });
        return count;
      });
      if (replayed) deps.wake();
      return { object: "replay", webhook_id: id, replayed };
    },
  };
}
