/** HTTP routes for templates (DESIGN §8, Resend's paths): CRUD, publish, duplicate, render a preview, validate. */
import { Elysia } from "elysia";
import { validationError } from "../errors.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readJsonObject } from "../http/body.ts";
import { parseCursor, parseLimit } from "../http/query.ts";
import { requireScope } from "../access.ts";
import type { TemplateEngine } from "./model.ts";
import type { TemplateService } from "./service.ts";
import { engineOf, parseTemplateInput, variablesOf } from "./validate.ts";

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
    .get(
      "/v1/templates",
      ({ actor, query }) =>
        templates.list(actor, {
          limit: parseLimit(query.limit),
          after: parseCursor("after", query.after),
          before: parseCursor("before", query.before),
        }),
      {
        detail: { summary: "List templates, newest first", tags },
      },
    )
    .post(
      "/v1/templates/validate",
      async ({ request, actor }) => {
        requireScope(actor, "templates:read");
        const body = await readJsonObject(request, limits, { known: ["engine", "html", "subject", "text"] });
        const strings = ["html", "subject", "text"].filter(
          (key) => body[key] !== undefined && typeof body[key] !== "string",
        );
        if (typeof body.html !== "string" || strings.length)
          throw validationError([{ path: strings[0] ?? "html", message: "must be a string" }]);
        if (body.engine !== undefined && body.engine !== "handlebars" && body.engine !== "mjml")
          throw validationError([{ path: "engine", message: 'must be "handlebars" or "mjml"' }]);
        return templates.validate(
          (body.engine as TemplateEngine | undefined) ?? engineOf(body.html),
          body as { html: string; subject?: string; text?: string },
        );
      },
      { parse: "none", detail: { summary: "Check a template source: problems at their line and column", tags } },
    )
    .get("/v1/templates/:id", ({ actor, params }) => templates.get(actor, params.id), {
      detail: { summary: "Get a template by id or alias (its current version)", tags },
    })
    .patch(
      "/v1/templates/:id",
      async ({ request, actor, params }) =>
        templates.update(actor, params.id, parseTemplateInput(await readJsonObject(request, limits), "update")),
      {
        parse: "none",
        detail: { summary: "Edit a template: the draft changes, sends keep the published version", tags },
      },
    )
    .delete("/v1/templates/:id", ({ actor, params }) => templates.remove(actor, params.id), {
      detail: { summary: "Delete a template", tags },
    })
    .post("/v1/templates/:id/publish", ({ actor, params }) => templates.publish(actor, params.id), {
      detail: { summary: "Publish the current version: sends use it from now on", tags },
    })
    .post("/v1/templates/:id/duplicate", ({ actor, params }) => templates.duplicate(actor, params.id), {
      detail: { summary: "Copy a template as a new draft", tags },
    })
    .post(
      "/v1/templates/:id/render",
      async ({ request, actor, params }) => {
        const body = await readJsonObject(request, limits, { known: ["variables"], optional: true });
        return templates.render(actor, params.id, variablesOf(body.variables));
      },
      { parse: "none", detail: { summary: "Render the current version with variables: {subject, html, text}", tags } },
    );
}
