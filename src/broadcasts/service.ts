/**
 * Broadcasts as a service (docs/broadcasts.md): drafts made, changed and removed; a send that queues the fan-out
 * (now or at `scheduled_at`); a cancel; a duplicate; the reads. Invariants: only a draft changes or is removed; a
 * broadcast goes draft → queued → sent, and a cancel takes a queued one back to draft while nothing was fanned out yet,
 * or stops it as `canceled` (its contacts not yet reached get nothing, its recipients still waiting are canceled
 * through the lifecycle); the fan-out (fan-out.ts) alone makes messages, each through `emails.submit`.
 */
import type { Actor } from "../access.ts";
import { requireScope } from "../access.ts";
import { findTopic } from "../contacts/audience-repo.ts";
import { findSegment } from "../contacts/repo.ts";
import { inIdBatches, type PageOptions } from "../db/pages.ts";
import type { Db, Writer } from "../db/store.ts";
import { tablesOf } from "../db/store.ts";
import { eq } from "drizzle-orm";
import type { Lifecycle } from "../deliveries/lifecycle.ts";
import { RECIPIENT_STATUSES } from "../deliveries/model.ts";
import type { DomainService } from "../domains/service.ts";
import { parseSendRequest } from "../emails/validate.ts";
import { AppError, validationError } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { domainOf } from "../lib/addresses.ts";
import { newId } from "../lib/ids.ts";
import type { TemplateService } from "../templates/service.ts";
import type {
  BroadcastClickedLink,
  BroadcastRecipient,
  BroadcastSummary,
  BroadcastView,
  CreateBroadcastBody,
  RecipientEventType,
  UpdateBroadcastBody,
} from "./model.ts";
import { parseWhen } from "./personalize.ts";
import {
  clickedLinks,
  findBroadcast,
  pageBroadcasts,
  recipientsByEvent,
  statusCounts,
  waitingDeliveries,
  type BroadcastRow,
} from "./repo.ts";

/** How far ahead a broadcast may be scheduled, as a message may (docs/sending.md). */
const MAX_AHEAD_MS = 30 * 86_400_000;
const CANCEL_BATCH = 500;

type List<T> = { object: "list"; has_more: boolean; data: T[] };

export interface BroadcastService {
  create(actor: Actor, body: CreateBroadcastBody): Promise<{ id: string }>;
  get(actor: Actor, id: string): Promise<BroadcastView>;
  list(actor: Actor, options: PageOptions): Promise<List<BroadcastSummary>>;
  update(actor: Actor, id: string, body: UpdateBroadcastBody): Promise<{ id: string }>;
  remove(actor: Actor, id: string): Promise<{ object: "broadcast"; id: string; deleted: true }>;
  send(actor: Actor, id: string, scheduledAt?: string): Promise<{ id: string }>;
  cancel(actor: Actor, id: string): Promise<{ object: "broadcast"; id: string }>;
  duplicate(actor: Actor, id: string): Promise<{ object: "broadcast"; id: string }>;
  recipients(
    actor: Actor,
    id: string,
    options: PageOptions & { type: RecipientEventType; email?: string; bounceType?: string },
  ): Promise<List<BroadcastRecipient>>;
  clickedLinks(actor: Actor, id: string, options: PageOptions): Promise<List<BroadcastClickedLink>>;
  /** Cancels the broadcast's recipients still waiting, in batches (a cancel, and a fan-out that finds it canceled). */
  cancelWaiting(broadcastId: string): Promise<number>;
}

export interface BroadcastDeps {
  db: Db;
  writer: Writer;
  clock: Clock;
  domains: Pick<DomainService, "assertMaySendFrom">;
  templates: Pick<TemplateService, "renderForSend">;
  lifecycle: Lifecycle;
  maxRecipients: number;
  /** Looks for due fan-out work soon (a broadcast was just queued). */
  wake: () => void;
}

const replyToList = (value: string | string[] | undefined) =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

