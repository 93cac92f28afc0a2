/**
 * Fuzzes the HTTP API: every route the app declares (read from `app.http.routes`, so a new route is covered the
 * day it lands), with random path parameters (percent-encodings valid and malformed, unicode, very long), query
 * strings, methods, headers, Content-Types and bodies (random JSON, wrong types for every send field, deep
 * nesting, huge strings, invalid UTF-8, prototype keys), with and without an API key and an Idempotency-Key.
 * Most requests go through `app.handle`; a share goes over a real loopback socket to cover Bun's listener (URLs
 * built by fetch, which percent-encodes: the fuzzer tests Mailroom, not Bun's request-line parser).
 *
 * Properties of every response: status < 500; a failure (≥ 400) has exactly the contract's error body
 * (docs/errors.md) with `statusCode` equal to the status and the table's reason; no internals in any body (stack frames,
 * paths, SQLite, JS error names); `X-Request-Id` on every response; `Allow` on a 405. Afterwards `/healthz`
 * answers 200 `{status: "ok"}`.
 *
 * The requests come from http-requests.ts (method, path, query, headers) and http-bodies.ts (bodies); each response
 * is checked by http-checks.ts. This file owns the app under test, the two ways of sending, and the run.
 *
 * Budget: FUZZ_SECONDS (default 15). Replay: FUZZ_SEED=<seed printed at start and in the failure>; every input
 * is regenerated exactly except path parameters taken from ids that earlier answers returned (which ids exist
 * depends on what earlier cases created, and 8 cases run at a time). FUZZ_VERBOSE=1 prints statuses per route.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLogger } from "../../src/lib/logger.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { startDnsServer, type DnsServer } from "../helpers/dns-server.ts";
import { bodyFor, MAX_BODY_BYTES } from "./http-bodies.ts";
import { checkResponse, type FuzzRequest, type FuzzResponse, harvestIds, summary } from "./http-checks.ts";
import { fillPath, headersFor, METHODS, queryString } from "./http-requests.ts";
import { watchEventLoop } from "./loop-watchdog.ts";
import { fuzzSeed, fuzzTimeoutMs, randomString, runCases, Violations, withTimeout } from "./prng.ts";

const SEED = fuzzSeed();
/** A request that has not answered in this time is a hang, reported as such. */
const REQUEST_TIMEOUT_MS = 15_000;
/** FUZZ_VERBOSE=1 prints statuses per route (to see what the generators reach). */
const VERBOSE = !!process.env.FUZZ_VERBOSE;

let t: TestApp;
let dns: DnsServer;
let httpPort: number;
let routes: Array<{ method: string; path: string }>;
const keys: Record<string, string> = {};
/** The app's error log: a 500's cause is found by its request id and shown with the violation. */
const errorLog: string[] = [];
/** Ids seen in successful answers (emails, domains, webhooks …), reused as path parameters. */
const knownIds: string[] = [];

beforeAll(async () => {
  // Limits high enough that the fuzzer reaches the handlers instead of 429s; small body and message limits so
  // 413 paths are reached with bodies of a few megabytes.
  // A local DNS server that knows no name: domain checks and webhook URL checks answer at once (NXDOMAIN).
  // Webhook endpoints may be private so that endpoints on 127.0.0.1:1 (refused, loopback) exist and the routes
  // that take a webhook id reach real rows.
  dns = await startDnsServer();
  t = await createTestApp(
    {
      http: { max_body_bytes: MAX_BODY_BYTES },
      limits: {
        key_requests_per_minute: 10_000_000,
        org_requests_per_minute: 10_000_000,
        max_message_bytes: 1_000_000,
      },
      dns: { servers: dns.servers },
      // A webhook request is held at most 2 s, so stopping the app (which waits for requests in flight) is quick even
      // when an endpoint the fuzzer made points at a port that never answers HTTP.
      webhooks: { allow_private_networks: true, timeout: "2s" },
    },
    { logger: createLogger("error", (line) => errorLog.push(line)) },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const listeners = await t.app.start();
  httpPort = listeners.find((l) => l.name === "http")!.port;
  routes = t.app.http.routes.map((r: { method: string; path: string }) => ({ method: r.method, path: r.path }));
  const services = t.app.services.keys;
  keys.live = t.liveKey;
  keys.test = t.testKey;
  keys.sending = (await services.create(t.operator, { name: "sending", scopes: ["sending_access"], mode: "live" })).key;
  keys.reader = (await services.create(t.operator, { name: "reader", scopes: ["emails:read"], mode: "live" })).key;
  const revoked = await services.create(t.operator, { name: "revoked", scopes: ["full_access"], mode: "live" });
  await services.revoke(t.operator, revoked.id);
  keys.revoked = revoked.key;
});

// Stopping waits for requests in flight and drains the workers (a webhook request may take its 2 s timeout); on a
// loaded CI machine that can pass the default 5 s hook budget without anything being wrong.
afterAll(async () => {
  await t?.close();
  await dns?.close();
}, 20_000);

const SOCKET_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);
/** Bytes of the request head once fetch has percent-encoded the path. */
const headSize = (path: string, headers: Record<string, string>) =>
  Buffer.byteLength(encodeURI(path.replace(/[\ud800-\udfff]/g, "x")).replace(/%25/g, "%")) +
  Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);

