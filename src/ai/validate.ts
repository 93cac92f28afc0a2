/** Validation of the AI endpoints' bodies (DESIGN §8). Pure; every problem with its path. */
import { validationError, type ErrorDetail } from "../errors.ts";
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

function collector() {
  const problems: ErrorDetail[] = [];
  /** `required`: present; `nonEmpty`: present and not blank. */
  const text = (
    body: Record<string, unknown>,
    key: string,
    max: number,
    required: boolean | "nonEmpty",
    path = key,
  ): string | undefined => {
    const value = body[key];
    if (value === undefined || value === null) {
      if (required) problems.push({ path, message: "is required" });
      return undefined;
    }
    if (typeof value !== "string") problems.push({ path, message: "must be a string" });
    else if (required === "nonEmpty" && !value.trim()) problems.push({ path, message: "must not be empty" });
    else if (value.length > max) problems.push({ path, message: `must be at most ${max} characters` });
    else return value;
    return undefined;
  };
  const done = () => {
    if (problems.length) throw validationError(problems);
  };
  return { problems, text, done };
}

export function parseSubjectRequest(body: Record<string, unknown>): SubjectRequest {
  const { text, done } = collector();
  const request = {
    subject: text(body, "subject", 998, true) ?? "",
    html: text(body, "html", MAX_SOURCE, false),
    text: text(body, "text", MAX_SOURCE, false),
  };
  done();
  return request;
}

export function parseWriteRequest(body: Record<string, unknown>): WriteRequest {
  const { problems, text, done } = collector();
  const request: WriteRequest = {
    brief: text(body, "brief", MAX_BRIEF, "nonEmpty") ?? "",
    tone: text(body, "tone", MAX_HINT, false),
    audience: text(body, "audience", MAX_HINT, false),
    format: "html",
  };
  if (body.format !== undefined && body.format !== "html" && body.format !== "mjml")
    problems.push({ path: "format", message: 'must be "html" or "mjml"' });
  else if (body.format === "mjml") request.format = "mjml";
  const save = body.save_as_template;
  if (save !== undefined && save !== null && save !== false) {
    if (typeof save !== "object" || Array.isArray(save))
      problems.push({ path: "save_as_template", message: "must be {name, alias?}" });
    else {
      const name = text(save as Record<string, unknown>, "name", 200, "nonEmpty", "save_as_template.name");
      const alias = text(save as Record<string, unknown>, "alias", 100, false, "save_as_template.alias");
      if (alias !== undefined && !isAlias(alias))
        problems.push({ path: "save_as_template.alias", message: ALIAS_RULE });
      else if (name !== undefined) request.saveAs = { name, ...(alias !== undefined ? { alias } : {}) };
    }
  }
  done();
  return request;
}
