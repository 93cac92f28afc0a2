/** HTTP routes for templates (DESIGN §8, Resend's paths): CRUD, publish, duplicate, render a preview, validate. */
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readBody } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import { parseCursor, parseLimit } from "../http/query.ts";
import type { TemplateService } from "./service.ts";
import {
  CreateTemplateSchema,
  engineOf,
  parseTemplateInput,
  parseValidateInput,
  RenderTemplateSchema,
  UpdateTemplateSchema,
  ValidateTemplateSchema,
} from "./validate.ts";

export function templateRoutes(deps: AuthDeps & { templates: TemplateService }) {
  const { templates, config } = deps;
  const limits = bodyLimits(config);
  const tags = ["Templates"];
  return new Elysia()
    .use(authenticated(deps))
    .post(
      "/v1/templates",
      async ({ request, actor }) => {
        const input = await readBody(request, limits, CreateTemplateSchema, {
          rules: (body) => ({ ...parseTemplateInput(body), name: body.name, html: body.html }),
        });
        return templates.create(actor, input);
      },
      {
        parse: "none",
        detail: {
          summary: "Create a template (a draft until published)",
          tags,
          requestBody: jsonContent(CreateTemplateSchema),
        },
      },
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
        const body = await readBody(request, limits, ValidateTemplateSchema, { rules: parseValidateInput });
        return templates.validate(actor, body.engine ?? engineOf(body.html), body);
      },
      {
        parse: "none",
        detail: {
          summary:
            "Check a template source (templates:write; html, subject and text at most 512 KiB each): problems at their line and column",
          tags,
          requestBody: jsonContent(ValidateTemplateSchema),
        },
      },
    )
    .get("/v1/templates/:id", ({ actor, params }) => templates.get(actor, params.id), {
      detail: { summary: "Get a template by id or alias (its current version)", tags },
    })
    .patch(
      "/v1/templates/:id",
      async ({ request, actor, params }) =>
        templates.update(
          actor,
          params.id,
          await readBody(request, limits, UpdateTemplateSchema, { rules: parseTemplateInput }),
        ),
      {
        parse: "none",
        detail: {
          summary: "Edit a template: the draft changes, sends keep the published version",
          tags,
          requestBody: jsonContent(UpdateTemplateSchema),
        },
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
        const body = await readBody(request, limits, RenderTemplateSchema, { optional: true });
        return templates.render(actor, params.id, body.variables ?? {});
      },
      {
        parse: "none",
        detail: {
          summary: "Render the current version with variables: {subject, html, text}",
          tags,
          requestBody: jsonContent(RenderTemplateSchema),
        },
      },
    );
}
