/**
 * What the Broadcasts screens share (docs/broadcasts.md#in-the-admin-ui): a broadcast's API path, its status in words
 * with its colour, its counts as one line, and the segments' names. Invariant: a status is always a word; the colour
 * (ui/style.css) only repeats it.
 */
import { api, type Page } from "../api.ts";
import { usePolled } from "../hooks.ts";
import type { Broadcast, Segment } from "../../clients/node/src/generated.ts";

export const broadcastPath = (id: string) => `/v1/broadcasts/${encodeURIComponent(id)}`;

/** A broadcast's status in words (the pill's colour repeats them): a queued one is scheduled, or being sent. */
export function BroadcastStatus({
  b,
  now = Date.now(),
}: {
  b: Pick<Broadcast, "status" | "scheduled_at">;
  now?: number;
}) {
  const scheduled = b.status === "queued" && b.scheduled_at !== null && Date.parse(b.scheduled_at) > now;
  const [word, tone] =
    b.status === "queued"
      ? scheduled
        ? ["Scheduled", "scheduled"]
        : ["Sending", "queued"]
      : b.status === "sent"
        ? ["Sent", "sent"]
        : b.status === "canceled"
          ? ["Canceled", "canceled"]
          : ["Draft", "draft"];
  return <span class={`status status-${tone}`}>{word}</span>;
}

/** The segments' names by id (the first 100: the screens pick from those). */
export function useSegments() {
  return usePolled(async () => (await api.get<Page<Segment>>("/v1/segments?limit=100")).data, []);
}

/** A broadcast's counts as a line: messages made, delivered, and what was skipped. */
export function countsLine(c: Broadcast["counts"]): string {
  const parts = [`${c.messages} message${c.messages === 1 ? "" : "s"}`];
  if (c.by_status.delivered) parts.push(`${c.by_status.delivered} delivered`);
  const failed = c.by_status.bounced + c.by_status.failed + c.by_status.complained;
  if (failed) parts.push(`${failed} bounced or failed`);
  if (c.skipped) parts.push(`${c.skipped} skipped`);
  return parts.join(" · ");
}
