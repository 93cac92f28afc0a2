/**
 * One contract per route (docs/architecture.md#one-contract-per-route): a route is declared once — method, path,
 * path parameters, query, body and every answer as TypeBox schemas — and that one declaration checks the request,
 * types the handler (its input, and the answer it may return), and writes the route's OpenAPI operation. The areas
 * declare their routes with `route(contract, handler)` and mount them with `mount(app, deps, routes)`.
 *
 * Invariants: a request reaches its handler only with params, query and body of their schemas' shapes (400
 * `validation_error` naming each field otherwise, through the one error table); the body is read by the one body
 * reader (size, rate and depth limits); a schema given a `$id` (`named`) is written once under
 * `components.schemas` and referred to elsewhere, so the client types generated from the document get its name.
 */
import { Kind, type Static, type TObject, type TSchema, Type as t } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { Actor } from "../access.ts";
import { ERROR_TABLE, type ErrorName } from "../errors.ts";
import { named } from "../lib/wire.ts";
import { checkShape } from "../shape-check.ts";
import { type BodyLimits, readBody, readJsonBody } from "./body.ts";
import type { RequestServer } from "./client.ts";
import { traceOf } from "./request-trace.ts";

/** The schemas given a name: each is one entry of `components.schemas` (read by docs.ts when it writes the document). */
export const NAMED_SCHEMAS: Record<string, unknown> = {};

/** Every failure's body (docs/errors.md#the-error-body). */
export const ErrorSchema = named(
  "Error",
  t.Object({
    error: t.String({ description: "The HTTP reason phrase" }),
    name: t.Union(
      (Object.keys(ERROR_TABLE) as ErrorName[]).map((name) => t.Literal(name)),
      { description: "What went wrong, from the one error table" },
    ),
    message: t.String(),
    statusCode: t.Integer(),
    details: t.Optional(t.Array(t.Object({ path: t.String(), message: t.String() }))),
    request_id: t.Optional(t.String()),
  }),
);

/** An answer that is not JSON (a raw message, a file): documented by its media type. */
export interface BinaryAnswer {
  contentType: string;
  description: string;
}

/** A redirect the route answers with (its `Location` header), described. */
export interface Redirect {
  redirect: string;
}

type Answers = Partial<Record<200 | 201 | 202, TSchema | BinaryAnswer>> & {
  204?: null;
  302?: Redirect;
  303?: Redirect;
};

