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

export function HealthStatus({ health }: { health: DomainHealth }) {
  return <span class={`status health-${health.status}`}>{WORD[health.status]}</span>;
}

/** What the rates were measured over, or why there is nothing to judge yet. */
export function measuredOver(health: DomainHealth): string {
  if (health.evaluated_at === null)
    return "Not measured yet: the rates are measured every few minutes, and afresh after a paused sender is resumed.";
  if (health.recipients === 0)
    return `No recipient's delivery ended in the last ${windowWords(health.window)}: nothing to judge yet.`;
  return `Measured over ${recipientCount(health)} in the last ${windowWords(health.window)}, ${when(health.evaluated_at)}.`;
}

/** The same, as short as a table's cell: "20 recipients", "not yet". */
export const measuredShort = (health: DomainHealth) =>
  health.evaluated_at === null ? "not measured yet" : recipientCount(health);

const recipientCount = (health: DomainHealth) =>
  `${health.recipients.toLocaleString("en")} recipient${health.recipients === 1 ? "" : "s"}`;

/** One line of health for a domain's card: the verdict, both rates, the window, and why when it is not ok. */
export function HealthLine({ health, name }: { health: DomainHealth; name: string }) {
  return (
    <div class="health" role="group" aria-label={`Sending health of ${name}`}>
      <p class="setting-line">
        <strong>Sending health</strong> <HealthStatus health={health} /> bounce rate {rate(health.bounce_rate)},
        complaint rate {rate(health.complaint_rate)} over {windowWords(health.window)}.
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
