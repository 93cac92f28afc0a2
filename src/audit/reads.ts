/**
 * The audit log as owners and admins read it (DESIGN §13, `GET /v1/audit-log`): their organisation's events, newest
 * first, by Resend's cursors, filtered by action and by who acted. Invariant: an organisation sees its own events
 * only, and only with `audit:read` — its own rows, and the rows of no organisation about a person who is one of its
 * members (a failed sign-in is recorded once per person, not once per organisation of theirs).
 */
import { and, eq, inArray, isNull, or, type SQL } from "drizzle-orm";
import { requireScope, type Actor } from "../access.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import { tablesOf, type Db } from "../db/store.ts";

export interface AuditEventView {
  object: "audit_event";
  id: string;
  created_at: string;
  organization_id: string | null;
  actor: { type: "user" | "api_key" | "cli" | "system"; id: string | null; name: string | null };
  action: string;
  target: { type: string; id: string | null; name: string | null } | null;
  ip: string | null;
  user_agent: string | null;
  changes: Record<string, unknown> | null;
}

export interface AuditLogQuery extends PageOptions {
  action?: string;
  actorId?: string;
}

export async function readAuditLog(
  db: Db,
  actor: Actor,
  query: AuditLogQuery,
): Promise<{ object: "list"; has_more: boolean; data: AuditEventView[] }> {
  requireScope(actor, "audit:read");
  const { auditEvents, memberships } = tablesOf(db);
  const members = db
    .select({ id: memberships.userId })
    .from(memberships)
    .where(eq(memberships.organizationId, actor.organizationId));
  const filters: SQL[] = [
    or(
      eq(auditEvents.organizationId, actor.organizationId),
      and(
        isNull(auditEvents.organizationId),
        eq(auditEvents.targetType, "user"),
        inArray(auditEvents.targetId, members),
      ),
    )!,
  ];
  if (query.action) filters.push(eq(auditEvents.action, query.action));
  if (query.actorId) filters.push(eq(auditEvents.actorId, query.actorId));
  const { page, hasMore } = await pageById(auditEvents.id, filters, query, (where, order, limit) =>
    db.select().from(auditEvents).where(where).orderBy(order).limit(limit),
  );
  return {
    object: "list",
    has_more: hasMore,
    data: page.map((row) => ({
      object: "audit_event",
      id: row.id,
      created_at: row.createdAt,
      organization_id: row.organizationId,
      actor: { type: row.actorType, id: row.actorId, name: row.actorName },
      action: row.action,
      target: row.targetType ? { type: row.targetType, id: row.targetId, name: row.targetName } : null,
      ip: row.ip,
      user_agent: row.userAgent,
      changes: row.changes ?? null,
    })),
  };
}
