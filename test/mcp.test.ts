/**
 * The MCP server (docs/logs-and-mcp.md#the-mcp-server) driven by the official MCP TypeScript SDK's client over both
 * transports: Streamable HTTP at /mcp on a real socket, and stdio to the built executable's `mailroom mcp` (which calls
 * the same server over HTTP). The tool list follows the key's scopes (a sending-only key sees no tool that changes
 * domains, suppressions or keys); tools that send or change say so; a test key's send is captured as over the API;
 * failures are tool errors carrying the API's error name; every call is in the request log.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { BINARY, cleanEnv } from "./helpers/process.ts";

let t: TestApp;
let base: string;
let sendingKey: string;
const clients: Client[] = [];

async function httpClient(key: string): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return client;
}

const textOf = (result: any): string => result.content[0].text;
const jsonOf = (result: any) => JSON.parse(textOf(result));

beforeAll(async () => {
  t = await createTestApp({
    delivery: { poll_interval: "50ms" },
    limits: { key_requests_per_minute: 100_000, org_requests_per_minute: 100_000 },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const listeners = await t.app.start();
  const http = listeners.find((l) => l.name === "http")!;
  base = `http://127.0.0.1:${http.port}`;
  sendingKey = (await t.json("POST", "/v1/api-keys", { body: { name: "sender", permission: "sending_access" } })).body
    .token;
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await t.close();
});

describe("over Streamable HTTP", () => {
  test("a full-access key lists the tools of every area, their inputs from the routes, annotated", async () => {
    const { tools } = await (await httpClient(t.liveKey)).listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of ["send_email", "get_email", "list_emails", "cancel_email", "list_domains", "get_domain"])
      expect(names).toContain(name);
    for (const name of ["verify_domain", "list_suppressions", "add_suppression", "get_queue_summary", "list_logs"])
      expect(names).toContain(name);
    const send = tools.find((tool) => tool.name === "send_email")!;
    expect(Object.keys(send.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["from", "to", "subject", "html", "template", "attachments"]),
    );
    expect(send.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(tools.find((tool) => tool.name === "cancel_email")!.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((tool) => tool.name === "list_domains")!.annotations).toMatchObject({ readOnlyHint: true });
    const getEmail = tools.find((tool) => tool.name === "get_email")!;
    expect(getEmail.inputSchema.required).toEqual(["id"]);
  });

  test("a sending-only key sees only sending tools: nothing that changes domains, suppressions or keys", async () => {
    const { tools } = await (await httpClient(sendingKey)).listTools();
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual(["cancel_email", "send_batch_emails", "send_email"]);
  });

  test("a tool the key may not use is refused as a tool error naming insufficient_scope", async () => {
    const client = await httpClient(sendingKey);
    const refused = await client.callTool({ name: "verify_domain", arguments: { id: "example.com" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toStartWith("insufficient_scope");
  });

  test("a test key's send is captured as over the API, and looked up through another tool", async () => {
    const client = await httpClient(t.testKey);
    const sent = await client.callTool({
      name: "send_email",
      arguments: { from: "Acme <hi@example.com>", to: ["reader@x.org"], subject: "From an agent", text: "Hi" },
    });
    expect(sent.isError).toBeFalsy();
    const { id } = jsonOf(sent);
    let email: any;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await Bun.sleep(50)) {
      email = jsonOf(await client.callTool({ name: "get_email", arguments: { id } }));
      if (email.status === "delivered") break;
    }
    expect(email).toMatchObject({ id, subject: "From an agent", status: "delivered" });
    expect(email.recipients[0].last_response).toContain("Captured");
  });

  test("an API failure is a tool error whose text starts with the API's error name", async () => {
    const client = await httpClient(t.liveKey);
    const missing = await client.callTool({ name: "get_domain", arguments: { id: "nowhere.example" } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toStartWith("not_found");
    const invalid = await client.callTool({ name: "send_email", arguments: { to: "x@x.org" } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toStartWith("validation_error");
  });

  test("each tool call is an API request in the request log, made by the mcp client", async () => {
    const client = await httpClient(t.liveKey);
    await client.callTool({ name: "list_domains", arguments: {} });
    await Bun.sleep(20);
    await t.app.services.requestLog.flush();
    const logs = (await t.json("GET", "/v1/logs?method=GET")).body.data;
    expect(logs.find((entry: any) => entry.endpoint === "/domains").user_agent).toStartWith("mailroom-mcp/");
  });

  test("without a key, or with one the server does not know, /mcp answers 401; GET is 405", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    expect((await fetch(`${base}/mcp`, { method: "POST", headers, body })).status).toBe(401);
    const unknown = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { ...headers, authorization: "Bearer mr_live_unknown" },
      body,
    });
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { name: string }).name).toBe("unauthorized");
    expect((await fetch(`${base}/mcp`, { headers: { authorization: `Bearer ${t.liveKey}` } })).status).toBe(405);
  });
});

describe("over stdio: mailroom mcp", () => {
  const binary = existsSync(BINARY);
  const stdio = (key: string | undefined) =>
    new StdioClientTransport({
      command: BINARY,
      args: ["mcp"],
      env: { ...cleanEnv(), MAILROOM_URL: base, ...(key && { MAILROOM_API_KEY: key }) },
      stderr: "pipe",
    });

  test.skipIf(!binary)("lists the key's tools and calls them against the server", async () => {
    const client = new Client({ name: "mcp-stdio-test", version: "1.0.0" });
    await client.connect(stdio(sendingKey));
    clients.push(client);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      "cancel_email",
      "send_batch_emails",
      "send_email",
    ]);
    const sent = await client.callTool({
      name: "send_email",
      arguments: { from: "hi@example.com", to: "reader@x.org", subject: "Over stdio", text: "Hi" },
    });
    expect(sent.isError).toBeFalsy();
    const { id } = jsonOf(sent);
    expect((await t.json("GET", `/v1/emails/${id}`)).body.subject).toBe("Over stdio");
  });

  test.skipIf(!binary)("refuses to start without MAILROOM_API_KEY, naming it", async () => {
    const proc = Bun.spawn([BINARY, "mcp"], { env: { ...cleanEnv(), MAILROOM_URL: base }, stderr: "pipe" });
    expect(await proc.exited).toBe(2);
    expect(await new Response(proc.stderr).text()).toContain("MAILROOM_API_KEY");
  });

  test.skipIf(!binary)("refuses to start with a key the server refuses", async () => {
    const proc = Bun.spawn([BINARY, "mcp"], {
      env: { ...cleanEnv(), MAILROOM_URL: base, MAILROOM_API_KEY: "mr_live_unknown" },
      stderr: "pipe",
    });
    expect(await proc.exited).toBe(2);
    expect(await new Response(proc.stderr).text()).toContain("unauthorized");
  });
});
