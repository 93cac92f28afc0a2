/**
 * Sending pauses (docs/operations.md): an operator pauses an organisation's sending, one of its sending domains, a
 * provider or a sending lane (docs/operations.md#sending-lanes: the broadcast lane, so newsletters wait while receipts
 * flow); mail is still accepted, and waits as `held` instead of being attempted; on resume it goes out, oldest
 * first, paced by the usual caps. Design note:
 *
 * - Where mail is held: at its attempt. The worker asks `holdOf` before each one, so mail accepted before the pause,
 *   mail accepted during it and deferred mail coming due are all held the same way, and nothing needs moving when a
 *   pause begins. A provider pause holds mail only when every provider of its domain's route is paused; otherwise
 *   the route skips the paused ones (`unpausedRoute`), as it skips a failed-over provider.
 * - Across instances: a pause is a row of the shared store; `holdOf` reads the organisation's pauses from a cache
 *   dropped when a pause changes — here at once, on the other instances by LISTEN — and never older than a second.
 * - Resume releases, through the lifecycle, every held recipient of the organisation that no remaining pause holds,
 *   in the order they came; a recipient released by hand while its pause applied (`hold_exempt`) goes regardless.
 * - Each pause and resume appends `sending.paused` or `sending.resumed` (a webhook event) in its own transaction.
 */
import { and, asc, eq, gt } from "drizzle-orm";
import type { Actor } from "../access.ts";
import { recordAudit, SYSTEM, type AuditActor } from "../audit/log.ts";
import { requireScope } from "../access.ts";
import { notifyAtCommit } from "../db/dialect.ts";
import { inIdBatches } from "../db/pages.ts";
import { POLICY_CHANGED, policyCache } from "../db/read-cache.ts";
import { first, tablesOf, type Db, type Store, type Writer } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import type { EventLog } from "../events/service.ts";
import { domainOf } from "../lib/addresses.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import type { Lifecycle } from "./lifecycle.ts";
import { LANES, type Lane } from "./model.ts";
import type { PauseScope, PauseView, SendingState } from "./wire.ts";

export { PAUSE_SCOPES, type PauseScope, type PauseView, type SendingState } from "./wire.ts";

export interface PauseTarget {
  scope: PauseScope;
  name?: string;
}

export interface SendingPauses {
  state(actor: Actor): Promise<SendingState>;
  /** Pausing what is paused already keeps the first pause (its reason and time). */
  pause(actor: Actor, target: PauseTarget & { reason?: string | null }): Promise<SendingState>;
  /**
   * The system's pause (docs/deliverability.md guardrails), in the caller's transaction: `name` is checked by the caller. True
   * when it paused; false when the target was paused already (the first pause stands).
   */
  pauseIn(
    tx: Db,
    organizationId: string,
    target: { scope: "organization" | "domain" | "lane"; name: string },
    reason: string,
  ): Promise<boolean>;
  /** Answers how many held recipients went back to the queue; resuming what is not paused is `not_found`. */
  resume(actor: Actor, target: PauseTarget): Promise<SendingState & { released: number }>;
  /**
   * Why mail from `sendingDomain` in `lane` must wait now (a pause of its organisation, its lane, its domain or its
   * route), or undefined.
   */
  holdOf(organizationId: string, sendingDomain: string, lane: Lane): Promise<string | undefined>;
  /** `route` without its paused providers (the router skips them). */
  unpausedRoute(organizationId: string, route: readonly string[]): Promise<readonly string[]>;
}

type PauseRow = { scope: PauseScope; name: string; reason: string | null; pausedAt: string; pausedBy: string | null };

/** `paused_by` of a pause Mailroom made itself (a guardrail, docs/deliverability.md). */
export const SYSTEM_PAUSER = "system";

/** Held recipients looked at per transaction of a resume. */
const RELEASE_BATCH = 500;