/** Sends a request through app.handle or over the socket; "unsendable" when the client itself refuses it. */
async function send(req: FuzzRequest): Promise<FuzzResponse | "unsendable"> {
  let request: Request;
  const base = req.transport === "socket" ? `http://127.0.0.1:${httpPort}` : "http://localhost";
  let body: RequestInit["body"] = req.body;
  if (req.chunks && req.body !== undefined) {
    const bytes = typeof req.body === "string" ? new TextEncoder().encode(req.body) : req.body;
    const size = Math.ceil(bytes.length / req.chunks) || 1;
    body = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.subarray(i, i + size));
        controller.close();
      },
    });
  }
  try {
    request = new Request(base + req.path, {
      method: req.method,
      headers: req.headers,
      body,
      redirect: "manual",
      duplex: "half",
    } as RequestInit);
  } catch {
    return "unsendable"; // the client refuses it (forbidden method, header value, GET with a body …)
  }
  // Loopback only, whatever the generators produced.
  if (!["127.0.0.1", "localhost"].includes(new URL(request.url).hostname)) return "unsendable";
  const response =
    req.transport === "socket" ? await fetch(request, { redirect: "manual" }) : await t.app.http.handle(request);
  return {
    status: response.status,
    headers: response.headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
    method: request.method,
  };
}

test(
  "every route answers random requests with a status < 500, the error shape and no internals",
  async () => {
    console.log(`fuzz http seed=${SEED}`);
    const v = new Violations("http", SEED);
    let unsendable = 0;
    let socketCases = 0;
    const statuses = new Map<number, number>();
    const perRoute = new Map<string, number>();
    const watchdog = watchEventLoop();
    const cases = await runCases("http", SEED, 8, async (rng, index) => {
      const route = rng.chance(0.9)
        ? rng.pick(routes)
        : { method: rng.pick(METHODS), path: `/${randomString(rng, 30).replace(/[?#]/g, "")}` };
      const method = rng.chance(0.8) ? route.method : rng.pick(METHODS);
      const path = fillPath(rng, route.path, knownIds) + queryString(rng, knownIds);
      const body = bodyFor(rng, method, route.path);
      const headers = headersFor(rng, body !== undefined, keys);
      // The socket share sticks to what Bun's own HTTP parser takes before any application code runs: methods
      // it knows (an unknown one is dropped without an answer; fetch drops TRACE bodies) and a request head under
      // its 16 KiB limit (beyond it Bun answers an empty 431 itself). app.handle gets everything else.
      const socketable = SOCKET_METHODS.has(method) && headSize(path, headers) < 12_000;
      const transport = socketable && rng.chance(0.25) ? "socket" : "handle";
      if (transport === "handle" && rng.chance(0.03))
        headers["content-length"] = rng.pick(["-1", "abc", "99999999999", "0", "1"]);
      const req: FuzzRequest = { transport, method, path, headers, body };
      if (transport === "socket" && body !== undefined && rng.chance(0.15)) req.chunks = rng.range(1, 4);
      const outcome = await withTimeout(send(req), REQUEST_TIMEOUT_MS);
      if (outcome === "timeout") return v.add("no answer in time", index, summary(req), `${REQUEST_TIMEOUT_MS} ms`);
      if (!outcome.ok)
        return v.add(
          transport === "socket" ? "socket: the request failed" : "app.handle threw",
          index,
          summary(req),
          String(outcome.error),
        );
      if (outcome.value === "unsendable") {
        unsendable++;
        return;
      }
      if (transport === "socket") socketCases++;
      const res = outcome.value;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (VERBOSE)
        perRoute.set(
          `${route.method} ${route.path} ${res.status}`,
          (perRoute.get(`${route.method} ${route.path} ${res.status}`) ?? 0) + 1,
        );
      checkResponse(v, index, req, res, { errorLog, dataDir: t.dataDir });
      if (res.status < 300) harvestIds(route.path, res.bytes, knownIds);
    });
    const histogram = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}:${n}`)
      .join(" ");
    if (VERBOSE)
      console.log(
        [...perRoute]
          .sort()
          .map(([k, n]) => `  ${k}: ${n}`)
          .join("\n"),
      );
    console.log(
      `fuzz http seed=${SEED}: ${cases} cases (${socketCases} over the socket, ${unsendable} refused by the client), statuses ${histogram}; longest event-loop stall ${Math.round(watchdog.stop())} ms`,
    );

    // The server is still well after the run, through both paths.
    const health = await t.json("GET", "/healthz", { key: null });
    if (health.status !== 200 || health.body?.status !== "ok")
      v.add("healthz after the run (app.handle)", -1, "GET /healthz", health);
    const overSocket = await fetch(`http://127.0.0.1:${httpPort}/healthz`);
    const socketBody = (await overSocket.json().catch(() => null)) as { status?: string } | null;
    if (overSocket.status !== 200 || socketBody?.status !== "ok")
      v.add("healthz after the run (socket)", -1, "GET /healthz", { status: overSocket.status, body: socketBody });

    expect(v.list, v.report()).toEqual([]);
  },
  fuzzTimeoutMs(),
);
