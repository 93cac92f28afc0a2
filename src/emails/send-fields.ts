/**
 * Sending with a template (docs/sending.md `template`): a send body that names a template becomes the fields it stands
 * for — the published version rendered, its from and reply_to, then the body's own fields over them — and is then
 * validated like any send body. The HTTP API (send, batch) and the SMTP relay (`X-Mailroom-Template`) both come
 * through here, so a templated message is the same whichever way it arrives.
 */
import type { Actor } from "../access.ts";
import { AppError, type ErrorDetail, validationError } from "../errors.ts";
import { checkBody } from "../shape-check.ts";
import type { TemplatePaths } from "../templates/model.ts";
import type { TemplateService } from "../templates/service.ts";
import type { ComposedFields } from "./model.ts";
import { parseSendRequest, type SendEmailBody, SendEmailSchema, type ValidationContext } from "./validate.ts";

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
  body: SendEmailBody,
  paths: TemplatePaths,
): Promise<{ body: SendEmailBody; templateId?: string }> {
  const { template: reference, ...own } = body;
  if (!reference) return { body };
  let rendered: Awaited<ReturnType<TemplateService["renderForSend"]>>;
  try {
    rendered = await templates.renderForSend(actor, reference.id, reference.variables ?? {}, paths);
  } catch (error) {
    if (error instanceof AppError && error.name === "not_found")
      throw validationError([{ path: paths.id, message: `no template has the id or alias "${reference.id}"` }]);
    throw error;
  }
  const fromTemplate: Partial<SendEmailBody> = { html: rendered.html };
  if (own.html === undefined && rendered.text !== null) fromTemplate.text = rendered.text;
  if (rendered.subject !== null) fromTemplate.subject = rendered.subject;
  if (rendered.from !== null) fromTemplate.from = rendered.from;
  if (rendered.replyTo !== null && own["reply-to"] === undefined) fromTemplate.reply_to = rendered.replyTo;
  return { body: { ...fromTemplate, ...own }, templateId: rendered.templateId };
}

/**
 * A send body (with or without a template) as validated fields, naming the template it was rendered from: its shape
 * checked against the documented schema, then its rules. A problem of the template reference is named by `paths`
 * (the relay's header fields), not by the body's `template.*`.
 */
export async function sendFields(
  templates: TemplateService,
  actor: Actor,
  body: unknown,
  context: ValidationContext,
  paths = BODY_TEMPLATE_PATHS,
): Promise<ComposedFields> {
  try {
    return await checkBody(SendEmailSchema, body, async (input) => {
      const rendered = await withTemplate(templates, actor, input, paths);
      return { ...parseSendRequest(rendered.body, context), templateId: rendered.templateId };
    });
  } catch (error) {
    if (paths === BODY_TEMPLATE_PATHS || !(error instanceof AppError) || !error.details) throw error;
    throw new AppError(error.name, error.message, { details: error.details.map((detail) => renamed(detail, paths)) });
  }
}

const renamed = (detail: ErrorDetail, paths: TemplatePaths): ErrorDetail => {
  for (const key of ["id", "variables"] as const) {
    const from = BODY_TEMPLATE_PATHS[key];
    if (detail.path === from || detail.path.startsWith(`${from}.`))
      return { ...detail, path: paths[key] + detail.path.slice(from.length) };
  }
  return detail;
};
