/**
 * The operator override of a domain's verification (docs/domains.md#verifying-without-public-dns): a domain marked
 * verified without its records being found — for a machine whose domains no public DNS serves — or handed back to
 * DNS. Invariant: only the operator (the CLI) or an instance admin sets or lifts it, never an API key or an
 * organisation's member as such; the domain says it (`verified_override`), and every change is audited and
 * announced (`domain.updated`) in its own transaction.
 */
import { eq } from "drizzle-orm";
import { requireScope, type Actor } from "../access.ts";
import { recordAudit } from "../audit/log.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { AppError } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import type { EventLog } from "../events/service.ts";
import type { RecordSettings } from "./records.ts";
import { findDomain } from "./repo.ts";
import { announceDomain } from "./views.ts";

/** Whether the actor may set the override: the operator at the CLI, or a signed-in instance admin. */
export const mayOverride = (actor: Actor) => (actor.user ? actor.user.instanceAdmin : actor.keyId === null);

/**
 * Sets (`verified`) or lifts the override of the actor's domain `idOrName`: set, the domain is verified at once;
 * lifted, it is pending again and checked at once, so DNS decides.
 */
export async function setVerifiedOverride(
  deps: { db: Db; writer: Writer; clock: Clock; events: EventLog; settings: RecordSettings },
  actor: Actor,
  idOrName: string,
  verified: boolean,
): Promise<void> {
  requireScope(actor, "domains:write");
  if (!mayOverride(actor))
    throw new AppError(
      "insufficient_scope",
      "Only an instance admin (or the operator: mailroom domains add NAME --verified) may mark a domain verified without DNS.",
    );
  const found = await findDomain(deps.db, actor.organizationId, idOrName);
  if (!found) throw new AppError("not_found", "Domain not found.");
  await deps.writer.write(async (tx) => {
    const { domains } = tablesOf(tx);
    const current = await first(tx.select().from(domains).where(eq(domains.id, found.id)));
    if (!current) throw new AppError("not_found", "Domain not found.");
    if (current.verifiedOverride === verified) return;
    const now = deps.clock.now();
    const update = verified
      ? { verifiedOverride: true, status: "verified", statusSince: now, updatedAt: isoTime(now) }
      : { verifiedOverride: false, status: "pending", statusSince: now, nextCheckAt: now, updatedAt: isoTime(now) };
    await tx.update(domains).set(update).where(eq(domains.id, current.id));
    await announceDomain(tx, deps, { ...current, ...update }, current.status);
    await recordAudit(
      tx,
      actor,
      {
        action: "domain.updated",
        target: { type: "domain", id: current.id, name: current.name },
        changes: { verified_override: { from: current.verifiedOverride, to: verified } },
      },
      now,
    );
  });
}
