/**
 * `GET /v1/emails/metrics`, Resend's `emails.metrics` (docs/logs-and-mcp.md#usage-and-metrics): totals over a range
 * and, with the `period` dimension, one row per hour, day, week or month — from the same counts as the overview's
 * statistics (stats.ts: the event log plus the rollups retention leaves), plus engagement (opens, clicks,
 * unsubscribes, unique per message) and received mail.
 *
 * Invariants: an organisation sees its own figures only, a test key those of test-mode mail only (and no received
 * mail, which its sandbox does not read); a request reads at most 90 days; rates are fractions 0..1 of their base
 * (delivery and bounce of `sent`, the others of `delivered`), 0 when the base is 0. What Mailroom cannot break down
 * yet (by domain, email or broadcast) is refused with `validation_error` naming the parameter, never answered wrong.
 */
import { type Static, type TNumber, type TOptional, Type as t } from "@sinclair/typebox";
import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { requireScope, type Actor } from "../access.ts";
import { tablesOf, type Db } from "../db/store.ts";
import { validationError } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { named, OneOf } from "../lib/wire.ts";
import { type EmailStatsService, type StatCounts, statsWindow } from "./stats.ts";

export const EMAIL_METRICS = [
  "received",
  "delivered",
  "complained",
  "suppressed",
  "bounced",
  "bounced_transient",
  "bounced_permanent",
  "bounced_undetermined",
  "opened",
  "clicked",
  "unsubscribed",
  "delivery_delayed",
  "failed",
  "sent",
  "unique_opened",
  "unique_clicked",
  "delivery_rate",
  "open_rate",
  "click_rate",
  "bounce_rate",
  "complaint_rate",
  "unsubscribe_rate",
] as const;
type Metric = (typeof EMAIL_METRICS)[number];
export const METRIC_GRANULARITIES = ["hourly", "daily", "weekly", "monthly"] as const;
type Granularity = (typeof METRIC_GRANULARITIES)[number];
const DIMENSIONS = ["period", "domain", "email", "broadcast"] as const;

const MetricValues = Object.fromEntries(EMAIL_METRICS.map((name) => [name, t.Optional(t.Number())])) as Record<
  Metric,
  TOptional<TNumber>
>;

/** The figures asked for (all by default): counts, and rates as fractions 0..1. */
export const EmailMetricsTotalsSchema = named("EmailMetricsTotals", t.Object(MetricValues));

export const EmailMetricsSchema = named(
  "EmailMetrics",
  t.Object({
    object: t.Literal("metrics"),
    start_date: t.String({ format: "date-time" }),
    end_date: t.String({ format: "date-time" }),
    metrics: t.Array(OneOf(EMAIL_METRICS)),
    dimensions: t.Array(OneOf(DIMENSIONS)),
    granularity: OneOf(METRIC_GRANULARITIES),
    totals: EmailMetricsTotalsSchema,
    data: t.Optional(
      t.Array(
        named(
          "EmailMetricsRow",
          t.Object({
            period: t.String({ format: "date-time", description: "The period's start (UTC)" }),
            ...MetricValues,
          }),
        ),
      ),
    ),
  }),
);
export type EmailMetrics = Static<typeof EmailMetricsSchema>;

/** The query as the SDK sends it: comma-separated lists, snake_case names. */
export const EmailMetricsQuery = t.Object({
  start_date: t.Optional(
    t.String({ maxLength: 40, description: "ISO 8601 date or date-time (default: 6 days before end_date)" }),
  ),
  end_date: t.Optional(
    t.String({ maxLength: 40, description: "ISO 8601 date (the whole day) or date-time (default: now)" }),
  ),
  timezone: t.Optional(t.String({ maxLength: 64, description: "UTC only" })),
  granularity: t.Optional(OneOf(METRIC_GRANULARITIES, { description: "Period size (default: daily)" })),
  metrics: t.Optional(t.String({ maxLength: 1_000, description: "Comma-separated metric names (default: all)" })),
  dimensions: t.Optional(
    t.String({ maxLength: 100, description: "Comma-separated: period (domain, email, broadcast: not yet)" }),
  ),
  domain_id: t.Optional(t.String({ maxLength: 4_000, description: "Not yet supported" })),
  email_id: t.Optional(t.String({ maxLength: 4_000, description: "Not yet supported" })),
  broadcast_id: t.Optional(t.String({ maxLength: 4_000, description: "Not yet supported" })),
});
export type EmailMetricsQueryInput = Static<typeof EmailMetricsQuery>;

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ENGAGEMENT = {
  "email.opened": "opened",
  "email.clicked": "clicked",
  "email.unsubscribed": "unsubscribed",
} as const;

