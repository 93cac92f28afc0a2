/**
 * Email statistics over time (docs/architecture.md#admin-ui, the admin overview): an organisation's email events counted per UTC hour
 * or day, read from the append-only event log through its (organization_id, created_at, type) index, plus the
 * hourly rollups of events that metadata retention removed (docs/operations.md; `rollUpEvents`, in the removal's write). Nothing is
 * counted on the send or delivery path — no counter row that PostgreSQL writers would queue on — so the figures are
 * exactly the log's. Invariants: every bucket of the range is answered, zeros included; an organisation sees its own
 * events only; a request reads at most 90 days and answers at most 2,000 buckets.
 *
 * What is counted: `accepted` is a message taken in (its `email.queued`, or its first `email.scheduled` — a
 * reschedule appends another, which is not a second message); the others are their event's type and, being
 * recipients' events, count once per recipient, so a message to three recipients is 1 accepted and 3 delivered.
 * Test addresses (providers/simulator.ts) are not counted: a rehearsed bounce must not raise the bounce rate, and a
 * message to test addresses alone is not accepted either, so the figures add up. Nor is system mail, which is not
 * the organisation's (docs/teams.md#system-mail): its events count nowhere, and rollups leave them out too.
 */
import { type Static, type TInteger, Type as t } from "@sinclair/typebox";
import { and, eq, gte, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import { engineOf, rawRows } from "../db/dialect.ts";
import { tablesOf, type Db, type Tables } from "../db/store.ts";
import { validationError } from "../errors.ts";
import type { Actor } from "../access.ts";
import { requireScope } from "../access.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { named, OneOf } from "../lib/wire.ts";
import { SIMULATOR_DOMAIN } from "../providers/simulator.ts";

export const STAT_INTERVALS = ["hour", "day"] as const;
export type StatInterval = (typeof STAT_INTERVALS)[number];

export const STAT_COUNTS = [
  "accepted",
  "sent",
  "delivered",
  "delivery_delayed",
  "bounced",
  "complained",
  "failed",
  "suppressed",
] as const;

/** The counts of a bucket, or of the whole range: messages accepted, then recipients' outcomes. */
export const EmailStatCountsSchema = named(
  "EmailStatCounts",
  t.Object(
    Object.fromEntries(STAT_COUNTS.map((name) => [name, t.Integer()])) as Record<
      (typeof STAT_COUNTS)[number],
      TInteger
    >,
    {
      description:
        "`accepted` counts messages (email.queued, or the first email.scheduled); the others count recipients' events",
    },
  ),
);
export type StatCounts = Static<typeof EmailStatCountsSchema>;

/** The answer of GET /v1/emails/stats: every bucket of the range, zeros included, and their totals. */
export const EmailStatsSchema = named(
  "EmailStats",
  t.Object({
    object: t.Literal("email_stats"),
    interval: OneOf(STAT_INTERVALS),
    from: t.String({ format: "date-time" }),
    to: t.String({ format: "date-time" }),
    buckets: t.Array(
      named(
        "EmailStatsBucket",
        t.Composite([t.Object({ start: t.String({ format: "date-time" }) }), EmailStatCountsSchema]),
      ),
    ),
    totals: EmailStatCountsSchema,
  }),
);
export type EmailStats = Static<typeof EmailStatsSchema>;

export interface StatsQuery {
  from?: string;
  to?: string;
  interval?: string;
}

/**
 * Whose mail is counted: an organisation's, only its test-mode mail (a test key's sandbox), or with `liveOnly` only its
 * live mail (what usage and quotas count).
 */
export type CountScope = Pick<Actor, "organizationId" | "mode"> & { liveOnly?: boolean };

export interface EmailStatsService {
  /** Counts per bucket of `[from, to)` (default: the 7 days up to now), buckets aligned to UTC hours or days. */
  emails(actor: Actor, query: StatsQuery): Promise<EmailStats>;
  /**
   * The counts of a window already checked (`statsWindow`) for a caller that already holds its right to them (usage
   * figures, metrics): no scope check here.
   */
  counts(scope: CountScope, window: StatsWindow): Promise<EmailStats>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const DEFAULT_RANGE_MS = 7 * DAY_MS;
/** Up to this range the default interval is hourly (48 buckets at most), beyond it daily. */
const HOURLY_UP_TO_MS = 48 * HOUR_MS;
const MAX_RANGE_MS = 90 * DAY_MS;
const MAX_BUCKETS = 2000;

/** Per interval: its length, how many leading characters of an ISO timestamp name its bucket, and what completes them. */
const INTERVALS: Record<StatInterval, { ms: number; prefix: number; rest: string }> = {
  hour: { ms: HOUR_MS, prefix: "YYYY-MM-DDTHH".length, rest: ":00:00.000Z" },
  day: { ms: DAY_MS, prefix: "YYYY-MM-DD".length, rest: "T00:00:00.000Z" },
};

/** The event types counted, by the count they add to. */
const COUNTED = {
  "email.queued": "accepted",
  "email.scheduled": "accepted",
  "email.sent": "sent",
  "email.delivered": "delivered",
  "email.delivery_delayed": "delivery_delayed",
  "email.bounced": "bounced",
  "email.complained": "complained",
  "email.failed": "failed",
  "email.suppressed": "suppressed",
} as const satisfies Record<string, keyof StatCounts>;

export interface StatsWindow {
  from: number;
  to: number;
  interval: StatInterval;
}

/** An ISO 8601 date-time with its zone: without one, Date.parse would read the server's local time. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

function parseTime(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const parsed = DATE_TIME.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(parsed))
    throw validationError([
      { path: name, message: "must be an ISO 8601 date-time with its zone, e.g. 2026-11-22T10:00:00Z" },
    ]);
  return parsed;
}

/** The range and interval a query asks for, with the defaults filled in; throws `validation_error` naming the parameter. */
export function statsWindow(query: StatsQuery, now: number): StatsWindow {
  const to = parseTime("to", query.to) ?? now;
  const from = parseTime("from", query.from) ?? to - DEFAULT_RANGE_MS;
  if (from >= to) throw validationError([{ path: "from", message: "must be before to" }]);
  if (to - from > MAX_RANGE_MS) throw validationError([{ path: "from", message: "must be at most 90 days before to" }]);
  if (query.interval !== undefined && !(STAT_INTERVALS as readonly string[]).includes(query.interval)) {
    throw validationError([{ path: "interval", message: `must be one of ${STAT_INTERVALS.join(", ")}` }]);
  }
  const interval = (query.interval as StatInterval | undefined) ?? (to - from <= HOURLY_UP_TO_MS ? "hour" : "day");
  const count = bucketStarts({ from, to, interval }).length;
  if (count > MAX_BUCKETS)
    throw validationError([
      {
        path: "interval",
        message: `gives ${count} buckets for this range; at most ${MAX_BUCKETS} (use day, or a shorter range)`,
      },
    ]);
  return { from, to, interval };
}

/** The start of every bucket that overlaps `[from, to)`: the first is the UTC hour or day `from` falls in. */
export function bucketStarts(window: StatsWindow): number[] {
  const step = INTERVALS[window.interval].ms;
  const starts: number[] = [];
  // Hours and days both divide the epoch evenly in UTC (no leap seconds in JavaScript time).
  for (let start = Math.floor(window.from / step) * step; start < window.to; start += step) starts.push(start);
  return starts;
}

/** The hour an ISO timestamp falls in, as event_rollups names it (`YYYY-MM-DDTHH`). */
const hourOf = (ms: number) => isoTime(ms).slice(0, INTERVALS.hour.prefix);

/**
 * The events the statistics count, of `events` (the table or an alias): the counted types; not a test address's
 * (a rehearsed bounce must not raise the bounce rate); and, of a message's `email.scheduled` events, only the first
 * (a reschedule appends another, which is not a second message; scheduled messages are few, and the look-up goes
 * through events_email (email_id, id); ids are UUIDv7, time-ordered).
 */
function counted(events: Tables["events"]) {
  return and(
    inArray(events.type, Object.keys(COUNTED)),
    sql`(${events.recipient} IS NULL OR lower(${events.recipient}) NOT LIKE ${`%@${SIMULATOR_DOMAIN}`})`,
    // A message is accepted (its queued or scheduled event, which names no recipient) only when one of its
    // recipients is not a test address: mail to test addresses alone counts nowhere, so accepted and delivered
    // agree (issue 49; one look-up per accepted message through deliveries' (email_id, recipient) key).
    sql`(${events.type} NOT IN ('email.queued', 'email.scheduled') OR EXISTS (SELECT 1 FROM deliveries counted_to WHERE counted_to.email_id = ${events.emailId} AND lower(counted_to.recipient) NOT LIKE ${`%@${SIMULATOR_DOMAIN}`}))`,
    or(
      ne(events.type, "email.scheduled"),
      sql`NOT EXISTS (SELECT 1 FROM events earlier WHERE earlier.email_id = ${events.emailId} AND earlier.type = 'email.scheduled' AND earlier.id < ${events.id})`,
    ),
  );
}

/**
 * Before metadata retention removes messages with their events: adds what the statistics count of those events
 * to the hourly rollups, in the removal's transaction, so that the figures of any range stay what they were.
 */
export async function rollUpEvents(tx: Db, emailIds: readonly string[]): Promise<void> {
  if (!emailIds.length) return;
  const { events, emails, eventRollups } = tablesOf(tx);
  const hour = sql<string>`substr(${events.createdAt}, 1, ${sql.raw(String(INTERVALS.hour.prefix))})`;
  const rows = await tx
    .select({
      organizationId: events.organizationId,
      hour,
      mode: emails.mode,
      type: events.type,
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(events)
    .innerJoin(emails, eq(emails.id, events.emailId))
    .where(and(inArray(events.emailId, [...emailIds]), counted(events), isNull(emails.systemMail)))
    .groupBy(events.organizationId, hour, emails.mode, events.type);
  for (const row of rows)
    await tx
      .insert(eventRollups)
      .values(row)
      .onConflictDoUpdate({
        target: [eventRollups.organizationId, eventRollups.hour, eventRollups.mode, eventRollups.type],
        set: { count: sql`${eventRollups.count} + ${row.count}` },
      });
}

const zeros = (): StatCounts => Object.fromEntries(STAT_COUNTS.map((name) => [name, 0])) as StatCounts;

export function createEmailStats(deps: { db: Db; clock: Clock }): EmailStatsService {
  const { db, clock } = deps;
  const { events, eventRollups } = tablesOf(db);

  /** The counted rows of `[from, to)` by bucket (`prefix` characters of the time) and type, rollups included. */
  const countRows = async (scope: CountScope, window: StatsWindow, prefix: number) => {
    // created_at is ISO 8601 text in UTC on both engines, so its first characters name the hour or day, and text
    // order is time order. The prefix length is a constant of the table above, never input.
    const bucket = sql<string>`substr(${events.createdAt}, 1, ${sql.raw(String(prefix))})`;
    const rows = await db
      .select({ bucket, type: events.type, n: sql<number>`count(*)`.mapWith(Number) })
      .from(events)
      .where(
        and(
          eq(events.organizationId, scope.organizationId),
          gte(events.createdAt, isoTime(window.from)),
          lt(events.createdAt, isoTime(window.to)),
          counted(events),
          // A test key's sandbox (docs/keys-and-limits.md): it counts test-mode mail only (through its partial index, migration 12).
          scope.mode === "test"
            ? sql`${events.emailId} IN (SELECT id FROM emails WHERE organization_id = ${scope.organizationId} AND mode = 'test')`
            : scope.liveOnly
              ? sql`${events.emailId} NOT IN (SELECT id FROM emails WHERE organization_id = ${scope.organizationId} AND mode = 'test')`
              : undefined,
        ),
      )
      .groupBy(bucket, events.type);
    // Events that metadata retention removed, counted by the hour as they went (rollUpEvents): a partly covered
    // hour counts whole.
    const rolledUp = await db
      .select({
        bucket: sql<string>`substr(${eventRollups.hour}, 1, ${sql.raw(String(prefix))})`,
        type: eventRollups.type,
        n: sql<number>`sum(${eventRollups.count})`.mapWith(Number),
      })
      .from(eventRollups)
      .where(
        and(
          eq(eventRollups.organizationId, scope.organizationId),
          gte(eventRollups.hour, hourOf(window.from)),
          lt(eventRollups.hour, isoTime(window.to)),
          scope.mode === "test" || scope.liveOnly ? eq(eventRollups.mode, scope.mode) : undefined,
        ),
      )
      .groupBy(sql`1`, eventRollups.type);
    // System mail counts nowhere (docs/teams.md#system-mail): its counted events are read from its few messages
    // (their partial index, migration 46, then events_email) and subtracted. Testing every event of the window
    // against those messages instead cost the query 30 to 180 % more (200,000 events on SQLite); this, under 1 ms.
    // System mail is live mail: a test key's sandbox holds none.
    const system =
      scope.mode === "test"
        ? []
        : await rawRows<{ bucket: string; type: string; n: number | string }>(
            db,
            sql`SELECT ${bucket} AS bucket, ${events.type} AS type, count(*) AS n FROM emails system_email JOIN events ${sql.raw(engineOf(db) === "sqlite" ? "INDEXED BY events_email " : "")}ON ${events.emailId} = system_email.id WHERE system_email.organization_id = ${scope.organizationId} AND system_email.system_mail IS NOT NULL AND ${events.createdAt} >= ${isoTime(window.from)} AND ${events.createdAt} < ${isoTime(window.to)} AND ${counted(events)} GROUP BY 1, 2`,
          );
    return [...rows, ...rolledUp, ...system.map((row) => ({ ...row, n: -Number(row.n) }))].map((row) => ({
      ...row,
      name: COUNTED[row.type as keyof typeof COUNTED],
    }));
  };

  const counts = async (scope: CountScope, window: StatsWindow): Promise<EmailStats> => {
    const { prefix, rest } = INTERVALS[window.interval];
    const rows = await countRows(scope, window, prefix);
    const byStart = new Map(
      bucketStarts(window).map((start) => [isoTime(start), { start: isoTime(start), ...zeros() }]),
    );
    const totals = zeros();
    for (const { name, ...row } of rows) {
      // Every row lies in [from, to), so its bucket is one of the starts.
      const bucket = byStart.get(`${row.bucket}${rest}`)!;
      bucket[name] += row.n;
      totals[name] += row.n;
    }
    return {
      object: "email_stats",
      interval: window.interval,
      from: isoTime(window.from),
      to: isoTime(window.to),
      buckets: [...byStart.values()],
      totals,
    };
  };

  return {
    counts,
    async emails(actor, query) {
      requireScope(actor, "emails:read");
      return counts(actor, statsWindow(query, clock.now()));
    },
  };
}
