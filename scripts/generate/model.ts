/**
 * A language-neutral model of the OpenAPI document's types, which the four emitters print: every named schema
 * (`components.schemas`, from the routes' `named()` schemas) as a declaration, and every operation's request body
 * and success answer. The model owns the reading of JSON Schema (TypeBox's output as http/contract.ts documents it),
 * so each emitter only maps its kinds to a language; a kind it does not know is refused here, never printed wrong.
 *
 * Inline objects inside a named schema are hoisted into declarations of their own (`ErrorBody.details[]` →
 * `ErrorBodyDetail`), because Go structs and Python TypedDicts need a name; the TypeScript emitter prints them too,
 * so the four libraries share every name. Declarations are sorted by name: the output does not depend on the order
 * in which the server happened to mount its routes.
 */
import type { JsonSchema, OpenApiDocument } from "./document.ts";

export type Type =
  | { kind: "string"; format?: string }
  /** `minimum`: the least value the server takes, when it says (a Go body field at least 1 needs no pointer). */
  | { kind: "integer"; minimum?: number }
  | { kind: "number"; minimum?: number }
  | { kind: "boolean" }
  | { kind: "unknown" }
  | { kind: "literal"; value: string | number | boolean }
  | { kind: "enum"; values: string[] }
  | { kind: "array"; items: Type }
  | { kind: "map"; values: Type }
  /** `bases`: the named objects whose fields it has too (an `allOf` of references and one object of its own). */
  | { kind: "object"; fields: Field[]; bases?: string[] }
  | { kind: "union"; options: Type[] }
  | { kind: "nullable"; type: Type }
  | { kind: "ref"; name: string };

export interface Field {
  /** The wire's name (snake_case). */
  name: string;
  type: Type;
  /** May be absent (not in `required`). Independent of `nullable`, which is a present null. */
  optional: boolean;
  description?: string;
}

/** How a declaration is used: in a request body (and whether a PATCH's, where null clears), in an answer. */
export interface Usage {
  body: boolean;
  patch: boolean;
  answer: boolean;
}

export interface Declaration {
  name: string;
  description?: string;
  /** An object, an enum, or (rarely) another kind named as an alias. */
  type: Type;
  usage: Usage;
  /** Hoisted from a field of another declaration (its name derived), rather than named by the server. */
  derived: boolean;
  /** The operations (`METHOD /path`) whose answer, or whose request body, refers to it directly. */
  answerOf: string[];
  bodyOf: string[];
}

export interface Operation {
  method: string;
  path: string;
  summary?: string;
  /** The JSON request body, if any. */
  body?: Type;
  /** The success answer's JSON body (the first 2xx with one), if any. */
  answer?: Type;
  /** That answer's status. */
  status?: number;
}

export interface Model {
  declarations: Declaration[];
  operations: Operation[];
}

/**
 * Document names that would shadow something every library already has: `Error` is the global of TypeScript, the
 * Go client's error type and Python's builtin. The failure body is `ErrorBody` in all four.
 */
export const RENAMED: Record<string, string> = { Error: "ErrorBody" };

const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");

/** `details` → `Detail`, `addresses` → `Address`, `policies` → `Policy`: the name of one item of an array field. */
export function singular(name: string): string {
  if (/ies$/.test(name)) return `${name.slice(0, -3)}y`;
  if (/(ss|us|x|ch|sh)es$/.test(name)) return name.slice(0, -2);
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return name;
}

const refName = (ref: string) => {
  const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
  if (!match) throw new Error(`a $ref outside components.schemas has no reader: ${ref}`);
  return RENAMED[match[1]!] ?? match[1]!;
};