type Counts = Record<Exclude<Metric, `${string}_rate`>, number>;

const list = (raw: string | undefined) =>
  (raw ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/** A date (its UTC midnight; as an end, the next one: the whole day) or a date-time, as stats.ts reads them. */
function timeOf(raw: string | undefined, end: boolean): string | undefined {
  if (raw === undefined || !DATE_ONLY.test(raw)) return raw;
  return isoTime(Date.parse(`${raw}T00:00:00.000Z`) + (end ? DAY_MS : 0));
}

/** The start of the period `start` (a UTC day) falls in. Weeks begin on Monday (ISO 8601). */
function periodOf(start: string, granularity: Granularity): string {
  if (granularity === "monthly") return `${start.slice(0, 7)}-01T00:00:00.000Z`;
  if (granularity !== "weekly") return start;
  const day = Date.parse(start);
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  return isoTime(day - weekday * DAY_MS);
}

const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);

function figures(counts: Counts, wanted: readonly Metric[]): Partial<Record<Metric, number>> {
  const all: Record<Metric, number> = {
    ...counts,
    delivery_rate: ratio(counts.delivered, counts.sent),
    bounce_rate: ratio(counts.bounced, counts.sent),
    open_rate: ratio(counts.unique_opened, counts.delivered),
    click_rate: ratio(counts.unique_clicked, counts.delivered),
    complaint_rate: ratio(counts.complained, counts.delivered),
    unsubscribe_rate: ratio(counts.unsubscribed, counts.delivered),
  };
  return Object.fromEntries(wanted.map((name) => [name, all[name]]));
}

const emptyCounts = (): Counts =>
  Object.fromEntries(EMAIL_METRICS.filter((name) => !name.endsWith("_rate")).map((name) => [name, 0])) as Counts;

function addStats(into: Counts, stats: StatCounts): void {
  for (const name of [
    "sent",
    "delivered",
    "delivery_delayed",
    "complained",
    "failed",
    "suppressed",
    "bounced",
  ] as const)
    into[name] += stats[name];
  // A bounce Mailroom records is permanent: a temporary failure is a deferral (delivery_delayed), retried.
  into.bounced_permanent += stats.bounced;
}

