/**
 * The Ruby emitter: clients/ruby/lib/mailroom/generated.rb. The Ruby client answers plain Hashes with symbol keys
 * (its convention, as Resend's Ruby SDK does), so a shape is documented rather than a class: `Mailroom::Types::Member`
 * is a frozen Hash of each key the answer has to a short statement of what it holds (`"String or nil"`,
 * `"Array of Invitation"`), with a comment per key carrying the document's description; an enum is the frozen Array
 * of its values. The resources' comments name these (`→ Types::MemberList`) instead of spelling the hash out, and a
 * caller can read the keys at run time (`Mailroom::Types::Member.keys`).
 */
import {
  aboutDeclaration,
  type Declaration,
  dependencyOrder,
  GENERATED,
  type Model,
  oneLine,
  sentence,
  type Type,
  wrap,
} from "./model.ts";

/** What a value of `type` is, in words a Ruby reader expects. */
export function rubyType(type: Type): string {
  switch (type.kind) {
    case "string":
      return type.format ? `String (${type.format})` : "String";
    case "integer":
      return "Integer";
    case "number":
      return "Float";
    case "boolean":
      return "true or false";
    case "unknown":
      return "any value";
    case "literal":
      return JSON.stringify(type.value);
    case "enum":
      return `one of ${type.values.join(", ")}`;
    case "ref":
      return type.name;
    case "array":
      return `Array of ${rubyType(type.items)}`;
    case "map":
      return `Hash of ${rubyType(type.values)}`;
    case "union":
      return type.options.map(rubyType).join(" or ");
    case "nullable":
      return `${rubyType(type.type)} or nil`;
    case "object":
      return "Hash";
  }
}

const comment = (text: string, indent: string) =>
  wrap(text, 118 - indent.length).map((line) => `${indent}# ${line}`.trimEnd());

/** A Ruby string literal: double-quoted as the client writes them, single-quoted when it holds a double quote. */
const literal = (text: string) =>
  text.includes('"')
    ? `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`
    : JSON.stringify(text).replace(/#\{/g, "\\#{");

/** `key: "text",` at `indent`, the text split into adjacent literals over several lines when it is long. */
function entry(key: string, text: string, indent: string): string[] {
  const head = `${indent}${key}: `;
  if (head.length + text.length + 3 <= 120) return [`${head}${literal(text)},`];
  const pieces = wrap(text, 115 - head.length).map((piece, index, all) =>
    index < all.length - 1 ? `${piece} ` : piece,
  );
  return pieces.map((piece, index) =>
    index === 0
      ? `${head}${literal(piece)} \\`
      : `${" ".repeat(head.length)}${literal(piece)}${index === pieces.length - 1 ? "," : " \\"}`,
  );
}

function emitDeclaration(declaration: Declaration): string[] {
  const about = aboutDeclaration(declaration);
  const lines = about ? comment(about, "    ") : [];
  const { name, type } = declaration;
  if (type.kind === "enum") {
    const line = `    ${name} = %w[${type.values.join(" ")}].freeze`;
    if (line.length <= 120) return [...lines, line];
    return [
      ...lines,
      `    ${name} = %w[`,
      ...wrap(type.values.join(" "), 112).map((words) => `      ${words}`),
      "    ].freeze",
    ];
  }
  if (type.kind !== "object") return [...lines, `    ${name} = ${literal(rubyType(type))}`];
  const fields = (type.bases ?? []).map((base) => `      **${base},`);
  for (const field of type.fields) {
    const description = oneLine(field.description);
    if (description) fields.push(...comment(sentence(description), "      "));
    const what = `${field.optional ? "optional: " : ""}${rubyType(field.type)}`;
    fields.push(
      ...entry(/^[A-Za-z_][A-Za-z0-9_]*$/.test(field.name) ? field.name : literal(field.name), what, "      "),
    );
  }
  return [...lines, `    ${name} = {`, ...fields, "    }.freeze"];
}

/** The text of generated.rb. */
export function emitRuby(model: Model): string {
  const lines = [
    "# frozen_string_literal: true",
    "",
    `# ${GENERATED}`,
    "#",
    ...comment(
      "The request and response shapes of Mailroom's API, as its OpenAPI document (/openapi.json) names them: each " +
        "route's contract writes its schemas there, and `npm run generate` prints them here, so these and the " +
        "server's answers cannot differ. The client answers Hashes with symbol keys; each constant of Types lists " +
        "the keys of one shape with what each holds (`optional:` may be absent, `or nil` may be null).",
      "",
    ),
    "module Mailroom",
    "  module Types",
  ];
  // A shape that has another's keys splats it, so that one comes first.
  dependencyOrder(model.declarations).forEach((declaration, index) => {
    if (index) lines.push("");
    lines.push(...emitDeclaration(declaration));
  });
  lines.push("  end", "end");
  return `${lines.join("\n")}\n`;
}
