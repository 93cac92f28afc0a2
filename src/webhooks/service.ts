/**
 * Webhook endpoints and the outbox. Endpoints are created, changed, rotated and deleted here; every appended event
 * (src/events/service.ts) is fanned out to the organisation's enabled endpoints that subscribe to its type, as
 * outbox rows written by `fanOut`, which the composition root registers as an event-log listener.
 *
 * Invariant: the outbox row commits in the same transaction as its event — an event is never recorded without
 * its deliveries, nor a delivery without its event — and its payload is fixed then, so every attempt and replay
 * sends the same signed body with the same `webhook-id`. Signing secrets are sealed at rest and shown only in the
 * create and rotate answers.
 */
import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { lockedAgainstChange, notifyAtCommit } from "../db/dialect.ts";
import { POLICY_CHANGED, policyCache } from "../db/read-cache.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import { first, tablesOf, type Db, type Store, type Writer } from "../db/store.ts";
import { WEBHOOKS_DUE } from "../queue/channels.ts";
import { AppError, validationError, type ErrorDetail } from "../errors.ts";
import { EVENT_TYPES, withoutContent, type EventType, type StoredEvent } from "../events/model.ts";
import { receivedEventData } from "../inbound/model.ts";
import { recordAudit } from "../audit/log.ts";
import { mayReadContent, requireScope } from "../access.ts";
import type { Actor } from "../access.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import type { SecretBox } from "../lib/secrets.ts";
import { EndpointRefused, type EndpointGuard } from "../lib/endpoint-guard.ts";
import type {
  AttemptView,
  CreateWebhookInput,
  DeliveryDetail,
  DeliveryView,
  UpdateWebhookInput,
  WebhookEventStatus,
  WebhookPayload,
  WebhookView,
  WebhookWithSecret,
} from "./model.ts";
import {
  deliveryDetail,
  findDelivery,
  findEndpoint,
  listAttempts,
  listDeliveries,
  outboxStatements,
  toDeliveryView,
  toWebhookView,
  type EndpointRow,
} from "./repo.ts";

/** Bounds the work of fanning one event out, which happens inside the event's transaction. */
const MAX_ENDPOINTS_PER_ORGANIZATION = 100;
const MAX_DESCRIPTION = 500;
/** Standard Webhooks recommends secrets of 24 to 64 bytes. */
const SECRET_BYTES = 32;

