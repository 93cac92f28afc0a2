/**
 * One definition per request body (issue 25): every route with a JSON body validates it with the schema its OpenAPI
 * document shows. For each documented request body, a body that breaks the documented schema — a field of a type
 * the schema does not allow, a field the schema does not name where it refuses others — must be a 400
 * `validation_error` naming that field. A route that documents one shape and checks another fails here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";

interface Schema {
  $ref?: string;
  type?: string;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
}

let t: TestApp;
let spec: {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};

beforeAll(async () => {
  // One request per documented body and more: beyond the default 100 a minute per key.
  t = await createTestApp({ limits: { key_requests_per_minute: 100_000, org_requests_per_minute: 100_000 } });
  spec = (await t.json("GET", "/openapi.json", { key: null })).body;
});
afterAll(() => t.close());

const ID = "01a20000-0000-7000-8000-000000000000";
const CANDIDATES: unknown[] = [12345, "text", true, { nested: 1 }, ["item"]];

/** A named schema (`$ref`) as the document defines it under components.schemas. */
const resolved = (schema: Schema): Schema =>
  schema.$ref ? spec.components.schemas[schema.$ref.split("/").pop()!]! : schema;
const typesOf = (schema: Schema): string[] =>
  schema.$ref
    ? typesOf(resolved(schema))
    : schema.anyOf
      ? schema.anyOf.flatMap(typesOf)
      : schema.type
        ? [schema.type]
        : [];
const jsonType = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);
const fits = (types: string[], value: unknown) =>
  types.includes(jsonType(value)) || (typeof value === "number" && types.includes("integer"));

/** A body breaking `schema` at one field, and the path the answer must name. */
function violation(named: Schema, prefix = ""): { body: unknown; path: string } {
  const schema = resolved(named);
  if (schema.type === "array" && schema.items) {
    const inner = violation(schema.items, `${prefix}0.`);
    return { body: [inner.body], path: inner.path };
  }
  const properties = Object.entries(schema.properties ?? {});
  const [name, field] = properties.find(([key]) => schema.required?.includes(key)) ?? properties[0]!;
  const types = typesOf(field);
  const wrong = CANDIDATES.find((value) => !fits(types, value));
  return { body: { [name]: wrong }, path: `${prefix}${name}` };
}

const documented = () =>
  Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) => {
      const schema = operation.requestBody?.content["application/json"]?.schema;
      return schema
        ? [{ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, ID), schema: resolved(schema) }]
        : [];
    }),
  );

describe("every documented request body is the one checked", () => {
  test("the routes that read a JSON body document it", () => {
    const paths = documented().map((route) => `${route.method} ${route.path}`);
    for (const route of ["POST /v1/emails", "POST /v1/emails/batch", "POST /v1/templates", "PATCH /v1/domains/"])
      expect(paths.some((path) => path.startsWith(route))).toBe(true);
    expect(paths.length).toBeGreaterThanOrEqual(20);
  });

  test("a field of a type its schema does not allow is refused, named by its path", async () => {
    for (const { method, path, schema } of documented()) {
      const { body, path: field } = violation(schema);
      const res = await t.json(method, path, { body });
      expect({ route: `${method} ${path}`, status: res.status, name: res.body.name }).toEqual({
        route: `${method} ${path}`,
        status: 400,
        name: "validation_error",
      });
      expect(res.body.details.map((detail: { path: string }) => detail.path)).toContain(field);
    }
  });

  test("a field the schema does not name is refused where the schema refuses others", async () => {
    for (const { method, path, schema } of documented()) {
      const object = schema.type === "array" ? resolved(schema.items!) : schema;
      if (object.additionalProperties !== false) continue;
      const body = schema.type === "array" ? [{ not_a_field: 1 }] : { not_a_field: 1 };
      const res = await t.json(method, path, { body });
      expect(res.status).toBe(400);
      expect(res.body.details).toContainEqual({
        path: schema.type === "array" ? "0.not_a_field" : "not_a_field",
        message: "unknown field",
      });
    }
  });

  test("a body of 200,000 wrong items names its first hundred problems, not all of them", async () => {
    // Every error used to be gathered before the first was named: a million of them held the event loop ~5 s.
    const res = await t.json("POST", "/v1/emails", {
      body: { from: "a@example.com", subject: "s", text: "t", to: Array.from({ length: 200_000 }, () => 1) },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveLength(100);
    expect(res.body.details[0]).toEqual({ path: "to.0", message: "must be a string, got number" });
  });
});
