/**
 * The properties the HTTP fuzz target holds every response to: status < 500 (its cause found in the app's error
 * log by request id); a failure (≥ 400) has exactly the contract's error body (docs/errors.md) with `statusCode` equal to
 * the status and the table's reason; no internals in any body (stack frames, paths, SQLite, JS error names);
 * `X-Request-Id` on every response; `Allow` on a 405; a method no route declares is never served. Also how a
 * request is shown in a report, and the ids harvested from answers for later path parameters.
 */
import { ERROR_NAMES, ERROR_TABLE, type ErrorName } from "../../src/errors.ts";
import { internalsIn, type Violations } from "./prng.ts";

const ERROR_KEYS = new Set(["error", "name", "message", "statusCode", "details"]);

/** The human-facing unsubscribe page (GET and POST /u/:token) answers an invalid link with an HTML 404 by design. */
const isHumanPage = (path: string, method: string, contentType: string) =>
  /^\/u\//.test(path) && (method === "GET" || method === "POST") && contentType.startsWith("text/html");
/**
 * The MCP endpoint speaks JSON-RPC (docs/logs-and-mcp.md): past authentication, what the MCP SDK's transport refuses
 * (a missing Accept, a body that is not JSON-RPC) is a JSON-RPC error object, as the protocol requires.
 */
const isJsonRpcError = (path: string, body: unknown) => {
  // As the router takes the path: repeated slashes are one (`//mcp` is the MCP endpoint, seed 3695756638).
  if (path.replace(/\/{2,}/g, "/").replace(/\/$/, "") !== "/mcp" || !body || typeof body !== "object") return false;
  const b = body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } };
  return b.jsonrpc === "2.0" && typeof b.error?.code === "number" && typeof b.error?.message === "string";
};
/** Methods the routes are declared with; any other must be refused (404/405) before a handler runs. */
const ROUTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** Static assets of the API docs (Swagger UI's bundle naturally contains words like "TypeError"). */
/** The code the server ships to browsers (Swagger UI's, the admin UI's bundle) names errors as code, not as leaks. */
const isDocsAsset = (path: string, status: number) => status < 400 && /^\/(docs|ui)(\/|$)/.test(path);

function errorShapeProblem(body: unknown, status: number): string | null {
  if (!body || typeof body !== "object" || Array.isArray(body)) return "the body is not a JSON object";
  const b = body as Record<string, unknown>;
  const extra = Object.keys(b).filter((k) => !ERROR_KEYS.has(k));
  if (extra.length) return `unexpected keys ${extra.join(", ")}`;
  if (typeof b.error !== "string" || typeof b.name !== "string" || typeof b.message !== "string")
    return "error, name and message must be strings";
  if (!ERROR_NAMES.includes(b.name as ErrorName)) return `name ${JSON.stringify(b.name)} is not in the closed list`;
  if (b.statusCode !== status) return `statusCode ${String(b.statusCode)} differs from the status ${status}`;
  const entry = ERROR_TABLE[b.name as ErrorName];
  if (entry.status !== status) return `name ${b.name} maps to ${entry.status}, answered ${status}`;
  if (b.error !== entry.reason)
    return `error ${JSON.stringify(b.error)} is not the reason phrase ${JSON.stringify(entry.reason)}`;
  if (b.details !== undefined) {
    if (!Array.isArray(b.details)) return "details is not an array";
    for (const d of b.details as unknown[]) {
      if (!d || typeof d !== "object" || Array.isArray(d)) return "a detail is not an object";
      const keys = Object.keys(d);
      const detail = d as Record<string, unknown>;
      if (
        keys.some((k) => k !== "path" && k !== "message") ||
        typeof detail.path !== "string" ||
        typeof detail.message !== "string"
      )
        return `detail ${JSON.stringify(d)} is not {path, message}`;
    }
  }
  return null;
}

export interface FuzzRequest {
  transport: "handle" | "socket";
  /** Over the socket: the body as a stream of this many chunks (chunked transfer coding, no Content-Length). */
  chunks?: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** A request as a report shows it: long paths and bodies cut, with their full length. */
export function summary(req: FuzzRequest) {
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);
  const body =
    req.body === undefined
      ? undefined
      : typeof req.body === "string"
        ? cut(req.body, 240)
        : `bytes(${req.body.length}) ${cut(Buffer.from(req.body.subarray(0, 240)).toString("latin1"), 240)}`;
  return {
    transport: req.transport,
    method: req.method,
    path: cut(req.path, 160),
    headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, cut(v, 80)])),
    bodyBytes:
      req.body === undefined ? 0 : typeof req.body === "string" ? Buffer.byteLength(req.body) : req.body.length,
    chunks: req.chunks,
    body,
  };
}

