/**
 * Rendering templates, inside a thread of the CPU pool (cpu/pool.ts, task `template`): Handlebars over the html
 * (HTML-escaped `{{x}}`, raw `{{{x}}}`) and over subject and text (not escaped: they are not HTML), compiled once
 * per version and kept by the thread; an MJML template's html is first compiled to responsive HTML by MJML (once
 * per version too), then rendered by Handlebars; a preview's text made from the rendered html when a template has
 * none (the composer's own conversion, so it is the text the message would get anyway); and validation that
 * reports a problem at the template's own line and column. The pool cuts a job off when it runs past its time
 * budget, so a template whose loops multiply holds a thread, never the event loop.
 *
 * Helpers: Handlebars' block helpers `if`, `unless`, `each`, `with` and `lookup` only — `log` is removed (it writes
 * to the server's console), no others are registered, partials are refused, and prototype properties stay
 * unreachable (Handlebars ≥ 4.6 default). Invariants: a variable's value is always data, never template code; a
 * render never holds more output than the size limit it is given — `each` (the one helper that repeats) and HTML
 * escaping (the one step that copies a value) count what they write and stop the render at the limit, and raw
 * output only joins strings (a rope: the engine copies nothing until the result is read, after the final check).
 */
import type HandlebarsModule from "handlebars";
import { htmlToText } from "../lib/html-text.ts";
import type { TemplateContent, TemplateEngine, TemplateProblem, TemplateValues } from "./model.ts";

export type TemplateField = "subject" | "html" | "text";
export type TemplateSource = { html: string; subject?: string; text?: string };

/** Work for the CPU pool: render a version with checked variables, or check a source. */
export type TemplateJob =
  | {
      kind: "render";
      versionId: string;
      content: TemplateContent;
      values: TemplateValues;
      maxBytes: number;
      withText: boolean;
    }
  | { kind: "check"; engine: TemplateEngine; source: TemplateSource };

/** A job's result; refusals travel as data (errors do not cross threads intact) and become AppErrors at the caller. */
export type TemplateOutcome =
  | { kind: "rendered"; subject: string | null; html: string; text: string | null }
  | { kind: "checked"; errors: Array<TemplateProblem & { field: TemplateField }> }
  | { kind: "refused"; reason: "too_large" | "failed"; message: string };

type HandlebarsRuntime = typeof HandlebarsModule;
let Handlebars: HandlebarsRuntime;
let engine: ReturnType<HandlebarsRuntime["create"]>;
let loading: Promise<void> | undefined;

class OutputTooLarge extends Error {}

/** The render under way in this thread (a render runs start to end without yielding) and what it may write. */
let budget: { limit: number; escaped: number } | undefined;

/** Handlebars is loaded by the first template a process renders or checks: it cost every cold start about 4 ms. */
function loadHandlebars(): Promise<void> {
  return (loading ??= import("handlebars").then(({ default: module }) => {
    Handlebars = module;
    engine = module.create();
    engine.unregisterHelper("log");
    engine.unregisterHelper("helperMissing");
    const each = engine.helpers.each!;
    engine.registerHelper("each", function (this: unknown, context: unknown, options: HandlebarsModule.HelperOptions) {
      let written = 0;
      const body: HandlebarsModule.TemplateDelegate = (item, iteration) => {
        const output = options.fn(item, iteration);
        written += output.length;
        if (budget && written > budget.limit) throw new OutputTooLarge();
        return output;
      };
      return each.call(this, context, { ...options, fn: body });
    });
    // Every compiled template escapes through this one function of the shared Utils (read when a template is
    // compiled), and each call copies its value: `{{x}}` written many times over a large x would fill the memory
    // before any other check sees the output.
    const escapeHtml = module.Utils.escapeExpression;
    (module.Utils as { escapeExpression: (value: string) => string }).escapeExpression = (value) => {
      const escaped = escapeHtml(value);
      if (budget && (budget.escaped += escaped.length) > budget.limit) throw new OutputTooLarge();
      return escaped;
    };
  }));
}

const KNOWN_HELPERS = { if: true, unless: true, each: true, with: true, lookup: true };
const OPTIONS = { knownHelpers: KNOWN_HELPERS, knownHelpersOnly: true, strict: false };

type Compiled = (context: TemplateValues) => string;
/** Compiled versions by version id and part; a version never changes, so neither does its compiled form. */
const cache = new Map<string, Compiled>();
const CACHE_SIZE = 1024;

function compile(source: string, escapesHtml: boolean): Compiled {
  const template = engine.compile(source, { ...OPTIONS, noEscape: !escapesHtml });
  return (context) => template(context, { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false });
}

function remember(key: string, fn: Compiled): Compiled {
  cache.set(key, fn);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return fn;
}