/** Reads the document into declarations (named and hoisted) and operations. */
export function buildModel(document: OpenApiDocument): Model {
  const declarations = new Map<string, Declaration>();

  const declare = (name: string, type: Type, description: string | undefined, derived: boolean) => {
    if (declarations.has(name)) throw new Error(`two declarations would be named ${name}`);
    declarations.set(name, {
      name,
      type,
      description,
      derived,
      usage: { body: false, patch: false, answer: false },
      answerOf: [],
      bodyOf: [],
    });
  };

  /** The type of `schema`; `hoist` names an inline object (`null`: leave it inline, as operations do). */
  const read = (schema: JsonSchema, hoist: string | null): Type => {
    if (typeof schema.$ref === "string") return { kind: "ref", name: refName(schema.$ref) };
    if (Array.isArray(schema.allOf)) return readObject(schema, hoist);
    if ("const" in schema) {
      const value = schema.const;
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
        throw new Error(`a const of ${typeof value} has no reader`);
      return { kind: "literal", value };
    }
    if (Array.isArray(schema.enum)) {
      if (!schema.enum.every((value) => typeof value === "string")) throw new Error("an enum of non-strings");
      return { kind: "enum", values: schema.enum as string[] };
    }
    const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (options) {
      const nullable = options.some((option) => option.type === "null");
      const rest = options.filter((option) => option.type !== "null");
      let inner: Type;
      if (rest.length === 1) inner = read(rest[0]!, hoist);
      else if (rest.every((option) => typeof option.const === "string"))
        inner = { kind: "enum", values: rest.map((option) => option.const as string) };
      else inner = { kind: "union", options: rest.map((option) => read(option, hoist)) };
      return nullable ? { kind: "nullable", type: inner } : inner;
    }
    switch (schema.type) {
      case "string":
        return typeof schema.format === "string" ? { kind: "string", format: schema.format } : { kind: "string" };
      case "integer":
      case "number":
        return typeof schema.minimum === "number"
          ? { kind: schema.type, minimum: schema.minimum }
          : { kind: schema.type };
      case "boolean":
        return { kind: "boolean" };
      case "null":
        return { kind: "nullable", type: { kind: "unknown" } };
      case "array":
        return {
          kind: "array",
          items: schema.items ? read(schema.items as JsonSchema, hoist && singular(hoist)) : { kind: "unknown" },
        };
      case "object":
        return readObject(schema, hoist);
      case undefined:
        return { kind: "unknown" };
      default:
        throw new Error(`no reader for JSON Schema type ${String(schema.type)}`);
    }
  };

  /** An object's fields; inline objects among them hoist under `${hoist}${Field}` unless `hoist` is null. */
  const readFields = (schema: JsonSchema, hoist: string | null): Field[] => {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    return Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, property]) => ({
      name,
      type: read(property, hoist && `${hoist}${pascal(name)}`),
      optional: !required.has(name),
      ...(typeof property.description === "string" && { description: property.description }),
    }));
  };

  /** An `allOf`: the references become bases, the inline objects' fields its own. */
  const readAllOf = (schema: JsonSchema, hoist: string | null): Extract<Type, { kind: "object" }> => {
    const bases: string[] = [];
    const fields: Field[] = [];
    for (const part of schema.allOf as JsonSchema[]) {
      if (typeof part.$ref === "string") bases.push(refName(part.$ref));
      else if (part.type === "object" && part.properties) fields.push(...readFields(part, hoist));
      else throw new Error("an allOf part that is neither a reference nor an object has no reader");
    }
    return { kind: "object", fields, bases };
  };

  const readObject = (schema: JsonSchema, hoist: string | null): Type => {
    if (Array.isArray(schema.allOf)) {
      if (hoist === null) return readAllOf(schema, null);
      declare(hoist, readAllOf(schema, hoist), schema.description as string | undefined, true);
      return { kind: "ref", name: hoist };
    }
    if (!schema.properties) {
      const patterns = schema.patternProperties as Record<string, JsonSchema> | undefined;
      const values = patterns ? Object.values(patterns)[0] : (schema.additionalProperties as JsonSchema | undefined);
      return { kind: "map", values: values && typeof values === "object" ? read(values, null) : { kind: "unknown" } };
    }
    if (hoist === null) return { kind: "object", fields: readFields(schema, null) };
    declare(
      hoist,
      { kind: "object", fields: readFields(schema, hoist) },
      schema.description as string | undefined,
      true,
    );
    return { kind: "ref", name: hoist };
  };

  for (const [documentName, schema] of Object.entries(document.components.schemas)) {
    const name = RENAMED[documentName] ?? documentName;
    // A named object is the declaration itself; its inline objects hoist under its name.
    const type: Type = Array.isArray(schema.allOf)
      ? readAllOf(schema, name)
      : schema.type === "object" && schema.properties
        ? { kind: "object", fields: readFields(schema, name) }
        : read(schema, `${name}Item`);
    declare(name, type, schema.description as string | undefined, false);
  }

  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
      const success = Object.entries(operation.responses ?? {}).find(
        ([status, answer]) => status.startsWith("2") && answer.content?.["application/json"]?.schema,
      );
      operations.push({
        method: method.toUpperCase(),
        path,
        ...(operation.summary && { summary: operation.summary }),
        ...(bodySchema && { body: read(bodySchema, null) }),
        ...(success && { answer: read(success[1].content!["application/json"]!.schema!, null), status: +success[0] }),
      });
    }
  }
  operations.sort((a, b) => (a.path === b.path ? a.method.localeCompare(b.method) : a.path.localeCompare(b.path)));

  markUsage(declarations, operations);
  return {
    declarations: [...declarations.values()].sort((a, b) => a.name.localeCompare(b.name)),
    operations,
  };
}

