/**
 * The organisation-wide suppression list: addresses that bounced, complained, unsubscribed or were added by hand,
 * and the simulator's `suppressed@` test address, which is on it from the start without an entry.
 * Invariant: addresses are keyed lower-case; adding an existing one keeps the first entry (its origin is the
 * reason mail stopped); every add and remove appends a `suppression.*` event.
 */
import type { PageOptions } from "../db/pages.ts";
import { policyCache, SUPPRESSIONS_CHANGED } from "../db/read-cache.ts";
import type { Db, Store, Writer } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import type { Actor } from "../access.ts";
import { recordAudit } from "../audit/log.ts";
import { requireScope } from "../access.ts";
import type { EventLog } from "../events/service.ts";
import { addressKey } from "../lib/addresses.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { isUuid, newId } from "../lib/ids.ts";
import { simulatedOutcome } from "../providers/simulator.ts";
import {
  deleteSuppression,
  findById,
  findByKey,
  insertSuppression,
  pageSuppressions,
  type SuppressionRow as Row,
  suppressedKeys,
} from "./repo.ts";
import { batchOf, reasonOf, suppressionKey } from "./validate.ts";

import type { SuppressionOrigin, SuppressionView } from "./model.ts";

export type { SuppressionOrigin, SuppressionView };

/** Addresses whose suppression is kept in memory. */
const CACHED_ADDRESSES = 100_000;

const toView = (row: Row): SuppressionView => ({
  object: "suppression",
  id: row.id!,
  email: row.email,
  origin: row.origin,
  source_id: row.sourceId ?? null,
  reason: row.reason ?? null,
  created_at: row.createdAt,
});

export interface AddSuppression {
  email: string;
  origin: SuppressionOrigin;
  sourceId?: string | null;
  reason?: string | null;
}

/** What an API client or the operator gives to add an address by hand (origin manual). */
export interface ManualSuppression {
  email: string;
  reason?: string | null;
}

export interface SuppressionService {
  /** The lower-cased addresses among `addresses` that are suppressed (the simulator's `suppressed@` always is). */
  suppressedAmong(organizationId: string, addresses: string[]): Promise<Set<string>>;
  /** Adds inside the caller's transaction (bounce and complaint handling); returns false when already present. */
  addInTransaction(tx: Db, organizationId: string, entry: AddSuppression): Promise<boolean>;
  add(actor: Actor, input: ManualSuppression): Promise<SuppressionView>;
  /** Adds every address not yet suppressed (by hand); answers each address's entry, new or existing. */
  addMany(actor: Actor, emails: string[], reason?: string | null): Promise<SuppressionView[]>;
  /** By id or address. */
  get(actor: Actor, idOrEmail: string): Promise<SuppressionView>;
  remove(actor: Actor, idOrEmail: string): Promise<SuppressionView>;
  /** Removes each id or address that is suppressed; answers each one given, with whether it was. */
  removeMany(
    actor: Actor,
    idsOrEmails: string[],
    path: string,
  ): Promise<Array<{ object: "suppression"; id: string | null; email: string | null; deleted: boolean }>>;
  /** Newest first, paged; `origin` and an address substring (`search`) filter. */
  list(
    actor: Actor,
    options: PageOptions & { origin?: string; search?: string },
  ): Promise<{ object: "list"; data: SuppressionView[]; has_more: boolean }>;
}

