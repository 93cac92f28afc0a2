/**
 * The MCP server (docs/logs-and-mcp.md#the-mcp-server), the same for both transports: `tools/list` answers the tools
 * (tools.ts) the key's scopes offer, `tools/call` makes the tool's API request with the key through `handle` — the
 * app's own router for `/mcp`, the running server over HTTP for `mailroom mcp` — and answers the API's JSON.
 *
 * Invariants: every call is an API request with the caller's key, so authentication, scopes, the test-key sandbox,
 * rate limits, the request log and every rule apply as they do to the API; a tool the key's scopes do not offer is
 * refused like a call to an unknown tool, and a failure is a tool error (`isError`) whose text is the API's error
 * body (its `name` first), never a protocol error.
 *
 * The SDK's low-level `Server` rather than `McpServer`: tools here take their input schemas as JSON Schema from the
 * routes' contracts, which `McpServer.registerTool` (Zod shapes) cannot.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { requestOf, type Tool, ToolInputError, toolsOf } from "./tools.ts";

/** Makes an API request (absolute URL under `base`) and answers the API's response. */
export type Handle = (request: Request) => Promise<Response>;

export interface McpContext {
  handle: Handle;
  /** Where requests are addressed: `http://localhost` in process, the server's URL from `mailroom mcp`. */
  base: string;
  /** The caller's API key, sent as Bearer on every request a tool makes. */
  key: string;
  /** The scopes the key may use (`GET /v1/api-keys/current`; a test key's within its sandbox). */
  scopes: ReadonlySet<string>;
  /** The tools of this server's routes (`toolsFrom`), read once. */
  tools: () => Promise<Tool[]>;
  version: string;
}

/** The tools the routes offer, from the OpenAPI document the routes' contracts write, read once through `handle`. */
export function toolsFrom(handle: Handle, base: string): () => Promise<Tool[]> {
  let tools: Promise<Tool[]> | undefined;
  return () => {
    tools ??= handle(new Request(new URL("/openapi.json", base).href)).then(async (response) => {
      if (!response.ok) throw new Error(`the API document answered ${response.status}`);
      return toolsOf(await response.json());
    });
    // A failed read is tried again on the next call, not kept.
    tools.catch(() => (tools = undefined));
    return tools;
  };
}

const MAX_RESULT_CHARS = 200_000;

/** The API's answer as a tool result: its JSON as text; a failure flagged, its error name first. */
async function resultOf(response: Response): Promise<CallToolResult> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: the text as it came.
  }
  const shown = typeof body === "string" ? body : JSON.stringify(body, null, 2);
  const clipped = shown.length > MAX_RESULT_CHARS ? `${shown.slice(0, MAX_RESULT_CHARS)}\n… (cut)` : shown;
  if (response.ok) return { content: [{ type: "text", text: clipped }] };
  const name = (body as { name?: unknown } | null)?.name;
  return {
    isError: true,
    content: [{ type: "text", text: typeof name === "string" ? `${name}: ${clipped}` : clipped }],
  };
}

const failure = (name: string, message: string, statusCode: number): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: `${name}: ${JSON.stringify({ name, message, statusCode }, null, 2)}` }],
});

export function createMcpServer(context: McpContext): Server {
  const server = new Server(
    { name: "mailroom", title: "Mailroom", version: context.version },
    {
      capabilities: { tools: {} },
      instructions:
        "Mailroom is a transactional email server with a Resend-compatible API. Each tool calls one API route with your API key; its result is the API's JSON. Find ids with the list_ tools before get_, cancel_ or remove_ ones.",
    },
  );
  const offered = async () => (await context.tools()).filter((tool) => context.scopes.has(tool.spec.scope));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await offered()).map((tool) => tool.definition),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = (await offered()).find((candidate) => candidate.spec.name === request.params.name);
    if (!tool) {
      const exists = (await context.tools()).some((candidate) => candidate.spec.name === request.params.name);
      return exists
        ? failure("insufficient_scope", `This API key may not use ${request.params.name}.`, 403)
        : failure("not_found", `There is no tool ${request.params.name}.`, 404);
    }
    let call: Request;
    try {
      call = requestOf(tool, (request.params.arguments ?? {}) as Record<string, unknown>, context.base, {
        authorization: `Bearer ${context.key}`,
        "user-agent": `mailroom-mcp/${context.version}`,
      });
    } catch (error) {
      if (error instanceof ToolInputError) return failure("validation_error", error.message, 400);
      throw error;
    }
    return resultOf(await context.handle(call));
  });
  return server;
}