const compiled = (key: string, source: string, escapesHtml: boolean): Compiled =>
  cache.get(key) ?? remember(key, compile(source, escapesHtml));

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

/** The compiler is loaded on the first MJML template: most installations never use it, and loading it takes seconds. */
const loadMjml = () => (mjmlCompiler ??= import("mjml").then((module) => module.default));

/**
 * MJML to HTML. Includes stay off (an `mj-include` would read the server's files) and no `.mjmlconfig` is read (it
 * could load code). No web font is linked unless the template asks for one (`mj-font`): MJML's defaults would link
 * Google Fonts for its default font, Ubuntu — a remote load in every message, which a self-hosted product promises
 * not to make on its own.
 */
async function compileMjml(source: string): Promise<{ html: string; errors: MjmlProblem[] }> {
  return (await loadMjml())(source, {
    fonts: {},
    validationLevel: "soft",
    keepComments: false,
    ignoreIncludes: true,
    minify: false,
    beautify: false,
  });
}

/** The engines a job needs, loaded before its time budget starts: loading MJML alone can take seconds. */
export async function loadTemplateEngines(job: TemplateJob): Promise<void> {
  await loadHandlebars();
  if ((job.kind === "render" ? job.content.engine : job.engine) === "mjml") await loadMjml();
}

/** Subject, html and text rendered, refused as too large the moment their output passes `maxBytes`. */
async function renderVersion(job: Extract<TemplateJob, { kind: "render" }>): Promise<TemplateOutcome> {
  const { versionId, content, values, maxBytes } = job;
  const htmlTemplate = await compiledHtml(versionId, content.engine ?? "handlebars", content.html);
  const tooLarge = (): TemplateOutcome => ({
    kind: "refused",
    reason: "too_large",
    message: `larger than the message size limit of ${maxBytes} bytes`,
  });
  let parts: { subject: string | null; html: string; text: string | null };
  budget = { limit: maxBytes, escaped: 0 };
  try {
    const html = htmlTemplate(values);
    const subject = content.subject === null ? null : compiled(`${versionId}:subject`, content.subject, false)(values);
    const text = content.text === null ? null : compiled(`${versionId}:text`, content.text, false)(values);
    parts = { subject, html, text };
  } catch (error) {
    // A string past the engine's longest (raw output joined many times over) is a RangeError other than the stack's.
    if (error instanceof OutputTooLarge || (error instanceof RangeError && !/call stack/i.test(error.message)))
      return tooLarge();
    // A saved version was validated, so what fails here is a helper at run time (e.g. `{{#each}}` given nothing).
    return { kind: "refused", reason: "failed", message: (error as Error).message.split("\n")[0]! };
  } finally {
    budget = undefined;
  }
  const { subject, html, text } = parts;
  // A UTF-16 length never exceeds the UTF-8 size, so an output too long is refused before it is read whole.
  const outputs = [subject ?? "", html, text ?? ""];
  if (outputs.reduce((sum, output) => sum + output.length, 0) > maxBytes) return tooLarge();
  if (outputs.reduce((sum, output) => sum + Buffer.byteLength(output), 0) > maxBytes) return tooLarge();
  return { kind: "rendered", subject, html, text: text ?? (job.withText ? await htmlToText(html) : null) };
}

/** Problems of a source's fields, each at its field, line and column. */
async function checkSource(templateEngine: TemplateEngine, source: TemplateSource): Promise<TemplateOutcome> {
  const problemsOf = async (field: TemplateField) => {
    const text = source[field];
    if (text === undefined) return [];
    const problems =
      field === "html" && templateEngine === "mjml" ? await mjmlProblems(text) : await handlebarsProblems(text);
    return problems.map((problem) => ({ field, ...problem }));
  };
  const errors = [];
  for (const field of ["subject", "html", "text"] as const) errors.push(...(await problemsOf(field)));
  return { kind: "checked", errors };
}

/** A job done in this thread. */
export function performTemplateJob(job: TemplateJob): Promise<TemplateOutcome> {
  return job.kind === "render" ? renderVersion(job) : checkSource(job.engine, job.source);
}

type Node = {
  type: string;
  loc?: { start: { line: number; column: number } };
  path?: { original?: unknown };
  params?: unknown[];
  hash?: unknown;
};