export function createEmailMetrics(deps: { db: Db; clock: Clock; stats: EmailStatsService }) {
  const { db, clock, stats } = deps;
  const { events, receivedEmails } = tablesOf(db);

  /** Opens, clicks and unsubscribes (and unique opens and clicks, per message) and received mail, per UTC day or hour. */
  const engagement = async (actor: Actor, from: number, to: number, prefix: number) => {
    const bucket = sql<string>`substr(${events.createdAt}, 1, ${sql.raw(String(prefix))})`;
    const rows = await db
      .select({
        bucket,
        type: events.type,
        n: sql<number>`count(*)`.mapWith(Number),
        unique: sql<number>`count(DISTINCT ${events.emailId})`.mapWith(Number),
      })
      .from(events)
      .where(
        and(
          eq(events.organizationId, actor.organizationId),
          gte(events.createdAt, isoTime(from)),
          lt(events.createdAt, isoTime(to)),
          inArray(events.type, Object.keys(ENGAGEMENT)),
          actor.mode === "test"
            ? sql`${events.emailId} IN (SELECT id FROM emails WHERE organization_id = ${actor.organizationId} AND mode = 'test')`
            : undefined,
        ),
      )
      .groupBy(bucket, events.type);
    const received =
      actor.mode === "test"
        ? []
        : await db
            .select({
              bucket: sql<string>`substr(${receivedEmails.createdAt}, 1, ${sql.raw(String(prefix))})`,
              n: sql<number>`count(*)`.mapWith(Number),
            })
            .from(receivedEmails)
            .where(
              and(
                eq(receivedEmails.organizationId, actor.organizationId),
                gte(receivedEmails.createdAt, isoTime(from)),
                lt(receivedEmails.createdAt, isoTime(to)),
              ),
            )
            .groupBy(sql`1`);
    return { rows, received };
  };

  return {
    async metrics(actor: Actor, query: EmailMetricsQueryInput): Promise<EmailMetrics> {
      requireScope(actor, "emails:read");
      if (query.timezone && !/^(utc|etc\/utc|z)$/i.test(query.timezone))
        throw validationError([
          { path: "timezone", message: "only UTC periods are counted (the statistics are kept by UTC hour)" },
        ]);
      for (const name of ["domain_id", "email_id", "broadcast_id"] as const)
        if (query[name])
          throw validationError([{ path: name, message: "filtering metrics by it is not supported yet" }]);
      const dimensions = list(query.dimensions);
      for (const dimension of dimensions)
        if (dimension !== "period")
          throw validationError([
            {
              path: "dimensions",
              message: `${dimension}: only the period dimension is supported (${DIMENSIONS.join(", ")})`,
            },
          ]);
      const wanted = list(query.metrics);
      for (const name of wanted)
        if (!(EMAIL_METRICS as readonly string[]).includes(name))
          throw validationError([
            { path: "metrics", message: `${name} is not a metric (${EMAIL_METRICS.join(", ")})` },
          ]);
      const metrics = (wanted.length ? [...new Set(wanted)] : [...EMAIL_METRICS]) as Metric[];
      const granularity: Granularity = query.granularity ?? "daily";
      const endRaw = timeOf(query.end_date, true);
      // One reading of the clock: the default window is exactly 6 days, however long the request takes.
      const now = clock.now();
      const end = endRaw ?? isoTime(now);
      const startRaw = timeOf(query.start_date, false);
      const window = statsWindow(
        {
          from: startRaw ?? (Number.isNaN(Date.parse(end)) ? undefined : isoTime(Date.parse(end) - 6 * DAY_MS)),
          to: endRaw,
          interval: granularity === "hourly" ? "hour" : "day",
        },
        now,
      );
      const counted = await stats.counts(actor, window);
      const prefix = window.interval === "hour" ? 13 : 10;
      const rest = window.interval === "hour" ? ":00:00.000Z" : "T00:00:00.000Z";
      const { rows, received } = await engagement(actor, window.from, window.to, prefix);

      const periods = new Map<string, Counts>();
      const periodFor = (start: string) => {
        const key = periodOf(start, granularity);
        let counts = periods.get(key);
        if (!counts) periods.set(key, (counts = emptyCounts()));
        return counts;
      };
      for (const bucket of counted.buckets) addStats(periodFor(bucket.start), bucket);
      for (const row of rows) {
        const counts = periodFor(`${row.bucket}${rest}`);
        const name = ENGAGEMENT[row.type as keyof typeof ENGAGEMENT];
        counts[name] += row.n;
        if (name === "opened") counts.unique_opened += row.unique;
        if (name === "clicked") counts.unique_clicked += row.unique;
      }
      for (const row of received) periodFor(`${row.bucket}${rest}`).received += row.n;

      const totals = emptyCounts();
      for (const counts of periods.values())
        for (const name of Object.keys(totals) as Array<keyof Counts>) totals[name] += counts[name];
      return {
        object: "metrics",
        start_date: isoTime(window.from),
        end_date: isoTime(window.to),
        metrics,
        dimensions: dimensions.length ? ["period"] : [],
        granularity,
        totals: figures(totals, metrics),
        ...(dimensions.length && {
          data: [...periods.entries()]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([period, counts]) => ({ period, ...figures(counts, metrics) })),
        }),
      };
    },
  };
}

export type EmailMetricsService = ReturnType<typeof createEmailMetrics>;
