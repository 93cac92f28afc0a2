/**
 * Reputation guardrails (docs/deliverability.md): each organisation's and each sending domain's bounce and complaint rates over
 * a sliding window, judged against the `[guardrails]` thresholds — a warning first, then a pause (docs/operations.md#pauses) that holds the
 * mail until a person resumes it, as SES pauses a sender before receivers block it. Design note:
 *
 * - What is counted. The event log is the source (as for the statistics, emails/stats.ts): a recipient *ended* when
 *   it was sent, delivered or bounced in the window; a *bounce* is a permanent one (a transient bounce says nothing
 *   of the address list); a *complaint* is a complaint. Each recipient counts once per kind however many events it
 *   has. Test addresses and test-mode mail never count. The denominator is the recipients ended, as SES divides by
 *   sends. Nothing is counted on the send path: a run reads each organisation's window through the events'
 *   (organization_id, created_at, type) index.
 * - When. A periodic job, once across the instances (`[guardrails] interval`). Rates are judged once at least
 *   `min_recipients` ended: ten bounces of the first twenty messages prove little.
 * - Acting. Warning and back are `domain.updated` events carrying `health`; a pause goes through the pauses'
 *   `pauseIn`, whose `sending.paused` event, audit record (actor system) and held mail are those of any pause. A
 *   domain whose rates cross the pause thresholds is paused; so is the organisation when its rates across its other
 *   domains do (many small domains must not hide a bad list; a domain paused already is not counted twice). Invariant: a guardrail pause stands until a person
 *   resumes it; then the target's window starts at the resume (`health_since`), so the rates that paused it cannot
 *   pause it again at the next look, and the mail it sends afterwards is judged on its own.
 * - Lanes (docs/operations.md#sending-lanes). Broadcasts are judged apart: the domains' and the organisation's rates
 *   count transactional mail only, and the organisation's broadcasts have their own rates, whose pause is the
 *   broadcast lane's — a newsletter that annoys people stops newsletters, never password resets.
 */
import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import type { SendingHealth } from "../db/schema/index.ts";
import { engineOf } from "../db/dialect.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { SYSTEM_PAUSER, type SendingPauses } from "../deliveries/pauses.ts";
import type { EventLog } from "../events/service.ts";
import { domainOf } from "../lib/addresses.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { SIMULATOR_DOMAIN } from "../providers/simulator.ts";
import type { RecordSettings } from "../domains/records.ts";
import { announceDomain, healthView, windowName } from "../domains/views.ts";
import type { HealthView } from "../domains/model.ts";
import { requireScope, type Actor } from "../access.ts";
import type { SendingHealthView } from "./wire.ts";

export interface GuardrailSettings {
  windowMs: number;
  minRecipients: number;
  bounceRateWarn: number;
  complaintRateWarn: number;
  bounceRatePause: number;
  complaintRatePause: number;
}

export interface Counts {
  ended: number;
  bounced: number;
  complained: number;
}

/** The organisation's rates across all its domains, and each sending domain's. */
export type SendingHealthOverview = SendingHealthView;

export interface Guardrails {
  /** Measures every organisation and domain, and acts on what crossed a threshold (the periodic job's run). */
  evaluate(): Promise<void>;
  /** The organisation's health and its domains', as last measured (the overview; domains:read). */
  overview(actor: Actor): Promise<SendingHealthOverview>;
  /** Every domain's and organisation's health, for /metrics. */
  everyHealth(): Promise<Array<{ organizationId: string; domain: string | null; health: HealthView }>>;
}

/** How a guardrail's pause reason begins (docs/deliverability.md: `guardrail: bounce rate 9.1 % over 24 h`). */
const GUARDRAIL = "guardrail:";

const percent = (rate: number) => `${(Math.round(rate * 1000) / 10).toFixed(1)} %`;

/**
 * The judgement of one set of counts, pure: `pause` and `warning` name the first rate over its threshold (the
 * complaint rate before the bounce rate: complaints cost more with receivers).
 */
