/**
 * The model and the four emitters on a small document, one row per rule: what each kind of JSON Schema becomes in
 * TypeScript, Python, Go and Ruby. The pins of the Node client's types to the server's (test/wire-responses.check.ts)
 * were dropped once the types were generated; these rows are what keeps the printing itself honest.
 */
import { describe, expect, test } from "bun:test";
import type { OpenApiDocument } from "./document.ts";
import { emitGo } from "./go.ts";
import { buildModel } from "./model.ts";
import { emitPython } from "./python.ts";
import { emitRuby } from "./ruby.ts";
import { emitTypeScript } from "./typescript.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: object) => ({ anyOf: [schema, { type: "null" }] });

const DOCUMENT: OpenApiDocument = {
  components: {
    schemas: {
      Colour: { type: "string", enum: ["red", "green"], description: "A colour" },
      Thing: {
        type: "object",
        description: "A thing",
        required: ["object", "id", "note", "count", "tags", "colour", "inner", "map"],
        properties: {
          object: { const: "thing", type: "string" },
          id: { type: "string", format: "uuid", description: "The thing's id" },
          note: nullable({ type: "string" }),
          count: nullable({ type: "integer" }),
          tags: { type: "array", items: { type: "string" } },
          colour: ref("Colour"),
          inner: { type: "object", required: ["a"], properties: { a: { type: "boolean" } } },
          map: { type: "object", patternProperties: { "^(.*)$": { type: "number" } } },
          size: { type: "integer" },
        },
      },
      BigThing: {
        type: "object",
        allOf: [ref("Thing"), { type: "object", required: ["extra"], properties: { extra: { type: "string" } } }],
      },
      CreateThingOptions: {
        type: "object",
        required: ["from"],
        properties: {
          from: { type: "string" },
          flag: { type: "boolean" },
          limit: { type: "integer", minimum: 1 },
          to: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
        },
      },
      UpdateThingOptions: {
        type: "object",
        properties: { note: nullable({ type: "string" }), count: nullable({ type: "integer", minimum: 1 }) },
      },
      Error: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
    },
  },
  paths: {
    "/v1/things": {
      post: {
        requestBody: { content: { "application/json": { schema: ref("CreateThingOptions") } } },
        responses: { "201": { content: { "application/json": { schema: ref("BigThing") } } } },
      },
    },
    "/v1/things/{id}": {
      get: { responses: { "200": { content: { "application/json": { schema: ref("Thing") } } } } },
      patch: {
        requestBody: { content: { "application/json": { schema: ref("UpdateThingOptions") } } },
        responses: { "200": { content: { "application/json": { schema: ref("Thing") } } } },
      },
    },
  },
};

const model = buildModel(DOCUMENT);
const output = {
  typescript: emitTypeScript(model),
  python: emitPython(model),
  go: emitGo(model),
  ruby: emitRuby(model),
};

describe("the model", () => {
  test("declares every named schema, hoists inline objects, renames Error, sorts by name", () => {
    expect(model.declarations.map((declaration) => declaration.name)).toEqual([
      "BigThing",
      "Colour",
      "CreateThingOptions",
      "ErrorBody",
      "Thing",
      "ThingInner",
      "UpdateThingOptions",
    ]);
  });

  test("knows which declarations an operation answers with or takes, and which are a PATCH's body", () => {
    const byName = new Map(model.declarations.map((declaration) => [declaration.name, declaration]));
    expect(byName.get("Thing")!.answerOf).toEqual(["GET /v1/things/{id}", "PATCH /v1/things/{id}"]);
    expect(byName.get("CreateThingOptions")!.bodyOf).toEqual(["POST /v1/things"]);
    expect(byName.get("UpdateThingOptions")!.usage).toEqual({ body: true, patch: true, answer: false });
    // Reached through BigThing's base: an answer too.
    expect(byName.get("Thing")!.usage.answer).toBe(true);
  });
});

