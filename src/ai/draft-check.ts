/**
 * Checks of a model's draft before anyone sees it: the shape (subject, html, text), HTML or MJML that is well
 * formed, nothing active (scripts, event handlers, forms, frames, `javascript:` links), nothing remote that loads
 * when the mail is opened (images, stylesheets, fonts, CSS urls — how tracking pixels work), Handlebars that
 * compiles with the helpers templates allow, and every placeholder of the brief kept.
 * Invariant: a draft these checks pass can be saved as a template and rendered.
 */
import type { Parser as HtmlParser } from "htmlparser2";
import { handlebarsProblems, mjmlProblems } from "../templates/render.ts";

export interface Draft {
  subject: string;
  html: string;
  text: string;
}

const PLACEHOLDER = /\{\{\{?\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}?\}\}/g;
const BLOCK_WORDS = new Set(["else", "this"]);

/** The `{{name}}` placeholders a text uses, in order of first use. */
export function placeholdersIn(text: string): string[] {
  return [
    ...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!).filter((name) => !BLOCK_WORDS.has(name))),
  ];
}

const ACTIVE_ELEMENTS = new Set([
  "script",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "form",
  "input",
  "textarea",
  "select",
  "base",
]);
const VOID_ELEMENTS = new Set([
  "area",
  "br",
  "col",
  "hr",
  "img",
  "wbr",
  "source",
  "track",
  "input",
  "meta",
  "link",
  "base",
  "embed",
  "param",
]);
/** Attributes whose URL loads when the mail is opened (MJML's included). */
const LOADING_ATTRIBUTES = new Set([
  "src",
  "background",
  "background-url",
  "poster",
  "srcset",
  "data",
  "href@link",
  "icon",
]);
const REMOTE = /^\s*(?:https?:)?\/\//i;
const SCRIPT_URL = /^\s*(?:javascript|vbscript|data\s*:\s*text\/html)/i;
const CSS_REMOTE = /url\(\s*['"]?\s*(?:https?:)?\/\/|@import/i;

/** Problems of the markup: well-formedness, active content, remote resources. */
function markupProblems(Parser: typeof HtmlParser, source: string, format: "html" | "mjml"): string[] {
  const problems = new Set<string>();
  let closed = 0;
  let inStyle = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (ACTIVE_ELEMENTS.has(name)) problems.add(`<${name}> is not allowed in an email`);
        if (name === "meta" && attributes["http-equiv"]?.toLowerCase() === "refresh")
          problems.add('<meta http-equiv="refresh"> is not allowed in an email');
        if (name === "style") inStyle = true;
        for (const [attribute, value] of Object.entries(attributes)) {
          if (attribute.startsWith("on")) problems.add(`the event handler ${attribute}= on <${name}> is not allowed`);
          if (SCRIPT_URL.test(value)) problems.add(`a script URL in ${attribute}= on <${name}> is not allowed`);
          if (
            (LOADING_ATTRIBUTES.has(attribute) || LOADING_ATTRIBUTES.has(`${attribute}@${name}`)) &&
            REMOTE.test(value)
          ) {
            problems.add(
              `<${name} ${attribute}="${value.slice(0, 80)}"> loads a remote resource when the mail is opened (tracking); use a {{placeholder}} the sender fills`,
            );
          }
          if (attribute === "style" && CSS_REMOTE.test(value))
            problems.add(`a style on <${name}> loads a remote resource`);
        }
      },
      ontext(text) {
        if (inStyle && CSS_REMOTE.test(text))
          problems.add("a <style> block loads a remote resource (@import or url())");
      },
      onclosetag(name, implied) {
        if (name === "style") inStyle = false;
        // The parser reports `<x/>` as an implied close too; its text ends in "/>".
        const selfClosed = source.slice(parser.startIndex, parser.endIndex + 1).endsWith("/>");
        if (!implied) closed++;
        else if (!selfClosed && (format === "mjml" || !VOID_ELEMENTS.has(name)))
          problems.add(`<${name}> is never closed`);
      },
    },
    { xmlMode: format === "mjml", recognizeSelfClosing: true, lowerCaseTags: format === "html" },
  );
  parser.end(source);
  // The parser drops an end tag nothing opened: more end tags in the source than it matched are stray ones.
  const endTags = source.match(/<\/[A-Za-z][\w:-]*\s*>/g)?.length ?? 0;
  if (endTags > closed) problems.add("a closing tag has no opening tag");
  return [...problems];
}

/** The draft in a model's JSON, or the problems that make it unusable. */
export async function checkDraft(
  answer: Record<string, unknown>,
  format: "html" | "mjml",
  placeholders: string[],
): Promise<{ draft?: Draft; problems: string[] }> {
  const problems: string[] = [];
  const { subject, html, text } = answer;
  if (typeof subject !== "string" || !subject.trim() || /[\r\n]/.test(subject) || subject.length > 200)
    problems.push('"subject" must be one line of text');
  if (typeof html !== "string" || !html.trim()) problems.push('"html" must be the email body');
  if (text !== undefined && typeof text !== "string") problems.push('"text" must be a string');
  if (problems.length) return { problems };
  const draft = {
    subject: (subject as string).trim(),
    html: html as string,
    text: typeof text === "string" && text.trim() ? text : "",
  };

  // htmlparser2 is loaded by the first draft checked: with its entity tables it cost every cold start about 5 ms.
  const { Parser } = await import("htmlparser2");
  problems.push(...markupProblems(Parser, draft.html, format));
  const templated = format === "mjml" ? await mjmlProblems(draft.html) : await handlebarsProblems(draft.html);
  problems.push(
    ...templated.map((problem) => `html line ${problem.line}, column ${problem.column}: ${problem.message}`),
  );
  for (const field of ["subject", "text"] as const)
    problems.push(...(await handlebarsProblems(draft[field])).map((problem) => `${field}: ${problem.message}`));
  const used = new Set(placeholdersIn(`${draft.subject}\n${draft.html}\n${draft.text}`));
  for (const name of placeholders)
    if (!used.has(name)) problems.push(`the placeholder {{${name}}} of the brief is missing`);
  return problems.length ? { problems } : { draft, problems };
}
