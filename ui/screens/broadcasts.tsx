/**
 * Broadcasts (docs/broadcasts.md#in-the-admin-ui): the list — name, segment, status in words and colour, counts,
 * scheduled or sent time — with an empty state that says what a broadcast is, and the route to one: `#/broadcasts/new`
 * and a draft open the composer (broadcast-compose.tsx), any other the progress page (broadcast-progress.tsx).
 * Invariant: what is shown is the server's; counts are read per broadcast (the list has none) once per screen visit,
 * and again only for those still queued, so the list's polling stays within a key's request budget.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { useCan, useWhyNot } from "../access.ts";
import { Alert } from "../alert.tsx";
import { api, type Page } from "../api.ts";
import { Empty } from "../empty.tsx";
import { Guarded } from "../guarded.tsx";
import { when } from "../format.ts";
import { PageHeader } from "../page-header.tsx";
import { usePagedList } from "../paging.tsx";
import type { Broadcast, BroadcastSummary } from "../../clients/node/src/generated.ts";
import { BroadcastStatus, broadcastPath, countsLine, useSegments } from "./broadcast-common.tsx";
import { BroadcastCompose } from "./broadcast-compose.tsx";
import { BroadcastProgress } from "./broadcast-progress.tsx";

export function BroadcastsScreen({ id }: { id?: string }) {
  if (!id) return <BroadcastList />;
  if (id === "new") return <BroadcastCompose key="new" />;
  return <BroadcastPage key={id} id={id} />;
}

/** A draft is edited; a broadcast past its draft is watched. */
function BroadcastPage({ id }: { id: string }) {
  const [broadcast, setBroadcast] = useState<Broadcast | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    api
      .get<Broadcast>(broadcastPath(id))
      .then(setBroadcast)
      .catch((e: Error) => setError(e.message));
  useEffect(() => void load(), [id]);
  if (error) return <Alert message={error} />;
  if (!broadcast) return <p class="loading">Loading the broadcast…</p>;
  return broadcast.status === "draft" ? (
    <BroadcastCompose draft={broadcast} onSent={() => void load()} />
  ) : (
    <BroadcastProgress id={id} first={broadcast} onDraft={setBroadcast} />
  );
}

function BroadcastList() {
  const canWrite = useCan("contacts:write");
  const whyNot = useWhyNot("contacts:write", "create broadcasts");
  const { data, error, pager } = usePagedList(
    (after) => api.get<Page<BroadcastSummary>>(`/v1/broadcasts?limit=20${after ? `&after=${after}` : ""}`),
    [],
  );
  const segments = useSegments();
  const segmentName = (id: string | null) =>
    id ? (segments.data?.find((s) => s.id === id)?.name ?? id) : "No segment yet";
  // Counts per id; re-read only for broadcasts still queued (their counts move), the rest once.
  const [counts, setCounts] = useState<Record<string, Broadcast["counts"]>>({});
  const known = useRef(counts);
  known.current = counts;
  useEffect(() => {
    const due = (data?.data ?? []).filter(
      (b) => b.status !== "draft" && (b.status === "queued" || !known.current[b.id]),
    );
    if (due.length === 0) return;
    void Promise.all(due.map((b) => api.get<Broadcast>(broadcastPath(b.id)).catch(() => null))).then((got) =>
      setCounts((before) => {
        const next = { ...before };
        for (const b of got) if (b) next[b.id] = b.counts;
        return next;
      }),
    );
  }, [data]);

  return (
    <section aria-labelledby="broadcasts-title">
      <PageHeader
        id="broadcasts-title"
        title="Broadcasts"
        description="One message to every contact of a segment, personalised per contact."
      >
        {canWrite ? (
          <a class="button primary" href="#/broadcasts/new">
            New broadcast
          </a>
        ) : (
          <Guarded why={whyNot} class="primary">
            New broadcast
          </Guarded>
        )}
      </PageHeader>
      <Alert message={error ?? segments.error} />
      {data && data.data.length === 0 && (
        <Empty
          title="No broadcasts yet"
          first={canWrite ? { label: "New broadcast", href: "#/broadcasts/new" } : undefined}
        >
          A broadcast is mail to a segment of your contacts — a newsletter, an announcement — personalised for each of
          them, with an unsubscribe link of their own. It goes out in its own lane, so however many it sends, it never
          delays a password reset or a receipt.
        </Empty>
      )}
      {data && data.data.length > 0 && (
        <div class="scroll">
          <table class="list stack" aria-label="Broadcasts">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Segment</th>
                <th scope="col">Status</th>
                <th scope="col">Counts</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((b) => (
                <tr key={b.id}>
                  <td data-label="Name">
                    <a href={`#/broadcasts/${encodeURIComponent(b.id)}`}>{b.name || "Untitled"}</a>
                  </td>
                  <td data-label="Segment">{segmentName(b.segment_id)}</td>
                  <td data-label="Status">
                    <BroadcastStatus b={b} />
                  </td>
                  <td data-label="Counts">
                    {b.status === "draft" ? "—" : counts[b.id] ? countsLine(counts[b.id]!) : "…"}
                  </td>
                  <td data-label="When">
                    {b.sent_at
                      ? `Sent ${when(b.sent_at)}`
                      : b.scheduled_at
                        ? `Scheduled for ${when(b.scheduled_at)}`
                        : `Created ${when(b.created_at)}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pager}
    </section>
  );
}
