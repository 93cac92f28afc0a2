/**
 * A broadcast past its draft (docs/broadcasts.md#in-the-admin-ui): its status, live progress while it fans out (its
 * counts asked every 1.5 s while queued, every 10 s after), recipients per status, clicked links, and cancel and
 * duplicate. Invariant: the figures are the server's (`GET /broadcasts/:id` counts, `GET /segments/:id/count`), never
 * reckoned here; a cancel that returns a scheduled broadcast to draft hands the page back to the composer.
 */
import { useEffect } from "preact/hooks";
import { useWhyNot } from "../access.ts";
import { Alert } from "../alert.tsx";
import { api, type Page } from "../api.ts";
import { when } from "../format.ts";
import { Guarded } from "../guarded.tsx";
import { useAction, usePolled } from "../hooks.ts";
import { PageHeader } from "../page-header.tsx";
import type { Broadcast, BroadcastClickedLink } from "../../clients/node/src/generated.ts";
import { BroadcastStatus, broadcastPath, countsLine, useSegments } from "./broadcast-common.tsx";

/** How often a broadcast being sent is asked for its counts. */
export const LIVE_MS = 1_500;

/** The recipient statuses in the order a message goes through them, with their words. */
const STATUSES: Array<[keyof Broadcast["counts"]["by_status"], string]> = [
  ["queued", "Queued"],
  ["held", "Held"],
  ["deferred", "Deferred"],
  ["sent", "Sent"],
  ["delivered", "Delivered"],
  ["bounced", "Bounced"],
  ["complained", "Complained"],
  ["failed", "Failed"],
  ["suppressed", "Suppressed"],
  ["canceled", "Canceled"],
];

export function BroadcastProgress({
  id,
  first,
  onDraft,
}: {
  id: string;
  first: Broadcast;
  onDraft: (b: Broadcast) => void;
}) {
  const why = useWhyNot("contacts:write", "change broadcasts");
  const polled = usePolled(() => api.get<Broadcast>(broadcastPath(id)), [id]);
  const b = polled.data ?? first;
  const live = b.status === "queued";
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void polled.reload();
    }, LIVE_MS);
    return () => clearInterval(timer);
  }, [live]);
  const segmentId = b.segment_id;
  const size = usePolled(
    async () =>
      segmentId
        ? (await api.get<{ contacts: number }>(`/v1/segments/${encodeURIComponent(segmentId)}/count`)).contacts
        : null,
    [segmentId, b.status],
  );
  const links = usePolled(
    () => api.get<Page<BroadcastClickedLink>>(`${broadcastPath(id)}/clicked-links?limit=20`),
    [id],
  );
  const segments = useSegments();
  const { act, actionError } = useAction(polled.reload);
  const cancel = () =>
    void act(async () => {
      await api.post(`${broadcastPath(id)}/cancel`);
      const after = await api.get<Broadcast>(broadcastPath(id));
      if (after.status === "draft") onDraft(after);
    });
  const duplicate = () =>
    void act(async () => {
      const copy = await api.post<{ id: string }>(`${broadcastPath(id)}/duplicate`);
      location.hash = `#/broadcasts/${encodeURIComponent(copy.id)}`;
    });
  const c = b.counts;
  // While it fans out, the segment's size is the total; once sent, what was reached is.
  const total = b.status === "sent" ? c.contacts_reached : (size.data ?? c.contacts_reached);
  const scheduled = live && b.scheduled_at !== null && Date.parse(b.scheduled_at) > Date.now();

  return (
    <section aria-labelledby="broadcast-title">
      <p>
        <a href="#/broadcasts">← Broadcasts</a>
      </p>
      <PageHeader
        id="broadcast-title"
        title={b.name || "Untitled broadcast"}
        description={
          <>
            <BroadcastStatus b={b} />{" "}
            {scheduled
              ? `Goes out ${when(b.scheduled_at!)}.`
              : b.sent_at
                ? `Every contact reached ${when(b.sent_at)}.`
                : live
                  ? "Being sent: the figures below move as it goes."
                  : "Stopped: contacts not reached by then got nothing."}
          </>
        }
      >
        {live && (
          <Guarded why={why} class="danger" onClick={cancel}>
            {scheduled ? "Cancel the schedule" : "Cancel sending"}
          </Guarded>
        )}
        <Guarded why={why} onClick={duplicate}>
          Duplicate
        </Guarded>
      </PageHeader>
      <Alert message={actionError ?? polled.error} />
      <div class="card" role="region" aria-label="Progress">
        <h2>Progress</h2>
        <p data-testid="reached">
          {c.contacts_reached} of {total} contact{total === 1 ? "" : "s"} reached
        </p>
        <progress class="reach" value={c.contacts_reached} max={Math.max(total, 1)} aria-label="Contacts reached" />
        <p>{countsLine(c)}</p>
        <dl class="facts">
          <dt>Segment</dt>
          <dd>
            {segmentId ? (
              <a href={`#/segments/${encodeURIComponent(segmentId)}`}>
                {segments.data?.find((s) => s.id === segmentId)?.name ?? segmentId}
              </a>
            ) : (
              "—"
            )}
          </dd>
          <dt>From</dt>
          <dd>{b.from ?? "—"}</dd>
          <dt>Subject</dt>
          <dd>{b.subject ?? (b.template ? "The template's" : "—")}</dd>
          <dt>Skipped</dt>
          <dd>{c.skipped} (unsubscribed, out of its topic, or suppressed)</dd>
        </dl>
      </div>
      <div class="card" role="region" aria-label="Recipients by status">
        <h2>Recipients by status</h2>
        <div class="scroll">
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Recipients</th>
              </tr>
            </thead>
            <tbody>
              {STATUSES.map(([key, word]) => (
                <tr key={key}>
                  <td data-label="Status">
                    <span class={`status status-${key}`}>{word}</span>
                  </td>
                  <td data-label="Recipients" data-testid={`count-${key}`}>
                    {c.by_status[key]}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <div class="card" role="region" aria-label="Clicked links">
        <h2>Clicked links</h2>
        <Alert message={links.error} />
        {links.data && links.data.data.length === 0 && (
          <p class="hint">No link clicked yet (clicks are counted where click tracking is on for the domain).</p>
        )}
        {links.data && links.data.data.length > 0 && (
          <div class="scroll">
            <table class="list stack">
              <thead>
                <tr>
                  <th scope="col">Link</th>
                  <th scope="col">Clicks</th>
                  <th scope="col">People</th>
                </tr>
              </thead>
              <tbody>
                {links.data.data.map((l) => (
                  <tr key={l.id}>
                    <td data-label="Link">
                      <code>{l.url}</code>
                    </td>
                    <td data-label="Clicks">{l.clicks}</td>
                    <td data-label="People">{l.unique_clicks}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}