/** [what, language, a line (or lines) the output holds]. */
const ROWS: Array<[string, keyof typeof output, string]> = [
  ["each file says it is generated", "typescript", "// Generated from the OpenAPI document by `npm run generate`"],
  ["each file says it is generated", "python", "# Generated from the OpenAPI document by `npm run generate`"],
  [
    "each file says it is generated",
    "go",
    "// Code generated from the OpenAPI document by `npm run generate` — DO NOT EDIT.",
  ],
  ["each file says it is generated", "ruby", "# Generated from the OpenAPI document by `npm run generate`"],
  ["a const is a literal", "typescript", '  object: "thing";'],
  ["a const is a literal", "python", '    object: Literal["thing"]'],
  ["a nullable string", "typescript", "  note: string | null;"],
  ["a nullable string", "python", "    note: Optional[str]"],
  ["a nullable string reads as empty in Go", "go", '\tNote   string         `json:"note"`'],
  ["a nullable string", "ruby", '      note: "String or nil",'],
  ["a nullable number is a pointer in Go", "go", '\tCount  *int           `json:"count"`'],
  ["an optional field", "typescript", "  size?: number;"],
  ["an optional field of an answer", "go", '\tSize   int            `json:"size,omitempty"`'],
  ["an optional field", "ruby", '      size: "optional: Integer",'],
  ["a field's description is its doc", "typescript", "  /** The thing's id. */"],
  ["a field's description is its doc", "python", '    """The thing\'s id."""'],
  ["a field's description is its doc", "go", "\t// Id is the thing's id."],
  ["an enum", "typescript", 'export type Colour = "red" | "green";'],
  ["an enum", "python", 'Colour = Literal["red", "green"]'],
  ["an enum is a string type with its constants in Go", "go", '\tColourRed   Colour = "red"'],
  ["an enum", "ruby", "    Colour = %w[red green].freeze"],
  ["an inline object is hoisted under its field's name", "typescript", "  inner: ThingInner;"],
  ["an inline object is hoisted under its field's name", "go", '\tInner  ThingInner     `json:"inner"`'],
  ["a map", "typescript", "  map: Record<string, number>;"],
  ["a map", "python", "    map: Dict[str, float]"],
  ["a map", "go", '\tMap    map[string]float64 `json:"map"`'],
  ["an allOf of a reference extends it", "typescript", "export interface BigThing extends Thing {"],
  ["an allOf of a reference extends it", "python", "class BigThing(Thing):"],
  ["an allOf of a reference embeds it", "go", "type BigThing struct {\n\tThing\n"],
  ["an allOf of a reference splats it", "ruby", "      **Thing,"],
  ["a key that is a Python keyword takes the functional syntax", "python", '    "from": str,'],
  ["an optional boolean of a body is a pointer, so false can be sent", "go", '\tFlag  *bool  `json:"flag,omitempty"`'],
  ["an optional number taken from 1 up needs no pointer", "go", '\tLimit int    `json:"limit,omitempty"`'],
  ["a union other than of strings is any in Go", "go", '\tTo    any    `json:"to,omitempty"`'],
  ["a required string of a body is left out when empty", "go", '\tFrom  string `json:"from,omitempty"`'],
  ["a PATCH body's nullable field is a Nullable", "go", '\tNote  *Nullable[string] `json:"note,omitempty"`'],
  ["the failure body is ErrorBody", "typescript", "export interface ErrorBody {"],
];

describe("the emitters", () => {
  // Alignment is gofmt's business (the generated file is checked as gofmt prints it): runs of spaces compare as one.
  const squeezed = (text: string) => text.replace(/ {2,}/g, " ");
  test.each(ROWS)("%s (%s)", (_what, language, line) => {
    expect(squeezed(output[language])).toContain(squeezed(line));
  });

  test("the Python module imports only what it uses and reads as Python 3.8 (no NotRequired, no `|`)", () => {
    expect(output.python).toContain("from typing import Dict, List, Literal, Optional, TypedDict, Union");
    expect(output.python).not.toContain("NotRequired");
    expect(output.python).not.toMatch(/: \w+ \| /);
  });

  test("no line of the Go, Python or Ruby files is longer than 120 characters", () => {
    for (const language of ["go", "python", "ruby"] as const)
      for (const line of output[language].split("\n")) expect(line.length).toBeLessThanOrEqual(120);
  });
});
