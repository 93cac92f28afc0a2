/**
 * The Go emitter: clients/go/generated.go, one struct per object and one string type with its constants per enum,
 * with json tags of the wire's names and the Go client's conventions (docs in clients/go/README.md):
 *
 * - field names are the wire's in PascalCase as the client has always spelt them (`source_id` → `SourceId`);
 * - in an answer, a null string reads as "" (a `string`), a null number, boolean or object as nil (a pointer), a
 *   null list as nil;
 * - in a request body, a field that may be absent is `omitempty`, and a pointer when it is a number or boolean (so
 *   0 and false can be sent) unless the server takes the number only from 1 up; a string or list the server requires is `omitempty` too, so a request left empty is
 *   refused naming what is missing rather than an empty value; in a PATCH body a field that may be null is a
 *   `*Nullable[T]` (common.go): nil leaves the setting, Null() clears it;
 * - a union other than of strings is `any`.
 *
 * The output is already as gofmt prints it (fields aligned in runs between comment lines), so it needs no Go
 * toolchain to be written or checked.
 */
import {
  aboutDeclaration,
  type Declaration,
  type Field,
  type Model,
  oneLine,
  pascal,
  sentence,
  type Type,
  wrap,
} from "./model.ts";

export const GO_HEADER = "// Code generated from the OpenAPI document by `npm run generate` — DO NOT EDIT.";

function comment(text: string, indent: string): string[] {
  return wrap(text, 117 - indent.length * 4).map((line) => `${indent}// ${line}`);
}

/** A Go doc sentence starts with the name it documents: "<Name> is a …" after an article, else "<Name>: …". */
function goDoc(name: string, text: string): string {
  if (!text) return `${name} is a shape of the API.`;
  if (/^(A|An|The) /.test(text)) return `${name} is ${text[0]!.toLowerCase()}${text.slice(1)}`;
  if (/^(Answered|Sent) /.test(text)) return `${name} is ${text[0]!.toLowerCase()}${text.slice(1)}`;
  return `${name}: ${text}`;
}

interface Context {
  byName: Map<string, Declaration>;
}

/** The Go type of a value of `type` that is present (nullability and absence are the field's concern). */
function base(type: Type, context: Context): string {
  switch (type.kind) {
    case "string":
    case "enum":
      return "string";
    case "integer":
      return "int";
    case "number":
      return "float64";
    case "boolean":
      return "bool";
    case "unknown":
      return "any";
    case "literal":
      return typeof type.value === "string" ? "string" : typeof type.value === "boolean" ? "bool" : "float64";
    case "ref":
      return type.name;
    case "array":
      return `[]${valueType(type.items, context)}`;
    case "map":
      return `map[string]${valueType(type.values, context)}`;
    case "union":
      return type.options.every((option) => base(option, context) === "string") ? "string" : "any";
    case "nullable":
      return valueType(type, context);
    case "object":
      throw new Error("an inline object reached the Go emitter (the model hoists them)");
  }
}

/** Whether `type` is a struct (a reference to an object declaration). */
const isStruct = (type: Type, context: Context) =>
  type.kind === "ref" && context.byName.get(type.name)?.type.kind === "object";

/** Numbers, booleans and structs: the kinds whose zero value is a real value, so absence needs a pointer. */
function needsPointer(type: Type, context: Context): boolean {
  const goType = base(type, context);
  return ["int", "float64", "bool"].includes(goType) || isStruct(type, context);
}

/** The Go type of an item of a list or map, which may be null. */
function valueType(type: Type, context: Context): string {
  if (type.kind !== "nullable") return base(type, context);
  return needsPointer(type.type, context) ? `*${base(type.type, context)}` : base(type.type, context);
}

/** `false` offered beside one shape as "none" (`save_as_template: {…} | null | false`): to Go, a nil pointer. */
function withoutFalse(type: Type): Type {
  const union = type.kind === "nullable" ? type.type : type;
  if (union.kind !== "union") return type;
  const rest = union.options.filter((option) => !(option.kind === "literal" && option.value === false));
  return rest.length === 1 && rest.length < union.options.length ? { kind: "nullable", type: rest[0]! } : type;
}

