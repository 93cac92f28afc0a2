/**
 * Webhook endpoints (docs/events-and-webhooks.md#webhook-endpoints): created, listed, changed, disabled, rotated
 * and deleted here, each change recorded in the audit log in its own transaction.
 *
 * Invariants: an endpoint's URL passed the endpoint guard (https on public addresses) when it was set; signing
 * secrets are sealed at rest and shown only in the create and rotate answers; the audit log never holds a secret,
 * nor a URL's query (where some receivers put a token of their own); every change notifies the policy channel, so
 * the fan-out's cache of enabled endpoints is dropped.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "../access.ts";
import { requireScope } from "../access.ts";
import { recordAudit } from "../audit/log.ts";
import { notifyAtCommit } from "../db/dialect.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import { POLICY_CHANGED } from "../db/read-cache.ts";
import { first, tablesOf, type Db, type Store, type Writer } from "../db/store.ts";
import { AppError, validationError, type ErrorDetail } from "../errors.ts";
import { EVENT_TYPES, type EventType } from "../events/model.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { EndpointRefused, type EndpointGuard } from "../lib/endpoint-guard.ts";
import { newId } from "../lib/ids.ts";
import type { SecretBox } from "../lib/secrets.ts";
import type { CreateWebhookInput, UpdateWebhookInput, WebhookView, WebhookWithSecret } from "./model.ts";
import { findEndpoint, toWebhookView, type EndpointRow } from "./repo.ts";
import { newSigningSecret } from "./signing.ts";

/** Bounds the work of fanning one event out, which happens inside the event's transaction. */
const MAX_ENDPOINTS_PER_ORGANIZATION = 100;
const MAX_DESCRIPTION = 500;

/** What the webhook service is built from (the composition root gives it). */
export interface WebhookDeps {
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
}

export interface WebhookEndpoints {
  create(actor: Actor, input: CreateWebhookInput): Promise<WebhookWithSecret>;
  /** Newest first, paged. */
  list(actor: Actor, options?: PageOptions): Promise<{ object: "list"; has_more: boolean; data: WebhookView[] }>;
  get(actor: Actor, id: string): Promise<WebhookView>;
  update(actor: Actor, id: string, input: UpdateWebhookInput): Promise<WebhookView>;
  remove(actor: Actor, id: string): Promise<{ object: "webhook"; id: string; deleted: true }>;
  /** A new secret; the old one keeps signing alongside it for the configured overlap (24 h). */
  rotateSecret(actor: Actor, id: string): Promise<WebhookWithSecret>;
}

/** The caller's organisation's endpoint `id`, or `not_found`. */
export async function ownEndpoint(db: Db, actor: Actor, id: string): Promise<EndpointRow> {
  const row = await findEndpoint(db, actor.organizationId, id);
  if (!row) throw new AppError("not_found", "Webhook not found.");
  return row;
}

/** A URL as the audit log shows it: scheme, host and path. */
const withoutQuery = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
};

/** The audit log's record of a change to an endpoint, in the change's transaction. */
export const auditWebhook = (
  tx: Db,
  clock: Clock,
  actor: Actor,
  change: { action: string; id: string; url: string | null; changes?: Record<string, unknown> },
) =>
  recordAudit(
    tx,
    actor,
    {
      action: change.action,
      target: { type: "webhook", id: change.id, name: change.url && withoutQuery(change.url) },
      changes: change.changes,
    },
    clock.now(),
  );

export function createWebhookEndpoints(deps: WebhookDeps): WebhookEndpoints {
  const { db, writer, clock, secrets, guard } = deps;
  const { webhookEndpoints } = tablesOf(db);
  const audited = (
    tx: Db,
    actor: Actor,
    action: string,
    id: string,
    url: string | null,
    changes?: Record<string, unknown>,
  ) => auditWebhook(tx, clock, actor, { action, id, url, changes });

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

  const withSecret = (row: EndpointRow, secret: string): WebhookWithSecret => ({
    ...toWebhookView(row),
    signing_secret: secret,
  });

  return {
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
      return toWebhookView(await ownEndpoint(db, actor, id));
    },

    async update(actor, id, input) {
      requireScope(actor, "webhooks:write");
      await ownEndpoint(db, actor, id);
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
      await ownEndpoint(db, actor, id);
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
  };
}
