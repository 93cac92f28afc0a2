/**
 * The organisation-wide suppression list: addresses that bounced, complained, unsubscribed or were added by hand.
 * Invariant: addresses are keyed lower-case; adding an existing one keeps the first entry (its origin is the
 * reason mail stopped); every add and remove appends a `suppression.*` event.
 */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { inJsonArray } from "../db/dialect.ts";
import { prepareAs } from "../db/prepared.ts";
import type { suppressions } from "../db/schema/index.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import type { Actor } from "../keys/model.ts";
import { requireScope } from "../keys/service.ts";
import type { EventLog } from "../events/service.ts";
import { addressKey, normalizeAddress } from "../lib/addresses.ts";
import { isoTime, type Clock } from "../lib/clock.ts";

export type SuppressionOrigin = "bounce" | "complaint" | "unsubscribe" | "manual";

export interface SuppressionView {
  object: "suppression";
  email: string;
  origin: SuppressionOrigin;
  source_id: string | null;
  reason: string | null;
  created_at: string;
}

type Row = typeof suppressions.$inferSelect;
const toView = (row: Row): SuppressionView => ({
  object: "suppression",
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
  email?: unknown;
  reason?: unknown;
}

export interface SuppressionService {
  /** The lower-cased addresses among `addresses` that are suppressed. */
  suppressedAmong(organizationId: string, addresses: string[]): Promise<Set<string>>;
  /** Adds inside the caller's transaction (bounce and complaint handling); returns false when already present. */
  addInTransaction(tx: Db, organizationId: string, entry: AddSuppression): Promise<boolean>;
  add(actor: Actor, input: ManualSuppression): Promise<SuppressionView>;
  get(actor: Actor, email: string): Promise<SuppressionView>;
  remove(actor: Actor, email: string): Promise<SuppressionView>;
  list(actor: Actor, options: { limit: number; after?: string; search?: string }): Promise<{ data: SuppressionView[]; has_more: boolean }>;
}

function keyOf(email: string): string {
  const normalized = normalizeAddress(email.trim());
  if ("error" in normalized) throw validationError([{ path: "email", message: normalized.error }]);
  return addressKey(normalized.address);
}

export function createSuppressionService(deps: { db: Db; writer: Writer; clock: Clock; events: EventLog }): SuppressionService {
  const { db, writer, clock, events } = deps;
  const { suppressions } = tablesOf(db);
  // Prepared once, with the addresses as one JSON array, because every send asks it.
  const findSuppressed = prepareAs("suppressed_among", db
    .select({ email: suppressions.email })
    .from(suppressions)
    .where(and(eq(suppressions.organizationId, sql.placeholder("organizationId")), inJsonArray(db, suppressions.email, sql.placeholder("emails")))));
  const find = (tx: Db, organizationId: string, email: string) =>
    first(tx.select().from(suppressions).where(and(eq(suppressions.organizationId, organizationId), eq(suppressions.email, email))));

  const addInTransaction: SuppressionService["addInTransaction"] = async (tx, organizationId, entry) => {
    const email = addressKey(entry.email);
    if (await find(tx, organizationId, email)) return false;
    const row: Row = { organizationId, email, origin: entry.origin, sourceId: entry.sourceId ?? null, reason: entry.reason ?? null, createdAt: isoTime(clock.now()) };
    await tx.insert(suppressions).values(row);
    await events.append(tx, { organizationId, type: "suppression.added", data: { email, origin: row.origin, source_id: row.sourceId, reason: row.reason } });
    return true;
  };

  return {
    async suppressedAmong(organizationId, addresses) {
      if (addresses.length === 0) return new Set();
      const rows = await findSuppressed.execute({ organizationId, emails: JSON.stringify(addresses.map(addressKey)) });
      return new Set(rows.map((row) => row.email));
    },

    addInTransaction,

    async add(actor, input) {
      requireScope(actor, "suppressions:write");
      if (typeof input.email !== "string") throw validationError([{ path: "email", message: "is required" }]);
      const email = keyOf(input.email);
      if (input.reason != null && (typeof input.reason !== "string" || input.reason.length > 1000))
        throw validationError([{ path: "reason", message: "reason must be a string of at most 1000 characters" }]);
      const { organizationId } = actor;
      const entry: AddSuppression = { email, origin: "manual", reason: (input.reason as string | null | undefined) ?? null };
      const row = await writer.write(async (tx) => {
        if (!(await addInTransaction(tx, organizationId, entry))) throw new AppError("conflict", `${email} is already suppressed.`);
        return (await find(tx, organizationId, email))!;
      });
      return toView(row);
    },

    async get(actor, email) {
      requireScope(actor, "suppressions:read");
      const row = await find(db, actor.organizationId, keyOf(email));
      if (!row) throw new AppError("not_found", "That address is not suppressed.");
      return toView(row);
    },

    async remove(actor, email) {
      requireScope(actor, "suppressions:write");
      const { organizationId } = actor;
      const key = keyOf(email);
      const row = await writer.write(async (tx) => {
        const existing = await find(tx, organizationId, key);
        if (!existing) return undefined;
        await tx.delete(suppressions).where(and(eq(suppressions.organizationId, organizationId), eq(suppressions.email, key)));
        await events.append(tx, { organizationId, type: "suppression.removed", data: { email: key, origin: existing.origin } });
        return existing;
      });
      if (!row) throw new AppError("not_found", "That address is not suppressed.");
      return toView(row);
    },

    async list(actor, { limit, after, search }) {
      requireScope(actor, "suppressions:read");
      const conditions = [eq(suppressions.organizationId, actor.organizationId)];
      if (after) conditions.push(gt(suppressions.email, after.toLowerCase()));
      if (search) conditions.push(sql`${suppressions.email} LIKE ${`%${search.toLowerCase().replace(/[%_\\]/g, "\\$&")}%`} ESCAPE '\\'`);
      const rows = await db.select().from(suppressions).where(and(...conditions)).orderBy(asc(suppressions.email)).limit(limit + 1);
      return { data: rows.slice(0, limit).map(toView), has_more: rows.length > limit };
    },
  };
}