/** What the app answered: status, headers, body, and the method it received the request as. */
export interface FuzzResponse {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  method: string;
}

/** Checks one response; `errorLog` is the app's error log, `dataDir` its data folder (a leak if named). */
export function checkResponse(
  v: Violations,
  index: number,
  fuzzRequest: FuzzRequest,
  res: FuzzResponse,
  app: { errorLog: readonly string[]; dataDir: string },
) {
  const req = fuzzRequest;
  // What the app received: Bun's Request upper-cases the standard methods and turns a method token it does not
  // know ("FOO") into GET — before Mailroom sees it (over a socket Bun's parser drops such requests instead).
  const method = res.method;
  const input = { ...summary(fuzzRequest), ...(method !== req.method ? { receivedAs: method } : {}) };
  // As the router sees it: URL-normalised ("\\" → "/", dot segments).
  const pathname = new URL(`http://localhost${req.path}`).pathname;
  const text = new TextDecoder().decode(res.bytes);
  const contentType = res.headers.get("content-type") ?? "";
  const seen = { status: res.status, contentType, body: text.slice(0, 400) };
  if (res.status >= 500) {
    const requestId = res.headers.get("x-request-id");
    const cause = requestId ? app.errorLog.find((line) => line.includes(requestId))?.slice(0, 1500) : undefined;
    v.add(`status ${res.status} (>= 500)`, index, input, { ...seen, cause });
  }
  if (!res.headers.get("x-request-id")) v.add("no X-Request-Id", index, input, seen);
  if (res.status === 405 && !res.headers.get("allow")) v.add("405 without Allow", index, input, seen);
  const leak = isDocsAsset(pathname, res.status) ? null : internalsIn(text, app.dataDir);
  if (leak) v.add(`internals in the body (${leak})`, index, input, seen);
  if (!ROUTED_METHODS.has(method) && res.status !== 404 && res.status !== 405)
    v.add("a method no route declares was served by a route", index, input, seen);
  if (res.status >= 400 && method !== "HEAD" && !isHumanPage(pathname, method, contentType)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      v.add(`${res.status} body is not JSON`, index, input, seen);
      return;
    }
    const problem = isJsonRpcError(pathname, parsed) ? null : errorShapeProblem(parsed, res.status);
    if (problem)
      v.add(`error shape: ${problem.replace(/\d{3}/g, "NNN").replace(/".*"/g, "…")}`, index, input, {
        ...seen,
        problem,
      });
  }
}

/** Collects the ids of a successful answer (up to 300) into `knownIds`, for later path parameters. */
export function harvestIds(path: string, bytes: Uint8Array, knownIds: string[]) {
  if (path.startsWith("/v1/api-keys")) return; // never revoke the fixture keys
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return;
  }
  const visit = (value: unknown, depth: number) => {
    if (depth > 4 || !value || typeof value !== "object") return;
    for (const [k, v] of Object.entries(value)) {
      if (k === "id" && typeof v === "string" && knownIds.length < 300 && !knownIds.includes(v)) knownIds.push(v);
      else visit(v, depth + 1);
    }
  };
  visit(body, 0);
}
