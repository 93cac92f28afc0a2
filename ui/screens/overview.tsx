/**
 * Overview: the organisation's email over a chosen period — messages accepted, recipients delivered, bounce and
 * complaint rates — from GET /v1/emails/stats, refreshed by polling. The charts are inline SVG drawn here (no chart
 * library; no inline style, which the CSP forbids: colours come from classes in style.css); each names its figures
 * in an accessible summary, and the same figures are in a table. Invariant: a rate is computed by `rates` alone, so
 * the figures, the chart and the table always agree.
 */
import { useState } from "preact/hooks";
import { api, query, type Page } from "../api.ts";
import { usePolled } from "../hooks.ts";
import { Alert } from "../alert.tsx";
import { PauseControl, useSending } from "../pauses.tsx";
import { useCan } from "../access.ts";
import type { SendingHealthOverview } from "../../clients/node/src/types.ts";
import { STAT_COUNTS, type StatCount, type StatInterval } from "../../clients/node/src/wire.ts";
import { PageHeader } from "../page-header.tsx";
import { axisPercent, count, percent, plural, RATE_HINT, rates } from "../overview-figures.ts";

type Counts = Record<StatCount, number>;
interface Bucket extends Counts {
  start: string;
}
interface EmailStats {
  interval: StatInterval;
  buckets: Bucket[];
  totals: Counts;
}

const HOUR_MS = 3_600_000;
const RANGES = {
  "24h": { label: "Last 24 hours, by hour", span: "the last 24 hours", interval: "hour", step: HOUR_MS, count: 24 },
  "7d": { label: "Last 7 days, by day", span: "the last 7 days", interval: "day", step: 24 * HOUR_MS, count: 7 },
  "30d": { label: "Last 30 days, by day", span: "the last 30 days", interval: "day", step: 24 * HOUR_MS, count: 30 },
} as const;
type RangeId = keyof typeof RANGES;

/**
 * Whole UTC hours or days ending with the current one, so there are exactly `count` bars and the last is now's. `to`
 * is the end of the current bucket rather than now, so a browser clock behind the server's leaves nothing out.
 */
function periodOf(id: RangeId, now: number) {
  const { interval, step, count } = RANGES[id];
  const end = (Math.floor(now / step) + 1) * step;
  return { from: new Date(end - count * step).toISOString(), to: new Date(end).toISOString(), interval };
}

const utcDay = new Intl.DateTimeFormat("en", { timeZone: "UTC", month: "short", day: "numeric" });
/** A bucket's short name on an axis ("14:00", "Nov 22") and its full name in a table or summary. */
const bucketName = (iso: string, interval: EmailStats["interval"], full = false) => {
  const day = utcDay.format(new Date(iso));
  if (interval === "day") return day;
  return full ? `${day}, ${iso.slice(11, 16)}` : iso.slice(11, 16);
};

