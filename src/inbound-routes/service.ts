/**
 * An organisation's inbound routes (docs/inbound.md#routes): list, create, change, reorder and remove them, test an
 * address against them, and the rules the incoming funnel reads (`rulesOf`). Reading takes `inbound:read`; changing
 * takes `domains:write`, the right that turns receiving on — a route decides where a domain's mail goes, as that does.
 *
 * Invariants: positions run 1..n without gaps — a route created or moved to a position takes it and those at it and
 * after move down, one removed closes its gap — in one write with the change, the organisation's route writes taking
 * turns (repo.ts `lockRoutesOf`); a route forwards only to the
 * addresses its organisation configured and notifies only the organisation's own webhooks; every change is audited.
 */
import { type Actor, requireScope } from "../access.ts";
import { recordAudit } from "../audit/log.ts";
import { pageOfList, type PageOptions } from "../db/pages.ts";
import type { Db, Writer } from "../db/store.ts";
import { AppError, validationError, type ErrorDetail } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { isUuid, newId } from "../lib/ids.ts";
import { routeFor, type RouteRule } from "./match.ts";
import {
  type CreateInboundRoute,
  type InboundRouteTestView,
  type InboundRouteView,
  MAX_ROUTES,
  type TestInboundRoute,
  type UpdateInboundRoute,
} from "./model.ts";
import {
  deleteRoute,
  findRoute,
  insertRoute,
  lockRoutesOf,
  ownWebhookIds,
  type RouteRow,
  routesOf,
  updateRoute,
} from "./repo.ts";
import { checkActionFields, recipientPattern } from "./validate.ts";

export interface InboundRoutes {
  list(actor: Actor, options: PageOptions): Promise<{ object: "list"; has_more: boolean; data: InboundRouteView[] }>;
  get(actor: Actor, id: string): Promise<InboundRouteView>;
  create(actor: Actor, input: CreateInboundRoute): Promise<InboundRouteView>;
  update(actor: Actor, id: string, input: UpdateInboundRoute): Promise<InboundRouteView>;
  remove(actor: Actor, id: string): Promise<{ object: "inbound_route"; id: string; deleted: true }>;
  /** Which route would decide for `recipient` (and headers), and whether the MX takes mail for it. */
  test(actor: Actor, input: TestInboundRoute): Promise<InboundRouteTestView>;
  /** The organisation's routes in order, as the incoming funnel matches them. */
  rulesOf(organizationId: string): Promise<RouteRule[]>;
}