export interface WebhookService {
  create(actor: Actor, input: CreateWebhookInput): Promise<WebhookWithSecret>;
  /**
   * Writes the outbox rows of an event for the enabled endpoints subscribed to its type, inside the event's own
   * transaction (an event-log listener: both commit, or neither).
   */
  fanOut(tx: Db, event: StoredEvent): Promise<void>;
  /** Newest first, paged. */
  list(actor: Actor, options?: PageOptions): Promise<{ object: "list"; has_more: boolean; data: WebhookView[] }>;
  get(actor: Actor, id: string): Promise<WebhookView>;
  update(actor: Actor, id: string, input: UpdateWebhookInput): Promise<WebhookView>;
  remove(actor: Actor, id: string): Promise<{ object: "webhook"; id: string; deleted: true }>;
  /** A new secret; the old one keeps signing alongside it for the configured overlap (24 h). */
  rotateSecret(actor: Actor, id: string): Promise<WebhookWithSecret>;
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

export function newSigningSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString("base64")}`;
}

/** The payload of an event: `email.*` events carry the message's fields, then what the event itself recorded. */
/** Tags as Resend's payloads carry them: an object of name → value (a repeated name keeps its last value). */
const tagObject = (tags: ReadonlyArray<{ name: string; value: string }>) =>
  Object.fromEntries(tags.map((tag) => [tag.name, tag.value]));

export async function buildPayload(tx: Db, event: StoredEvent): Promise<WebhookPayload> {
  let data: Record<string, unknown> = { ...event.data };
  // A received message's event carries its own data (Resend's received-email shape); its email_id is the received one.
  if (event.emailId && event.type !== "email.received") {
    const [email] = await outboxStatements(tx).emailFields.execute({ emailId: event.emailId });
    data = {
      ...data,
      email_id: event.emailId,
      ...(email && {
        message_id: email.messageId,
        from: email.from,
        to: email.to,
        cc: email.cc,
        subject: email.subject,
        tags: tagObject(email.tags),
        ...(email.templateId && { template_id: email.templateId }),
      }),
      recipient: event.recipient ?? null,
    };
  }
  return { type: event.type, created_at: event.createdAt, data };
}

function samplePayload(type: EventType, createdAt: string): WebhookPayload {
  const data: Record<string, unknown> = type.startsWith("email.")
    ? {
        email_id: "00000000-0000-7000-8000-000000000000",
        message_id: "<00000000-0000-7000-8000-000000000000@example.com>",
        from: "Acme <hello@example.com>",
        to: ["recipient@example.org"],
        cc: [],
        subject: "Mailroom test event",
        tags: {},
        recipient: "recipient@example.org",
      }
    : {};
  if (type === "email.bounced")
    data.bounce = {
      type: "Permanent",
      subType: "General",
      message: "550 5.1.1 User unknown",
      diagnostic_code: "550 5.1.1 User unknown",
    };
  if (type === "email.received") {
    return {
      type,
      created_at: createdAt,
      data: {
        ...receivedEventData({
          id: "00000000-0000-7000-8000-000000000001",
          createdAt,
          fromHeader: "Recipient <recipient@example.org>",
          to: ["hello@example.com"],
          cc: [],
          bcc: [],
          receivedFor: ["hello@example.com"],
          messageId: "<reply@example.org>",
          subject: "Re: Mailroom test event",
          attachments: [],
          inReplyToEmailId: "00000000-0000-7000-8000-000000000000",
          autoReply: null,
        }),
        test: true,
      },
    };
  }
  return { type, created_at: createdAt, data: { ...data, test: true } };
}

/** A URL as the audit log shows it: scheme, host and path. */
const withoutQuery = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
};

export function createWebhookService(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  secrets: SecretBox;
  guard: EndpointGuard;
  rotationOverlapMs: number;
  /** Called when outbox rows were written, to wake the dispatcher (after the commit, via its own scheduling). */
  wake: () => void;
  /** The store's notifications: each organisation's enabled endpoints are cached until an endpoint changes. */
  listen?: Store["listen"];
}): WebhookService {
  const { db, writer, clock, secrets, guard } = deps;
  const enabledEndpoints = policyCache<Array<{ id: string; eventTypes: string[] }>>(deps, POLICY_CHANGED, 10_000);

  const fail = (details: ErrorDetail[]) => {
    if (details.length) throw validationError(details);
  };

  const checkEvents = (value: string[], details: ErrorDetail[]): EventType[] => {
    if (value.length === 0) {
      details.push({ path: "events", message: `must be a non-empty array of event types: ${EVENT_TYPES.join(", ")}` });
      return [];
    }
    const out: EventType[] = [];
    value.forEach((type, i) => {
      if (!(EVENT_TYPES as readonly string[]).includes(type))
        details.push({ path: `events.${i}`, message: `unknown event type; known: ${EVENT_TYPES.join(", ")}` });
      else if (!out.includes(type as EventType)) out.push(type as EventType);
    });
    return out;
  };

  const checkDescription = (value: string | null | undefined, details: ErrorDetail[]): string | null => {
    if (value === undefined || value === null) return null;
    if (value.length > MAX_DESCRIPTION || /[\0]/.test(value)) {
      details.push({ path: "description", message: `must be a string of at most ${MAX_DESCRIPTION} characters` });
      return null;
    }
    return value;
  };

  /** Form, then addresses: a refused endpoint is a validation error on `endpoint`, saying why. */
  const checkEndpoint = async (value: string): Promise<string> => {
    try {
      const url = guard.parse(value.trim());
      await guard.resolve(url);
      return url.href;
    } catch (error) {
      if (error instanceof EndpointRefused) throw validationError([{ path: "endpoint", message: error.reason }]);
      throw error;
    }
  };

  const { webhookDeliveries, webhookEndpoints } = tablesOf(db);

  const own = async (actor: Actor, id: string): Promise<EndpointRow> => {
    const row = await findEndpoint(db, actor.organizationId, id);
    if (!row) throw new AppError("not_found", "Webhook not found.");
    return row;
  };

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

  const fanOut = async (tx: Db, event: StoredEvent) => {
    // From memory: read every time, the endpoints were one statement more for every event of every send. A miss
    // reads in `tx`: a second connection taken inside a transaction can wait forever on a pool its peers hold.
    const targets = (
      await enabledEndpoints.get(event.organizationId, () =>
        outboxStatements(tx).enabledEndpoints.execute({ organizationId: event.organizationId }),
      )
    ).filter((endpoint) => endpoint.eventTypes.includes(event.type));
    if (!targets.length) return;
    const body = JSON.stringify(await buildPayload(tx, event));
    await notifyAtCommit(tx, WEBHOOKS_DUE);
    for (const endpoint of targets) await enqueue(tx, endpoint.id, event.organizationId, event.id, event.type, body);
    deps.wake();
  };

  const withSecret = (row: EndpointRow, secret: string): WebhookWithSecret => ({
    ...toWebhookView(row),
    signing_secret: secret,
  });

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

  /**
   * The audit log's record of a change to an endpoint, in the change's transaction: never its secret, and its URL
   * without the query, where some receivers put a token of their own.
   */
  const audited = (
    tx: Db,
    actor: Actor,
    action: string,
    id: string,
    url: string | null,
    changes?: Record<string, unknown>,
  ) =>
    recordAudit(
      tx,
      actor,
      { action, target: { type: "webhook", id, name: url && withoutQuery(url) }, changes },
      clock.now(),
    );

  return {
    fanOut,

    async create(actor, input) {
      requireScope(actor, "webhooks:write");
      const details: ErrorDetail[] = [];
      const eventTypes = checkEvents(input.events, details);
      const description = checkDescription(input.description, details);
      fail(details);
      const url = await checkEndpoint(input.endpoint);
      const secret = newSigningSecret();
      const now = isoTime(clock.now());
      const row: EndpointRow = {
        id: newId(),
        organizationId: actor.organizationId,
        url,
        description,
        eventTypes,
        enabled: true,
        disabledReason: null,
        disabledAt: null,
        secret: secrets.seal(secret),
        previousSecret: null,
        previousSecretUntil: null,
        consecutiveFailures: 0,
        createdAt: now,
        updatedAt: now,
      };
      await writer.write(async (tx) => {
        const counted = await first(
          tx
            .select({ n: sql<number>`count(*)`.mapWith(Number) })
            .from(webhookEndpoints)
            .where(eq(webhookEndpoints.organizationId, actor.organizationId)),
        );
        if (counted!.n >= MAX_ENDPOINTS_PER_ORGANIZATION)
          throw new AppError(
            "conflict",
            `An organisation may have at most ${MAX_ENDPOINTS_PER_ORGANIZATION} webhooks.`,
          );
        await tx.insert(webhookEndpoints).values(row);
        await notifyAtCommit(tx, POLICY_CHANGED);
        await audited(tx, actor, "webhook.created", row.id, url, { events: eventTypes, description });
      });
      return withSecret(row, secret);
    },

    async list(actor, options = { limit: 100 }) {
      requireScope(actor, "webhooks:read");
      const { page, hasMore } = await pageById(
        webhookEndpoints.id,
        [eq(webhookEndpoints.organizationId, actor.organizationId)],
        options,
        (where, order, limit) => db.select().from(webhookEndpoints).where(where).orderBy(order).limit(limit),
      );
      return { object: "list", has_more: hasMore, data: page.map(toWebhookView) };
    },

    async get(actor, id) {
      requireScope(actor, "webhooks:read");
      return toWebhookView(await own(actor, id));
    },

    async update(actor, id, input) {
      requireScope(actor, "webhooks:write");
      await own(actor, id);
      const details: ErrorDetail[] = [];
      const changes: Partial<EndpointRow> = {};
      if (input.events !== undefined) changes.eventTypes = checkEvents(input.events, details);
      if (input.description !== undefined) changes.description = checkDescription(input.description, details);
      fail(details);
      if (input.endpoint !== undefined) changes.url = await checkEndpoint(input.endpoint);
      const now = isoTime(clock.now());
      if (input.status === "enabled")
        Object.assign(changes, { enabled: true, disabledReason: null, disabledAt: null, consecutiveFailures: 0 });
      const row = await writer.write(async (tx) => {
        const current = await findEndpoint(tx, actor.organizationId, id);
        if (!current) return undefined;
        // Disabling keeps the first reason: a user's "disable" does not hide why Mailroom disabled it earlier.
        if (input.status === "disabled" && current.enabled)
          Object.assign(changes, { enabled: false, disabledReason: "disabled through the API", disabledAt: now });
        await tx
          .update(webhookEndpoints)
          .set({ ...changes, updatedAt: now })
          .where(eq(webhookEndpoints.id, id));
        await notifyAtCommit(tx, POLICY_CHANGED);
        await audited(tx, actor, "webhook.updated", id, changes.url ?? current.url, {
          ...(changes.url !== undefined && {
            endpoint: { from: withoutQuery(current.url), to: withoutQuery(changes.url) },
          }),
          ...(changes.eventTypes !== undefined && { events: changes.eventTypes }),
          ...(changes.description !== undefined && { description: changes.description }),
          ...(changes.enabled !== undefined && { enabled: changes.enabled }),
        });
        return (await findEndpoint(tx, actor.organizationId, id))!;
      });
      if (!row) throw new AppError("not_found", "Webhook not found.");
      // Deliveries held while the endpoint was disabled are due again.
      if (input.status === "enabled") deps.wake();
      return toWebhookView(row);
    },

    async remove(actor, id) {
      requireScope(actor, "webhooks:write");
      const deleted = await writer.write(async (tx) => {
        const removed = await tx
          .delete(webhookEndpoints)
          .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, actor.organizationId)))
          .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url });
        await notifyAtCommit(tx, POLICY_CHANGED);
        if (removed[0]) await audited(tx, actor, "webhook.deleted", id, removed[0].url);
        return removed.length;
      });
      if (!deleted) throw new AppError("not_found", "Webhook not found.");
      return { object: "webhook", id, deleted: true };
    },

    async rotateSecret(actor, id) {
      requireScope(actor, "webhooks:write");
      await own(actor, id);
      const secret = newSigningSecret();
      const now = clock.now();
      const row = await writer.write(async (tx) => {
        const current = await findEndpoint(tx, actor.organizationId, id);
        if (!current) return undefined;
        await tx
          .update(webhookEndpoints)
          .set({
            secret: secrets.seal(secret),
            previousSecret: current.secret,
            previousSecretUntil: now + deps.rotationOverlapMs,
            updatedAt: isoTime(now),
          })
          .where(eq(webhookEndpoints.id, id));
        // The event names the rotation, never the secret.
        await audited(tx, actor, "webhook.secret_rotated", id, current.url);
        return (await findEndpoint(tx, actor.organizationId, id))!;
      });
      if (!row) throw new AppError("not_found", "Webhook not found.");
      return withSecret(row, secret);
    },

    async sendTest(actor, id, type = "email.sent") {
      requireScope(actor, "webhooks:write");
      if (!(EVENT_TYPES as readonly string[]).includes(type))
        throw validationError([{ path: "type", message: `unknown event type; known: ${EVENT_TYPES.join(", ")}` }]);
      const endpoint = await own(actor, id);
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
      await own(actor, id);
      return { object: "list", ...(await listDeliveries(db, id, options)) };
    },

    async listAttempts(actor, id, deliveryId, options) {
      requireScope(actor, "webhooks:read");
      await own(actor, id);
      if (!(await findDelivery(db, id, deliveryId))) throw new AppError("not_found", "Webhook event not found.");
      return { object: "list", ...(await listAttempts(db, deliveryId, options)) };
    },

    async getDelivery(actor, id, deliveryId) {
      requireScope(actor, "webhooks:read");
      await own(actor, id);
      const row = await findDelivery(db, id, deliveryId);
      if (!row) throw new AppError("not_found", "Webhook event not found.");
      const detail = await deliveryDetail(db, row);
      // A click's payload names the link, a piece of the message a viewer does not read (DESIGN §13).
      if (mayReadContent(actor)) return detail;
      return { ...detail, payload: { ...detail.payload, data: withoutContent(detail.payload.data) } };
    },

    async replay(actor, id, deliveryId) {
      requireScope(actor, "webhooks:write");
      await own(actor, id);
      const row = await findDelivery(db, id, deliveryId);
      if (!row) throw new AppError("not_found", "Webhook event not found.");
      if (row.status === "pending")
        throw new AppError(
          "conflict",
          "This delivery is still being attempted; replay it once it has succeeded or failed.",
        );
      const replayed = await writer.write(async (tx) => {
        await replayRows(tx, and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, id)));
        await audited(tx, actor, "webhook.replayed", id, null, { deliveries: [deliveryId] });
        return findDelivery(tx, id, deliveryId);
      });
      if (!replayed) throw new AppError("not_found", "Webhook event not found.");
      deps.wake();
      return toDeliveryView(replayed);
    },

    async replayFailed(actor, id) {
      requireScope(actor, "webhooks:write");
      await own(actor, id);
      const replayed = await writer.write(async (tx) => {
        const count = await replayRows(
          tx,
          and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, "failed")),
        );
        await audited(tx, actor, "webhook.replayed", id, null, { failed_deliveries: count });
        return count;
      });
      if (replayed) deps.wake();
      return { object: "replay", webhook_id: id, replayed };
    },
  };
}