/** The names `type` refers to, directly or through its parts. */
export function references(type: Type, into = new Set<string>()): Set<string> {
  switch (type.kind) {
    case "ref":
      into.add(type.name);
      break;
    case "array":
      references(type.items, into);
      break;
    case "map":
      references(type.values, into);
      break;
    case "nullable":
      references(type.type, into);
      break;
    case "union":
      for (const option of type.options) references(option, into);
      break;
    case "object":
      for (const base of type.bases ?? []) into.add(base);
      for (const field of type.fields) references(field.type, into);
      break;
  }
  return into;
}

/** Marks each declaration reachable from a request body (and a PATCH's) or from an answer. */
function markUsage(declarations: Map<string, Declaration>, operations: Operation[]) {
  const visit = (type: Type, mark: (usage: Usage) => void, seen = new Set<string>()) => {
    for (const name of references(type)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const declaration = declarations.get(name);
      if (!declaration) throw new Error(`a reference to ${name}, which the document does not name`);
      mark(declaration.usage);
      visit(declaration.type, mark, seen);
    }
  };
  for (const operation of operations) {
    const key = `${operation.method} ${operation.path}`;
    for (const name of references(operation.body ?? { kind: "unknown" })) declarations.get(name)?.bodyOf.push(key);
    for (const name of references(operation.answer ?? { kind: "unknown" })) declarations.get(name)?.answerOf.push(key);
    if (operation.body)
      visit(operation.body, (usage) => {
        usage.body = true;
        if (operation.method === "PATCH") usage.patch = true;
      });
    if (operation.answer) visit(operation.answer, (usage) => (usage.answer = true));
  }
}

/** Declarations in an order where each comes after those it refers to (Python evaluates some types as it reads). */
export function dependencyOrder(declarations: Declaration[]): Declaration[] {
  const byName = new Map(declarations.map((declaration) => [declaration.name, declaration]));
  const ordered: Declaration[] = [];
  const placed = new Set<string>();
  const place = (declaration: Declaration, path: Set<string>) => {
    if (placed.has(declaration.name) || path.has(declaration.name)) return;
    path.add(declaration.name);
    for (const name of [...references(declaration.type)].sort()) {
      const dependency = byName.get(name);
      if (dependency) place(dependency, path);
    }
    path.delete(declaration.name);
    placed.add(declaration.name);
    ordered.push(declaration);
  };
  for (const declaration of declarations) place(declaration, new Set());
  return ordered;
}

/** A description as one line (the emitters wrap it). */
export const oneLine = (text: string | undefined) => text?.replace(/\s+/g, " ").trim();

/** Splits `text` into lines of at most `width` characters at spaces. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

export { pascal };

/** `text` as a sentence: its own words, ending with a full stop. */
export const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** What a declaration's documentation says: its description, and the operations that answer with it or take it. */
export function aboutDeclaration(declaration: Declaration): string {
  const parts: string[] = [];
  const description = oneLine(declaration.description);
  if (description) parts.push(sentence(description));
  if (declaration.answerOf.length) parts.push(`Answered by ${declaration.answerOf.join(", ")}.`);
  if (declaration.bodyOf.length) parts.push(`Sent to ${declaration.bodyOf.join(", ")}.`);
  return parts.join(" ");
}

/** The one line each generated file starts with (after what its language requires first). */
export const GENERATED = "Generated from the OpenAPI document by `npm run generate` — do not edit.";
