/**
 * The outbox of delivery status notifications (RFC 3464, docs/smtp.md#delivery-status-notifications): a relayed
 * recipient whose outcome its sender asked to hear of gets a row in `dsn_reports`, written by the lifecycle in the
 * same transaction that moved the recipient (lifecycle.ts `report`), so a report is asked for exactly when the move
 * committed. emails/status-reports.ts sends what is pending. Invariant: one row per recipient and action — a
 * recipient deferred many times is warned of once.
 */
import { tablesOf, type Db } from "../db/store.ts";

/** RFC 3464 §2.3.3's actions Mailroom reports. */
export type NoticeAction = "failed" | "delayed" | "delivered" | "relayed";

/** The NOTIFY keyword (as `deliveries.dsn_notify` stores it) that asks for each action (RFC 3461 §4.1). */
const ASKED_BY: Record<NoticeAction, string> = {
  failed: "failure",
  delayed: "delay",
  delivered: "success",
  relayed: "success",
};

/** Whether a recipient whose `dsn_notify` is `notify` asked to hear of `action`. */
export function asksFor(notify: string | null | undefined, action: NoticeAction): boolean {
  return !!notify && notify.split(",").includes(ASKED_BY[action]);
}

/**
 * Records, in `tx`, that `action` of `delivery` is to be reported, when its sender asked to hear of it; a second
 * request of the same changes nothing.
 */
export async function requestNotice(
  tx: Db,
  action: NoticeAction,
  delivery: { id: string; organizationId: string; emailId: string; recipient: string; dsnNotify: string | null },
  response: string | undefined,
  now: number,
): Promise<void> {
  if (!asksFor(delivery.dsnNotify, action)) return;
  const { dsnReports } = tablesOf(tx);
  await tx
    .insert(dsnReports)
    .values({
      deliveryId: delivery.id,
      action,
      organizationId: delivery.organizationId,
      emailId: delivery.emailId,
      recipient: delivery.recipient,
      response: response?.slice(0, 1000) ?? null,
      createdAt: now,
    })
    .onConflictDoNothing();
}
