/**
 * The audit log as owners and admins read it (docs/teams.md#audit-log, `GET /v1/audit-log`): their organisation's
 * events, newest first, by Resend's cursors, filtered by action and by who acted; an event's wire is its schema.
 * Invariant: an organisation sees its own events only, and only with `audit:read` — its own rows, and the rows of no
 * organisation about a person who is one of its members (a failed sign-in is recorded once per person, not once per
 * organisation of theirs).
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { and, eq, inArray, isNull, or, type SQL } from "drizzle-orm";
import { requireScope, type Actor } from "../access.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import { tablesOf, type Db } from "../db/store.ts";
import { named, Nullable, OneOf } from "../lib/wire.ts";

/** Who acted: a person, an API key, the operator at the command line, or Mailroom itself. */
export const AuditActorSchema = named(
  "AuditActor",
  t.Object({
    type: OneOf(["user", "api_key", "cli", "system"]),
    id: Nullable(t.String(), { description: "The user's or key's id; null for the operator and the system" }),
    name: Nullable(t.String(), { description: "The person's email, the key's name, operator or Mailroom" }),
  }),
);

/** What an action concerned. */
export const AuditTargetSchema = named(
  "AuditTarget",
  t.Object({ type: t.String(), id: Nullable(t.String()), name: Nullable(t.String()) }),
);

/** One entry of the audit log: who did what, to what, from where. */
export const AuditEventSchema = named(
  "AuditEvent",
  t.Object({
    object: t.Literal("audit_event"),
    id: t.String({ format: "uuid" }),
    created_at: t.String({ format: "date-time" }),
    organization_id: Nullable(t.String()),
    actor: AuditActorSchema,
    action: t.String({ description: "<object>.<verb>: api_key.created, member.invited, …" }),
    target: Nullable(AuditTargetSchema, { description: "Null for an action that concerns no one object" }),
    ip: Nullable(t.String()),
    user_agent: Nullable(t.String()),
    changes: Nullable(t.Record(t.String(), t.Unknown()), {
      description: "The settings changed and their values (or {from, to}); null when the action has none",
    }),
  }),
);
export type AuditEventView = Static<typeof AuditEventSchema>;

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
