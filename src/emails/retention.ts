/**
 * Retention of sent mail (docs/operations.md), the job that bounds the store: after `content` days the raw message and
 * bodies of a message whose every recipient is final or `sent` are removed (the record, recipients and events stay, with
 * `content_removed_at`); after `metadata` days a message none of whose recipients still waits is removed whole,
 * its events rolled up into the hourly statistics first (stats.ts). Webhook deliveries that are over, and events of
 * no message, go after `metadata` days too; audit log events after `audit` days, the request log's rows after `logs`
 * (docs/logs-and-mcp.md#the-request-log). The job also keeps each
 * organisation's storage figures.
 *
 * Invariants: a message with a recipient waiting (queued, deferred, held) is never touched; every removal is one
 * short write of at most `BATCH` messages, its rollups and storage figures in the same transaction, so a run
 * stopped half-way leaves the figures true; the job runs once across instances (jobs/periodic.ts).
 *
 * Scanning: message ids are UUIDv7, so id order is the order messages came in. Each pass walks an organisation's
 * messages oldest first through an index holding only candidates (content still kept; every record) and stops at
 * the first too young, so a run reads what it removes and the few old messages still waiting, not the whole past.
 */
import { and, eq, gt, inArray, isNull, lt, notInArray, sql } from "drizzle-orm";
import { CONTENT_DONE_STATUSES, RECIPIENT_STATUSES, WAITING_STATUSES } from "../deliveries/model.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { utcDay } from "../limits/daily-quota.ts";
import { DAY_MS, retentionDays, type OrganizationDefaults } from "../organizations/service.ts";
import { rollUpEvents } from "./stats.ts";

/** Messages per removal write: small enough that sending and look-ups never wait long on it (see BENCHMARKS.md). */
const BATCH = 100;
/** Rows read per step when counting what an organisation stores. */
const COUNT_BATCH = 2_000;
/** Messages accepted this recently are not counted yet: one accepted earlier may still be committing. */
const COUNT_SETTLE_MS = 10 * 60_000;
/** Usage rows are kept two days past their own: the day before is still shown nowhere, but a clock may lag. */
const USAGE_KEPT_DAYS = 2;

export interface RetentionRun {
  contentRemoved: number;
  messagesRemoved: number;
  webhookDeliveriesRemoved: number;
  eventsRemoved: number;
  auditEventsRemoved: number;
  requestLogsRemoved: number;
}

export interface Retention {
  runOnce(): Promise<RetentionRun>;
}

/** A message keeps its content while a recipient is in one of these (queued, deferred, held). */
const CONTENT_KEPT = RECIPIENT_STATUSES.filter((status) => !CONTENT_DONE_STATUSES.includes(status));

