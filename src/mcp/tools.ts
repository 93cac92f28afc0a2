/**
 * The MCP server's tools (docs/logs-and-mcp.md#the-mcp-server): one list naming, for each tool, the API route it calls,
 * the scope that offers it and what it does to the world; its description and input schema come from the route's
 * contract, as the OpenAPI document writes it (http/contract.ts) — path parameters, query and body fields side by side
 * in one object. A route that is not mounted offers no tool, so a tool for an area still to come is listed here
 * and appears when its routes do.
 *
 * Invariants: a tool is offered only to a caller whose scopes (as the API reports them, a test key's within its
 * sandbox) include the tool's; a tool calls its route and nothing else, so what it may do is what the API lets the key
 * do; every tool that sends or changes something says so in its annotations.
 */
import type { Scope } from "../access.ts";

/** What a tool does to the world: MCP's tool annotations, by kind. */
const KINDS = {
  read: { readOnlyHint: true, openWorldHint: false },
  send: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  create: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  set: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  remove: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const;
type Kind = keyof typeof KINDS;

export interface ToolSpec {
  name: string;
  /** `METHOD /v1/path/{param}`, as the OpenAPI document names the operation. */
  route: string;
  scope: Scope | string;
  kind: Kind;
  /** Said before the route's own summary, where the summary alone would leave an agent guessing. */
  hint?: string;
}

/**
 * Every tool. Contacts, topics, segments and broadcasts name the routes of the audience API (docs/logs-and-mcp.md):
 * offered once those routes are mounted.
 */
export const TOOLS: readonly ToolSpec[] = [
  {
    name: "send_email",
    route: "POST /v1/emails",
    scope: "emails:send",
    kind: "send",
    hint: "Sends one email now or at scheduled_at; give template {id, variables} to send a saved template. A test key's mail is captured, never delivered.",
  },
  { name: "send_batch_emails", route: "POST /v1/emails/batch", scope: "emails:send", kind: "send" },
  { name: "get_email", route: "GET /v1/emails/{id}", scope: "emails:read", kind: "read" },
  { name: "list_emails", route: "GET /v1/emails", scope: "emails:read", kind: "read" },
  { name: "cancel_email", route: "POST /v1/emails/{id}/cancel", scope: "emails:send", kind: "remove" },
  { name: "get_email_metrics", route: "GET /v1/emails/metrics", scope: "emails:read", kind: "read" },
  { name: "list_templates", route: "GET /v1/templates", scope: "templates:read", kind: "read" },
  { name: "get_template", route: "GET /v1/templates/{id}", scope: "templates:read", kind: "read" },
  { name: "list_domains", route: "GET /v1/domains", scope: "domains:read", kind: "read" },
  { name: "get_domain", route: "GET /v1/domains/{id}", scope: "domains:read", kind: "read" },
  { name: "verify_domain", route: "POST /v1/domains/{id}/verify", scope: "domains:write", kind: "set" },
  { name: "list_suppressions", route: "GET /v1/suppressions", scope: "suppressions:read", kind: "read" },
  { name: "get_suppression", route: "GET /v1/suppressions/{id}", scope: "suppressions:read", kind: "read" },
  { name: "add_suppression", route: "POST /v1/suppressions", scope: "suppressions:write", kind: "set" },
  { name: "remove_suppression", route: "DELETE /v1/suppressions/{id}", scope: "suppressions:write", kind: "remove" },
  { name: "get_queue_summary", route: "GET /v1/deliveries/summary", scope: "deliveries:read", kind: "read" },
  { name: "list_logs", route: "GET /v1/logs", scope: "logs:read", kind: "read" },
  { name: "get_log", route: "GET /v1/logs/{id}", scope: "logs:read", kind: "read" },
  { name: "get_usage", route: "GET /v1/usage", scope: "organization:read", kind: "read" },
  // The audience API and broadcasts: offered when mounted.
  { name: "list_contacts", route: "GET /v1/contacts", scope: "contacts:read", kind: "read" },
  { name: "get_contact", route: "GET /v1/contacts/{id}", scope: "contacts:read", kind: "read" },
  { name: "create_contact", route: "POST /v1/contacts", scope: "contacts:write", kind: "create" },
  { name: "update_contact", route: "PATCH /v1/contacts/{id}", scope: "contacts:write", kind: "set" },
  { name: "remove_contact", route: "DELETE /v1/contacts/{id}", scope: "contacts:write", kind: "remove" },
  { name: "list_topics", route: "GET /v1/topics", scope: "contacts:read", kind: "read" },
  { name: "list_segments", route: "GET /v1/segments", scope: "contacts:read", kind: "read" },
  { name: "list_broadcasts", route: "GET /v1/broadcasts", scope: "broadcasts:read", kind: "read" },
  { name: "get_broadcast", route: "GET /v1/broadcasts/{id}", scope: "broadcasts:read", kind: "read" },
  { name: "create_broadcast", route: "POST /v1/broadcasts", scope: "broadcasts:write", kind: "create" },
  { name: "send_broadcast", route: "POST /v1/broadcasts/{id}/send", scope: "broadcasts:write", kind: "send" },
];

/** A tool as offered: its MCP definition and how to call its route. */
export interface Tool {
  spec: ToolSpec;
  method: string;
  path: string;
  definition: {
    name: string;
    title: string;
    description: string;
    inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
    annotations: (typeof KINDS)[Kind] & { title: string };
  };
  pathParams: string[];
  queryParams: string[];
  /** Body fields given at the top level of the arguments; `"whole"` when the body is not an object (`body`). */
  body: string[] | "whole" | null;
}

type Json = Record<string, unknown>;
interface Operation {
  summary?: string;
  description?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: unknown }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
}

