/**
 * The CPU profile summary of the benchmarks: Mailroom from its sources under `bun --cpu-prof`, driven by a load,
 * and the profile's samples attributed to stages (HTTP framework, validation, MIME composition, query builder,
 * SQLite, …) by the nearest frame on the stack whose source file names one. Self time of native frames (a SQLite
 * step, a hash) goes to the stage of the JavaScript that called them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** First match wins; tested against a frame's source URL (or function name for engine frames). */
const STAGES: Array<[RegExp, string]> = [
  [/^\(garbage collector\)$/, "garbage collection"],
  [/^\((idle|program)\)$/, "idle"],
  [
    /node_modules\/nodemailer\/.*\/(smtp-connection|smtp-pool|smtp-transport|shared|mailer)\//,
    "SMTP client (nodemailer)",
  ],
  [
    /node_modules\/(nodemailer|html-to-text|htmlparser2|domhandler|domutils|entities|selderee|parseley|libmime|libbase64|libqp)\/|src\/emails\/(compose|header-encoding)\.ts/,
    "MIME composition",
  ],
  [/node_modules\/mailauth\/|src\/domains\/signing\.ts/, "DKIM signing (event loop side)"],
  [/node_modules\/(smtp-server|mailparser)\/|src\/smtp\//, "SMTP server"],
  [/node_modules\/drizzle-orm\//, "query builder (drizzle-orm)"],
  [/^bun:sqlite|src\/db\/sqlite\.ts|src\/db\/writer\.ts/, "SQLite statements and commits"],
  [/node_modules\/(pg|pg-[a-z]+)\/|src\/db\/postgres\//, "PostgreSQL client"],
  [/src\/workers\//, "CPU pool hand-off"],
  [/node_modules\/(elysia|memoirist|@sinclair|exact-mirror|@elysiajs)\/|src\/http\//, "HTTP framework and routing"],
  [/src\/emails\/validate\.ts|src\/lib\/addresses\.ts/, "request validation"],
  [/src\/emails\//, "acceptance (emails service)"],
  [/src\/providers\/|src\/queue\//, "delivery queue and provider"],
  [/src\/webhooks\/|src\/events\//, "events and webhooks"],
  [/src\/keys\/|src\/limits\/|src\/idempotency\//, "keys, rate limits, idempotency"],
  [/src\/(domains|suppressions)\//, "domain and suppression checks"],
  [/src\//, "other Mailroom code"],
];

function stageOf(frame: ProfileNode["callFrame"]): string | undefined {
  const subject = frame.url || (frame.functionName.startsWith("(") ? frame.functionName : "");
  if (!subject) return undefined;
  return STAGES.find(([pattern]) => pattern.test(subject))?.[1] ?? "runtime (Bun built-ins)";
}

/** Shares of busy time (idle excluded) by stage, largest first. */
export function summarizeProfile(path: string): Array<{ stage: string; share: number }> {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const stageCache = new Map<number, string>();
  const resolve = (id: number): string => {
    const cached = stageCache.get(id);
    if (cached) return cached;
    let stage: string | undefined;
    let native = true;
    for (let at: number | undefined = id; at !== undefined && !stage; at = parentOf.get(at)) {
      const frame = byId.get(at)!.callFrame;
      // A statement's native step called by the query builder's driver adapter is SQLite's time, not drizzle's.
      if (native && /drizzle-orm\/bun-sqlite\//.test(frame.url)) stage = "SQLite statements and commits";
      else stage = stageOf(frame);
      native &&= !frame.url;
    }
    stageCache.set(id, stage ?? "runtime (Bun built-ins)");
    return stageCache.get(id)!;
  };
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const stage = resolve(id);
    totals.set(stage, (totals.get(stage) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  totals.delete("idle");
  const busy = [...totals.values()].reduce((a, b) => a + b, 0);
  return [...totals.entries()]
    .map(([stage, time]) => ({ stage, share: time / busy }))
    .sort((a, b) => b.share - a.share);
}

/** The newest .cpuprofile Bun wrote into `dir`. */
export function profileIn(dir: string): string {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .sort()
    .at(-1);
  if (!file) throw new Error(`no CPU profile was written to ${dir}`);
  return join(dir, file);
}
