/** Validation of template bodies (Resend's create and update shapes plus `engine`). Pure; every problem with its path. */
import { validationError, type ErrorDetail } from "../errors.ts";
import { parseMailbox } from "../lib/addresses.ts";
import { isUuid } from "../lib/ids.ts";
import type { TemplateEngine, TemplateVariable } from "./model.ts";

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

const FIELDS = new Set(["name", "alias", "engine", "subject", "from", "reply_to", "html", "text", "variables"]);
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

export function parseTemplateInput(body: Record<string, unknown>, mode: "create" | "update"): TemplateInput {
  const problems: ErrorDetail[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message });
  const input: TemplateInput = {};
  for (const key of Object.keys(body)) if (!FIELDS.has(key)) problem(key, "unknown field");

  const text = (key: "name" | "subject" | "html" | "text", nullable: boolean) => {
    const value = body[key];
    if (value === undefined || (value === null && nullable)) return value as string | null | undefined;
    if (typeof value !== "string") return void problem(key, "must be a string");
    if (value.length > MAX_SOURCE) return void problem(key, `must be at most ${MAX_SOURCE} characters`);
    return value;
  };
  input.name = text("name", false) ?? undefined;
  input.subject = text("subject", true);
  input.html = text("html", false) ?? undefined;
  input.text = text("text", true);
  if (mode === "create" && !input.name) problem("name", "is required");
  if (mode === "create" && !input.html) problem("html", "is required");
  if (input.name !== undefined && !input.name.trim()) problem("name", "must not be empty");

  if (body.alias !== undefined) {
    if (body.alias === null) input.alias = null;
    else if (typeof body.alias !== "string" || !isAlias(body.alias)) problem("alias", ALIAS_RULE);
    else input.alias = body.alias;
  }
  if (body.engine !== undefined) {
    if (body.engine !== "handlebars" && body.engine !== "mjml") problem("engine", 'must be "handlebars" or "mjml"');
    else input.engine = body.engine;
  } else if (input.html !== undefined) {
    input.engine = engineOf(input.html);
  }
  if (body.from !== undefined) {
    if (body.from === null) input.from = null;
    else if (typeof body.from !== "string" || "error" in parseMailbox(body.from))
      problem("from", "must be an address or `Name <address>`");
    else input.from = body.from;
  }
  if (body.reply_to !== undefined) {
    const list = body.reply_to === null ? null : Array.isArray(body.reply_to) ? body.reply_to : [body.reply_to];
    if (list?.some((entry) => typeof entry !== "string" || "error" in parseMailbox(entry)))
      problem("reply_to", "must be addresses");
    else input.replyTo = list as string[] | null;
  }
  if (body.variables !== undefined) {
    if (!Array.isArray(body.variables)) problem("variables", "must be a list of {key, type, fallback_value?}");
    else {
      const seen = new Set<string>();
      const refuse = (path: string, message: string): TemplateVariable[] => {
        problem(path, message);
        return [];
      };
      input.variables = body.variables.flatMap((entry, i): TemplateVariable[] => {
        const variable = entry as Record<string, unknown>;
        const path = `variables.${i}`;
        if (!variable || typeof variable !== "object" || typeof variable.key !== "string" || !KEY.test(variable.key))
          return refuse(`${path}.key`, "must be a name of letters, digits and _");
        if (seen.has(variable.key)) return refuse(`${path}.key`, `"${variable.key}" is declared twice`);
        seen.add(variable.key);
        if (variable.type !== "string" && variable.type !== "number")
          return refuse(`${path}.type`, 'must be "string" or "number"');
        const fallback = variable.fallback_value ?? null;
        if (fallback !== null && typeof fallback !== variable.type)
          return refuse(`${path}.fallback_value`, `must be a ${variable.type}`);
        return [
          {
            key: variable.key,
            type: variable.type,
            fallback_value: fallback as string | number | null,
            created_at: "",
            updated_at: "",
          },
        ];
      });
    }
  }
  if (problems.length) throw validationError(problems);
  return input;
}

/** `{variables: {...}}` of a render or send: an object of values. */
export function variablesOf(value: unknown, path = "variables"): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw validationError([{ path, message: "must be an object of variable values" }]);
  return value as Record<string, unknown>;
}
