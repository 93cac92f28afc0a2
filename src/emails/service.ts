/**
 * Outgoing mail as one service: the intake funnel (intake.ts), the reads (reads.ts), and the changes a sender may
 * make to a message not yet sent — reschedule and cancel. Invariant: a message is rescheduled only while it is
 * scheduled and no delivery of it is leased; a cancel stops what still waits and never a recipient being attempted
 * now; every change appends its event in the same transaction.
 */
import { and, eq, gt, inArray } from "drizzle-orm";
import type { Actor } from "../access.ts";
import { requireScope } from "../access.ts";
import { lockedForUpdate } from "../db/dialect.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import type { Lifecycle } from "../deliveries/lifecycle.ts";
import { leaseFree } from "../deliveries/queue.ts";
import { AppError, validationError } from "../errors.ts";
import { isoTime } from "../lib/clock.ts";
import { createEmailIntake, type EmailIntake, type IntakeDeps } from "./intake.ts";
import { createEmailReads, type EmailReads } from "./reads.ts";
import { parseScheduledAt } from "./validate.ts";

export type { EmailLimits, SubmitOptions } from "./intake.ts";
export type { ListOptions } from "./model.ts";

export interface EmailService extends EmailIntake, Omit<EmailReads, "ownEmail"> {
  /** Moves a scheduled message to another time (ISO 8601, future, ≤ 30 days); 409 once it is no longer scheduled. */
  reschedule(actor: Actor, id: string, scheduledAt: string): Promise<{ object: "email"; id: string }>;
  /** A scheduled message, or each recipient of one on its way still waiting (queued, deferred, held); 409 if none. */
  cancel(actor: Actor, id: string): Promise<{ object: "email"; id: string; status: "canceled" }>;
}

export function createEmailService(
  deps: IntakeDeps & {
    db: Db;
    /** Moves a canceled message's recipients (deliveries/lifecycle.ts). */
    lifecycle: Lifecycle;
  },
): EmailService {
  const { db, writer, clock, events } = deps;
  const { deliveries, emails } = tablesOf(db);
  const { ownEmail, ...reads } = createEmailReads(deps);

  return {
    ...createEmailIntake(deps),
    ...reads,

    async reschedule(actor, id, scheduledAt) {
      requireScope(actor, "emails:send");
      await ownEmail(actor, id);
      const at = parseScheduledAt(scheduledAt, clock.now());
      if ("problem" in at) throw validationError([{ path: "scheduled_at", message: at.problem }]);
      const refusal = await writer.write(async (tx): Promise<string | null> => {
        const row = (await first(
          tx
            .select({ status: emails.status, organizationId: emails.organizationId })
            .from(emails)
            .where(eq(emails.id, id)),
        ))!;
        if (row.status !== "scheduled") return `Only scheduled emails can be rescheduled; this one is ${row.status}.`;
        const now = clock.now();
        const leased = await first(
          tx
            .select({ id: deliveries.id })
            .from(deliveries)
            .where(and(eq(deliveries.emailId, id), gt(deliveries.leaseUntil, now))),
        );
        if (leased) return "This email is being sent and can no longer be rescheduled.";
        await tx
          .update(emails)
          .set({ scheduledAt: isoTime(at.time), updatedAt: isoTime(now) })
          .where(eq(emails.id, id));
        await tx
          .update(deliveries)
          .set({ nextAttemptAt: at.time, updatedAt: isoTime(now) })
          .where(and(eq(deliveries.emailId, id), eq(deliveries.status, "queued")));
        await events.append(tx, {
          organizationId: row.organizationId,
          emailId: id,
          type: "email.scheduled",
          data: { scheduled_at: isoTime(at.time) },
        });
        return null;
      });
      if (refusal) throw new AppError("conflict", refusal);
      return { object: "email", id };
    },

    async cancel(actor, id) {
      requireScope(actor, "emails:send");
      await ownEmail(actor, id);
      const refusal = await writer.write(async (tx): Promise<string | null> => {
        const row = (await first(tx.select({ status: emails.status }).from(emails).where(eq(emails.id, id))))!;
        const now = clock.now();
        if (row.status !== "scheduled") {
          // On its way (docs/operations.md): each recipient still waiting stops, unless it is being attempted right now.
          const waiting = await lockedForUpdate(
            tx,
            tx
              .select({ id: deliveries.id })
              .from(deliveries)
              .where(
                and(
                  eq(deliveries.emailId, id),
                  inArray(deliveries.status, ["queued", "deferred", "held"]),
                  leaseFree(deliveries.leaseUntil, now),
                ),
              ),
          );
          if (!waiting.length) return `No recipient of this email is still waiting to be sent; it is ${row.status}.`;
          for (const delivery of waiting)
            await deps.lifecycle.apply(
              tx,
              "recipient_canceled",
              { deliveryId: delivery.id },
              { response: "canceled before sending" },
            );
          return null;
        }
        const leased = await first(
          tx
            .select({ id: deliveries.id })
            .from(deliveries)
            .where(and(eq(deliveries.emailId, id), gt(deliveries.leaseUntil, now))),
        );
        if (leased) return "This email is being sent and can no longer be canceled.";
        await deps.lifecycle.apply(tx, "canceled", { emailId: id }, { response: "canceled before sending" });
        return null;
      });
      if (refusal) throw new AppError("conflict", refusal);
      return { object: "email", id, status: "canceled" };
    },
  };
}