/** Partials, decorators and helpers other than the allowed ones, found in the parsed template. */
function unsupported(source: string): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const at = (node: Node, message: string) =>
    problems.push({ line: node.loc?.start.line ?? 1, column: (node.loc?.start.column ?? 0) + 1, message });
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!value || typeof value !== "object") return;
    const node = value as Node;
    if (/^Partial|^Decorator/.test(node.type ?? "")) at(node, "partials and decorators are not available in templates");
    const calls =
      node.type === "BlockStatement" ||
      node.type === "SubExpression" ||
      (node.type === "MustacheStatement" && ((node.params?.length ?? 0) > 0 || node.hash));
    const name = String(node.path?.original ?? "");
    if (calls && !(name in KNOWN_HELPERS))
      at(node, `unknown helper "${name}"; available: ${Object.keys(KNOWN_HELPERS).join(", ")}`);
    for (const [key, child] of Object.entries(node)) if (key !== "loc" && key !== "path") visit(child);
  };
  visit(engine.parse(source));
  return problems;
}

/** The blocks of a source as they open and close (`{{#each …}}`, `{{^if}}`, `{{/each}}`), each with its line. */
function blocksOf(source: string): Array<{ kind: "open" | "close"; name: string; line: number }> {
  const tags: Array<{ kind: "open" | "close"; name: string; line: number }> = [];
  // Lines counted from the previous tag on, so that a source of many tags is read once, not once per tag.
  let line = 1;
  let counted = 0;
  for (const match of source.matchAll(/\{\{~?\s*([#^/])\s*([^\s}~]+)/g)) {
    for (; counted < match.index; counted++) if (source.charCodeAt(counted) === 10) line++;
    tags.push({ kind: match[1] === "/" ? "close" : "open", name: match[2]!.replace(/^\*/, ""), line });
  }
  return tags;
}

/**
 * The parser's message for the mistakes people make, said in their terms ("`{{#each}}` opened on line 3 is never
 * closed") rather than the grammar's (`Expecting 'OPEN_INVERSE_CHAIN' … got 'EOF'`); any other message as it is.
 */
function inPlainWords(source: string, message: string): string {
  const open: Array<{ name: string; line: number }> = [];
  const mismatch = /^(\S+) doesn't match (\S+)$/.exec(message);
  for (const tag of blocksOf(source)) {
    if (tag.kind === "open") {
      open.push(tag);
      continue;
    }
    const innermost = open.at(-1);
    if (innermost && innermost.name !== tag.name && mismatch)
      return `{{/${tag.name}}} on line ${tag.line} closes {{#${innermost.name}}}, opened on line ${innermost.line}: close it with {{/${innermost.name}}} first`;
    open.pop();
  }
  if (/got 'EOF'$/.test(message) && open.length) {
    const { name, line } = open.at(-1)!;
    return `{{#${name}}} opened on line ${line} is never closed: add {{/${name}}}`;
  }
  const unclosed = /\{\{(?![^{]*\}\})/.exec(source);
  if (/got '(INVALID|EOF)'$/.test(message) && unclosed)
    return `{{ on line ${source.slice(0, unclosed.index).split("\n").length} is never closed with }}`;
  if (/got 'CLOSE'$/.test(message))
    return /\{\{~?\s*~?\}\}/.test(source)
      ? "{{ }} with nothing inside: name a variable or a helper between the braces"
      : "}} came before what it closes was complete: a helper's argument or a name=value is missing its value";
  return message;
}

/** Problems of one Handlebars source, at its own line and column (1-based). */
export async function handlebarsProblems(source: string): Promise<TemplateProblem[]> {
  await loadHandlebars();
  try {
    engine.precompile(source, OPTIONS);
    return unsupported(source);
  } catch (error) {
    const e = error as Error & { lineNumber?: number; column?: number };
    const message = e.message
      .split("\n")
      .at(-1)!
      .replace(/ - \d+:\d+$/, "");
    // Semantic errors carry the template's position; a parse error only in its text, and its `column` is the
    // engine's own — the lexer's last location is the template's.
    if (typeof e.lineNumber === "number")
      return [{ line: e.lineNumber, column: (e.column ?? 0) + 1, message: inPlainWords(source, message) }];
    const at = (
      Handlebars as unknown as { Parser: { lexer: { yylloc?: { first_line: number; first_column: number } } } }
    ).Parser.lexer.yylloc;
    return [{ line: at?.first_line ?? 1, column: (at?.first_column ?? 0) + 1, message: inPlainWords(source, message) }];
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
  const problems = compiledSource.errors.map(({ line, message, tagName }) => ({
    line,
    column: (lines[line - 1]?.indexOf(`<${tagName}`) ?? -1) + 1 || 1,
    message,
  }));
  if (problems.length) return problems;
  return (await handlebarsProblems(compiledSource.html)).map((problem) => ({
    line: 1,
    column: 1,
    message: `in the HTML MJML makes of this template: ${problem.message}`,
  }));
}

/** The plain text of a source as it stands (placeholders kept): MJML compiled first. */
export async function textOf(templateEngine: TemplateEngine, source: string): Promise<string> {
  return htmlToText(templateEngine === "mjml" ? (await compileMjml(source)).html : source);
}
