/**
 * Rendering templates: Handlebars over the html (HTML-escaped `{{x}}`, raw `{{{x}}}`) and over subject and text
 * (not escaped: they are not HTML), compiled once per version and kept; text made from the rendered html when a
 * template has none; and validation that reports a problem at the template's own line and column.
 *
 * Helpers: Handlebars' block helpers `if`, `unless`, `each`, `with` and `lookup` only — `log` is removed (it writes
 * to the server's console), no others are registered, partials are refused, and prototype properties stay
 * unreachable (Handlebars ≥ 4.6 default). Invariant: a variable's value is always data, never template code.
 */
import Handlebars from "handlebars";
import { htmlToText } from "html-to-text";
import { validationError } from "../errors.ts";
import type { Rendered, TemplateContent, TemplateProblem } from "./model.ts";

const engine = Handlebars.create();
engine.unregisterHelper("log");
engine.unregisterHelper("helperMissing");
const KNOWN_HELPERS = { if: true, unless: true, each: true, with: true, lookup: true };
const OPTIONS = { knownHelpers: KNOWN_HELPERS, knownHelpersOnly: true, strict: false };

type Compiled = (context: Record<string, unknown>) => string;
/** Compiled versions by version id and part; a version never changes, so neither does its compiled form. */
const cache = new Map<string, Compiled>();
const CACHE_SIZE = 1024;

function compiled(key: string, source: string, escape: boolean): Compiled {
  let fn = cache.get(key);
  if (!fn) {
    const template = engine.compile(source, { ...OPTIONS, noEscape: !escape });
    fn = (context) => template(context, { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false });
    cache.set(key, fn);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  return fn;
}

/**
 * The values a render uses: each declared variable's given value, else its fallback; a missing one without a
 * fallback or one of the wrong type is a 400 naming it. Undeclared values pass through as given.
 */
export function resolveVariables(content: TemplateContent, given: Record<string, unknown>, path = "variables"): Record<string, unknown> {
  const values: Record<string, unknown> = { ...given };
  const problems = [];
  for (const variable of content.variables) {
    const value = given[variable.key];
    if (value === undefined || value === null) {
      if (variable.fallback_value === null) problems.push({ path: `${path}.${variable.key}`, message: "is required (the template declares it without a fallback)" });
      else values[variable.key] = variable.fallback_value;
    } else if (typeof value !== variable.type) {
      problems.push({ path: `${path}.${variable.key}`, message: `must be a ${variable.type}, got ${Array.isArray(value) ? "array" : typeof value}` });
    }
  }
  if (problems.length) throw validationError(problems);
  return values;
}

/** `path` names the variables in a refusal: `variables` of a render, `template.variables` of a send. */
export function render(versionId: string, content: TemplateContent, given: Record<string, unknown>, path = "variables"): Rendered {
  const values = resolveVariables(content, given, path);
  try {
    const html = compiled(`${versionId}:html`, content.html, true)(values);
    const subject = content.subject === null ? null : compiled(`${versionId}:subject`, content.subject, false)(values);
    const text = content.text === null ? htmlToText(html, { wordwrap: false }) : compiled(`${versionId}:text`, content.text, false)(values);
    return { subject, html, text };
  } catch (error) {
    // A saved version was validated, so what fails here is a helper at run time (e.g. `each` over a number).
    throw validationError([{ path, message: `the template could not be rendered with these variables: ${(error as Error).message.split("\n")[0]}` }]);
  }
}

type Node = { type: string; loc?: { start: { line: number; column: number } }; path?: { original?: unknown }; params?: unknown[]; hash?: unknown };

/** Partials, decorators and helpers other than the allowed ones, found in the parsed template. */
function unsupported(source: string): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const at = (node: Node, message: string) => problems.push({ line: node.loc?.start.line ?? 1, column: (node.loc?.start.column ?? 0) + 1, message });
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== "object") return;
    const node = value as Node;
    if (/^Partial|^Decorator/.test(node.type ?? "")) at(node, "partials and decorators are not available in templates");
    const calls = node.type === "BlockStatement" || node.type === "SubExpression" || (node.type === "MustacheStatement" && ((node.params?.length ?? 0) > 0 || node.hash));
    const name = String(node.path?.original ?? "");
    if (calls && !(name in KNOWN_HELPERS)) at(node, `unknown helper "${name}"; available: ${Object.keys(KNOWN_HELPERS).join(", ")}`);
    for (const [key, child] of Object.entries(node)) if (key !== "loc" && key !== "path") visit(child);
  };
  visit(engine.parse(source));
  return problems;
}

/** Problems of one Handlebars source, at its own line and column (1-based). */
export function handlebarsProblems(source: string): TemplateProblem[] {
  try {
    engine.precompile(source, OPTIONS);
    return unsupported(source);
  } catch (error) {
    const e = error as Error & { lineNumber?: number; column?: number };
    const message = e.message.split("\n").at(-1)!.replace(/ - \d+:\d+$/, "");
    // Semantic errors carry the template's position; a parse error only in its text, and its `column` is the
    // engine's own — the lexer's last location is the template's.
    if (typeof e.lineNumber === "number") return [{ line: e.lineNumber, column: (e.column ?? 0) + 1, message }];
    const at = (Handlebars as unknown as { Parser: { lexer: { yylloc?: { first_line: number; first_column: number } } } }).Parser.lexer.yylloc;
    return [{ line: at?.first_line ?? 1, column: (at?.first_column ?? 0) + 1, message }];
  }
}
