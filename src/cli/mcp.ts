/**
 * `mailroom mcp`: the MCP server over stdio for a local agent (docs/logs-and-mcp.md#the-mcp-server), acting as the key
 * in MAILROOM_API_KEY against the running server at MAILROOM_URL (default: `[http] public_url`, else the configured
 * host and port). The same tools as `/mcp` (mcp/server.ts), made from the server's own API document; each tool call is
 * an HTTPS request to the API with the key, so the server applies every rule — this process opens no store.
 *
 * Invariants: it refuses to start without a key, or with one the server refuses (exit 2, the reason on stderr);
 * stdout carries the protocol and nothing else; it ends when the agent closes stdin.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createMcpServer, type Handle, toolsFrom } from "../mcp/server.ts";
import type { Invocation } from "./context.ts";
import { fail } from "./output.ts";

/** Tool requests are built against this and sent to the server's URL (which may carry a path of its own). */
const PLACEHOLDER = "http://mailroom.invalid";
/** Longest a tool's API request may take before the tool fails. */
const REQUEST_TIMEOUT_MS = 120_000;

export interface McpEnvironment {
  /** MAILROOM_API_KEY */
  apiKey: string | undefined;
  /** MAILROOM_URL */
  url: string | undefined;
}

export async function mcp({ config }: Invocation, env: McpEnvironment, version: string): Promise<void> {
  if (!env.apiKey)
    fail(
      "mcp acts as an API key: set MAILROOM_API_KEY to one (mr_live_… or mr_test_…; the tools offered follow its scopes)",
      2,
    );
  const host = config.http.host === "0.0.0.0" || config.http.host === "::" ? "127.0.0.1" : config.http.host;
  const base = (env.url || config.http.public_url || `http://${host}:${config.http.port}`).replace(/\/+$/, "");
  const handle: Handle = async (request) => {
    const { pathname, search } = new URL(request.url);
    return fetch(`${base}${pathname}${search}`, {
      method: request.method,
      headers: request.headers,
      body: request.method === "GET" ? undefined : await request.text(),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  };
  let current: Response;
  try {
    current = await handle(
      new Request(`${PLACEHOLDER}/v1/api-keys/current`, { headers: { authorization: `Bearer ${env.apiKey}` } }),
    );
  } catch (error) {
    fail(`mcp: cannot reach the server at ${base} (${(error as Error).message}); set MAILROOM_URL to its address`, 2);
  }
  const answer = (await current.json().catch(() => null)) as {
    scopes?: string[];
    name?: string;
    message?: string;
  } | null;
  if (!current.ok || !answer?.scopes)
    fail(`mcp: the server at ${base} refused the key (${answer?.name ?? current.status}: ${answer?.message ?? ""})`, 2);
  const server = createMcpServer({
    handle,
    base: PLACEHOLDER,
    key: env.apiKey,
    scopes: new Set(answer.scopes),
    tools: toolsFrom(handle, PLACEHOLDER),
    version,
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  process.stdin.on("end", () => void server.close());
  await server.connect(transport);
  await closed;
}
