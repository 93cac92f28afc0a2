/**
 * HTTP load for the benchmarks: `wrk` (Debian) when installed — it costs the 2-core machine far less CPU than a
 * JavaScript client — else a Bun loop of `connections` concurrent keep-alive clients. Reports requests/s and
 * latency percentiles of 2xx answers.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface LoadResult {
  tool: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

export async function runLoad(
  url: string,
  headers: Record<string, string>,
  body: string,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  if (Bun.which("wrk")) {
    const lua = [
      `wrk.method = "POST"`,
      `wrk.body = ${JSON.stringify(body)}`,
      ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
    ];
    return runWrk(url, lua, connections, seconds);
  }
  return runBunLoad(() => new Request(url, { method: "POST", headers, body }), connections, seconds);
}

/** `lua`: the request part of the wrk script; the reporting part is added here. */
async function runWrk(url: string, lua: string[], connections: number, seconds: number): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-wrk-"));
  const script = join(dir, "load.lua");
  writeFileSync(
    script,
    [
      ...lua,
      `done = function(summary, latency, requests)`,
      `  io.write(string.format("RESULT %d %d %d %f %f\\n", summary.requests, summary.duration, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, latency:percentile(50) / 1000, latency:percentile(99) / 1000))`,
      `end`,
    ].join("\n"),
  );
  const proc = Bun.spawn(["wrk", "-t2", `-c${connections}`, `-d${seconds}s`, "-s", script, url], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const match = /RESULT (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+)/.exec(out);
  if (!match) throw new Error(`wrk gave no result: ${out}`);
  const [, requests, durationUs, errors, p50, p99] = match.map(Number) as number[];
  return {
    tool: "wrk",
    requestsPerSecond: (requests! - errors!) / (durationUs! / 1e6),
    p50Ms: p50!,
    p99Ms: p99!,
    non2xx: errors!,
  };
}

/** GETs of `paths` (picked at random per request) against `base`: wrk when installed, else the Bun loop. */
export async function runGets(
  base: string,
  headers: Record<string, string>,
  paths: string[],
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  if (Bun.which("wrk")) {
    const lua = [
      `local paths = {${paths.map((p) => JSON.stringify(p)).join(",")}}`,
      ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
      `request = function() return wrk.format("GET", paths[math.random(#paths)]) end`,
    ];
    return runWrk(`${base}/`, lua, connections, seconds);
  }
  let turn = 0;
  return runBunLoad(() => new Request(base + paths[turn++ % paths.length]!, { headers }), connections, seconds);
}

async function runBunLoad(request: () => Request, connections: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  let non2xx = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        const res = await fetch(request());
        await res.arrayBuffer();
        if (res.status >= 200 && res.status < 300) latencies.push(performance.now() - started);
        else non2xx++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    tool: "bun fetch",
    requestsPerSecond: latencies.length / seconds,
    p50Ms: pick(0.5),
    p99Ms: pick(0.99),
    non2xx,
  };
}
