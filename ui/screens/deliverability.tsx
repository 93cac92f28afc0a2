/**
 * Deliverability: whether receivers are likely to keep taking the organisation's mail — its sending health and each
 * domain's (`GET /v1/sending/health`: ok, warning or paused, the bounce and complaint rates over the guardrails'
 * window), what the thresholds mean, and any pause a guardrail set, with the pause controls that resume it. Each
 * domain links to its own page, where its DMARC reports say who sends as it. The sending IPs of direct delivery
 * follow (sending-ips.tsx), then the blocklists' answers about the sending addresses. Invariant: the figures and verdicts are
 * the server's; a resume goes through the same confirmed control as on the overview and the domain's card.
 */
import type { ComponentChildren } from "preact";
import type {
  BlocklistListing,
  DomainHealth,
  SendingHealthOverview,
  SendingPause,
} from "../../clients/node/src/types.ts";
import { api } from "../api.ts";
import { Alert } from "../alert.tsx";
import { Empty } from "../empty.tsx";
import { rate, when } from "../format.ts";
import { HealthStatus, measuredShort, THRESHOLDS, windowWords } from "../health.tsx";
import { usePolled } from "../hooks.ts";
import { PauseControl, useSending } from "../pauses.tsx";
import { SendingIps } from "./sending-ips.tsx";
import { PageHeader } from "../page-header.tsx";

/**
 * A pause a guardrail set (`paused_by: "system"`, `reason: "guardrail: …"`; guardrails pause domains and organisations
 * only); a person's own pauses are theirs, shown where they set them.
 */
const byGuardrail = (pause: SendingPause): pause is SendingPause & { scope: "organization" | "domain" } =>
  pause.paused_by === "system" &&
  (pause.reason ?? "").startsWith("guardrail:") &&
  (pause.scope === "organization" || pause.scope === "domain");

/** A pause's target as the controls and the confirmation name it. */
const target = (scope: "organization" | "domain", name: string | null) =>
  scope === "organization"
    ? { scope, name: undefined, what: "all sending", title: "All sending is paused by a guardrail" }
    : { scope, name: name ?? "", what: `sending from ${name}`, title: `Sending from ${name} is paused by a guardrail` };

export function DeliverabilityScreen() {
  const health = usePolled(() => api.get<SendingHealthOverview>("/v1/sending/health"), []);
  const sending = useSending();
  // A resume restarts the target's window (its health turns ok at once): both are read again after it.
  const controls = {
    ...sending,
    reload: async () => {
      await Promise.all([sending.reload(), health.reload()]);
    },
  };
  const data = health.data;

  // The guardrail pauses, from the pauses when this key may read them (with their controls), else from the health.
  const paused = sending.data
    ? sending.data.pauses.filter(byGuardrail).map((p) => ({ ...target(p.scope, p.name), reason: p.reason }))
    : data
      ? [
          ...(data.health.status === "paused" ? [{ ...target("organization", null), reason: data.health.reason }] : []),
          ...data.domains
            .filter((d) => d.health.status === "paused")
            .map((d) => ({ ...target("domain", d.name), reason: d.health.reason })),
        ]
      : [];

  return (
    <section aria-labelledby="deliverability-title">
      <PageHeader
        id="deliverability-title"
        title="Deliverability"
        description="Bounce and complaint rates per domain, the guardrails that pause sending, and the blocklists."
      />
      <Alert message={health.error} />
      {paused.map((p) => (
        <div key={`${p.scope} ${p.name ?? ""}`} class="card guardrail" role="region" aria-label={p.title}>
          <h2>{p.title}</h2>
          <p>
            <strong>Why:</strong> {p.reason?.replace(/^guardrail:\s*/, "") ?? "its rates crossed the pause threshold"}.
            Its mail is accepted and held, not sent. Find the cause first — an old or bought list, a sign-up form that
            takes any address — since receivers block senders whose rates stay this high. Resuming sends what was held
            and measures the rates afresh from then.
          </p>
          {sending.data ? (
            <PauseControl sending={controls} scope={p.scope} name={p.name} what={p.what} />
          ) : (
            <p class="hint">Someone allowed to change the queue resumes it.</p>
          )}
        </div>
      ))}
      {data && data.domains.length === 0 && (
        <Empty title="Nothing to measure yet" first={{ label: "Add a sending domain", href: "#/domains" }}>
          This screen says whether receivers are likely to keep taking your mail: each sending domain's bounce and
          complaint rates, and the warnings and pauses Mailroom's guardrails set before receivers start blocking you.
          Add the domain you send from; once mail goes out from it, its health shows here.
        </Empty>
      )}
      {data && data.domains.length > 0 && (
        <>
          <h2>Sending health</h2>
          <p class="hint">{THRESHOLDS}</p>
          <div class="scroll">
            <table class="list stack health-table">
              <thead>
                <tr>
                  <th scope="col">Sender</th>
                  <th scope="col">Health</th>
                  <th scope="col">Bounce rate</th>
                  <th scope="col">Complaint rate</th>
                  <th scope="col">Measured over</th>
                  <th scope="col">Why</th>
                </tr>
              </thead>
              <tbody>
                <HealthRow sender={<strong>Whole organisation</strong>} health={data.health} />
                {data.domains.map((d) => (
                  <HealthRow
                    key={d.id}
                    sender={<a href={`#/domains/${encodeURIComponent(d.id)}`}>{d.name}</a>}
                    health={d.health}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <p class="hint">
            Rates over the last {windowWords(data.health.window)}
            {data.health.evaluated_at ? `, last measured ${when(data.health.evaluated_at)}` : ""}. A domain's name opens
            its page: its records, its settings, and who sends as it according to the receivers' DMARC reports.
          </p>
        </>
      )}
      <SendingIps />
      {data && data.blocklists.length > 0 && <Blocklists listings={data.blocklists} />}
    </section>
  );
}

function HealthRow({ sender, health }: { sender: ComponentChildren; health: DomainHealth }) {
  return (
    <tr>
      <td data-label="Sender">{sender}</td>
      <td data-label="Health">
        <HealthStatus health={health} />
      </td>
      <td data-label="Bounce rate">{rate(health.bounce_rate)}</td>
      <td data-label="Complaint rate">{rate(health.complaint_rate)}</td>
      <td data-label="Measured over">{measuredShort(health)}</td>
      <td data-label="Why">{health.status === "ok" ? "—" : (health.reason ?? "—")}</td>
    </tr>
  );
}

/** The DNS blocklists' last answers about the server's sending addresses (`[deliverability] dnsbl`), listed first. */
function Blocklists({ listings }: { listings: BlocklistListing[] }) {
  const listed = listings.filter((l) => l.listed);
  return (
    <>
      <h2>Blocklists</h2>
      <p class="hint">
        {listed.length
          ? "A listed address has much of its mail refused or filtered by receivers that use that list. Find why in the list's reason, stop the cause, then ask the list to delist the address."
          : "None of the sending addresses is listed on the blocklists this server asks, as of their last check."}
      </p>
      <div class="scroll">
        <table class="list stack">
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">List</th>
              <th scope="col">Listed</th>
              <th scope="col">Reason</th>
              <th scope="col">Checked</th>
            </tr>
          </thead>
          <tbody>
            {listings.map((l) => (
              <tr key={`${l.address} ${l.list}`}>
                <td data-label="Address">{l.address}</td>
                <td data-label="List">{l.list}</td>
                <td data-label="Listed">{l.listed ? <strong>Yes</strong> : "No"}</td>
                <td data-label="Reason">{l.listed ? (l.reason ?? "none given") : "—"}</td>
                <td data-label="Checked">{when(l.checked_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