export function createSendingPauses(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  events: EventLog;
  lifecycle: Lifecycle;
  listen?: Store["listen"];
  /** The providers a pause may name: the configured ones. */
  providerNames: readonly string[];
  /** The providers a sending domain's mail goes through, in order (the default one when it names none). */
  routeOf(organizationId: string, sendingDomain: string): Promise<readonly string[]>;
  /**
   * A person resumed a pause the system made (a guardrail's), in the resume's transaction: the guardrails judge the
   * target afresh from now on, or the rates that paused it would pause it again at their next look.
   */
  systemPauseResumed?(tx: Db, organizationId: string, scope: PauseScope, name: string): Promise<void>;
}): SendingPauses {
  const { db, writer, clock, events, lifecycle } = deps;
  const { sendingPauses, deliveries, emails, domains } = tablesOf(db);
  const cache = policyCache<PauseRow[]>(deps, POLICY_CHANGED, 10_000);

  const load = (organizationId: string) =>
    cache.get(
      organizationId,
      async () =>
        (await db
          .select({
            scope: sendingPauses.scope,
            name: sendingPauses.name,
            reason: sendingPauses.reason,
            pausedAt: sendingPauses.pausedAt,
            pausedBy: sendingPauses.pausedBy,
          })
          .from(sendingPauses)
          .where(eq(sendingPauses.organizationId, organizationId))
          .orderBy(asc(sendingPauses.pausedAt))) as PauseRow[],
    );

  const toView = (row: PauseRow): PauseView => ({
    scope: row.scope,
    name: row.scope === "organization" ? null : row.name,
    reason: row.reason,
    paused_at: row.pausedAt,
    paused_by: row.pausedBy,
  });

  const stateOf = async (organizationId: string): Promise<SendingState> => ({
    object: "sending",
    pauses: (await load(organizationId)).map(toView),
  });

  const because = (row: PauseRow, what: string) =>
    `held: sending is paused for ${what}${row.reason ? ` (${row.reason})` : ""}`;

  const holdIn = async (pauses: PauseRow[], organizationId: string, sendingDomain: string, lane: Lane) => {
    const organization = pauses.find((p) => p.scope === "organization");
    if (organization) return because(organization, "the organisation");
    const lanePause = pauses.find((p) => p.scope === "lane" && p.name === lane);
    if (lanePause) return because(lanePause, `the ${lane} lane`);
    const domain = pauses.find((p) => p.scope === "domain" && p.name === sendingDomain);
    if (domain) return because(domain, sendingDomain);
    const providers = pauses.filter((p) => p.scope === "provider");
    if (!providers.length) return undefined;
    const route = await deps.routeOf(organizationId, sendingDomain);
    const paused = route.map((name) => providers.find((p) => p.name === name));
    if (paused.length && paused.every((p) => p)) return because(paused[0]!, `provider ${route[0]}`);
    return undefined;
  };

  /** The target as stored: the organisation's name is empty; a domain lower-case, one of the organisation's. */
  const checkedTarget = async (actor: Actor, target: PauseTarget) => {
    if (target.scope === "organization") {
      if (target.name) throw validationError([{ path: "name", message: "an organisation pause names nothing" }]);
      return "";
    }
    const name = target.name?.trim();
    if (!name) throw validationError([{ path: "name", message: `a ${target.scope} pause names the ${target.scope}` }]);
    if (target.scope === "lane") {
      if (!(LANES as readonly string[]).includes(name))
        throw validationError([{ path: "name", message: `unknown lane; the lanes: ${LANES.join(", ")}` }]);
      return name;
    }
    if (target.scope === "provider") {
      if (!deps.providerNames.includes(name))
        throw validationError([
          { path: "name", message: `unknown provider; configured: ${deps.providerNames.join(", ") || "none"}` },
        ]);
      return name;
    }
    const domain = name.toLowerCase();
    const known = await first(
      db
        .select({ name: domains.name })
        .from(domains)
        .where(and(eq(domains.organizationId, actor.organizationId), eq(domains.name, domain))),
    );
    if (!known) throw new AppError("not_found", `No sending domain ${domain} in this organisation.`);
    return domain;
  };

  /** Releases, oldest first, every held recipient of the organisation no pause holds now. */
  const releaseUnheld = (organizationId: string) =>
    inIdBatches(writer, RELEASE_BATCH, async (tx, after) => {
      const held = await tx
        .select({ id: deliveries.id, envelopeFrom: emails.envelopeFrom, lane: deliveries.lane })
        .from(deliveries)
        .innerJoin(emails, eq(emails.id, deliveries.emailId))
        .where(
          and(eq(deliveries.organizationId, organizationId), eq(deliveries.status, "held"), gt(deliveries.id, after)),
        )
        .orderBy(asc(deliveries.id))
        .limit(RELEASE_BATCH);
      const pauses = await load(organizationId);
      let counted = 0;
      for (const row of held) {
        if (await holdIn(pauses, organizationId, domainOf(row.envelopeFrom), row.lane)) continue;
        const applied = await lifecycle.apply(
          tx,
          "released",
          { deliveryId: row.id },
          { response: "released: sending resumed" },
        );
        if (applied.outcome === "applied") counted += applied.changed;
      }
      return { ids: held.map((row) => row.id), counted };
    });

  /** Writes a pause with its event and audit record; false when the target was paused already. */
  const insertPause = async (
    tx: Db,
    organizationId: string,
    scope: PauseScope,
    name: string,
    reason: string | null,
    by: { pausedBy: string; auditActor: Actor | AuditActor },
  ) => {
    const now = isoTime(clock.now());
    const inserted = await tx
      .insert(sendingPauses)
      .values({ organizationId, scope, name, reason, pausedAt: now, pausedBy: by.pausedBy })
      .onConflictDoNothing()
      .returning({ name: sendingPauses.name });
    if (!inserted.length) return false;
    await notifyAtCommit(tx, POLICY_CHANGED);
    await events.append(tx, { organizationId, type: "sending.paused", data: { scope, name: name || null, reason } });
    await recordAudit(
      tx,
      by.auditActor,
      {
        action: "sending.paused",
        target: { type: scope, id: name || null, name: name || null },
        changes: { reason },
        organizationId,
      },
      clock.now(),
    );
    return true;
  };

  return {
    pauseIn: (tx, organizationId, target, reason) =>
      insertPause(tx, organizationId, target.scope, target.name, reason, {
        pausedBy: SYSTEM_PAUSER,
        auditActor: SYSTEM,
      }),

    async state(actor) {
      requireScope(actor, "deliveries:read");
      return stateOf(actor.organizationId);
    },

    async pause(actor, target) {
      requireScope(actor, "deliveries:write");
      const name = await checkedTarget(actor, target);
      const reason = target.reason?.trim() ? target.reason.trim().slice(0, 500) : null;
      await writer.write((tx) =>
        insertPause(tx, actor.organizationId, target.scope, name, reason, {
          pausedBy: actor.user?.email ?? actor.keyId ?? "operator",
          auditActor: actor,
        }),
      );
      return stateOf(actor.organizationId);
    },

    async resume(actor, target) {
      requireScope(actor, "deliveries:write");
      const name = await checkedTarget(actor, target);
      const removed = await writer.write(async (tx) => {
        const deleted = await tx
          .delete(sendingPauses)
          .where(
            and(
              eq(sendingPauses.organizationId, actor.organizationId),
              eq(sendingPauses.scope, target.scope),
              eq(sendingPauses.name, name),
            ),
          )
          .returning({ pausedBy: sendingPauses.pausedBy });
        if (!deleted.length) return false;
        if (deleted[0]!.pausedBy === SYSTEM_PAUSER)
          await deps.systemPauseResumed?.(tx, actor.organizationId, target.scope, name);
        await notifyAtCommit(tx, POLICY_CHANGED);
        await events.append(tx, {
          organizationId: actor.organizationId,
          type: "sending.resumed",
          data: { scope: target.scope, name: name || null },
        });
        await recordAudit(
          tx,
          actor,
          { action: "sending.resumed", target: { type: target.scope, id: name || null, name: name || null } },
          clock.now(),
        );
        return true;
      });
      if (!removed)
        throw new AppError(
          "not_found",
          `Sending is not paused for ${target.scope === "organization" ? "the organisation" : target.scope === "lane" ? `the ${name} lane` : name}.`,
        );
      const released = await releaseUnheld(actor.organizationId);
      return { ...(await stateOf(actor.organizationId)), released };
    },

    async holdOf(organizationId, sendingDomain, lane) {
      const pauses = await load(organizationId);
      return pauses.length ? holdIn(pauses, organizationId, sendingDomain, lane) : undefined;
    },

    async unpausedRoute(organizationId, route) {
      const paused = new Set((await load(organizationId)).filter((p) => p.scope === "provider").map((p) => p.name));
      if (!paused.size) return route;
      const open = route.filter((name) => !paused.has(name));
      return open.length ? open : route;
    },
  };
}
