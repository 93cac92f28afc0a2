/**
 * Sending health as the screens show it (docs/deliverability.md): the guardrails' verdict on a domain or the organisation —
 * ok, warning or paused, always as a word beside its colour — with the bounce and complaint rates, the window and
 * how many recipients they were measured over. Shared by the Domains cards and the Deliverability screen so the
 * same health reads the same on both. Invariant: every figure is the server's; nothing is judged here.
 */
import type { DomainHealth } from "../clients/node/src/types.ts";
import { rate, when } from "./format.ts";

/** The status word people read; the colour (style.css, `.health-<status>`) only repeats it. */
const WORD: Record<DomainHealth["status"], string> = { ok: "OK", warning: "Warning", paused: "Paused" };

/** "24h" → "24 h", as the guardrails' reasons write it. */
export const windowWords = (window: string) => window.replace(/(\d)([a-z]+)$/, "$1 $2");

/**
 * Whether the guardrails have judged: measured, over at least `min_recipients` ended recipients. Below that the
 * server's status stays ok, which says nothing yet — so "OK" is shown only once judged (issue 49 item 9).
 */
export const judged = (health: DomainHealth) =>
  health.status !== "ok" || (health.evaluated_at !== null && health.recipients >= health.min_recipients);

export function HealthStatus({ health }: { health: DomainHealth }) {
  if (!judged(health)) return <span class="status health-unjudged">not judged yet</span>;
  return <span class={`status health-${health.status}`}>{WORD[health.status]}</span>;
}

/** "12 of 200 recipients": how far a sender is from being judged. */
const ofNeeded = (health: DomainHealth) =>
  `${health.recipients.toLocaleString("en")} of ${health.min_recipients.toLocaleString("en")} recipients`;

/** What the rates were measured over, or why there is nothing to judge yet. */
export function measuredOver(health: DomainHealth): string {
  if (health.evaluated_at === null)
    return `Not judged yet: the rates are measured every few minutes, and judged once ${health.min_recipients.toLocaleString("en")} recipients' deliveries ended in the window.`;
  if (!judged(health))
    return `Not judged yet: ${ofNeeded(health)} ended in the last ${windowWords(health.window)}; a few bounces of the first messages prove little.`;
  return `Measured over ${recipientCount(health)} in the last ${windowWords(health.window)}, ${when(health.evaluated_at)}.`;
}

/** The same, as short as a table's cell: "20 recipients", "12 of 200 recipients". */
export const measuredShort = (health: DomainHealth) => (judged(health) ? recipientCount(health) : ofNeeded(health));

const recipientCount = (health: DomainHealth) =>
  `${health.recipients.toLocaleString("en")} recipient${health.recipients === 1 ? "" : "s"}`;

/** One line of health for a domain's card: the verdict, both rates, the window, and why when it is not ok. */
export function HealthLine({ health, name }: { health: DomainHealth; name: string }) {
  return (
    <div class="health" role="group" aria-label={`Sending health of ${name}`}>
      <p class="setting-line">
        <strong>Sending health</strong> <HealthStatus health={health} /> bounce rate {rate(health.bounce_rate)},
        complaint rate {rate(health.complaint_rate)} over {windowWords(health.window)}
        {judged(health) ? "." : ` (${ofNeeded(health)}).`}
        {health.status !== "ok" && health.reason && <span class="reason"> Why: {health.reason}.</span>}
      </p>
      <p class="hint setting-line">
        {measuredOver(health)} <a href="#/deliverability">What the thresholds mean</a>
      </p>
    </div>
  );
}

/** What the guardrails do, in the words of their defaults (docs/deliverability.md; the operator may set others). */
export const THRESHOLDS =
  "Mailroom measures, per recipient, the permanent bounces and the complaints of each sending domain and of the whole organisation over a sliding window (24 hours by default). By default it warns at 4 % bounces or 0.1 % complaints, and pauses sending at 8 % or 0.3 % — judged only once enough recipients (200 by default) ended in the window, since a few bounces of the first messages prove little.";