/** Yields to the event loop between writes, so that requests and deliveries interleave with a long run. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createRetention(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  logger: Logger;
  defaults: OrganizationDefaults;
  /** `[retention] audit`: how long the audit log keeps an event. */
  auditRetentionMs: number;
  /** `[retention] logs`: how long the request log keeps a request. */
  logsRetentionMs: number;
  /** Returns freed pages to the file system (SQLite with auto_vacuum=incremental); PostgreSQL's autovacuum reuses. */
  reclaimSpace?: () => Promise<void>;
}): Retention {
  const { db, writer, clock, logger } = deps;
  const { organizations, organizationStorage, emails, emailContents, events, dailyUsage } = tablesOf(db);
  const { webhookDeliveries, auditEvents, requestLogs } = tablesOf(db);

  /** Some recipient of the message is in one of `statuses` (written out: drizzle leaves a lone table's columns bare). */
  const anyRecipientIn = (statuses: readonly string[]) =>
    sql<number>`EXISTS (SELECT 1 FROM deliveries d WHERE d.email_id = emails.id AND d.status IN (${sql.raw(statuses.map((status) => `'${status}'`).join(", "))}))`;

  /**
   * Walks the organisation's messages oldest first (`kept`: only those still keeping content), hands each batch of
   * those older than `cutoff` that `ineligible` does not hold back to `remove`, and stops at the first message not
   * older.
   */
  const sweep = async (
    organizationId: string,
    cutoff: string,
    kept: boolean,
    ineligible: ReturnType<typeof anyRecipientIn>,
    remove: (tx: Db, batch: Array<{ id: string; size: number; contentKept: boolean }>) => Promise<void>,
  ) => {
    let removed = 0;
    for (let after = ""; ; ) {
      const rows = await db
        .select({
          id: emails.id,
          size: emails.size,
          createdAt: emails.createdAt,
          contentRemovedAt: emails.contentRemovedAt,
          ineligible,
        })
        .from(emails)
        .where(
          and(
            eq(emails.organizationId, organizationId),
            gt(emails.id, after),
            kept ? isNull(emails.contentRemovedAt) : undefined,
          ),
        )
        .orderBy(emails.id)
        .limit(BATCH);
      const old = rows.filter((row) => row.createdAt < cutoff);
      const batch = old
        .filter((row) => !Number(row.ineligible))
        .map((row) => ({ id: row.id, size: Number(row.size), contentKept: row.contentRemovedAt === null }));
      if (batch.length) {
        await writer.write((tx) => remove(tx, batch));
        removed += batch.length;
        await breathe();
      }
      if (rows.length < BATCH || old.length < rows.length) return removed;
      after = rows.at(-1)!.id;
    }
  };

  /** The storage row's figures moved by `messages` and `bytes` (negative: removed), in the removal's write. */
  const adjustStorage = (tx: Db, organizationId: string, messages: number, bytes: number) =>
    tx
      .update(organizationStorage)
      .set({
        messages: sql`${organizationStorage.messages} + ${messages}`,
        contentBytes: sql`${organizationStorage.contentBytes} + ${bytes}`,
      })
      .where(eq(organizationStorage.organizationId, organizationId));

  const removeContent =
    (organizationId: string, removedAt: string) => async (tx: Db, batch: Array<{ id: string; size: number }>) => {
      const ids = batch.map((row) => row.id);
      await tx.delete(emailContents).where(inArray(emailContents.emailId, ids));
      await tx
        .update(emails)
        .set({ html: null, text: null, contentRemovedAt: removedAt })
        .where(inArray(emails.id, ids));
      await adjustStorage(tx, organizationId, 0, -batch.reduce((sum, row) => sum + row.size, 0));
    };

  const removeRecords =
    (organizationId: string) => async (tx: Db, batch: Array<{ id: string; size: number; contentKept: boolean }>) => {
      const ids = batch.map((row) => row.id);
      await rollUpEvents(tx, ids);
      // Deliveries, events and content go with their message (ON DELETE CASCADE).
      await tx.delete(emails).where(inArray(emails.id, ids));
      const bytes = batch.reduce((sum, row) => sum + (row.contentKept ? row.size : 0), 0);
      await adjustStorage(tx, organizationId, -batch.length, -bytes);
    };

  /**
   * Brings the organisation's storage figures up to the messages accepted until a few minutes ago, counting from
   * where the last run stopped (the first run counts everything, a step at a time).
   */
  const countNew = async (organizationId: string, now: number) => {
    const through = isoTime(now - COUNT_SETTLE_MS);
    const row = await first(
      db.select().from(organizationStorage).where(eq(organizationStorage.organizationId, organizationId)),
    );
    let after = row?.countedThrough ?? "";
    let messages = 0;
    let bytes = 0;
    for (;;) {
      const rows = await db
        .select({ id: emails.id, size: emails.size, createdAt: emails.createdAt, removed: emails.contentRemovedAt })
        .from(emails)
        .where(and(eq(emails.organizationId, organizationId), gt(emails.id, after)))
        .orderBy(emails.id)
        .limit(COUNT_BATCH);
      const settled = rows.filter((r) => r.createdAt < through);
      for (const r of settled) {
        messages++;
        if (r.removed === null) bytes += Number(r.size);
      }
      if (settled.length) after = settled.at(-1)!.id;
      if (rows.length < COUNT_BATCH || settled.length < rows.length) break;
      await breathe();
    }
    const measuredAt = isoTime(now);
    await writer.write(async (tx) => {
      await tx
        .insert(organizationStorage)
        .values({ organizationId, messages, contentBytes: bytes, countedThrough: after, measuredAt })
        .onConflictDoUpdate({
          target: organizationStorage.organizationId,
          set: {
            messages: sql`${organizationStorage.messages} + ${messages}`,
            contentBytes: sql`${organizationStorage.contentBytes} + ${bytes}`,
            countedThrough: after,
            measuredAt,
          },
        });
    });
  };

  /** Webhook deliveries that are over and events of no message, older than the organisation's metadata window. */
  const removeOtherRecords = async (organizationId: string, cutoff: string) => {
    let webhookDeliveriesRemoved = 0;
    let eventsRemoved = 0;
    for (;;) {
      const ids = (
        await db
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(
            and(
              eq(webhookDeliveries.organizationId, organizationId),
              lt(webhookDeliveries.createdAt, cutoff),
              notInArray(webhookDeliveries.status, ["pending"]),
            ),
          )
          .limit(BATCH)
      ).map((row) => row.id);
      if (!ids.length) break;
      // Their attempts go with them (ON DELETE CASCADE).
      await writer.write(
        async (tx) => void (await tx.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, ids))),
      );
      webhookDeliveriesRemoved += ids.length;
      await breathe();
    }
    for (;;) {
      const ids = (
        await db
          .select({ id: events.id })
          .from(events)
          .where(and(eq(events.organizationId, organizationId), lt(events.createdAt, cutoff), isNull(events.emailId)))
          .limit(BATCH)
      ).map((row) => row.id);
      if (!ids.length) break;
      await writer.write(async (tx) => void (await tx.delete(events).where(inArray(events.id, ids))));
      eventsRemoved += ids.length;
      await breathe();
    }
    return { webhookDeliveriesRemoved, eventsRemoved };
  };

  /**
   * Rows of a log (audit events, requests) older than `cutoff`, of every organisation, oldest first (ids are
   * time-ordered) in small writes.
   */
  const removeLogRows = async (log: typeof auditEvents | typeof requestLogs, cutoff: string) => {
    let removed = 0;
    for (;;) {
      const ids = (
        await db.select({ id: log.id }).from(log).where(lt(log.createdAt, cutoff)).orderBy(log.id).limit(BATCH)
      ).map((row) => row.id);
      if (!ids.length) return removed;
      await writer.write(async (tx) => void (await tx.delete(log).where(inArray(log.id, ids))));
      removed += ids.length;
      await breathe();
    }
  };

  return {
    async runOnce() {
      const started = clock.now();
      const total: RetentionRun = {
        contentRemoved: 0,
        messagesRemoved: 0,
        webhookDeliveriesRemoved: 0,
        eventsRemoved: 0,
        auditEventsRemoved: 0,
        requestLogsRemoved: 0,
      };
      for (const organization of await db.select().from(organizations)) {
        const now = clock.now();
        const days = retentionDays(organization, deps.defaults);
        const cutoffOf = (days: number) => isoTime(now - days * DAY_MS);
        await countNew(organization.id, now);
        total.contentRemoved += await sweep(
          organization.id,
          cutoffOf(days.content_days),
          true,
          // Every recipient final or taken by a relay (`sent`): none in any other status.
          anyRecipientIn(CONTENT_KEPT),
          removeContent(organization.id, isoTime(now)),
        );
        total.messagesRemoved += await sweep(
          organization.id,
          cutoffOf(days.metadata_days),
          false,
          anyRecipientIn(WAITING_STATUSES),
          removeRecords(organization.id),
        );
        const others = await removeOtherRecords(organization.id, cutoffOf(days.metadata_days));
        total.webhookDeliveriesRemoved += others.webhookDeliveriesRemoved;
        total.eventsRemoved += others.eventsRemoved;
      }
      total.auditEventsRemoved = await removeLogRows(auditEvents, isoTime(clock.now() - deps.auditRetentionMs));
      total.requestLogsRemoved = await removeLogRows(requestLogs, isoTime(clock.now() - deps.logsRetentionMs));
      const usageKeptFrom = utcDay(clock.now() - USAGE_KEPT_DAYS * DAY_MS);
      await writer.write(async (tx) => void (await tx.delete(dailyUsage).where(lt(dailyUsage.day, usageKeptFrom))));
      if (total.contentRemoved || total.messagesRemoved) await deps.reclaimSpace?.();
      logger.info("retention ran", { ...total, ms: clock.now() - started });
      return total;
    },
  };
}

/** Every organisation's storage figures, for /metrics. */
export async function storageFigures(db: Db) {
  const { organizationStorage } = tablesOf(db);
  const rows = await db.select().from(organizationStorage);
  return rows.map((row) => ({
    organizationId: row.organizationId,
    messages: Number(row.messages),
    contentBytes: Number(row.contentBytes),
  }));
}
