/**
 * `GET /v1/usage`, Resend's `usage.get` (docs/logs-and-mcp.md#usage-and-metrics): the organisation's figures from the
 * counters that exist — messages accepted today (the daily quota's own counter) and this month (the statistics'
 * counts), mail received, domains, the request limit — in Resend's shape, with `null` for a limit Mailroom does not
 * have. Contacts, segments and broadcasts are counted through `AudienceCounts`, one seam for the audience tables.
 * Invariant: read with `organization:read`, for the caller's own organisation (the check is the organisation's own
 * `show`); the day and month are UTC's.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { and, count, eq, gte } from "drizzle-orm";
import type { Actor } from "../access.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import type { EmailStatsService } from "../emails/stats.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { named, Nullable } from "../lib/wire.ts";
import type { OrganizationService } from "../organizations/service.ts";

const Limit = Nullable(t.Integer(), { description: "Null: Mailroom sets no such limit" });
const Period = t.Object({
  used: t.Integer({ description: "Messages accepted (sent) in the period" }),
  limit: Limit,
  sent: t.Integer(),
  received: t.Integer(),
  resets_at: t.String({ format: "date-time" }),
});
const Used = t.Object({ used: t.Integer(), limit: Limit });

export const UsageSchema = named(
  "Usage",
  t.Object({
    object: t.Literal("usage"),
    emails: t.Object({ daily: Period, monthly: Period }),
    contacts: Used,
    segments: Used,
    broadcasts: t.Object({ used: t.Integer(), limit: t.Null() }),
    ai_credits: t.Object({ used: t.Integer(), limit: Limit, next_increase_at: Nullable(t.String()) }),
    automation_runs: t.Object({ used: t.Integer(), limit: Limit, resets_at: t.String({ format: "date-time" }) }),
    domains: Used,
    rate_limit: t.Object({
      limit: t.Integer({ description: "Requests per window, the organisation's" }),
      duration: t.String({ description: "The window: 60s" }),
    }),
  }),
);
export type UsageView = Static<typeof UsageSchema>;

/** How many contacts, segments and broadcasts an organisation has: 0 where the tables do not exist yet. */
export interface AudienceCounts {
  contacts(organizationId: string): Promise<number>;
  segments(organizationId: string): Promise<number>;
  broadcasts(organizationId: string): Promise<number>;
}

export const NO_AUDIENCE: AudienceCounts = {
  contacts: async () => 0,
  segments: async () => 0,
  broadcasts: async () => 0,
};

export interface UsageService {
  usage(actor: Actor): Promise<UsageView>;
}

export function createUsage(deps: {
  db: Db;
  clock: Clock;
  organizations: OrganizationService;
  stats: EmailStatsService;
  audience?: AudienceCounts;
}): UsageService {
  const { db, clock, organizations, stats } = deps;
  const audience = deps.audience ?? NO_AUDIENCE;
  const { receivedEmails, domains } = tablesOf(db);

  const receivedSince = async (organizationId: string, since: number) =>
    Number(
      (
        await first(
          db
            .select({ n: count() })
            .from(receivedEmails)
            .where(
              and(eq(receivedEmails.organizationId, organizationId), gte(receivedEmails.createdAt, isoTime(since))),
            ),
        )
      )?.n ?? 0,
    );

  return {
    async usage(actor) {
      const organization = await organizations.show(actor);
      const now = clock.now();
      const today = new Date(now);
      const dayStart = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
      const monthStart = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1);
      const nextMonth = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1);
      const scope = { organizationId: actor.organizationId, mode: "live" as const, liveOnly: true };
      // A month is at most 31 days: within the statistics' 90-day reach. The first instant of a month has no range.
      const month =
        now > monthStart
          ? (await stats.counts(scope, { from: monthStart, to: now + 1, interval: "day" })).totals
          : null;
      const [receivedToday, receivedMonth, domainCount, contacts, segments, broadcasts] = await Promise.all([
        receivedSince(actor.organizationId, dayStart),
        receivedSince(actor.organizationId, monthStart),
        first(db.select({ n: count() }).from(domains).where(eq(domains.organizationId, actor.organizationId))),
        audience.contacts(actor.organizationId),
        audience.segments(actor.organizationId),
        audience.broadcasts(actor.organizationId),
      ]);
      const sentToday = organization.usage_today;
      // The month's count comes from the event log; today's from the quota's counter, which a message joins at once.
      const sentMonth = Math.max(month?.accepted ?? 0, sentToday);
      return {
        object: "usage",
        emails: {
          daily: {
            used: sentToday,
            limit: organization.daily_quota,
            sent: sentToday,
            received: receivedToday,
            resets_at: isoTime(dayStart + 86_400_000),
          },
          monthly: {
            used: sentMonth,
            limit: null,
            sent: sentMonth,
            received: receivedMonth,
            resets_at: isoTime(nextMonth),
          },
        },
        contacts: { used: contacts, limit: null },
        segments: { used: segments, limit: null },
        broadcasts: { used: broadcasts, limit: null },
        ai_credits: { used: 0, limit: null, next_increase_at: null },
        automation_runs: { used: 0, limit: null, resets_at: isoTime(nextMonth) },
        domains: { used: Number(domainCount?.n ?? 0), limit: null },
        rate_limit: { limit: organization.rate_limit, duration: "60s" },
      };
    },
  };
}
