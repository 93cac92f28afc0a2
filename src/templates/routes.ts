/** HTTP routes for templates (DESIGN §8, Resend's paths): CRUD, publish, duplicate, render a preview, validate. */
import { Elysia } from "elysia";
import { validationError } from "../errors.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readJsonObject } from "../http/body.ts";
import { parseCursor, parseLimit } from "../http/query.ts";
import { requireScope } from "../keys/service.ts";
import type { TemplateService } from "./service.ts";
import { parseTemplateInput } from "./validate.ts";

/** `{variables: {...}}` of a render or send: an object of values. */
export function variablesOf(value: unknown, path = "variables"): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw validationError([{ path, message: "must be an object of variable values" }]);
  return value as Record<string, unknown>;
}

export function templateRoutes(deps: AuthDeps & { templates: TemplateService }) {
  const { templates, config } = deps;
  const limits = bodyLimits(config);
  const tags = ["Templates"];
  return new Elysia()
    .use(authenticated(deps))
    .post(
      "/v1/templates",
      async ({ request, actor }) => {
        const input = parseTemplateInput(await readJsonObject(request, limits), "create");
        return templates.create(actor, { ...input, name: input.name!, html: input.html! });
      },
      { parse: "none", detail: { summary: "Create a template (a draft until published)", tags } },
    )
    .get("/v1/templates", ({ actor, query }) => templates.list(actor, { limit: parseLimit(query.limit), after: parseCursor("after", query.after), before: parseCursor("before", query.before) }), {
      detail: { summary: "List templates, newest first", tags },
    })
    .post(
      "/v1/templates/validate",
      async ({ request, actor }) => {
        requireScope(actor, "templates:read");
        const body = await readJsonObject(request, limits, { known: ["engine", "html", "subject", "text"] });
        const strings = ["html", "subject", "text"].filter((key) => body[key] !== undefined && typeof body[key] !== "string");
        if (typeof body.html !== "string" || strings.length) throw validationError([{ path: strings[0] ?? "html", message: "must be a string" }]);
        return templates.validate((body.engine as "handlebars" | undefined) ?? "handlebars", body as { html: string; subject?: string; text?: string });
      },
      { parse: "none", detail: { summary: "Check a template source: problems at their line and column", tags } },
    )
    .get("/v1/templates/:id", ({ actor, params }) => templates.get(actor, params.id), { detail: { summary: "Get a template by id or alias (its current version)", tags } })
    .patch(
      "/v1/templates/:id",
      async ({ request, actor, params }) => templates.update(actor, params.id, parseTemplateInput(await readJsonObject(request, limits), "update")),
      { parse: "none", detail: { summary: "Edit a template: the draft changes, sends keep the published version", tags } },
    )
    .delete("/v1/templates/:id", ({ actor, params }) => templates.remove(actor, params.id), { detail: { summary: "Delete a template", tags } })
    .post("/v1/templates/:id/publish", ({ actor, params }) => templates.publish(actor, params.id), { detail: { summary: "Publish the current version: sends use it from now on", tags } })
    .post("/v1/templates/:id/duplicate", ({ actor, params }) => templates.duplicate(actor, params.id), { detail: { summary: "Copy a template as a new draft", tags } })
    .post(
      "/v1/templates/:id/render",
      async ({ request, actor, params }) => {
        const body = await readJsonObject(request, limits, { known: ["variables"], optional: true });
        return templates.render(actor, params.id, variablesOf(body.variables));
      },
      { parse: "none", detail: { summary: "Render the current version with variables: {subject, html, text}", tags } },
    );
}

/**
 * A send body with `template: {id, variables}` as the fields it stands for: the published version rendered, its
 * from and reply_to, then the body's own fields over them (a body's html replaces the template's html and text).
 * Bodies without a template pass through unchanged.
 */
export async function withTemplate(templates: TemplateService, actor: Parameters<TemplateService["get"]>[0], body: unknown, path = "template"): Promise<{ body: unknown; templateId?: string }> {
  if (!body || typeof body !== "object" || Array.isArray(body) || !("template" in body)) return { body };
  const { template, ...own } = body as Record<string, unknown>;
  const reference = template as { id?: unknown; variables?: unknown } | null;
  if (!reference || typeof reference !== "object" || typeof reference.id !== "string") throw validationError([{ path: `${path}.id`, message: "must be a template id or alias" }]);
  const unknown = Object.keys(reference).filter((key) => key !== "id" && key !== "variables");
  if (unknown.length) throw validationError(unknown.map((key) => ({ path: `${path}.${key}`, message: "unknown field" })));
  requireScope(actor, "templates:read");
  const rendered = await templates.renderForSend(actor, reference.id, variablesOf(reference.variables, `${path}.variables`));
  const fromTemplate: Record<string, unknown> = { html: rendered.html };
  if (own.html === undefined) fromTemplate.text = rendered.text;
  if (rendered.subject !== null) fromTemplate.subject = rendered.subject;
  if (rendered.from !== null) fromTemplate.from = rendered.from;
  if (rendered.replyTo !== null && own["reply-to"] === undefined) fromTemplate.reply_to = rendered.replyTo;
  return { body: { ...fromTemplate, ...own }, templateId: rendered.templateId };
}