export interface Contract {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** No credential (the route's own token or password is its authority). Default: an API key or a session. */
  open?: boolean;
  params?: TObject;
  query?: TObject;
  body?: TSchema;
  /** An empty body is the same as `{}` (a POST whose fields are all optional). */
  optionalBody?: boolean;
  /**
   * The handler checks the body against `body` itself and gets it as read (JSON, by the one body reader, typed
   * `unknown`): where the check belongs to the area's funnel — a send body's shape and rules reported in one answer,
   * the same check the SMTP relay's templated messages pass — or to each item of a batch, which a permissive batch
   * answers by its index rather than refusing whole. `body` is still what the document shows.
   */
  checksOwnBody?: true;
  /**
   * The body's media type when its sender does not say application/json: the body is read as JSON whatever its
   * Content-Type (Amazon SNS posts JSON as text/plain), checked against `body`, and documented under this type.
   */
  bodyMediaType?: string;
  responses: Answers;
  /** Failures beyond those the route's shape implies (401/403/429 with a credential, 400 with input, 404 with an id). */
  errors?: ErrorName[];
  /** Request headers the route reads, documented (e.g. Idempotency-Key). */
  headers?: Array<{ name: string; description: string; schema: Record<string, unknown> }>;
}

type StaticOr<S, D> = S extends TSchema ? Static<S> : D;
type SuccessSchema<C extends Contract> = C["responses"][200] extends TSchema
  ? C["responses"][200]
  : C["responses"][201] extends TSchema
    ? C["responses"][201]
    : C["responses"][202] extends TSchema
      ? C["responses"][202]
      : never;

/** What the handler of `C` may answer: its success schema's type (a `Response` where an answer is not JSON). */
export type AnswerOf<C extends Contract> = [SuccessSchema<C>] extends [never]
  ? C["responses"][204] extends null
    ? undefined
    : Response
  :
      | Static<SuccessSchema<C>>
      | (C["responses"] extends { 200: BinaryAnswer } | { 302: Redirect } | { 303: Redirect } ? Response : never);

export interface RouteInput<C extends Contract> {
  actor: C["open"] extends true ? undefined : Actor;
  params: StaticOr<C["params"], Record<string, never>>;
  query: StaticOr<C["query"], Record<string, never>>;
  body: C["checksOwnBody"] extends true ? unknown : StaticOr<C["body"], undefined>;
  request: Request;
  set: { status?: number | string; headers: Record<string, string | string[]> };
  server: RequestServer;
}

export interface Route<C extends Contract = Contract> {
  contract: C;
  handle(input: RouteInput<C>): AnswerOf<C> | Promise<AnswerOf<C>>;
}

/** A route: its contract and the handler the contract types. */
export const route = <const C extends Contract>(contract: C, handle: Route<C>["handle"]): Route<C> => ({
  contract,
  handle,
});

/** Query values arrive as strings: numbers and booleans are read as their schema says, then checked. */
function readQuery(schema: TObject, raw: Record<string, string | undefined>): unknown {
  const known: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (value !== undefined) known[key] = value;
  return Value.Convert(schema, known);
}

/** What Elysia hands a handler, as far as `mount` reads it (the actor from the authenticating plugin). */
interface RawContext {
  actor?: Actor;
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  request: Request;
  set: RouteInput<Contract>["set"];
  server: RequestServer;
}
type Verb = Lowercase<Contract["method"]>;
type Registrar = Record<Verb, (path: string, handler: (ctx: RawContext) => unknown, hooks: object) => unknown>;

/**
 * Each contract's parameters by operation (`get /v1/webhooks/{id}/events`). The OpenAPI plugin writes a route's
 * path parameters over those its detail gives (losing the query and the descriptions), so the document's route
 * (docs.ts) puts these back with `withContractParameters`.
 */
const PARAMETERS = new Map<string, unknown[]>();

/** `document` (the OpenAPI plugin's) with every contract's own parameters, in place. */
export function withContractParameters(document: unknown): unknown {
  const paths = (document as { paths?: Record<string, Record<string, { parameters?: unknown[] }>> }).paths;
  for (const [path, item] of Object.entries(paths ?? {}))
    for (const [method, operation] of Object.entries(item)) {
      const parameters = PARAMETERS.get(`${method} ${path}`);
      if (parameters) operation.parameters = parameters;
    }
  return document;
}

/** Mounts `routes` on `app` (which authenticates, unless every route is open), each checked by its contract. */
export function mount<A>(app: A, limits: BodyLimits, routes: Route<Contract>[]): A {
  for (const { contract, handle } of routes) {
    const verb = contract.method.toLowerCase() as Verb;
    const detail = operationOf(contract);
    if (detail.parameters) PARAMETERS.set(`${verb} ${contract.path.replace(/:(\w+)/g, "{$1}")}`, detail.parameters);
    (app as unknown as Registrar)[verb](
      contract.path,
      async (ctx) => {
        const params = contract.params ? checkShape(contract.params, ctx.params ?? {}) : {};
        const query = contract.query ? checkShape(contract.query, readQuery(contract.query, ctx.query ?? {})) : {};
        const body = !contract.body
          ? undefined
          : contract.checksOwnBody
            ? await readJsonBody(ctx.request, limits)
            : contract.bodyMediaType
              ? checkShape(contract.body, await readJsonBody(ctx.request, limits, { anyContentType: true }))
              : await readBody(ctx.request, limits, contract.body, { optional: contract.optionalBody });
        const answer = await handle({
          actor: ctx.actor,
          params,
          query,
          body,
          request: ctx.request,
          set: ctx.set,
          server: ctx.server,
        } as RouteInput<Contract>);
        // Elysia's status starts at 200: a route whose success is 201 says so unless its handler chose otherwise.
        if (contract.responses[201] && (ctx.set.status === undefined || ctx.set.status === 200)) ctx.set.status = 201;
        if (!(answer instanceof Response)) traceOf(ctx.request).answer = answer;
        if ("204" in contract.responses && answer === undefined)
          return new Response(null, { status: 204, headers: ctx.set.headers as Record<string, string> });
        return answer;
      },
      { parse: "none", detail },
    );
  }
  return app;
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/**
 * `schema` as JSON Schema for the document: TypeBox's symbols dropped, each named schema inside it written as a
 * reference, and the named schemas met on the way recorded in NAMED_SCHEMAS (once, by their own definition).
 */
export function documented(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((item) => documented(item));
  if (!schema || typeof schema !== "object") return schema;
  const { $id, ...rest } = schema as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) body[key] = documented(value);
  // A union of string literals is an enum to every reader of the document (and to the client generators).
  const options = body.anyOf as Array<Record<string, unknown>> | undefined;
  if (
    options?.length &&
    options.every((option) => typeof option.const === "string" && Object.keys(option).length <= 2)
  ) {
    delete body.anyOf;
    body.type = "string";
    body.enum = options.map((option) => option.const);
  }
  if (typeof $id !== "string") return body;
  NAMED_SCHEMAS[$id] = body;
  return ref($id);
}

/** The failures a route can answer with, from its shape and its own list. */
function errorsOf(contract: Contract): ErrorName[] {
  const names = new Set<ErrorName>(contract.errors ?? []);
  if (!contract.open)
    for (const name of ["unauthorized", "insufficient_scope", "rate_limit_exceeded"] as const) names.add(name);
  if (contract.query || contract.body || contract.params) names.add("validation_error");
  if (contract.body) names.add("payload_too_large");
  if (contract.params) names.add("not_found");
  names.add("internal_error");
  names.add("service_unavailable");
  return [...names];
}

/** The OpenAPI operation of `contract` (parameters, request body, every answer). */
export function operationOf(contract: Contract) {
  const parameters: unknown[] = [];
  for (const [where, schema] of [
    ["path", contract.params],
    ["query", contract.query],
  ] as const) {
    if (!schema) continue;
    const required = new Set(schema.required ?? []);
    for (const [name, property] of Object.entries(schema.properties)) {
      const { description, ...rest } = documented(property) as Record<string, unknown>;
      parameters.push({ name, in: where, required: where === "path" || required.has(name), description, schema: rest });
    }
  }
  for (const header of contract.headers ?? [])
    parameters.push({
      name: header.name,
      in: "header",
      required: false,
      description: header.description,
      schema: header.schema,
    });
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(contract.responses)) {
    if (answer === null || answer === undefined) {
      responses[status] = { description: "Done; no body" };
      continue;
    }
    if ("redirect" in (answer as object)) {
      responses[status] = {
        description: (answer as Redirect).redirect,
        headers: { Location: { schema: { type: "string" } } },
      };
      continue;
    }
    if (!(Kind in (answer as object))) {
      const binary = answer as BinaryAnswer;
      responses[status] = {
        description: binary.description,
        content: { [binary.contentType]: { schema: { type: "string", format: "binary" } } },
      };
      continue;
    }
    responses[status] = { description: "Success", content: { "application/json": { schema: documented(answer) } } };
  }
  for (const name of errorsOf(contract)) {
    const status = String(ERROR_TABLE[name].status);
    const existing = responses[status] as { description: string } | undefined;
    responses[status] = {
      description: existing ? `${existing.description}, ${name}` : name,
      content: { "application/json": { schema: documented(ErrorSchema) } },
    };
  }
  return {
    summary: contract.summary,
    ...(contract.description && { description: contract.description }),
    tags: contract.tags,
    ...(contract.open && { security: [] }),
    ...(parameters.length && { parameters }),
    ...(contract.body && {
      requestBody: {
        required: !contract.optionalBody,
        content: { [contract.bodyMediaType ?? "application/json"]: { schema: documented(contract.body) } },
      },
    }),
    responses,
  };
}
