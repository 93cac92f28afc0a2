/**
 * The AI endpoints' bodies (docs/templates-and-ai.md#ai-writer-and-subject-scoring): the schemas the routes
 * document and check shapes with (under the Node client's names), and the rules a schema cannot say (lengths, a
 * brief that says something, an alias's form). Pure; every problem with its path.
 */
import { type Static, type TSchema, Type as t } from "@sinclair/typebox";
import { validationError, type ErrorDetail } from "../errors.ts";
import { named } from "../lib/wire.ts";
import { ALIAS_RULE, isAlias } from "../templates/validate.ts";

export interface SubjectRequest {
  subject: string;
  html?: string;
  text?: string;
}

export interface WriteRequest {
  brief: string;
  tone?: string;
  audience?: string;
  format: "html" | "mjml";
  /** Save the draft as a template (a draft, never published or sent). */
  saveAs?: { name: string; alias?: string };
}

const MAX_BRIEF = 4000;
const MAX_HINT = 200;
const MAX_SOURCE = 512 * 1024;

/** Optional; null reads as not given. */
const nullable = <S extends TSchema>(schema: S) => t.Optional(t.Union([schema, t.Null()]));

export const SubjectRequestSchema = named(
  "SubjectOptions",
  t.Object(
    { subject: t.String(), html: nullable(t.String()), text: nullable(t.String()) },
    { additionalProperties: false },
  ),
);

export const WriteRequestSchema = named(
  "WriteOptions",
  t.Object(
    {
      brief: t.String({ description: "What the email should say" }),
      tone: nullable(t.String()),
      audience: nullable(t.String()),
      format: t.Optional(t.Union([t.Literal("html"), t.Literal("mjml")], { description: "Default html" })),
      save_as_template: t.Optional(
        t.Union([t.Object({ name: t.String(), alias: nullable(t.String()) }), t.Null(), t.Literal(false)], {
          description: "Save the draft as a draft template",
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

function collector() {
  const problems: ErrorDetail[] = [];
  /** `nonEmpty`: not blank. */
  const text = (value: string | null | undefined, path: string, max: number, nonEmpty = false) => {
    if (value === undefined || value === null) return undefined;
    if (nonEmpty && !value.trim()) problems.push({ path, message: "must not be empty" });
    else if (value.length > max) problems.push({ path, message: `must be at most ${max} characters` });
    else return value;
    return undefined;
  };
  const done = () => {
    if (problems.length) throw validationError(problems);
  };
  return { problems, text, done };
}

export function parseSubjectRequest(body: Static<typeof SubjectRequestSchema>): SubjectRequest {
  const { text, done } = collector();
  const request = {
    subject: text(body.subject, "subject", 998) ?? "",
    html: text(body.html, "html", MAX_SOURCE),
    text: text(body.text, "text", MAX_SOURCE),
  };
  done();
  return request;
}

export function parseWriteRequest(body: Static<typeof WriteRequestSchema>): WriteRequest {
  const { problems, text, done } = collector();
  const request: WriteRequest = {
    brief: text(body.brief, "brief", MAX_BRIEF, true) ?? "",
    tone: text(body.tone, "tone", MAX_HINT),
    audience: text(body.audience, "audience", MAX_HINT),
    format: body.format ?? "html",
  };
  const save = body.save_as_template;
  if (save) {
    const name = text(save.name, "save_as_template.name", 200, true);
    const alias = text(save.alias, "save_as_template.alias", 100);
    if (alias !== undefined && !isAlias(alias)) problems.push({ path: "save_as_template.alias", message: ALIAS_RULE });
    else if (name !== undefined) request.saveAs = { name, ...(alias !== undefined ? { alias } : {}) };
  }
  done();
  return request;
}
