/**
 * `/mcp`: the MCP server over Streamable HTTP (docs/logs-and-mcp.md#the-mcp-server), stateless — each POST is answered
 * by a server made for it, as JSON (no session, no server-sent stream; GET and DELETE answer 405).
 *
 * Invariants: the caller is an API key sent as Bearer (a session cookie is not accepted: an agent holds a key, and a
 * page of another site must not drive a signed-in browser); the body is read by the one body reader (its size and
 * rate limits) before the protocol sees it; each tool call is an API request made with that key through the app's own
 * router, so it is authenticated, rate-limited and recorded in the request log as any API request is — the `/mcp`
 * request itself is not recorded (its tool calls are) and not counted (its tool calls are).
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Elysia } from "elysia";
import { mayUse } from "../access.ts";
import { AppError } from "../errors.ts";
import type { AuthDeps } from "../http/auth.ts";
import { bodyLimits, readJsonBody } from "../http/body.ts";
import { createMcpServer, type Handle, toolsFrom } from "./server.ts";

/** Where in-process tool calls are addressed: the router reads the path; no host is involved. */
const IN_PROCESS = "http://localhost";

export function mcpRoutes(deps: AuthDeps & { version: string; handle: () => Handle }) {
  const handle: Handle = (request) => deps.handle()(request);
  const tools = toolsFrom(handle, IN_PROCESS);
  const limits = bodyLimits(deps.config);
  const notHere = ({ set }: { set: { headers: Record<string, unknown> } }) => {
    set.headers.allow = "POST";
    throw new AppError("method_not_allowed", "This MCP server is stateless: POST each message to /mcp.");
  };
  const detail = { tags: ["MCP"], summary: "Model Context Protocol, Streamable HTTP (stateless, JSON answers)" };

  return new Elysia()
    .post(
      "/mcp",
      async ({ request }) => {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
        if (!match) throw new AppError("unauthorized", "Missing API key: send Authorization: Bearer <API_KEY>.");
        const key = match[1]!;
        const actor = await deps.keys.authenticate(key);
        const body = await readJsonBody(request, limits);
        const server = createMcpServer({
          handle,
          base: IN_PROCESS,
          key,
          scopes: new Set([...actor.scopes].filter((scope) => mayUse(actor, scope))),
          tools,
          version: deps.version,
        });
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        await server.connect(transport);
        try {
          return await transport.handleRequest(request, { parsedBody: body });
        } finally {
          await server.close();
        }
      },
      { parse: "none", detail },
    )
    .get("/mcp", notHere, { detail: { ...detail, hide: true } })
    .delete("/mcp", notHere, { detail: { ...detail, hide: true } });
}