export function createBroadcastService(deps: BroadcastDeps): BroadcastService {
  const { db, writer, clock } = deps;

  const own = async (actor: Actor, id: string, tx: Db = db): Promise<BroadcastRow> => {
    const row = await findBroadcast(tx, actor.organizationId, id);
    if (!row) throw new AppError("not_found", `No broadcast has the id "${id}".`);
    return row;
  };

  /** The segment and topic named, checked as the organisation's (400 naming the field otherwise). */
  const checkReferences = async (actor: Actor, body: UpdateBroadcastBody) => {
    const segmentId = body.segment_id ?? body.audience_id;
    if (body.segment_id && body.audience_id && body.segment_id !== body.audience_id)
      throw validationError([{ path: "segment_id", message: "give segment_id or audience_id, not two segments" }]);
    if (segmentId !== undefined && !(await findSegment(db, actor.organizationId, segmentId)))
      throw validationError([{ path: "segment_id", message: `no segment has the id "${segmentId}"` }]);
    if (body.topic_id && !(await findTopic(db, actor.organizationId, body.topic_id)))
      throw validationError([{ path: "topic_id", message: `no topic has the id "${body.topic_id}"` }]);
    if (body.html !== undefined && body.template !== undefined)
      throw validationError([{ path: "template", message: "give html or a template, not both" }]);
    return segmentId;
  };

  /** The fields a body sets, as the row's columns. */
  const columnsOf = (body: UpdateBroadcastBody, segmentId: string | undefined) => ({
    ...(body.name !== undefined && { name: body.name }),
    ...(segmentId !== undefined && { segmentId }),
    ...(body.from !== undefined && { from: body.from }),
    ...(body.subject !== undefined && { subject: body.subject }),
    ...(body.reply_to !== undefined && { replyTo: replyToList(body.reply_to)! }),
    ...(body.preview_text !== undefined && { previewText: body.preview_text }),
    ...(body.html !== undefined && { html: body.html, template: null }),
    ...(body.text !== undefined && { text: body.text }),
    ...(body.template !== undefined && { template: body.template, html: null }),
    ...(body.topic_id !== undefined && { topicId: body.topic_id }),
  });

  /** What is wrong with a from or reply_to given, checked as a send would check it. */
  const checkAddresses = (row: Pick<BroadcastRow, "from" | "replyTo" | "subject">) => {
    if (!row.from) return;
    parseSendRequest(
      {
        from: row.from,
        to: "contact@example.com",
        subject: row.subject ?? "-",
        text: "-",
        ...(row.replyTo && { reply_to: row.replyTo }),
      },
      { now: clock.now(), maxRecipients: deps.maxRecipients },
    );
  };

  const view = async (row: BroadcastRow): Promise<BroadcastView> => {
    const counted = await statusCounts(db, row.id);
    const byStatus = Object.fromEntries(RECIPIENT_STATUSES.map((status) => [status, counted[status] ?? 0]));
    return {
      object: "broadcast",
      id: row.id,
      name: row.name,
      segment_id: row.segmentId ?? null,
      audience_id: row.segmentId ?? null,
      from: row.from ?? null,
      subject: row.subject ?? null,
      reply_to: row.replyTo ?? null,
      preview_text: row.previewText ?? null,
      status: row.status,
      created_at: row.createdAt,
      scheduled_at: row.scheduledAt ?? null,
      sent_at: row.sentAt ?? null,
      topic_id: row.topicId ?? null,
      html: row.html ?? null,
      text: row.text ?? null,
      template: row.template ?? null,
      counts: {
        contacts_reached: row.queuedCount + row.skippedCount,
        messages: row.queuedCount,
        skipped: row.skippedCount,
        by_status: byStatus as BroadcastView["counts"]["by_status"],
      },
    };
  };

  const summary = (row: BroadcastRow): BroadcastSummary => ({
    id: row.id,
    name: row.name,
    audience_id: row.segmentId ?? null,
    segment_id: row.segmentId ?? null,
    status: row.status,
    created_at: row.createdAt,
    scheduled_at: row.scheduledAt ?? null,
    sent_at: row.sentAt ?? null,
  });

  /** When to send: now, or `scheduled_at` (future, at most 30 days ahead). */
  const whenOf = (scheduledAt: string | undefined): number | undefined => {
    if (scheduledAt === undefined) return undefined;
    const now = clock.now();
    const at = parseWhen(scheduledAt, now);
    if (at === undefined)
      throw validationError([
        { path: "scheduled_at", message: "must be an ISO 8601 date-time or a time such as `in 2 hours`" },
      ]);
    if (at > now + MAX_AHEAD_MS) throw validationError([{ path: "scheduled_at", message: "at most 30 days ahead" }]);
    return at <= now ? undefined : at;
  };

  /** Checks a draft is complete and may be sent by `actor`, renders its template, and queues it. */
  const queue = async (actor: Actor, id: string, scheduledAt: string | undefined) => {
    requireScope(actor, "contacts:write");
    // A broadcast is mail: only a caller who may send mail sends one (a credential never exceeds its creator's rights).
    requireScope(actor, "emails:send");
    const at = whenOf(scheduledAt);
    const row = await own(actor, id);
    if (row.status !== "draft")
      throw new AppError("conflict", `Only a draft can be sent; this broadcast is ${row.status}.`);
    const missing = [
      !row.segmentId && { path: "segment_id", message: "a broadcast needs a segment to send to" },
      !row.from && { path: "from", message: "a broadcast needs a from address" },
      !row.subject && !row.template && { path: "subject", message: "a broadcast needs a subject" },
      !row.html &&
        !row.text &&
        !row.template && { path: "html", message: "a broadcast needs html, text or a template" },
    ].filter((problem) => problem !== false);
    if (missing.length) throw validationError(missing);
    let content = { html: row.html, text: row.text, subject: row.subject };
    if (row.template) {
      const rendered = await deps.templates.renderForSend(actor, row.template.id, row.template.variables ?? {}, {
        id: "template.id",
        variables: "template.variables",
      });
      content = { html: rendered.html, text: row.text ?? rendered.text, subject: row.subject ?? rendered.subject };
      if (!content.subject) throw validationError([{ path: "subject", message: "a broadcast needs a subject" }]);
    }
    checkAddresses({ ...row, subject: content.subject });
    await deps.domains.assertMaySendFrom(actor, domainOf(parseAddress(row.from!)));
    const now = clock.now();
    await writer.write(async (tx) => {
      const { broadcasts } = tablesOf(tx);
      const current = await own(actor, id, tx);
      if (current.status !== "draft")
        throw new AppError("conflict", `Only a draft can be sent; this broadcast is ${current.status}.`);
      await tx
        .update(broadcasts)
        .set({
          ...content,
          status: "queued",
          scheduledAt: at === undefined ? null : isoTime(at),
          apiKeyId: actor.keyId,
          cursor: "",
          queuedCount: 0,
          skippedCount: 0,
          nextAttemptAt: at ?? now,
          updatedAt: isoTime(now),
        })
        .where(eq(broadcasts.id, current.id));
    });
    deps.wake();
    return { id: row.id };
  };

  const service: BroadcastService = {
    async create(actor, body) {
      requireScope(actor, "contacts:write");
      if (body.scheduled_at !== undefined && !body.send)
        throw validationError([{ path: "scheduled_at", message: "scheduled_at goes with send: true" }]);
      const segmentId = await checkReferences(actor, body);
      if (segmentId === undefined)
        throw validationError([{ path: "segment_id", message: "a broadcast needs a segment (segment_id)" }]);
      if (body.send) requireScope(actor, "emails:send");
      const now = isoTime(clock.now());
      const row = {
        id: newId(),
        organizationId: actor.organizationId,
        name: body.name ?? "",
        segmentId: null,
        topicId: null,
        from: null,
        subject: null,
        replyTo: null,
        previewText: null,
        html: null,
        text: null,
        template: null,
        status: "draft" as const,
        createdAt: now,
        updatedAt: now,
        ...columnsOf(body, segmentId),
      };
      checkAddresses(row);
      await writer.write((tx) => tx.insert(tablesOf(tx).broadcasts).values(row));
      if (body.send)
        // All or nothing, as Resend's: a broadcast that cannot be sent is not left behind as a draft.
        await queue(actor, row.id, body.scheduled_at).catch(async (error: unknown) => {
          await writer.write((tx) => tx.delete(tablesOf(tx).broadcasts).where(eq(tablesOf(tx).broadcasts.id, row.id)));
          throw error;
        });
      return { id: row.id };
    },

    async get(actor, id) {
      requireScope(actor, "contacts:read");
      return view(await own(actor, id));
    },

    async list(actor, options) {
      requireScope(actor, "contacts:read");
      const { page, hasMore } = await pageBroadcasts(db, actor.organizationId, options);
      return { object: "list", has_more: hasMore, data: page.map(summary) };
    },

    async update(actor, id, body) {
      requireScope(actor, "contacts:write");
      const segmentId = await checkReferences(actor, body);
      await writer.write(async (tx) => {
        const row = await own(actor, id, tx);
        if (row.status !== "draft")
          throw new AppError("conflict", `Only a draft can be changed; this broadcast is ${row.status}.`);
        const changes = columnsOf(body, segmentId);
        checkAddresses({ ...row, ...changes });
        await tx
          .update(tablesOf(tx).broadcasts)
          .set({ ...changes, updatedAt: isoTime(clock.now()) })
          .where(eq(tablesOf(tx).broadcasts.id, row.id));
      });
      return { id: id.toLowerCase() };
    },

    async remove(actor, id) {
      requireScope(actor, "contacts:write");
      const row = await writer.write(async (tx) => {
        const found = await own(actor, id, tx);
        if (found.status !== "draft")
          throw new AppError(
            "conflict",
            `Only a draft can be deleted; this broadcast is ${found.status} (cancel it first if it is queued).`,
          );
        await tx.delete(tablesOf(tx).broadcasts).where(eq(tablesOf(tx).broadcasts.id, found.id));
        return found;
      });
      return { object: "broadcast", id: row.id, deleted: true };
    },

    send: queue,

    async cancel(actor, id) {
      requireScope(actor, "contacts:write");
      const outcome = await writer.write(async (tx) => {
        const { broadcasts } = tablesOf(tx);
        const row = await own(actor, id, tx);
        if (row.status !== "queued")
          throw new AppError("conflict", `Only a queued broadcast can be canceled; this one is ${row.status}.`);
        const started = row.queuedCount + row.skippedCount > 0 || (row.cursor ?? "") !== "";
        const now = isoTime(clock.now());
        // Not yet begun (scheduled, or due and not reached): back to a draft, as Resend does. Begun: stopped for good.
        await tx
          .update(broadcasts)
          .set(
            started
              ? { status: "canceled", nextAttemptAt: null, updatedAt: now }
              : { status: "draft", scheduledAt: null, nextAttemptAt: null, cursor: null, updatedAt: now },
          )
          .where(eq(broadcasts.id, row.id));
        return { id: row.id, started };
      });
      if (outcome.started) await service.cancelWaiting(outcome.id);
      return { object: "broadcast", id: outcome.id };
    },

    async duplicate(actor, id) {
      requireScope(actor, "contacts:write");
      const row = await own(actor, id);
      const now = isoTime(clock.now());
      const copy = {
        id: newId(),
        organizationId: row.organizationId,
        name: row.name,
        segmentId: row.segmentId,
        topicId: row.topicId,
        from: row.from,
        subject: row.subject,
        replyTo: row.replyTo,
        previewText: row.previewText,
        html: row.template ? null : row.html,
        text: row.text,
        template: row.template,
        status: "draft" as const,
        createdAt: now,
        updatedAt: now,
      };
      await writer.write((tx) => tx.insert(tablesOf(tx).broadcasts).values(copy));
      return { object: "broadcast", id: copy.id };
    },

    async recipients(actor, id, options) {
      requireScope(actor, "contacts:read");
      const row = await own(actor, id);
      const { page, hasMore } = await recipientsByEvent(db, row.id, options.type, options);
      return { object: "list", has_more: hasMore, data: page };
    },

    async clickedLinks(actor, id, options) {
      requireScope(actor, "contacts:read");
      const row = await own(actor, id);
      const { page, hasMore } = await clickedLinks(db, row.id, options);
      return { object: "list", has_more: hasMore, data: page };
    },

    cancelWaiting: (broadcastId) =>
      inIdBatches(writer, CANCEL_BATCH, async (tx, after) => {
        const waiting = await waitingDeliveries(tx, broadcastId, after, CANCEL_BATCH);
        let counted = 0;
        for (const delivery of waiting) {
          const applied = await deps.lifecycle.apply(
            tx,
            "recipient_canceled",
            { deliveryId: delivery.id },
            { response: "the broadcast was canceled" },
          );
          if (applied.outcome === "applied") counted += applied.changed;
        }
        return { ids: waiting.map((row) => row.id), counted };
      }),
  };
  return service;
}

/** The address of a From given as `Name <address>` or bare. */
function parseAddress(from: string): string {
  const angle = /<([^>]+)>\s*$/.exec(from);
  return (angle ? angle[1]! : from).trim();
}
