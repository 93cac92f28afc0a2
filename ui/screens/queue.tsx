/**
 * Queue: what waits to be delivered and why — counts by status, by destination domain and by provider with the
 * oldest, and the recipients waiting with their attempts, next attempt and last reply — and the operator's actions
 * on them: retry now, cancel, release, for one recipient or for a whole domain. Invariant: every action is
 * confirmed first, in words that say how many recipients it changes; the lists shown are the server's, reloaded
 * after a change, never patched locally.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { api, query, type Page } from "../api.ts";
import { useWhyNot } from "../access.ts";
import { Guarded } from "../guarded.tsx";
import { useAction, usePolled } from "../hooks.ts";
import { when } from "../format.ts";
import type { Delivery, QueueDomainCounts, QueueProviderCounts, QueueSummary } from "../../clients/node/src/types.ts";
import { Alert } from "../alert.tsx";
import { Empty } from "../empty.tsx";
import { PageHeader } from "../page-header.tsx";

type Action = "retry" | "cancel" | "release";

/** What each action does, as the confirmation says it. */
const VERB: Record<Action, string> = { retry: "Retry now", cancel: "Cancel", release: "Release" };

/** A pending confirmation: the action, what it applies to, and how many recipients it changes. */
interface Confirming {
  action: Action;
  /** One delivery by id, or every one of a filter. */
  target: { id: string } | { domain: string; status?: "deferred" | "held" };
  count: number;
  what: string;
}

/** The waiting recipients an action on a domain's row changes: sending ones are left to their attempt. */
const changedBy = (action: Action, row: QueueDomainCounts) =>
  action === "retry" ? row.deferred : action === "release" ? row.held : row.queued + row.deferred + row.held;

