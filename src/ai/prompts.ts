/**
 * Every prompt Mailroom sends to a language model, in one place and versioned: a change to any wording here bumps
 * PROMPT_VERSION, which answers carry, so a difference in drafts can be traced to the prompt that made them.
 * The model is asked for JSON only; what comes back is checked (draft-check.ts) before anyone sees it.
 */
import type { ChatMessage } from "./model.ts";

export const PROMPT_VERSION = "2026-11-23.1";

export interface WriteBrief {
  brief: string;
  tone?: string;
  audience?: string;
  format: "html" | "mjml";
  /** `{{name}}` placeholders the brief uses: the draft must keep each one. */
  placeholders: string[];
}

const WRITER = `You write transactional and product emails for a company's own customers.
Answer with one JSON object and nothing else: {"subject": string, "html": string, "text": string}.
Rules:
- The subject is under 60 characters, specific, without spam words, all-capital words or more than one "!".
- Write placeholders for anything you do not know (names, amounts, links) as Handlebars, e.g. {{first_name}}, {{order_url}}; keep every placeholder the brief uses, spelled exactly as given.
- Never include <script>, event handler attributes, forms, iframes, remote images, tracking pixels or web fonts.
- "text" is the same message as plain text, with links written out.`;

const HTML_FORMAT = `"html" is a complete, well-formed HTML email body: simple tables or divs, inline styles, every tag closed, at most 600px wide.`;
const MJML_FORMAT = `"html" is an MJML document (https://mjml.io): <mjml><mj-body>…</mj-body></mjml> using mj-section, mj-column, mj-text, mj-button, mj-divider and mj-spacer only; every tag closed.`;

export function writePrompt(brief: WriteBrief): ChatMessage[] {
  const facts = [
    `Brief: ${brief.brief}`,
    brief.tone ? `Tone: ${brief.tone}` : "",
    brief.audience ? `Audience: ${brief.audience}` : "",
    brief.placeholders.length
      ? `Placeholders to keep: ${brief.placeholders.map((name) => `{{${name}}}`).join(", ")}`
      : "",
  ].filter(Boolean);
  return [
    { role: "system", content: `${WRITER}\n${brief.format === "mjml" ? MJML_FORMAT : HTML_FORMAT}` },
    { role: "user", content: facts.join("\n") },
  ];
}

/** A second turn after a draft failed the checks: the model is told exactly what to fix. */
export function repairPrompt(previous: ChatMessage[], answer: string, problems: string[]): ChatMessage[] {
  return [
    ...previous,
    { role: "assistant", content: answer },
    {
      role: "user",
      content: `That draft cannot be used:\n${problems.map((problem) => `- ${problem}`).join("\n")}\nAnswer again with the corrected JSON object only.`,
    },
  ];
}

export function subjectPrompt(subject: string, findings: string[], preview: string): ChatMessage[] {
  return [
    {
      role: "system",
      content: `You improve email subject lines. Answer with one JSON object and nothing else: {"subjects": [string, string, string]}.
Each subject is under 60 characters, says what the email is about, avoids spam words, all-capital words and repeated punctuation, and keeps any {{placeholder}} of the original spelled exactly.`,
    },
    {
      role: "user",
      content: [
        `Subject: ${subject}`,
        preview ? `The email begins: ${preview}` : "",
        findings.length ? `Problems found: ${findings.join("; ")}` : "",
      ]
        .filter(Boolean)
        .join("\n"),
    },
  ];
}