export const toRouteView = (row: RouteRow): InboundRouteView => ({
  object: "inbound_route",
  id: row.id,
  position: row.position,
  match: {
    recipient: row.matchRecipient,
    header:
      row.matchHeaderName === null ? null : { name: row.matchHeaderName, contains: row.matchHeaderContains ?? "" },
  },
  action: row.action,
  forward_to: row.forwardTo,
  webhook_ids: row.webhookIds,
  spam_threshold: row.spamThreshold,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

const notFound = () => new AppError("not_found", "Inbound route not found.");

export function createInboundRoutes(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  /** Whether the MX takes mail for a domain, and for which organisation (domains/send-policy.ts). */
  receivingState(
    domain: string,
  ): Promise<{ state: "receiving" | "off"; organizationId: string } | { state: "unknown" }>;
}): InboundRoutes {
  const { db, writer, clock } = deps;

  const own = async (actor: Actor, id: string) => {
    if (!isUuid(id)) throw notFound();
    const row = await findRoute(db, actor.organizationId, id);
    if (!row) throw notFound();
    return row;
  };

  /** The fields of `merged` as stored, checked; throws `validation_error` naming every fault. */
  const checked = async (actor: Actor, merged: Omit<RouteRow, "id" | "organizationId" | "createdAt" | "updatedAt">) => {
    const details: ErrorDetail[] = [];
    const matchRecipient = merged.matchRecipient === null ? null : recipientPattern(merged.matchRecipient, details);
    const forwardTo = checkActionFields(merged, details);
    const owned = await ownWebhookIds(db, actor.organizationId, merged.webhookIds);
    const unknown = merged.webhookIds.filter((id) => !owned.includes(id));
    if (unknown.length)
      throw validationError([
        { path: "webhook_ids", message: `not webhooks of this organisation: ${unknown.join(", ")}` },
      ]);
    return { ...merged, matchRecipient, forwardTo, webhookIds: [...new Set(merged.webhookIds)] };
  };

  /**
   * Inside `tx`: puts `moved` at `position` (1-based, clamped; undefined: last) among the organisation's other routes
   * and writes the positions that changed, so they run 1..n.
   */
  const place = async (tx: Db, organizationId: string, moved: RouteRow | null, position: number | undefined) => {
    const others = (await routesOf(tx, organizationId)).filter((row) => row.id !== moved?.id);
    const ordered = [...others];
    if (moved) ordered.splice(Math.min(Math.max((position ?? ordered.length + 1) - 1, 0), ordered.length), 0, moved);
    for (const [index, row] of ordered.entries())
      if (row.position !== index + 1 && row.id !== moved?.id) await updateRoute(tx, row.id, { position: index + 1 });
    return moved ? ordered.indexOf(moved) + 1 : 0;
  };

  const audited = (tx: Db, actor: Actor, action: string, row: RouteRow, changes: Record<string, unknown>) =>
    recordAudit(
      tx,
      actor,
      { action, target: { type: "inbound_route", id: row.id, name: row.matchRecipient ?? "*" }, changes },
      clock.now(),
    );

  const auditedFields = (row: RouteRow) => ({
    position: row.position,
    action: row.action,
    recipient: row.matchRecipient,
    header: row.matchHeaderName,
    forward_to: row.forwardTo,
    webhook_ids: row.webhookIds,
    spam_threshold: row.spamThreshold,
  });

  return {
    async list(actor, options) {
      requireScope(actor, "inbound:read");
      const { page, hasMore } = pageOfList((await routesOf(db, actor.organizationId)).map(toRouteView), options);
      return { object: "list", has_more: hasMore, data: page };
    },

    async get(actor, id) {
      requireScope(actor, "inbound:read");
      return toRouteView(await own(actor, id));
    },

    async create(actor, input) {
      requireScope(actor, "domains:write");
      const fields = await checked(actor, {
        position: input.position ?? 0,
        matchRecipient: input.match?.recipient ?? null,
        matchHeaderName: input.match?.header?.name ?? null,
        matchHeaderContains: input.match?.header?.contains ?? null,
        action: input.action,
        forwardTo: input.forward_to ?? [],
        webhookIds: input.webhook_ids ?? [],
        spamThreshold: input.spam_threshold ?? null,
      });
      const now = isoTime(clock.now());
      const row: RouteRow = {
        ...fields,
        id: newId(),
        organizationId: actor.organizationId,
        createdAt: now,
        updatedAt: now,
      };
      await writer.write(async (tx) => {
        await lockRoutesOf(tx, actor.organizationId);
        if ((await routesOf(tx, actor.organizationId)).length >= MAX_ROUTES)
          throw validationError([{ path: "", message: `an organisation has at most ${MAX_ROUTES} inbound routes` }]);
        row.position = await place(tx, actor.organizationId, row, input.position);
        await insertRoute(tx, row);
        await audited(tx, actor, "inbound_route.created", row, auditedFields(row));
      });
      return toRouteView(row);
    },

    async update(actor, id, input) {
      requireScope(actor, "domains:write");
      const current = await own(actor, id);
      const header = input.match && "header" in input.match ? input.match.header : undefined;
      const fields = await checked(actor, {
        position: current.position,
        matchRecipient:
          input.match && "recipient" in input.match ? (input.match.recipient ?? null) : current.matchRecipient,
        matchHeaderName: header === undefined ? current.matchHeaderName : (header?.name ?? null),
        matchHeaderContains: header === undefined ? current.matchHeaderContains : (header?.contains ?? null),
        action: input.action ?? current.action,
        // A change of action leaves behind what only the old one used, unless given anew.
        forwardTo: input.forward_to ?? ((input.action ?? current.action) === "forward" ? current.forwardTo : []),
        webhookIds: input.webhook_ids ?? ((input.action ?? current.action) === "webhook" ? current.webhookIds : []),
        spamThreshold: input.spam_threshold === undefined ? current.spamThreshold : input.spam_threshold,
      });
      const row: RouteRow = { ...current, ...fields, updatedAt: isoTime(clock.now()) };
      await writer.write(async (tx) => {
        await lockRoutesOf(tx, actor.organizationId);
        // Where it is now, read under the lock: another change may have moved it since `current` was read.
        const now = await findRoute(tx, actor.organizationId, row.id);
        if (!now) throw notFound();
        row.position = now.position;
        if (input.position !== undefined) row.position = await place(tx, actor.organizationId, row, input.position);
        await updateRoute(tx, row.id, { ...fields, position: row.position, updatedAt: row.updatedAt });
        await audited(tx, actor, "inbound_route.updated", row, auditedFields(row));
      });
      return toRouteView(row);
    },

    async remove(actor, id) {
      requireScope(actor, "domains:write");
      const row = await own(actor, id);
      await writer.write(async (tx) => {
        await lockRoutesOf(tx, actor.organizationId);
        await deleteRoute(tx, row.id);
        await place(tx, actor.organizationId, null, undefined);
        await audited(tx, actor, "inbound_route.deleted", row, {});
      });
      return { object: "inbound_route", id: row.id, deleted: true };
    },

    async test(actor, input) {
      requireScope(actor, "inbound:read");
      const details: ErrorDetail[] = [];
      const pattern = recipientPattern(input.recipient, details);
      if (!pattern || pattern.startsWith("*@"))
        throw validationError([{ path: "recipient", message: "an email address to test" }]);
      const state = await deps.receivingState(pattern.slice(pattern.lastIndexOf("@") + 1));
      const rows = await routesOf(db, actor.organizationId);
      const route = routeFor(rows, pattern, input.headers ?? {});
      return {
        object: "inbound_route_test",
        recipient: pattern,
        receiving: state.state === "receiving" && state.organizationId === actor.organizationId,
        route: route ? toRouteView(route) : null,
        action: route?.action ?? "store",
      };
    },

    rulesOf: (organizationId) => routesOf(db, organizationId),
  };
}