export function QueueScreen() {
  const [status, setStatus] = useState("");
  const [domain, setDomain] = useState("");
  const summary = usePolled(() => api.get<QueueSummary>("/v1/deliveries/summary"), []);
  const list = usePolled(
    () => api.get<Page<Delivery>>(`/v1/deliveries${query({ limit: 100, status, domain: domain.trim() })}`),
    [status, domain],
  );
  const reload = async () => {
    await Promise.all([summary.reload(), list.reload()]);
    // A retried recipient is taken by the next worker pass, within the second: look again soon, so the queue shows
    // it leave rather than waiting for the next poll (issue 49 item 10).
    for (const ms of [1_000, 3_000]) setTimeout(() => void Promise.all([summary.reload(), list.reload()]), ms);
  };
  const { act, actionError } = useAction(reload);
  const whyNotWrite = useWhyNot("deliveries:write", "retry, cancel or release deliveries, or pause sending");
  const [confirming, setConfirming] = useState<Confirming | null>(null);

  const carryOut = (c: Confirming) =>
    act(async () => {
      setConfirming(null);
      if ("id" in c.target) await api.post(`/v1/deliveries/${encodeURIComponent(c.target.id)}/${c.action}`);
      else await api.post(`/v1/deliveries/${c.action}`, c.target);
    });

  /** The confirmation in place of the button that asked for it, or that button. */
  const confirmable = (c: Confirming, label: string) =>
    confirming && sameRequest(confirming, c) ? (
      <Confirmation confirming={c} onConfirm={() => carryOut(c)} onKeep={() => setConfirming(null)} />
    ) : (
      <Guarded why={whyNotWrite} disabled={c.count === 0} onClick={() => setConfirming(c)} label={c.what}>
        {label}
      </Guarded>
    );

  const totals = summary.data?.by_status;
  const waiting = totals ? totals.queued + totals.deferred + totals.held + totals.sending : 0;

  return (
    <section aria-labelledby="queue-title">
      <PageHeader
        id="queue-title"
        title="Queue"
        description="What waits to be delivered, why, and what you can do about it."
      />
      <Alert message={actionError ?? summary.error ?? list.error} />
      {summary.data && waiting === 0 && (
        <Empty title="Nothing is waiting" first={{ label: "See the emails sent", href: "#/emails" }}>
          Mail that cannot go out at once waits here: deferred by the receiving server, held by a pause, or queued
          behind others. Each recipient shows its attempts, its next attempt and the last reply, and can be retried now,
          canceled or released.
        </Empty>
      )}
      {summary.data && waiting > 0 && totals && (
        <>
          <dl class="figures" aria-label="Waiting by status">
            {COUNTED.map(([status, label]) => (
              <div key={status}>
                <dt>{label}</dt>
                <dd>
                  <span class="figure">{totals[status]}</span>
                </dd>
              </div>
            ))}
            <div>
              <dt>Oldest waiting</dt>
              <dd>
                <span class="hint">{summary.data.oldest_waiting_at ? when(summary.data.oldest_waiting_at) : "—"}</span>
              </dd>
            </div>
          </dl>
          <h2>By destination domain</h2>
          <div class="scroll">
            <table class="list stack">
              <thead>
                <tr>
                  <th scope="col">Domain</th>
                  <CountHeaders />
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {summary.data.by_domain.map((row) => (
                  <tr key={row.domain}>
                    <td data-label="Domain">{row.domain}</td>
                    <CountCells row={row} />
                    <td data-label="Actions">
                      <button type="button" onClick={() => setDomain(row.domain)} aria-label={`Show ${row.domain}`}>
                        Show
                      </button>{" "}
                      {row.deferred > 0 &&
                        confirmable(
                          {
                            action: "retry",
                            target: { domain: row.domain, status: "deferred" },
                            count: changedBy("retry", row),
                            what: `Retry the deferred recipients of ${row.domain} now`,
                          },
                          "Retry deferred",
                        )}{" "}
                      {row.held > 0 &&
                        confirmable(
                          {
                            action: "release",
                            target: { domain: row.domain, status: "held" },
                            count: changedBy("release", row),
                            what: `Release the held recipients of ${row.domain}`,
                          },
                          "Release held",
                        )}{" "}
                      {confirmable(
                        {
                          action: "cancel",
                          target: { domain: row.domain },
                          count: changedBy("cancel", row),
                          what: `Cancel every waiting recipient of ${row.domain}`,
                        },
                        "Cancel all",
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h2>By provider</h2>
          <div class="scroll">
            <table class="list stack">
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <CountHeaders />
                </tr>
              </thead>
              <tbody>
                {summary.data.by_provider.map((row) => (
                  <tr key={row.provider ?? ""}>
                    <td data-label="Provider">{row.provider ?? "not attempted yet"}</td>
                    <CountCells row={row} />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h2>Waiting recipients</h2>
          <form class="filters" aria-label="Filter the waiting recipients" onSubmit={(e) => e.preventDefault()}>
            <label>
              Status
              <select value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
                <option value="">any</option>
                <option value="queued">queued</option>
                <option value="deferred">deferred</option>
                <option value="held">held</option>
                <option value="sending">sending</option>
              </select>
            </label>
            <label>
              Domain
              <input value={domain} onInput={(e) => setDomain(e.currentTarget.value)} placeholder="example.org" />
            </label>
          </form>
          {list.data && list.data.data.length === 0 && <p>No recipient waits with these filters.</p>}
          {list.data && list.data.data.length > 0 && (
            <div class="scroll">
              <table class="list stack">
                <thead>
                  <tr>
                    <th scope="col">Recipient</th>
                    <th scope="col">Status</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Next attempt</th>
                    <th scope="col">Last reply</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.data.map((d) => (
                    <tr key={d.id}>
                      <td data-label="Recipient">
                        <a href={`#/emails/${encodeURIComponent(d.email_id)}`}>{d.recipient}</a>
                      </td>
                      <td data-label="Status">{d.status}</td>
                      <td data-label="Attempts">{d.attempts}</td>
                      <td data-label="Next attempt">
                        {d.status === "held" ? "when released" : d.next_attempt_at ? when(d.next_attempt_at) : "—"}
                      </td>
                      <td data-label="Last reply">{d.last_response ?? "—"}</td>
                      <td data-label="Actions">
                        {d.status === "deferred" &&
                          confirmable(
                            { action: "retry", target: { id: d.id }, count: 1, what: `Retry ${d.recipient} now` },
                            "Retry now",
                          )}{" "}
                        {d.status === "held" &&
                          confirmable(
                            { action: "release", target: { id: d.id }, count: 1, what: `Release ${d.recipient}` },
                            "Release",
                          )}{" "}
                        {d.status !== "sending" &&
                          confirmable(
                            { action: "cancel", target: { id: d.id }, count: 1, what: `Cancel ${d.recipient}` },
                            "Cancel",
                          )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {list.data?.has_more && <p>The first 100 are shown; filter by status or domain to see others.</p>}
        </>
      )}
    </section>
  );
}

/** The waiting statuses counted, with their column headings. */
const COUNTED = [
  ["queued", "Queued"],
  ["deferred", "Deferred"],
  ["held", "Held"],
  ["sending", "Sending"],
] as const;

function CountHeaders() {
  return (
    <>
      {COUNTED.map(([status, label]) => (
        <th key={status} scope="col">
          {label}
        </th>
      ))}
      <th scope="col">Oldest</th>
    </>
  );
}

/** A summary row's counts, then when its oldest came. */
function CountCells({ row }: { row: QueueDomainCounts | QueueProviderCounts }) {
  return (
    <>
      {COUNTED.map(([status, label]) => (
        <td key={status} data-label={label}>
          {row[status]}
        </td>
      ))}
      <td data-label="Oldest">{row.oldest_at ? when(row.oldest_at) : "—"}</td>
    </>
  );
}

/** Takes the focus when it appears, in place of the button that asked: a keyboard user confirms with Enter. */
function Confirmation({
  confirming,
  onConfirm,
  onKeep,
}: {
  confirming: Confirming;
  onConfirm: () => void;
  onKeep: () => void;
}) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  const { action, count, what } = confirming;
  return (
    <span class="confirm" role="group" aria-label={`Confirm: ${what}`}>
      <button type="button" ref={confirm} class={action === "cancel" ? "danger" : undefined} onClick={onConfirm}>
        {`${VERB[action]} ${count} recipient${count === 1 ? "" : "s"}`}
      </button>{" "}
      <button type="button" onClick={onKeep}>
        Keep
      </button>
    </span>
  );
}

const sameRequest = (a: Confirming, b: Confirming) =>
  a.action === b.action && JSON.stringify(a.target) === JSON.stringify(b.target);
