/**
 * What reports received on the MX do to a recipient: a delivery status notification (RFC 3464) or a feedback report
 * (RFC 5965), already read by the inbound funnel (inbound/reports.ts) and matched to the delivery its return-path
 * token names, becomes a cause of the recipient's lifecycle (deliveries/lifecycle.ts): a definite 5.x.x bounces it
 * (+ suppression), a 4.x.x or `delayed` only enters its history, an undecided one is recorded as an Undetermined
 * bounce without moving it, and a feedback report marks it complained (+ suppression). Invariant: one write per
 * report, and a report about a recipient already judged (bounced, or complained about) changes nothing, however
 * often it arrives.
 */
import type { Writer } from "../db/store.ts";
import { bounceData } from "../events/model.ts";
import type { Applied, Lifecycle } from "./lifecycle.ts";

export type BounceOutcome = "permanent" | "temporary" | "undetermined";

/** A report's line about one recipient, as the inbound funnel read it. */
export interface RecipientVerdict {
  outcome: BounceOutcome;
  /** RFC 3463 status code, e.g. `5.1.1`. */
  status: string | null;
  /** The receiving server's reply, e.g. `smtp; 550 5.1.1 user unknown`. */
  diagnostic: string | null;
  subType: string;
}

/** A report about one delivery: a notification's lines about its recipient, or a complaint. */
export type DeliveryReport =
  | { kind: "bounce"; recipients: RecipientVerdict[] }
  | { kind: "complaint"; feedbackType: string };

/** What a report did: `changed` false when the recipient was already judged, undefined when no such delivery. */
export type ReportResult =
  | { kind: "bounce"; outcome: BounceOutcome; changed: boolean | undefined }
  | { kind: "complaint"; changed: boolean | undefined };

const changedBy = (applied: Applied) => (applied.outcome === "unknown" ? undefined : applied.outcome === "applied");

export interface ReportIntake {
  /** Applies `report` to the delivery `deliveryId` in one write: its status, event and suppression. */
  apply(deliveryId: string, report: DeliveryReport): Promise<ReportResult>;
}

export function createReportIntake(deps: { writer: Writer; lifecycle: Lifecycle }): ReportIntake {
  const { writer, lifecycle } = deps;
  return {
    async apply(deliveryId, report) {
      if (report.kind === "complaint") {
        const applied = await writer.write((tx) =>
          lifecycle.apply(
            tx,
            "report.complaint",
            { deliveryId },
            {
              data: { complaint: { type: report.feedbackType } },
              reason: `feedback report: ${report.feedbackType}`,
            },
          ),
        );
        return { kind: "complaint", changed: changedBy(applied) };
      }

      // The token names the delivery, so one recipient's verdict applies; a definite one wins over an undecided one.
      const verdict =
        report.recipients.find((r) => r.outcome === "permanent") ??
        report.recipients.find((r) => r.outcome === "temporary") ??
        report.recipients[0];
      const outcome = verdict?.outcome ?? "undetermined";
      const message = verdict?.diagnostic ?? verdict?.status ?? "bounce report without a diagnostic";
      const applied = await writer.write((tx) => {
        if (outcome === "temporary")
          return lifecycle.apply(
            tx,
            "report.delay",
            { deliveryId },
            { data: { response: message, status: verdict?.status ?? null } },
          );
        const type = outcome === "permanent" ? "Permanent" : "Undetermined";
        return lifecycle.apply(
          tx,
          outcome === "permanent" ? "report.bounce" : "report.bounce_undetermined",
          { deliveryId },
          { response: message, data: { bounce: bounceData(type, verdict?.subType ?? "Undetermined", message) } },
        );
      });
      return { kind: "bounce", outcome, changed: changedBy(applied) };
    },
  };
}
