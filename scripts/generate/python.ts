/**
 * The Python emitter: clients/python/mailroom/generated.py, one TypedDict per object and one alias per other
 * declaration, following types.py's conventions: the wire's snake_case keys, Python 3.8 (no `NotRequired`), so a
 * shape with some optional keys is a base of its required keys and a `total=False` class of the rest; a shape with
 * a key that is a Python keyword (`from`) uses the functional syntax. `Optional[...]` is a key that may be null.
 * Declarations come in dependency order, as aliases and the functional syntax are evaluated when read.
 */
import {
  aboutDeclaration,
  type Declaration,
  dependencyOrder,
  type Field,
  GENERATED,
  type Model,
  oneLine,
  sentence,
  type Type,
  wrap,
} from "./model.ts";

/** A key that is a Python identifier and no keyword can be a class attribute; others need the functional syntax. */
const identifier = (name: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name);

const KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

const TYPING_NAMES = ["Any", "Dict", "List", "Literal", "Optional", "TypedDict", "Union"];

/** The Python type of `type`. */
export function pyType(type: Type): string {
  switch (type.kind) {
    case "string":
      return "str";
    case "integer":
      return "int";
    case "number":
      return "float";
    case "boolean":
      return "bool";
    case "unknown":
      return "Any";
    case "literal":
      return `Literal[${typeof type.value === "boolean" ? (type.value ? "True" : "False") : JSON.stringify(type.value)}]`;
    case "enum":
      return `Literal[${type.values.map((value) => JSON.stringify(value)).join(", ")}]`;
    case "ref":
      return type.name;
    case "array":
      return `List[${pyType(type.items)}]`;
    case "map":
      return `Dict[str, ${pyType(type.values)}]`;
    case "union":
      return `Union[${type.options.map(pyType).join(", ")}]`;
    case "nullable":
      return `Optional[${pyType(type.type)}]`;
    case "object":
      return "Dict[str, Any]";
  }
}

const docstring = (text: string, indent: string): string[] => {
  // Markdown's `code` is reStructuredText's ``code`` in a docstring.
  const lines = wrap(text.replace(/"""/g, "'''").replace(/`([^`]+)`/g, "``$1``"), 114 - indent.length);
  if (lines.length === 1) return [`${indent}"""${lines[0]}"""`];
  return [`${indent}"""${lines[0]}`, ...lines.slice(1).map((line) => `${indent}${line}`), `${indent}"""`];
};

/** The subscript parts of `type` (`List[X]` → X), for breaking a long annotation over lines. */
function parts(type: Type): [head: string, items: Type[] | string[]] | null {
  switch (type.kind) {
    case "enum":
      return ["Literal", type.values.map((value) => JSON.stringify(value))];
    case "union":
      return ["Union", type.options];
    case "nullable":
      return ["Optional", [type.type]];
    case "array":
      return ["List", [type.items]];
    case "map":
      return ["Dict", [{ kind: "string" }, type.values]];
    default:
      return null;
  }
}

/** `prefix` + the type + `suffix`, a long annotation broken one part a line inside its brackets (as Black would). */
function annotated(prefix: string, type: Type, suffix: string, indent: string): string[] {
  const line = `${indent}${prefix}${pyType(type)}${suffix}`;
  const split = parts(type);
  if (line.length <= 120 || !split) return [line];
  const [head, items] = split;
  // A lone part takes no trailing comma (`List[X,]` reads as a tuple to some checkers).
  const comma = items.length > 1 ? "," : "";
  const inner = items.flatMap((item) =>
    typeof item === "string" ? [`${indent}    ${item}${comma}`] : annotated("", item, comma, `${indent}    `),
  );
  return [`${indent}${prefix}${head}[`, ...inner, `${indent}]${suffix}`];
}

function classBody(fields: Field[]): string[] {
  const lines: string[] = [];
  for (const field of fields) {
    lines.push(...annotated(`${field.name}: `, field.type, "", "    "));
    const description = oneLine(field.description);
    if (description) lines.push(...docstring(sentence(description), "    "));
  }
  return lines;
}

function functional(name: string, fields: Field[], total: boolean): string[] {
  return [
    `${name} = TypedDict(`,
    `    ${JSON.stringify(name)},`,
    "    {",
    ...fields.flatMap((field) => annotated(`${JSON.stringify(field.name)}: `, field.type, ",", "        ")),
    "    },",
    ...(total ? [] : ["    total=False,"]),
    ")",
  ];
}

function emitDeclaration(declaration: Declaration): string[] {
  const about = aboutDeclaration(declaration);
  const { name, type } = declaration;
  if (type.kind !== "object") return [...annotated(`${name} = `, type, "", ""), ...(about ? docstring(about, "") : [])];
  const required = type.fields.filter((field) => !field.optional);
  const optional = type.fields.filter((field) => field.optional);
  const bases = type.bases ?? [];
  const keyword = (fields: Field[]) => fields.some((field) => !identifier(field.name));
  if (bases.length && keyword(type.fields)) throw new Error(`${name}: a shape with bases and a keyword key`);
  if (keyword(optional) || (keyword(required) && !optional.length)) {
    // The functional syntax has no bases: with an optional key among them, every key is optional.
    const lines = functional(name, type.fields, !optional.length);
    return [...(about ? wrap(about, 116).map((line) => `# ${line}`) : []), ...lines];
  }
  const head = about ? docstring(about, "    ") : [];
  const parents = bases.length ? bases.join(", ") : "TypedDict";
  const pass = (fields: Field[]) => (fields.length ? classBody(fields) : ["    pass"]);
  if (!optional.length) return [`class ${name}(${parents}):`, ...head, ...(head.length ? [""] : []), ...pass(required)];
  if (!required.length && !bases.length)
    return [`class ${name}(TypedDict, total=False):`, ...head, ...(head.length ? [""] : []), ...classBody(optional)];
  const baseName = `_${name}Required`;
  const base = keyword(required)
    ? functional(baseName, required, true)
    : [`class ${baseName}(${parents}):`, ...pass(required)];
  return [
    ...base,
    "",
    "",
    `class ${name}(${baseName}, total=False):`,
    ...head,
    ...(head.length ? [""] : []),
    ...classBody(optional),
  ];
}

/** The text of generated.py. */
export function emitPython(model: Model): string {
  const lines = [
    `# ${GENERATED}`,
    `"""The request and response shapes of Mailroom's API, as its OpenAPI document (/openapi.json) names them.`,
    "",
    "Each route's contract writes its schemas into the document, and ``npm run generate`` prints them here, so these",
    "shapes and the server's answers cannot differ. They describe the decoded JSON for type checkers and readers and",
    "are not checked at run time; ``mailroom.types`` re-exports them under the names the client has always used.",
    '"""',
    "",
    "from __future__ import annotations",
    "",
    "from typing import TYPING",
  ];
  for (const declaration of dependencyOrder(model.declarations)) lines.push("", "", ...emitDeclaration(declaration));
  const text = `${lines.join("\n")}\n`;
  // Only the names the shapes use, so the module imports nothing unused.
  const used = TYPING_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(text.replace(/"""[\s\S]*?"""/g, "")));
  return text.replace("from typing import TYPING", `from typing import ${used.join(", ")}`);
}