export function createSuppressionService(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  events: EventLog;
  /** The store's notifications: whether an address is suppressed is cached until a suppression changes. */
  listen?: Store["listen"];
}): SuppressionService {
  const { db, writer, clock, events } = deps;
  const known = policyCache<boolean>(deps, SUPPRESSIONS_CHANGED, CACHED_ADDRESSES);
  /** An id (a UUID) or an address; an address that does not parse is a 400 naming `email`. */
  const findEntry = (tx: Db, organizationId: string, idOrEmail: string) =>
    isUuid(idOrEmail)
      ? findById(tx, organizationId, idOrEmail.toLowerCase())
      : findByKey(tx, organizationId, suppressionKey(idOrEmail));
  const notSuppressed = () => new AppError("not_found", "That address is not suppressed.");

  const addInTransaction: SuppressionService["addInTransaction"] = async (tx, organizationId, entry) => {
    const email = addressKey(entry.email);
    if (await findByKey(tx, organizationId, email)) return false;
    const row: Row = {
      organizationId,
      id: newId(),
      email,
      origin: entry.origin,
      sourceId: entry.sourceId ?? null,
      reason: entry.reason ?? null,
      createdAt: isoTime(clock.now()),
    };
    await insertSuppression(tx, row);
    await events.append(tx, {
      organizationId,
      type: "suppression.added",
      data: { email, origin: row.origin, source_id: row.sourceId, reason: row.reason },
    });
    return true;
  };

  const removeRow = async (tx: Db, row: Row) => {
    await deleteSuppression(tx, row.organizationId, row.email);
    await events.append(tx, {
      organizationId: row.organizationId,
      type: "suppression.removed",
      data: { email: row.email, origin: row.origin },
    });
  };

  /** The audit log's record of a person's or key's change to the list, in the change's transaction. */
  const audited = (tx: Db, actor: Actor, action: string, row: Row) =>
    recordAudit(
      tx,
      actor,
      { action, target: { type: "suppression", id: row.id, name: row.email }, changes: { reason: row.reason } },
      clock.now(),
    );

  return {
    async suppressedAmong(organizationId, addresses) {
      if (addresses.length === 0) return new Set();
      const keys = addresses.map(addressKey);
      // The addresses not in memory are read together, in one statement for the message.
      let read: Promise<Set<string>> | undefined;
      const suppressed = () => (read ??= suppressedKeys(db, organizationId, keys).then((found) => new Set(found)));
      const flags = await Promise.all(
        keys.map((key) => known.get(`${organizationId}|${key}`, async () => (await suppressed()).has(key))),
      );
      return new Set(keys.filter((key, i) => flags[i] || simulatedOutcome(key) === "suppressed"));
    },

    addInTransaction,

    async add(actor, input) {
      requireScope(actor, "suppressions:write");
      const email = suppressionKey(input.email);
      const { organizationId } = actor;
      const entry: AddSuppression = { email, origin: "manual", reason: reasonOf(input.reason) };
      const row = await writer.write(async (tx) => {
        if (!(await addInTransaction(tx, organizationId, entry)))
          throw new AppError("conflict", `${email} is already suppressed.`);
        const added = (await findByKey(tx, organizationId, email))!;
        await audited(tx, actor, "suppression.added", added);
        return added;
      });
      return toView(row);
    },

    async addMany(actor, emails, reason) {
      requireScope(actor, "suppressions:write");
      const keys = batchOf(emails, "emails").map((email, i) => {
        try {
          return suppressionKey(email);
        } catch {
          throw validationError([{ path: `emails.${i}`, message: "is not an email address" }]);
        }
      });
      const { organizationId } = actor;
      const why = reasonOf(reason);
      const rows = await writer.write(async (tx) => {
        const added: Row[] = [];
        for (const email of keys) {
          const isNew = await addInTransaction(tx, organizationId, { email, origin: "manual", reason: why });
          const row = (await findByKey(tx, organizationId, email))!;
          if (isNew) await audited(tx, actor, "suppression.added", row);
          added.push(row);
        }
        return added;
      });
      return rows.map(toView);
    },

    async get(actor, idOrEmail) {
      requireScope(actor, "suppressions:read");
      const row = await findEntry(db, actor.organizationId, idOrEmail);
      if (!row) throw notSuppressed();
      return toView(row);
    },

    async remove(actor, idOrEmail) {
      requireScope(actor, "suppressions:write");
      const { organizationId } = actor;
      const row = await writer.write(async (tx) => {
        const existing = await findEntry(tx, organizationId, idOrEmail);
        if (existing) {
          await removeRow(tx, existing);
          await audited(tx, actor, "suppression.removed", existing);
        }
        return existing;
      });
      if (!row) throw notSuppressed();
      return toView(row);
    },

    async removeMany(actor, idsOrEmails, path) {
      requireScope(actor, "suppressions:write");
      const given = batchOf(idsOrEmails, path);
      const { organizationId } = actor;
      return writer.write(async (tx) => {
        const results = [];
        for (const value of given) {
          const existing = await findEntry(tx, organizationId, value);
          if (existing) {
            await removeRow(tx, existing);
            await audited(tx, actor, "suppression.removed", existing);
          }
          results.push({
            object: "suppression" as const,
            id: existing?.id ?? (isUuid(value) ? value.toLowerCase() : null),
            email: existing?.email ?? (isUuid(value) ? null : value),
            deleted: !!existing,
          });
        }
        return results;
      });
    },

    async list(actor, options) {
      requireScope(actor, "suppressions:read");
      const { page, hasMore } = await pageSuppressions(db, actor.organizationId, {
        ...options,
        origin: options.origin as SuppressionOrigin | undefined,
        search: options.search?.toLowerCase(),
      });
      return { object: "list", data: page.map(toView), has_more: hasMore };
    },
  };
}
