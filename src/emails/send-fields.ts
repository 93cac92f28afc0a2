/**
 * Sending with a template (DESIGN §1 `template`): a send body that names a template becomes the fields it stands
 * for — the published version rendered, its from and reply_to, then the body's own fields over them — and is then
 * validated like any send body. The HTTP API (send, batch) and the SMTP relay (`X-Mailroom-Template`) both come
 * through here, so a templated message is the same whichever way it arrives.
 */
import { AppError, validationError } from "../errors.ts";
import type { Actor } from "../access.ts";
import type { TemplatePaths } from "../templates/model.ts";
import type { TemplateService } from "../templates/service.ts";
import { variablesOf } from "../templates/validate.ts";
import type { ComposedFields } from "./model.ts";
import { parseSendRequest, type ValidationContext } from "./validate.ts";

export const BODY_TEMPLATE_PATHS: TemplatePaths = { id: "template.id", variables: "template.variables" };

/**
 * A send body with `template: {id, variables}` as the fields it stands for (a body's html replaces the template's
 * html and text). Bodies without a template pass through unchanged. A template that does not exist is the request's
 * fault (400 naming it), not a missing resource: the route exists. Sending with a template needs only
 * `emails:send`: a sending-only key is what an application should hold, and what it sends it could send anyway.
 */
async function withTemplate(
  templates: TemplateService,
  actor: Actor,
  body: unknown,
  paths: TemplatePaths,
): Promise<{ body: unknown; templateId?: string }> {
  if (!body || typeof body !== "object" || Array.isArray(body) || !("template" in body)) return { body };
  const { template, ...own } = body as Record<string, unknown>;
  const reference = template as { id?: unknown; variables?: unknown } | null;
  if (!reference || typeof reference !== "object" || typeof reference.id !== "string")
    throw validationError([{ path: paths.id, message: "must be a template id or alias" }]);
  const unknown = Object.keys(reference).filter((key) => key !== "id" && key !== "variables");
  if (unknown.length)
    throw validationError(
      unknown.map((key) => ({ path: paths.id.replace(/\.id$/, `.${key}`), message: "unknown field" })),
    );
  let rendered: Awaited<ReturnType<TemplateService["renderForSend"]>>;
  try {
    rendered = await templates.renderForSend(
      actor,
      reference.id,
      variablesOf(reference.variables, paths.variables),
      paths,
    );
  } catch (error) {
    if (error instanceof AppError && error.name === "not_found")
      throw validationError([{ path: paths.id, message: `no template has the id or alias "${reference.id}"` }]);
    throw error;
  }
  const fromTemplate: Record<string, unknown> = { html: rendered.html };
  if (own.html === undefined && rendered.text !== null) fromTemplate.text = rendered.text;
  if (rendered.subject !== null) fromTemplate.subject = rendered.subject;
  if (rendered.from !== null) fromTemplate.from = rendered.from;
  if (rendered.replyTo !== null && own["reply-to"] === undefined) fromTemplate.reply_to = rendered.replyTo;
  return { body: { ...fromTemplate, ...own }, templateId: rendered.templateId };
}

/** A send body (with or without a template) as validated fields, naming the template it was rendered from. */
export async function sendFields(
  templates: TemplateService,
  actor: Actor,
  body: unknown,
  context: ValidationContext,
  paths = BODY_TEMPLATE_PATHS,
): Promise<ComposedFields> {
  const rendered = await withTemplate(templates, actor, body, paths);
  return { ...parseSendRequest(rendered.body, context), templateId: rendered.templateId };
}
