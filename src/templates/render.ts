/**
 * Rendering templates: Handlebars over the html (HTML-escaped `{{x}}`, raw `{{{x}}}`) and over subject and text
 * (not escaped: they are not HTML), compiled once per version and kept; an MJML template's html is first compiled
 * to responsive HTML by MJML (once per version too), then rendered by Handlebars; text made from the rendered html
 * when a template has none (the composer's own conversion, so it is the text the message would get anyway); and
 * validation that reports a problem at the template's own line and column.
 *
 * Helpers: Handlebars' block helpers `if`, `unless`, `each`, `with` and `lookup` only — `log` is removed (it writes
 * to the server's console), no others are registered, partials are refused, and prototype properties stay
 * unreachable (Handlebars ≥ 4.6 default). Invariant: a variable's value is always data, never template code.
 */
import type HandlebarsModule from "handlebars";
import { htmlToText } from "../emails/compose.ts";
import { validationError } from "../errors.ts";
import type { Rendered, TemplateContent, TemplateEngine, TemplateProblem, TemplateValues } from "./model.ts";
import { resolveVariables } from "./variables.ts";

type HandlebarsRuntime = typeof HandlebarsModule;
let Handlebars: HandlebarsRuntime;
let engine: ReturnType<HandlebarsRuntime["create"]>;
let loading: Promise<void> | undefined;

/** Handlebars is loaded by the first template a process renders or checks: it cost every cold start about 4 ms. */
function loadHandlebars(): Promise<void> {
  return (loading ??= import("handlebars").then(({ default: module }) => {
    Handlebars = module;
    engine = module.create();
    engine.unregisterHelper("log");
    engine.unregisterHelper("helperMissing");
  }));
}

const KNOWN_HELPERS = { if: true, unless: true, each: true, with: true, lookup: true };
const OPTIONS = { knownHelpers: KNOWN_HELPERS, knownHelpersOnly: true, strict: false };

type Compiled = (context: TemplateValues) => string;
/** Compiled versions by version id and part; a version never changes, so neither does its compiled form. */
const cache = new Map<string, Compiled>();
const CACHE_SIZE = 1024;

function compile(source: string, escape: boolean): Compiled {
  const template = engine.compile(source, { ...OPTIONS, noEscape: !escape });
  return (context) => template(context, { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false });
}

function remember(key: string, fn: Compiled): Compiled {
  cache.set(key, fn);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return fn;
}

const compiled = (key: string, source: string, escape: boolean): Compiled => cache.get(key) ?? remember(key, compile(source, escape));

/** A version's html, compiled: MJML (when it is an MJML template) and then Handlebars, both once per version. */
async function compiledHtml(versionId: string, templateEngine: TemplateEngine, source: string): Promise<Compiled> {
  const key = `${versionId}:html`;
  const known = cache.get(key);
  if (known) return known;
  return remember(key, compile(templateEngine === "mjml" ? (await compileMjml(source)).html : source, true));
}

type MjmlCompiler = typeof import("mjml").default;
type MjmlProblem = Awaited<ReturnType<MjmlCompiler>>["errors"][number];
let mjmlCompiler: Promise<MjmlCompiler> | undefined;

/**
 * MJML to HTML. The compiler is loaded on the first MJML template: most installations never use it, and it is the
 * largest part of the code. Includes stay off (an `mj-include` would read the server's files) and no
 * `.mjmlconfig` is read (it could load code).
 */
async function compileMjml(source: string): Promise<{ html: string; errors: MjmlProblem[] }> {
  mjmlCompiler ??= import("mjml").then((module) => module.default);
  return (await mjmlCompiler)(source, { validationLevel: "soft", keepComments: false, ignoreIncludes: true, minify: false, beautify: false });
}

/**
 * A version rendered, its text null when the template has none: a send leaves that text to the composer, which
 * makes it on the CPU pool. `path` names the variables in a refusal: `variables` of a render, `template.variables`
 * of a send.
 */
export async function renderParts(versionId: string, content: TemplateContent, given: Record<string, unknown>, path: string): Promise<Omit<Rendered, "text"> & { text: string | null }> {
  // `{{unsubscribe_url}}` is filled when the message is composed (`unsubscribe: true`), so it passes through.
  const values = { unsubscribe_url: "{{unsubscribe_url}}", ...resolveVariables(content, given, path) };
  await loadHandlebars();
  const htmlTemplate = await compiledHtml(versionId, content.engine ?? "handlebars", content.html);
  try {
    const html = htmlTemplate(values);
    const subject = content.subject === null ? null : compiled(`${versionId}:subject`, content.subject, false)(values);
    const text = content.text === null ? null : compiled(`${versionId}:text`, content.text, false)(values);
    return { subject, html, text };
  } catch (error) {
    // A saved version was validated, so what fails here is a helper at run time (e.g. `each` over a number).
    throw validationError([{ path, message: `the template could not be rendered with these variables: ${(error as Error).message.split("\n")[0]}` }]);
  }
}

/** A version rendered as a preview shows it: the text made from the html when the template has none. */
export async function render(versionId: string, content: TemplateContent, given: Record<string, unknown>, path = "variables"): Promise<Rendered> {
  const parts = await renderParts(versionId, content, given, path);
  return { ...parts, text: parts.text ?? (await htmlToText(parts.html)) };
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
export async function handlebarsProblems(source: string): Promise<TemplateProblem[]> {
  await loadHandlebars();
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

/**
 * Problems of one MJML source at its own line and column: its Handlebars first (positions in the source), then
 * MJML's own (MJML names a line and a tag; the column is the tag's on that line), then Handlebars over the HTML MJML
 * made of it — what a send really compiles.
 */
export async function mjmlProblems(source: string): Promise<TemplateProblem[]> {
  const inSource = await handlebarsProblems(source);
  if (inSource.length) return inSource;
  let compiledSource: { html: string; errors: MjmlProblem[] };
  try {
    compiledSource = await compileMjml(source);
  } catch (error) {
    return [{ line: 1, column: 1, message: (error as Error).message }];
  }
  const lines = source.split("\n");
  const problems = compiledSource.errors.map(({ line, message, tagName }) => ({ line, column: (lines[line - 1]?.indexOf(`<${tagName}`) ?? -1) + 1 || 1, message }));
  if (problems.length) return problems;
  return (await handlebarsProblems(compiledSource.html)).map((problem) => ({ line: 1, column: 1, message: `in the HTML MJML makes of this template: ${problem.message}` }));
}

/** The plain text of a source as it stands (placeholders kept): MJML compiled first. */
export async function textOf(templateEngine: TemplateEngine, source: string): Promise<string> {
  return htmlToText(templateEngine === "mjml" ? (await compileMjml(source)).html : source);
}