/** `schema` with every `$ref` into the document's components written out (bounded: the document has no cycles). */
function inline(schema: unknown, components: Record<string, unknown>, depth = 0): unknown {
  if (depth > 24 || schema === null || typeof schema !== "object") return schema;
  if (Array.isArray(schema)) return schema.map((item) => inline(item, components, depth + 1));
  const ref = (schema as Json).$ref;
  if (typeof ref === "string" && ref.startsWith("#/components/schemas/"))
    return inline(components[ref.slice("#/components/schemas/".length)], components, depth + 1);
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) out[key] = inline(value, components, depth + 1);
  return out;
}

const title = (name: string) => name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

/** The tools of `TOOLS` whose routes `document` (the OpenAPI document) has, each described by its route. */
export function toolsOf(document: unknown): Tool[] {
  const doc = document as { paths?: Record<string, Record<string, Operation>>; components?: { schemas?: Json } };
  const components = doc.components?.schemas ?? {};
  const tools: Tool[] = [];
  for (const spec of TOOLS) {
    const [method, path] = spec.route.split(" ") as [string, string];
    const operation = doc.paths?.[path]?.[method.toLowerCase()];
    if (!operation) continue;
    const properties: Json = {};
    const required: string[] = [];
    const pathParams: string[] = [];
    const queryParams: string[] = [];
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in !== "path" && parameter.in !== "query") continue;
      (parameter.in === "path" ? pathParams : queryParams).push(parameter.name);
      properties[parameter.name] = {
        ...(inline(parameter.schema ?? {}, components) as Json),
        ...(parameter.description && { description: parameter.description }),
      };
      if (parameter.required) required.push(parameter.name);
    }
    let body: Tool["body"] = null;
    const bodySchema = inline(operation.requestBody?.content?.["application/json"]?.schema, components) as
      | Json
      | undefined;
    if (bodySchema && bodySchema.type === "object" && bodySchema.properties) {
      body = [];
      for (const [name, schema] of Object.entries(bodySchema.properties as Json)) {
        if (name in properties) continue;
        body.push(name);
        properties[name] = schema;
      }
      for (const name of (bodySchema.required as string[] | undefined) ?? [])
        if (body.includes(name)) required.push(name);
    } else if (bodySchema) {
      body = "whole";
      properties.body = bodySchema;
      if (operation.requestBody?.required) required.push("body");
    }
    const description = [spec.hint, operation.summary, operation.description].filter(Boolean).join(" ");
    tools.push({
      spec,
      method,
      path,
      pathParams,
      queryParams,
      body,
      definition: {
        name: spec.name,
        title: title(spec.name),
        description: `${description} (${method} ${path}; scope ${spec.scope})`,
        inputSchema: { type: "object", properties, ...(required.length && { required }) },
        annotations: { title: title(spec.name), ...KINDS[spec.kind] },
      },
    });
  }
  return tools;
}

/** The request a tool's call makes: its route's path with the arguments' parameters, query and body. */
export function requestOf(tool: Tool, args: Json, base: string, headers: Record<string, string>): Request {
  let path = tool.path;
  for (const name of tool.pathParams) {
    const value = args[name];
    if (value === undefined || value === null || value === "") throw new ToolInputError(`${name} is required`);
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  }
  const url = new URL(path, base);
  for (const name of tool.queryParams) {
    const value = args[name];
    if (value !== undefined && value !== null)
      url.searchParams.set(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  let body: string | undefined;
  if (tool.body === "whole") body = JSON.stringify(args.body ?? null);
  else if (tool.body) {
    const fields: Json = {};
    for (const name of tool.body) if (args[name] !== undefined) fields[name] = args[name];
    body = JSON.stringify(fields);
  }
  return new Request(url.href, {
    method: tool.method,
    headers: { ...headers, ...(body !== undefined && { "content-type": "application/json" }) },
    body,
  });
}

/** Arguments that cannot make a request (a path parameter missing): a tool error, as the API's would be. */
export class ToolInputError extends Error {}
