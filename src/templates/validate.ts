/**
 * Template bodies (Resend's create and update shapes plus `engine`): the schemas the routes document and check
 * shapes with (under the Node client's names), and the rules a schema cannot say. Pure; every problem with its path.
 */
import { type Static, type TSchema, Type as t } from "@sinclair/typebox";
import { validationError, type ErrorDetail } from "../errors.ts";
import { parseMailbox } from "../lib/addresses.ts";
import { isUuid } from "../lib/ids.ts";
import { named } from "../lib/wire.ts";
import { TEMPLATE_ENGINES, type TemplateEngine, type TemplateVariable } from "./model.ts";

export interface TemplateInput {
  name?: string;
  alias?: string | null;
  engine?: TemplateEngine;
  subject?: string | null;
  from?: string | null;
  replyTo?: string[] | null;
  html?: string;
  text?: string | null;
  variables?: TemplateVariable[];
}

const nullable = <S extends TSchema>(schema: S, description?: string) =>
  t.Optional(t.Union([schema, t.Null()], description ? { description } : {}));
const Engine = t.Union(
  TEMPLATE_ENGINES.map((engine) => t.Literal(engine)),
  {
    description: "How html is read (default: mjml when its root is <mjml>, else handlebars)",
  },
);
/** A variable's value when rendering or sending: null reads as not given (the declared fallback applies). */
export const VariableValues = t.Record(t.String(), t.Union([t.String(), t.Number(), t.Null()]), {
  description: "Values of the template's variables: strings and numbers",
});
const TEMPLATE_FIELDS = {
  name: t.String(),
  alias: nullable(t.String(), "A second, stable name to send with"),
  engine: t.Optional(Engine),
  subject: nullable(t.String()),
  from: nullable(t.String()),
  reply_to: nullable(t.Union([t.String(), t.Array(t.String())])),
  html: t.String(),
  text: nullable(t.String()),
  variables: t.Optional(
    t.Array(
      t.Object({
        key: t.String(),
        type: t.Union([t.Literal("string"), t.Literal("number")]),
        fallback_value: nullable(t.Union([t.String(), t.Number()])),
      }),
    ),
  ),
};
const TemplateFields = t.Object(TEMPLATE_FIELDS, { additionalProperties: false });
export const CreateTemplateSchema = named("CreateTemplateOptions", TemplateFields);
// The partial of the unnamed object: a partial of the named one would carry its name.
export const UpdateTemplateSchema = named(
  "UpdateTemplateOptions",
  t.Partial(TemplateFields, { additionalProperties: false }),
);
export const ValidateTemplateSchema = named(
  "ValidateTemplateOptions",
  t.Object(
    { engine: t.Optional(Engine), html: t.String(), subject: t.Optional(t.String()), text: t.Optional(t.String()) },
    { additionalProperties: false },
  ),
);
export const RenderTemplateSchema = named(
  "RenderTemplateOptions",
  t.Object({ variables: t.Optional(VariableValues) }, { additionalProperties: false }),
);
const ALIAS = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
export const ALIAS_RULE = "must be 1-100 letters, digits, '.', '_' or '-' (and not an id)";
export const isAlias = (value: string): boolean => ALIAS.test(value) && !isUuid(value);
const KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_SOURCE = 512 * 1024;

/**
 * The engine of a source given without one: Resend's SDKs send no `engine`, and a source whose root is <mjml> is
 * meant as MJML — never as mail to send as it is.
 */
export function engineOf(html: string): TemplateEngine {
  // `<mjml>` first, after an XML declaration, comments and white space (a scan, not one regular expression: a
  // pattern over repeated comments backtracks on sources made to defeat it).
  const skipSpace = (at: number) => html.slice(at).search(/\S|$/) + at;
  let at = skipSpace(0);
  if (html.startsWith("<?xml", at)) at = skipSpace(html.indexOf("?>", at) + 2);
  while (html.startsWith("<!--", at) && html.indexOf("-->", at) > 0) at = skipSpace(html.indexOf("-->", at) + 3);
  return /^<mjml[\s>]/i.test(html.slice(at, at + 6)) ? "mjml" : "handlebars";
}

/**
 * A source to check, within the size a saved template may have: checking a larger one could only end in a refusal
 * to save it, after up to the render budget of CPU.
 */
export function parseValidateInput(body: Static<typeof ValidateTemplateSchema>): Static<typeof ValidateTemplateSchema> {
  const problems = (["html", "subject", "text"] as const)
    .filter((key) => (body[key]?.length ?? 0) > MAX_SOURCE)
    .map((key) => ({ path: key, message: `must be at most ${MAX_SOURCE} characters` }));
  if (problems.length) throw validationError(problems);
  return body;
}

export function parseTemplateInput(body: Static<typeof UpdateTemplateSchema>): TemplateInput {
  const problems: ErrorDetail[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message });
  const input: TemplateInput = {};
  const text = <V extends string | null | undefined>(key: "name" | "subject" | "html" | "text", value: V): V => {
    if (typeof value === "string" && value.length > MAX_SOURCE)
      problem(key, `must be at most ${MAX_SOURCE} characters`);
    return value;
  };
  input.name = text("name", body.name);
  input.subject = text("subject", body.subject);
  input.html = text("html", body.html);
  input.text = text("text", body.text);
  if (input.name !== undefined && !input.name.trim()) problem("name", "must not be empty");

  if (body.alias !== undefined) {
    if (body.alias !== null && !isAlias(body.alias)) problem("alias", ALIAS_RULE);
    else input.alias = body.alias;
  }
  if (body.engine !== undefined) input.engine = body.engine;
  else if (input.html !== undefined) input.engine = engineOf(input.html);
  if (body.from !== undefined) {
    if (body.from !== null && "error" in parseMailbox(body.from))
      problem("from", "must be an address or `Name <address>`");
    else input.from = body.from;
  }
  if (body.reply_to !== undefined) {
    const list = body.reply_to === null ? null : Array.isArray(body.reply_to) ? body.reply_to : [body.reply_to];
    if (list?.some((entry) => "error" in parseMailbox(entry))) problem("reply_to", "must be addresses");
    else input.replyTo = list;
  }
  if (body.variables !== undefined) {
    const seen = new Set<string>();
    input.variables = body.variables.flatMap((variable, i): TemplateVariable[] => {
      const path = `variables.${i}`;
      if (!KEY.test(variable.key)) problem(`${path}.key`, "must be a name of letters, digits and _");
      else if (seen.has(variable.key)) problem(`${path}.key`, `"${variable.key}" is declared twice`);
      else {
        seen.add(variable.key);
        const fallback = variable.fallback_value ?? null;
        if (fallback === null || typeof fallback === variable.type)
          return [{ key: variable.key, type: variable.type, fallback_value: fallback, created_at: "", updated_at: "" }];
        problem(`${path}.fallback_value`, `must be a ${variable.type}`);
      }
      return [];
    });
  }
  if (problems.length) throw validationError(problems);
  return input;
}