/** A field's Go type and whether its tag says omitempty. */
function fieldType(field: Field, declaration: Declaration, context: Context): [string, boolean] {
  const type = withoutFalse(field.type);
  const nullable = type.kind === "nullable";
  const inner = type.kind === "nullable" ? type.type : type;
  const goType = base(inner, context);
  const pointer = needsPointer(inner, context);
  const { body, patch } = declaration.usage;
  if (patch && field.optional && nullable) return [`*Nullable[${goType}]`, true];
  // A number the server takes only from 1 up reads 0 as absent, so it needs no pointer.
  const positive = (inner.kind === "integer" || inner.kind === "number") && (inner.minimum ?? 0) > 0;
  if (field.optional) return [pointer && !positive && (body || isStruct(inner, context)) ? `*${goType}` : goType, true];
  if (nullable) return [pointer ? `*${goType}` : goType, false];
  // A required string or list in a request: left out when empty, so the server names it missing.
  return [goType, body && !pointer && goType !== "any"];
}

/** Lines of a struct's fields, aligned as gofmt aligns them (runs of fields between comment lines). */
function structFields(declaration: Declaration, fields: Field[], context: Context): string[] {
  const lines: string[] = [];
  let run: Array<[string, string, string]> = [];
  const flush = () => {
    const nameWidth = Math.max(...run.map(([name]) => name.length));
    const typeWidth = Math.max(...run.map(([, goType]) => goType.length));
    for (const [name, goType, tag] of run) lines.push(`\t${name.padEnd(nameWidth)} ${goType.padEnd(typeWidth)} ${tag}`);
    run = [];
  };
  const names = new Set<string>();
  for (const field of fields) {
    // Resend's `reply-to` beside `reply_to`: one Go name, so the first spelling alone is a field.
    if (names.has(pascal(field.name))) continue;
    names.add(pascal(field.name));
    const description = oneLine(field.description);
    if (description) {
      if (run.length) flush();
      lines.push(...comment(goDoc(pascal(field.name), sentence(description)), "\t"));
    }
    const [goType, omitempty] = fieldType(field, declaration, context);
    run.push([pascal(field.name), goType, `\`json:"${field.name}${omitempty ? ",omitempty" : ""}"\``]);
  }
  if (run.length) flush();
  return lines;
}

function emitDeclaration(declaration: Declaration, context: Context): string[] {
  const lines = comment(goDoc(declaration.name, aboutDeclaration(declaration)), "");
  const { type, name } = declaration;
  if (type.kind === "object") {
    const embedded = (type.bases ?? []).map((base) => `\t${base}`);
    return [...lines, `type ${name} struct {`, ...embedded, ...structFields(declaration, type.fields, context), "}"];
  }
  if (type.kind === "enum") {
    const constants = type.values.map((value) => [`${name}${pascal(value)}`, JSON.stringify(value)] as const);
    const width = Math.max(...constants.map(([constant]) => constant.length));
    return [
      ...lines,
      `type ${name} = string`,
      "",
      `// The values of ${name}.`,
      "const (",
      ...constants.map(([constant, value]) => `\t${constant.padEnd(width)} ${name} = ${value}`),
      ")",
    ];
  }
  return [...lines, `type ${name} = ${valueType(type, context)}`];
}

/** The text of generated.go. */
export function emitGo(model: Model): string {
  const context: Context = {
    byName: new Map(model.declarations.map((declaration) => [declaration.name, declaration])),
  };
  const lines = [
    GO_HEADER,
    "",
    ...comment(
      "The request and response types of Mailroom's API, as the OpenAPI document (/openapi.json) names them: each " +
        "route's contract writes its schemas there, and `npm run generate` prints them here, so these types and the " +
        "server's answers cannot differ. The services (emails.go, members.go, …) take and answer them.",
      "",
    ),
    "package mailroom",
  ];
  for (const declaration of model.declarations) lines.push("", ...emitDeclaration(declaration, context));
  return `${lines.join("\n")}\n`;
}
