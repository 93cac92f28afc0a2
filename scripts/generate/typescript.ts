/**
 * The TypeScript emitter: clients/node/src/generated.ts, one `interface` per object and one `type` per other
 * declaration, with the wire's snake_case field names, `?` for a field that may be absent and `| null` for one that
 * may be null. The Node client's types.ts re-exports these under the names its code and README use, and adds the
 * client's own conveniences (`Date`s, bytes, `react`) around them. Biome formats the text (scripts/generate/index.ts).
 */
import { aboutDeclaration, GENERATED, type Model, oneLine, sentence, type Type, wrap } from "./model.ts";

const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

/** A doc comment of `text`, wrapped to the line width at `indent`. */
function doc(text: string, indent: string): string {
  const lines = wrap(text.replace(/\*\//g, "*\\/"), 116 - indent.length);
  if (lines.length === 1 && lines[0]!.length <= 110 - indent.length) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}\n`).join("")}${indent} */\n`;
}

/** The TypeScript type of `type`. */
export function tsType(type: Type, indent = ""): string {
  switch (type.kind) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "unknown":
      return "unknown";
    case "literal":
      return JSON.stringify(type.value);
    case "enum":
      return type.values.map((value) => JSON.stringify(value)).join(" | ");
    case "ref":
      return type.name;
    case "array": {
      const items = tsType(type.items, indent);
      return /^[\w.]+$/.test(items) ? `${items}[]` : `Array<${items}>`;
    }
    case "map":
      return `Record<string, ${tsType(type.values, indent)}>`;
    case "union":
      return type.options.map((option) => tsType(option, indent)).join(" | ");
    case "nullable":
      return `${tsType(type.type, indent)} | null`;
    case "object": {
      const inner = `${indent}  `;
      const fields = type.fields.map(
        (field) =>
          (field.description ? doc(sentence(oneLine(field.description)!), inner) : "") +
          `${inner}${key(field.name)}${field.optional ? "?" : ""}: ${tsType(field.type, inner)};\n`,
      );
      const body = `{\n${fields.join("")}${indent}}`;
      return type.bases?.length ? `${type.bases.join(" & ")} & ${body}` : body;
    }
  }
}

/** The text of generated.ts, before Biome formats it. */
export function emitTypeScript(model: Model): string {
  const parts = [
    `// ${GENERATED}\n`,
    "/**\n",
    " * The request and response types of Mailroom's API, as the OpenAPI document (/openapi.json) names them: each\n",
    " * route's contract (src/http/contract.ts) writes its schemas there, and `npm run generate` prints them here, so\n",
    " * the client's types and the server's answers cannot differ. types.ts re-exports them under the client's names.\n",
    " */\n",
  ];
  for (const declaration of model.declarations) {
    const about = aboutDeclaration(declaration);
    parts.push("\n", about ? doc(about, "") : "");
    const { type, name } = declaration;
    if (type.kind !== "object") parts.push(`export type ${name} = ${tsType(type)};\n`);
    else {
      const bases = type.bases?.length ? ` extends ${type.bases.join(", ")}` : "";
      parts.push(`export interface ${name}${bases} ${tsType({ kind: "object", fields: type.fields })}\n`);
    }
  }
  return parts.join("");
}
