/**
 * The template editor's form and its wire (docs/templates-and-ai.md#templates): the template as the API shows it,
 * the fields as typed, and the API shapes the editor sends — the body of a save and the content the preview renders.
 */
import type { RenderedTemplate, Template as ClientTemplate } from "../../clients/node/src/types.ts";
import type { TemplateEngine } from "../../clients/node/src/wire.ts";

export type Engine = TemplateEngine;
export type VariableType = "string" | "number";

export type TemplateSummary = Pick<
  ClientTemplate,
  "id" | "name" | "alias" | "engine" | "status" | "published_at" | "updated_at"
>;
export type Template = TemplateSummary &
  Pick<ClientTemplate, "subject" | "from" | "html" | "text" | "variables" | "has_unpublished_versions">;
export interface Problem {
  field: "subject" | "html" | "text";
  line: number;
  column: number;
  message: string;
}
export type Rendered = RenderedTemplate;

/** The editor's fields as typed (strings); `bodyOf` turns them into the API's shape. */
export interface Form {
  name: string;
  alias: string;
  subject: string;
  from: string;
  engine: Engine;
  html: string;
  text: string;
  variables: Array<{ row: number; key: string; type: VariableType; fallback: string }>;
}

let nextRow = 0;
/** A key for a new variable row: rows keep their identity while their fields are edited. */
export const newRow = () => nextRow++;
export const formOf = (t: Template): Form => ({
  name: t.name,
  alias: t.alias ?? "",
  subject: t.subject ?? "",
  from: t.from ?? "",
  engine: t.engine,
  html: t.html,
  text: t.text ?? "",
  variables: t.variables.map((v) => ({
    row: nextRow++,
    key: v.key,
    type: v.type,
    fallback: v.fallback_value === null ? "" : String(v.fallback_value),
  })),
});

export const typedValue = (type: VariableType, typed: string) => (type === "number" ? Number(typed) : typed);

/**
 * What the preview fills a variable with until a sample is typed: its fallback, else a stand-in of its type — so a
 * template opens on its preview, not on "is required" for a value nobody has typed yet.
 */
export const standIn = (v: { key: string; type: VariableType; fallback: string }) =>
  v.fallback !== "" ? typedValue(v.type, v.fallback) : v.type === "number" ? 0 : `[${v.key.trim()}]`;

export function bodyOf(form: Form) {
  return {
    name: form.name,
    alias: form.alias.trim() || null,
    from: form.from.trim() || null,
    ...contentOf(form),
  };
}

/**
 * What the preview needs saved: a half-typed name or from address must not hold the preview back. A variable row
 * without a key declares nothing yet (it was just added), so it is left out rather than refused.
 */
export function contentOf(form: Form) {
  return {
    engine: form.engine,
    subject: form.subject || null,
    html: form.html,
    text: form.text || null,
    variables: form.variables
      .filter((v) => v.key.trim())
      .map((v) => ({
        key: v.key.trim(),
        type: v.type,
        fallback_value: v.fallback === "" ? null : typedValue(v.type, v.fallback),
      })),
  };
}
export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The character offset of a 1-based line and column in `text`, clamped to its end. */
export function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length - 1; i++) at += lines[i]!.length + 1;
  return Math.min(at + Math.max(column - 1, 0), text.length);
}
