/**
 * Checks a value against the TypeBox schema that documents it, so a request body has one definition: the schema in
 * the OpenAPI document is the one that decides its shape (type of each field, required, unknown fields, enums).
 * What is not shape — an address parses, a date is ahead, a name is free — stays with each area's validate.ts.
 *
 * Invariants: each schema is compiled once; every problem is reported with its dotted path (`to.1`,
 * `attachments.0.filename`) in Mailroom's words, one per path; `format` keywords document and do not refuse (the
 * semantic checks own what a date or a URL must be, the same with or without the web framework loaded).
 */
import { Kind, type Static, type TSchema } from "@sinclair/typebox";
import { type TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { type ValueError, ValueErrorType } from "@sinclair/typebox/errors";
import { AppError, type ErrorDetail, validationError } from "./errors.ts";

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();
/** Problems named in one answer, at most. */
const MAX_PROBLEMS = 100;

function compile<S extends TSchema>(schema: S): TypeCheck<S> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check as TypeCheck<S>;
}

/** What is wrong with `value`'s shape, every problem once with its path; empty when it fits. */
export function shapeProblems(schema: TSchema, value: unknown): ErrorDetail[] {
  const check = compile(schema);
  if (check.Check(value)) return [];
  const problems = new Map<string, ErrorDetail>();
  // The errors are read lazily and at most MAX_PROBLEMS are named: a body of a million wrong items costs no more
  // than its first hundred, and the answer stays small.
  for (const found of check.Errors(value)) {
    for (const error of alternativeErrors(found)) {
      if (error.type === ValueErrorType.StringFormat || error.type === ValueErrorType.StringFormatUnknown) continue;
      const path = dottedPath(error.path);
      if (!problems.has(path)) problems.set(path, { path, message: messageOf(error, path) });
    }
    if (problems.size >= MAX_PROBLEMS) break;
  }
  return [...problems.values()].slice(0, MAX_PROBLEMS);
}

/** `value` as the schema's type, or a `validation_error` naming every problem. */
export function checkShape<S extends TSchema>(schema: S, value: unknown): Static<S> {
  const problems = shapeProblems(schema, value);
  if (problems.length) throw validationError(problems);
  return value as Static<S>;
}

/**
 * Checks the shape, then `rules` (the area's semantic checks) over the typed value. Unknown fields do not stop the
 * rules — the known fields are well-formed — so one answer lists them with every other problem; a field of the
 * wrong shape does (rules over a body missing it would complain of what it stood for, e.g. a template's subject).
 */
export async function checkBody<S extends TSchema, R>(
  schema: S,
  value: unknown,
  rules: (value: Static<S>) => R | Promise<R>,
): Promise<R> {
  const problems = shapeProblems(schema, value);
  if (problems.some((problem) => problem.message !== UNKNOWN_FIELD)) throw validationError(problems);
  let result: R;
  try {
    result = await rules(value as Static<S>);
  } catch (error) {
    if (problems.length && error instanceof AppError && error.name === "validation_error")
      throw validationError([...problems, ...(error.details ?? [])]);
    throw error;
  }
  if (problems.length) throw validationError(problems);
  return result;
}

export const UNKNOWN_FIELD = "unknown field";

/**
 * A union's errors as those of the one alternative the value's JSON type points to (an object for a nullable
 * object), so the problem is named where it is (`tracking.opens`, not `tracking`); else the union's own error.
 */
function alternativeErrors(error: ValueError): ValueError[] {
  if (error.type !== ValueErrorType.Union || !error.schema.anyOf) return [error];
  const kind = jsonType(error.value);
  const matching = (error.schema.anyOf as TSchema[]).flatMap((alternative, i) =>
    alternative.type === kind || (kind === "number" && alternative.type === "integer") ? [i] : [],
  );
  if (matching.length !== 1) return [error];
  const nested = [...(error.errors[matching[0]!] ?? [])];
  return nested.length ? nested.flatMap(alternativeErrors) : [error];
}

/** A number past JSON's range fits no alternative: the union's own error says so. */
const jsonType = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : typeof value === "number" && !Number.isFinite(value)
        ? "not finite"
        : typeof value;

/** `/attachments/0/filename` (JSON Pointer) → `attachments.0.filename`. */
function dottedPath(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

const typeName = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : typeof value === "number" && !Number.isFinite(value)
        ? "a number that is not finite"
        : typeof value;

/** A schema in words: `a string`, `an array`, `"html" or "mjml"`; null left out of unions (it reads as absent). */
function describe(schema: TSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.anyOf) {
    const alternatives = (schema.anyOf as TSchema[]).filter((alternative) => alternative.type !== "null");
    const words = alternatives.map(describe);
    return words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words.at(-1)}` : (words[0] ?? "null");
  }
  switch (schema.type) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "integer":
      return "an integer";
    case "boolean":
      return "true or false";
    case "array":
      return "an array";
    case "object":
      return "an object";
    case "null":
      return "null";
    default:
      return String(schema[Kind] ?? "valid").toLowerCase();
  }
}

const isEnum = (schema: TSchema): boolean =>
  schema.const !== undefined ||
  (Array.isArray(schema.anyOf) &&
    (schema.anyOf as TSchema[]).every((alternative) => alternative.const !== undefined || alternative.type === "null"));

function messageOf(error: ValueError, path: string): string {
  const { schema } = error;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return "is required";
    case ValueErrorType.ObjectAdditionalProperties:
      return UNKNOWN_FIELD;
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1 ? "must not be empty" : `must be at least ${schema.minLength} characters`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${schema.maxLength} characters`;
    case ValueErrorType.StringPattern:
      return schema.description ? `must be ${schema.description}` : `must match ${schema.pattern}`;
    case ValueErrorType.ArrayMinItems:
      return `needs at least ${schema.minItems} ${schema.minItems === 1 ? "item" : "items"}`;
    case ValueErrorType.ArrayMaxItems:
      return `at most ${schema.maxItems} items`;
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `must be at least ${schema.minimum}`;
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `must be at most ${schema.maximum}`;
  }
  if (path === "") return `the body must be ${schema.type === "object" ? "a JSON object" : describe(schema)}`;
  const expected = `must be ${describe(schema)}`;
  return isEnum(schema) ? expected : `${expected}, got ${typeName(error.value)}`;
}