export function judge(
  counts: Counts,
  settings: GuardrailSettings,
): { status: "ok" | "warning" | "pause"; reason: string | null; bounceRate: number; complaintRate: number } {
  const bounceRate = counts.ended ? counts.bounced / counts.ended : 0;
  const complaintRate = counts.ended ? counts.complained / counts.ended : 0;
  const rates = { bounceRate, complaintRate };
  if (counts.ended < settings.minRecipients) return { status: "ok", reason: null, ...rates };
  const over = `over ${windowName(settings.windowMs).replace(/(\d)([a-z])$/, "$1 $2")}`;
  const complaint = `complaint rate ${percent(complaintRate)} ${over}`;
  const bounce = `bounce rate ${percent(bounceRate)} ${over}`;
  if (complaintRate >= settings.complaintRatePause) return { status: "pause", reason: complaint, ...rates };
  if (bounceRate >= settings.bounceRatePause) return { status: "pause", reason: bounce, ...rates };
  if (complaintRate >= settings.complaintRateWarn) return { status: "warning", reason: complaint, ...rates };
  if (bounceRate >= settings.bounceRateWarn) return { status: "warning", reason: bounce, ...rates };
  return { status: "ok", reason: null, ...rates };
}

const ENDED = ["email.sent", "email.delivered", "email.bounced"];
const COUNTED = [...ENDED, "email.complained"];
const ZERO: Counts = { ended: 0, bounced: 0, complained: 0 };
const add = (a: Counts, b: Counts): Counts => ({
  ended: a.ended + b.ended,
  bounced: a.bounced + b.bounced,
  complained: a.complained + b.complained,
});

