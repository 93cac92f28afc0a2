/**
 * The organisation-wide suppression list: addresses that bounced, complained, unsubscribed or were added by hand.
 * Invariant: addresses are keyed lower-case; adding an existing one keeps the first entry (its origin is the
 * reason mail stopped); every add and remove appends a `suppression.*` event.
 */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { suppressions } from "../db/schema/index.ts";
import type { Writer } from "../db/writer.ts";
import { AppError, validationError } from "../errors.ts";
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

export interface SuppressionService {
  /** The lower-cased addresses among `addresses` that are suppressed. */
  suppressedAmong(organizationId: string, addresses: string[]): Set<string>;
  /** Adds inside the caller's transaction (bounce and complaint handling); returns false when already present. */
  addInTransaction(tx: Db, organizationId: string, entry: AddSuppression): boolean;
  add(organizationId: string, entry: AddSuppression): Promise<SuppressionView>;
  get(organizationId: string, email: string): SuppressionView;
  remove(organizationId: string, email: string): Promise<SuppressionView>;
  list(organizationId: string, options: { limit: number; after?: string; search?: string }): { data: SuppressionView[]; has_more: boolean };
}

function keyOf(email: string): string {
  const normalized = normalizeAddress(email.trim());
  if ("error" in normalized) throw validationError([{ path: "email", message: normalized.error }]);
  return addressKey(normalized.address);
}

export function createSuppressionService(deps: { db: Db; writer: Writer; clock: Clock; events: EventLog }): SuppressionService {
  const { db, writer, clock, events } = deps;
  // Prepared once, with the addresses as one JSON array, because every send asks it.
  const findSuppressed = db
    .select({ email: suppressions.email })
    .from(suppressions)
    .where(and(eq(suppressions.organizationId, sql.placeholder("organizationId")), sql`${suppressions.email} IN (SELECT value FROM json_each(${sql.placeholder("emails")}))`))
    .prepare();
  const find = (tx: Db, organizationId: string, email: string) =>
    tx.select().from(suppressions).where(and(eq(suppressions.organizationId, organizationId), eq(suppressions.email, email))).get();

  const addInTransaction: SuppressionService["addInTransaction"] = (tx, organizationId, entry) => {
    const email = addressKey(entry.email);
    if (find(tx, organizationId, email)) return false;
    const row: Row = { organizationId, email, origin: entry.origin, sourceId: entry.sourceId ?? null, reason: entry.reason ?? null, createdAt: isoTime(clock.now()) };
    tx.insert(suppressions).values(row).run();
    events.append(tx, { organizationId, type: "suppression.added", data: { email, origin: row.origin, source_id: row.sourceId, reason: row.reason } });
    return true;
  };

  return {
    suppressedAmong(organizationId, addresses) {
      if (addresses.length === 0) return new Set();
      const rows = findSuppressed.all({ organizationId, emails: JSON.stringify(addresses.map(addressKey)) });
      return new Set(rows.map((row) => row.email));
    },

    addInTransaction,

    async add(organizationId, entry) {
      const email = keyOf(entry.email);
      if (entry.reason != null && (typeof entry.reason !== "string" || entry.reason.length > 1000))
        throw validationError([{ path: "reason", message: "reason must be a string of at most 1000 characters" }]);
      const row = await writer.write((tx) => {
        if (!addInTransaction(tx, organizationId, { ...entry, email })) throw new AppError("conflict", `${email} is already suppressed.`);
        return find(tx, organizationId, email)!;
      });
      return toView(row);
    },

    get(organizationId, email) {
      const row = find(db, organizationId, keyOf(email));
      if (!row) throw new AppError("not_found", "That address is not suppressed.");
      return toView(row);
    },

    async remove(organizationId, email) {
      const key = keyOf(email);
      const row = await writer.write((tx) => {
        const existing = find(tx, organizationId, key);
        if (!existing) return undefined;
        tx.delete(suppressions).where(and(eq(suppressions.organizationId, organizationId), eq(suppressions.email, key))).run();
        events.append(tx, { organizationId, type: "suppression.removed", data: { email: key, origin: existing.origin } });
        return existing;
      });
      if (!row) throw new AppError("not_found", "That address is not suppressed.");
      return toView(row);
    },

    list(organizationId, { limit, after, search }) {
      const conditions = [eq(suppressions.organizationId, organizationId)];
      if (after) conditions.push(gt(suppressions.email, after.toLowerCase()));
      if (search) conditions.push(sql`${suppressions.email} LIKE ${`%${search.toLowerCase().replace(/[%_\\]/g, "\\$&")}%`} ESCAPE '\\'`);
      const rows = db.select().from(suppressions).where(and(...conditions)).orderBy(asc(suppressions.email)).limit(limit + 1).all();
      return { data: rows.slice(0, limit).map(toView), has_more: rows.length > limit };
    },
  };
}
