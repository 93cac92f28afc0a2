/**
 * The audit log's writer (docs/teams.md): who changed what, recorded in the transaction of the change, so that a change
 * and its record commit together or not at all. Invariants: rows are only ever inserted; what a caller passes as
 * `changes` names settings and their values, never a secret, token or password (the keys' and webhooks' secrets
 * are never among them); the actor is who acted — a person, an API key, the operator at the CLI, or the system.
 */
import type { Actor } from "../access.ts";
import { tablesOf, type Db } from "../db/store.ts";
import { isoTime } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";

export interface AuditActor {
  type: "user" | "api_key" | "cli" | "system";
  id: string | null;
  name: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

export interface AuditEntry {
  /** `<object>.<verb>`, e.g. `api_key.created`, `sign_in.failed`. */
  action: string;
  target?: { type: string; id: string | null; name?: string | null };
  /** What changed: setting → new value (or `{from, to}`); never a secret. */
  changes?: Record<string, unknown>;
  /** Defaults to the actor's organisation; null for what concerns none. */
  organizationId?: string | null;
}

export const SYSTEM: AuditActor = { type: "system", id: null, name: "Mailroom" };

/** Who an API caller is, for the log. */
export function auditActorOf(actor: Actor): AuditActor {
  const client = { ip: actor.client?.ip ?? null, userAgent: actor.client?.userAgent ?? null };
  if (actor.user) return { type: "user", id: actor.user.id, name: actor.user.email, ...client };
  if (actor.keyId) return { type: "api_key", id: actor.keyId, name: actor.keyName ?? null, ...client };
  return { type: "cli", id: null, name: "operator", ...client };
}

/** Appends one event in `tx` (the change's own transaction). */
export async function recordAudit(tx: Db, who: Actor | AuditActor, entry: AuditEntry, now: number): Promise<void> {
  const actor = "type" in who ? who : auditActorOf(who);
  const organizationId =
    entry.organizationId !== undefined ? entry.organizationId : "type" in who ? null : who.organizationId || null;
  const { auditEvents } = tablesOf(tx);
  await tx.insert(auditEvents).values({
    id: newId(),
    organizationId,
    createdAt: isoTime(now),
    actorType: actor.type,
    actorId: actor.id,
    actorName: actor.name,
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id ?? null,
    targetName: entry.target?.name ?? null,
    ip: actor.ip ?? null,
    userAgent: actor.userAgent?.slice(0, 500) ?? null,
    changes: entry.changes ?? null,
  });
}