export function createGuardrails(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  events: EventLog;
  pauses: Pick<SendingPauses, "pauseIn">;
  recordSettings: RecordSettings;
  settings: GuardrailSettings;
}): Guardrails & {
  /** For the pauses (`systemPauseResumed`): judge the target afresh from now on. */
  restart(tx: Db, organizationId: string, scope: string, name: string): Promise<void>;
} {
  const { db, writer, clock, settings } = deps;
  const { events, emails, domains, organizations } = tablesOf(db);

  const permanentBounce =
    engineOf(db) === "postgres"
      ? sql`${events.data}->'bounce'->>'type' = 'Permanent'`
      : sql`json_extract(${events.data}, '$.bounce.type') = 'Permanent'`;
  // Each recipient counts once per kind: email id and recipient together name it.
  const recipientKey = sql`${events.emailId} || ' ' || ${events.recipient}`;
  const distinctWhere = (condition: ReturnType<typeof sql>) =>
    sql<number>`count(DISTINCT CASE WHEN ${condition} THEN ${recipientKey} END)`.mapWith(Number);

  /**
   * An organisation's counts since `since`: its transactional mail's per sending domain (the envelope sender's
   * domain), and its broadcasts' together.
   */
  const countsBySender = async (organizationId: string, since: number, envelopeDomain?: string) => {
    const rows = await db
      .select({
        sender: emails.envelopeFrom,
        lane: emails.lane,
        ended: distinctWhere(sql`${inArray(events.type, ENDED)}`),
        bounced: distinctWhere(sql`${events.type} = 'email.bounced' AND ${permanentBounce}`),
        complained: distinctWhere(sql`${events.type} = 'email.complained'`),
      })
      .from(events)
      .innerJoin(emails, eq(emails.id, events.emailId))
      .where(
        and(
          eq(events.organizationId, organizationId),
          gte(events.createdAt, isoTime(since)),
          inArray(events.type, COUNTED),
          eq(emails.mode, "live"),
          sql`lower(${events.recipient}) NOT LIKE ${`%@${SIMULATOR_DOMAIN}`}`,
          envelopeDomain ? sql`lower(${emails.envelopeFrom}) LIKE ${`%@${envelopeDomain}`}` : undefined,
        ),
      )
      .groupBy(emails.envelopeFrom, emails.lane);
    const byDomain = new Map<string, Counts>() as Map<string, Counts> & { broadcast: Counts };
    byDomain.broadcast = ZERO;
    for (const row of rows) {
      if (row.lane === "broadcast") {
        byDomain.broadcast = add(byDomain.broadcast, row);
        continue;
      }
      const domain = domainOf(row.sender);
      byDomain.set(domain, add(byDomain.get(domain) ?? ZERO, row));
    }
    return byDomain;
  };

  const healthOf = (verdict: ReturnType<typeof judge>, counts: Counts, status: SendingHealth["status"]) =>
    ({
      bounce_rate: verdict.bounceRate,
      complaint_rate: verdict.complaintRate,
      recipients: counts.ended,
      status,
      reason: status === "ok" ? null : verdict.reason,
      evaluated_at: isoTime(clock.now()),
    }) satisfies SendingHealth;

  /**
   * The reason of the guardrail's own pause of a target, when one stands (a person's pause of it is theirs: it
   * neither keeps the health at paused nor is lifted by the guardrails).
   */
  const guardrailPause = async (
    tx: Db,
    organizationId: string,
    scope: "domain" | "organization" | "lane",
    name: string,
  ) => {
    const { sendingPauses } = tablesOf(tx);
    const row = await first(
      tx
        .select({ reason: sendingPauses.reason })
        .from(sendingPauses)
        .where(
          and(
            eq(sendingPauses.organizationId, organizationId),
            eq(sendingPauses.scope, scope),
            eq(sendingPauses.name, name),
            eq(sendingPauses.pausedBy, SYSTEM_PAUSER),
          ),
        ),
    );
    return row ? (row.reason ?? "").replace(/^guardrail:\s*/, "") || "rates over the pause threshold" : null;
  };

  /** Writes one domain's new health, pausing it when the verdict says so; announces a change of status; answers it. */
  const settleDomain = (row: typeof domains.$inferSelect, counts: Counts) =>
    writer.write(async (tx) => {
      const verdict = judge(counts, settings);
      const before = row.health;
      let status: SendingHealth["status"] = verdict.status === "pause" ? "paused" : verdict.status;
      let health = healthOf(verdict, counts, status);
      // A guardrail pause stands until a person resumes it (which clears `health` and restarts the window).
      const standing = await guardrailPause(tx, row.organizationId, "domain", row.name);
      if (standing) {
        status = "paused";
        health = { ...health, status, reason: standing };
      } else if (verdict.status === "pause")
        await deps.pauses.pauseIn(
          tx,
          row.organizationId,
          { scope: "domain", name: row.name },
          `${GUARDRAIL} ${verdict.reason}`,
        );
      await tx.update(domains).set({ health }).where(eq(domains.id, row.id));
      if ((before?.status ?? "ok") !== status)
        await announceDomain(
          tx,
          { events: deps.events, settings: deps.recordSettings },
          { ...row, health },
          row.status,
        );
      return status;
    });

  const settleOrganization = (organization: typeof organizations.$inferSelect, counts: Counts) =>
    writer.write(async (tx) => {
      const verdict = judge(counts, settings);
      let health = healthOf(verdict, counts, verdict.status === "pause" ? "paused" : verdict.status);
      const standing = await guardrailPause(tx, organization.id, "organization", "");
      if (standing) health = { ...health, status: "paused", reason: standing };
      else if (verdict.status === "pause")
        await deps.pauses.pauseIn(
          tx,
          organization.id,
          { scope: "organization", name: "" },
          `${GUARDRAIL} ${verdict.reason} across its domains`,
        );
      await tx.update(organizations).set({ health }).where(eq(organizations.id, organization.id));
    });

  /** The broadcast lane's health, paused as a lane (docs/operations.md#sending-lanes). */
  const settleBroadcasts = (organizationId: string, counts: Counts) =>
    writer.write(async (tx) => {
      const verdict = judge(counts, settings);
      let health = healthOf(verdict, counts, verdict.status === "pause" ? "paused" : verdict.status);
      const standing = await guardrailPause(tx, organizationId, "lane", "broadcast");
      if (standing) health = { ...health, status: "paused", reason: standing };
      else if (verdict.status === "pause")
        await deps.pauses.pauseIn(
          tx,
          organizationId,
          { scope: "lane", name: "broadcast" },
          `${GUARDRAIL} ${verdict.reason} in broadcasts`,
        );
      await tx.update(organizations).set({ broadcastHealth: health }).where(eq(organizations.id, organizationId));
    });

  return {
    async evaluate() {
      const windowStart = clock.now() - settings.windowMs;
      for (const organization of await db.select().from(organizations)) {
        // Each target counts from the window's start, or from a person's resume of it when that is later.
        const organizationSince = Math.max(windowStart, organization.healthSince);
        const sinceOrganization = await countsBySender(organization.id, organizationSince);
        const sinceWindow =
          organizationSince === windowStart ? sinceOrganization : await countsBySender(organization.id, windowStart);
        let total = ZERO;
        const judged = new Set<string>();
        for (const row of await db.select().from(domains).where(eq(domains.organizationId, organization.id))) {
          const since = Math.max(windowStart, row.healthSince);
          const counts =
            (since === windowStart
              ? sinceWindow.get(row.name)
              : (await countsBySender(organization.id, since, row.name)).get(row.name)) ?? ZERO;
          judged.add(row.name);
          // The organisation answers for what its domains' own pauses do not already stop.
          if ((await settleDomain(row, counts)) === "paused") continue;
          total = add(total, (since >= organizationSince ? counts : sinceOrganization.get(row.name)) ?? ZERO);
        }
        // Mail of domains removed since still counts against the organisation.
        for (const [domain, counts] of sinceOrganization) if (!judged.has(domain)) total = add(total, counts);
        await settleOrganization(organization, total);
        const broadcastSince = Math.max(windowStart, organization.broadcastHealthSince);
        const broadcasts =
          broadcastSince === windowStart
            ? sinceWindow.broadcast
            : (await countsBySender(organization.id, broadcastSince)).broadcast;
        await settleBroadcasts(organization.id, broadcasts);
      }
    },

    async overview(actor) {
      requireScope(actor, "domains:read");
      const organization = await first(
        db
          .select({ health: organizations.health })
          .from(organizations)
          .where(eq(organizations.id, actor.organizationId)),
      );
      const rows = await db
        .select({ id: domains.id, name: domains.name, health: domains.health })
        .from(domains)
        .where(eq(domains.organizationId, actor.organizationId))
        .orderBy(asc(domains.name));
      return {
        object: "sending_health",
        health: healthView(organization?.health ?? null, settings.windowMs, settings.minRecipients),
        domains: rows.map((row) => ({
          id: row.id,
          name: row.name,
          health: healthView(row.health, settings.windowMs, settings.minRecipients),
        })),
      };
    },

    async everyHealth() {
      const orgs = await db.select({ id: organizations.id, health: organizations.health }).from(organizations);
      const rows = await db
        .select({ organizationId: domains.organizationId, name: domains.name, health: domains.health })
        .from(domains);
      return [
        ...orgs.map((row) => ({
          organizationId: row.id,
          domain: null,
          health: healthView(row.health, settings.windowMs, settings.minRecipients),
        })),
        ...rows.map((row) => ({
          organizationId: row.organizationId,
          domain: row.name,
          health: healthView(row.health, settings.windowMs, settings.minRecipients),
        })),
      ];
    },

    async restart(tx, organizationId, scope, name) {
      const fresh = { health: null, healthSince: clock.now() };
      if (scope === "domain")
        await tx
          .update(domains)
          .set(fresh)
          .where(and(eq(domains.organizationId, organizationId), eq(domains.name, name)));
      else if (scope === "organization")
        await tx.update(organizations).set(fresh).where(eq(organizations.id, organizationId));
      else if (scope === "lane" && name === "broadcast")
        await tx
          .update(organizations)
          .set({ broadcastHealth: null, broadcastHealthSince: clock.now() })
          .where(eq(organizations.id, organizationId));
    },
  };
}