/** 1, 2 or 5 times a power of ten, at least `v` (1 when there is nothing to show). */
function niceCeiling(v: number): number {
  if (!(v > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= v * (1 - 1e-9))!;
}

// The charts' coordinate system; the SVG scales to the width it is given (width 100 %, height from the viewBox).
const W = 320;
const H = 180;
const M = { left: 40, right: 16, top: 10, bottom: 24 };
const PLOT_W = W - M.left - M.right;
const PLOT_H = H - M.top - M.bottom;

interface Frame {
  buckets: Bucket[];
  interval: EmailStats["interval"];
  yMax: number;
  yLabel: (v: number) => string;
  /** Integer counts get no half-way tick. */
  integer: boolean;
}

const yOf = (frame: Frame, v: number) => M.top + PLOT_H * (1 - v / frame.yMax);
const slot = (frame: Frame) => PLOT_W / frame.buckets.length;
const xCenter = (frame: Frame, i: number) => M.left + (i + 0.5) * slot(frame);

/** Grid lines with their values, the baseline, and about five bucket names under it. */
function Axes({ frame }: { frame: Frame }) {
  const ticks = [0, frame.yMax / 2, frame.yMax].filter((v) => !frame.integer || Number.isInteger(v));
  const every = Math.ceil(frame.buckets.length / 5);
  return (
    <g class="axes">
      {ticks.map((v) => (
        <g key={v}>
          <line class="grid" x1={M.left} x2={W - M.right} y1={yOf(frame, v)} y2={yOf(frame, v)} />
          <text x={M.left - 4} y={yOf(frame, v) + 3} text-anchor="end">
            {frame.yLabel(v)}
          </text>
        </g>
      ))}
      {frame.buckets.map((b, i) =>
        (frame.buckets.length - 1 - i) % every === 0 ? (
          <text key={b.start} x={xCenter(frame, i)} y={H - 8} text-anchor="middle">
            {bucketName(b.start, frame.interval)}
          </text>
        ) : null,
      )}
    </g>
  );
}

function VolumeChart({ stats, span }: { stats: EmailStats; span: string }) {
  const series = stats.buckets.map((b) => ({ start: b.start, accepted: b.accepted, delivered: rates(b).reached }));
  const frame: Frame = {
    buckets: stats.buckets,
    interval: stats.interval,
    yMax: niceCeiling(Math.max(0, ...series.flatMap((s) => [s.accepted, s.delivered]))),
    yLabel: count,
    integer: true,
  };
  const busiest = series.reduce((a, b) => (b.accepted > a.accepted ? b : a), series[0]!);
  const summary =
    `Emails per ${stats.interval} over ${span} (UTC): ${plural(stats.totals.accepted, "message", "messages")} accepted, ` +
    `${plural(rates(stats.totals).reached, "recipient", "recipients")} delivered` +
    (busiest.accepted > 0
      ? `; busiest ${stats.interval} ${bucketName(busiest.start, stats.interval, true)} with ${count(busiest.accepted)} accepted.`
      : ".");
  const width = (slot(frame) * 0.8) / 2;
  const bar = (kind: "accepted" | "delivered", i: number, v: number, start: string) => (
    <rect
      class={`bar ${kind}`}
      x={xCenter(frame, i) - width + (kind === "delivered" ? width : 0)}
      y={yOf(frame, v)}
      width={width}
      height={yOf(frame, 0) - yOf(frame, v)}
    >
      <title>{`${bucketName(start, stats.interval, true)}: ${count(v)} ${kind}`}</title>
    </rect>
  );
  return (
    <figure class="card chart">
      <figcaption>
        <h2>Volume</h2>
        <ul class="legend">
          <li>
            <span class="swatch accepted" aria-hidden="true" />
            Accepted (messages)
          </li>
          <li>
            <span class="swatch delivered" aria-hidden="true" />
            Delivered (recipients)
          </li>
        </ul>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="volume-summary">
        <title id="volume-summary">{summary}</title>
        <Axes frame={frame} />
        {series.map((s, i) => (
          <g key={s.start}>
            {bar("accepted", i, s.accepted, s.start)}
            {bar("delivered", i, s.delivered, s.start)}
          </g>
        ))}
      </svg>
    </figure>
  );
}

function RatesChart({ stats, span }: { stats: EmailStats; span: string }) {
  const points = stats.buckets.map((b) => ({ start: b.start, ...rates(b) }));
  const highest = Math.max(0, ...points.flatMap((p) => [p.bounce ?? 0, p.complaint ?? 0]));
  const frame: Frame = {
    buckets: stats.buckets,
    interval: stats.interval,
    yMax: niceCeiling(highest * 100) / 100,
    yLabel: axisPercent,
    integer: false,
  };
  const total = rates(stats.totals);
  const worst = points.reduce((a, b) => ((b.bounce ?? -1) > (a.bounce ?? -1) ? b : a), points[0]!);
  const summary =
    `Bounce and complaint rates per ${stats.interval} over ${span} (UTC): bounce rate ${percent(total.bounce)}, complaint rate ${percent(total.complaint)}` +
    (worst.bounce
      ? `; highest bounce rate ${percent(worst.bounce)} at ${bucketName(worst.start, stats.interval, true)}.`
      : ".");
  /** A line through the buckets that have the rate; a bucket without one (nothing ended) breaks it. */
  const line = (kind: "bounce" | "complaint") => {
    let d = "";
    let drawing = false;
    points.forEach((p, i) => {
      const v = p[kind];
      if (v === null) {
        drawing = false;
        return;
      }
      d += `${drawing ? "L" : "M"}${xCenter(frame, i).toFixed(1)} ${yOf(frame, v).toFixed(1)} `;
      drawing = true;
    });
    return (
      <g class={`series ${kind}`}>
        <path class="line" d={d.trim()} />
        {points.map((p, i) =>
          p[kind] === null ? null : (
            <circle
              key={p.start}
              class="point"
              cx={xCenter(frame, i)}
              cy={yOf(frame, p[kind]!)}
              r={kind === "bounce" ? 2.5 : 2}
            >
              <title>{`${bucketName(p.start, stats.interval, true)}: ${kind} rate ${percent(p[kind])}`}</title>
            </circle>
          ),
        )}
      </g>
    );
  };
  return (
    <figure class="card chart">
      <figcaption>
        <h2>Bounce and complaint rates</h2>
        <ul class="legend">
          <li>
            <span class="swatch bounce" aria-hidden="true" />
            Bounce rate
          </li>
          <li>
            <span class="swatch complaint" aria-hidden="true" />
            Complaint rate (dashed)
          </li>
        </ul>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="rates-summary">
        <title id="rates-summary">{summary}</title>
        <Axes frame={frame} />
        {line("bounce")}
        {line("complaint")}
      </svg>
    </figure>
  );
}

function Figures({ totals }: { totals: Counts }) {
  const r = rates(totals);
  return (
    <dl class="figures">
      <div>
        <dt>Accepted</dt>
        <dd>
          <span class="figure">{count(totals.accepted)}</span>
          <span class="hint">{totals.accepted === 1 ? "message" : "messages"}</span>
        </dd>
      </div>
      <div>
        <dt>Delivered</dt>
        <dd>
          <span class="figure">{percent(r.delivered)}</span>
          <span class="hint">
            {count(r.reached)} of {plural(r.ended, "recipient", "recipients")}
          </span>
        </dd>
      </div>
      <div>
        <dt>Bounce rate</dt>
        <dd>
          <span class="figure">{percent(r.bounce)}</span>
          <span class="hint">{count(totals.bounced)} bounced</span>
        </dd>
      </div>
      <div>
        <dt>Complaint rate</dt>
        <dd>
          <span class="figure">{percent(r.complaint)}</span>
          <span class="hint">{plural(totals.complained, "complaint", "complaints")}</span>
        </dd>
      </div>
    </dl>
  );
}

function BucketTable({ stats }: { stats: EmailStats }) {
  return (
    <details class="card">
      <summary>Figures per {stats.interval} (table)</summary>
      <div class="scroll">
        <table class="list numbers">
          <thead>
            <tr>
              <th scope="col">{stats.interval === "hour" ? "Hour (UTC)" : "Day (UTC)"}</th>
              <th scope="col">Accepted</th>
              <th scope="col">Delivered</th>
              <th scope="col">Delayed</th>
              <th scope="col">Bounced</th>
              <th scope="col">Failed</th>
              <th scope="col">Complaints</th>
              <th scope="col">Suppressed</th>
              <th scope="col">Bounce rate</th>
              <th scope="col">Complaint rate</th>
            </tr>
          </thead>
          <tbody>
            {stats.buckets.map((b) => {
              const r = rates(b);
              return (
                <tr key={b.start}>
                  <th scope="row">{bucketName(b.start, stats.interval, true)}</th>
                  <td>{count(b.accepted)}</td>
                  <td>{count(r.reached)}</td>
                  <td>{count(b.delivery_delayed)}</td>
                  <td>{count(b.bounced)}</td>
                  <td>{count(b.failed)}</td>
                  <td>{count(b.complained)}</td>
                  <td>{count(b.suppressed)}</td>
                  <td>{percent(r.bounce)}</td>
                  <td>{percent(r.complaint)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/**
 * What needs a person from the deliverability screen (docs/deliverability.md): a sender whose health is not ok, an address on a
 * blocklist. Nothing when all is well: the overview stays about volume.
 */
function HealthNotice() {
  const { data } = usePolled(() => api.get<SendingHealthOverview>("/v1/sending/health"), [], 60_000);
  if (!data) return null;
  const senders = [
    ...(data.health.status === "ok" ? [] : [{ name: "The whole organisation", health: data.health }]),
    ...data.domains.filter((d) => d.health.status !== "ok"),
  ];
  const listed = data.blocklists.filter((l) => l.listed);
  if (!senders.length && !listed.length) return null;
  return (
    <div class="card guardrail" role="region" aria-label="Deliverability needs attention">
      <h2>Deliverability needs attention</h2>
      <ul>
        {senders.map((s) => (
          <li key={s.name}>
            {s.name}: {s.health.status === "paused" ? "paused" : "warning"} —{" "}
            {s.health.reason ?? "rates over threshold"}
          </li>
        ))}
        {listed.map((l) => (
          <li key={`${l.address} ${l.list}`}>
            {l.address} is listed on {l.list}
          </li>
        ))}
      </ul>
      <p>
        <a href="#/deliverability">Open Deliverability</a> for the rates, the reasons and what to do.
      </p>
    </div>
  );
}

export function OverviewScreen() {
  const [range, setRange] = useState<RangeId>("24h");
  const { data, error } = usePolled(
    async () => {
      const stats = await api.get<EmailStats>(`/v1/emails/stats${query(periodOf(range, Date.now()))}`);
      const quiet = STAT_COUNTS.every((name) => stats.totals[name] === 0);
      // Only a quiet period asks whether anything was ever sent, to tell a new install from a calm day.
      const everSent = !quiet || (await api.get<Page<unknown>>(`/v1/emails${query({ limit: 1 })}`)).data.length > 0;
      return { stats, quiet, everSent };
      // Counting a period reads its whole range of the event log: every 30 s is fresh enough for rates over hours.
    },
    [range],
    30_000,
  );
  const span = RANGES[range].span;
  const sending = useSending();
  const canReadDomains = useCan("domains:read");

  return (
    <section aria-labelledby="overview-title">
      <PageHeader
        id="overview-title"
        title="Overview"
        description="How much mail this organisation sent, and how it fared: delivered, bounced, complained."
      />
      <div class="filters">
        <label>
          Period
          <select value={range} onChange={(e) => setRange(e.currentTarget.value as RangeId)}>
            {(Object.keys(RANGES) as RangeId[]).map((id) => (
              <option key={id} value={id}>
                {RANGES[id].label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Alert message={error} />
      <PauseControl sending={sending} scope="organization" what="all sending" />
      {canReadDomains && <HealthNotice />}
      {!data && !error && <p class="loading">Loading…</p>}
      {data && !data.everSent && (
        <p class="card empty">
          No email yet — send one with <code>POST /v1/emails</code> and an API key, or through the SMTP relay, and its
          delivery, bounces and complaints show here.
        </p>
      )}
      {data?.everSent && data.quiet && (
        <p>No email in {span}, mail to the test addresses aside: it is never counted here.</p>
      )}
      {data && !data.quiet && (
        <>
          <Figures totals={data.stats.totals} />
          <p class="hint">{RATE_HINT} Times are UTC.</p>
          <div class="charts">
            <VolumeChart stats={data.stats} span={span} />
            <RatesChart stats={data.stats} span={span} />
          </div>
          <BucketTable stats={data.stats} />
        </>
      )}
    </section>
  );
}
