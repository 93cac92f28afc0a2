/**
 * HTTP routes for templates on Resend's paths (docs/templates-and-ai.md#templates): create, list, get, edit and
 * delete, publish, duplicate, render a preview, check a source — each route one contract (http/contract.ts); the
 * bodies' rules (validate.ts) run in the handlers once their shape is checked.
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { DeletedOf, ListOf, PageQuery } from "../lib/wire.ts";
import {
  RenderedTemplateSchema,
  TemplateResponseSchema,
  TemplateSchema,
  TemplateSummarySchema,
  TemplateValidationSchema,
} from "./model.ts";
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

const tags = ["Templates"];
const IdOrAlias = t.Object({ id: t.String({ description: "The template's id, or its alias" }) });

export function templateRoutes(deps: AuthDeps & { templates: TemplateService }) {
  const { templates } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "POST",
        path: "/v1/templates",
        summary: "Create a template (a draft until published)",
        tags,
        body: CreateTemplateSchema,
        responses: { 200: TemplateResponseSchema },
        errors: ["conflict"],
      },
      ({ actor, body }) => templates.create(actor, { ...parseTemplateInput(body), name: body.name, html: body.html }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/templates",
        summary: "List templates, newest first",
        tags,
        query: t.Object(PageQuery),
        responses: { 200: ListOf(TemplateSummarySchema) },
      },
      ({ actor, query }) => templates.list(actor, { ...query, limit: query.limit ?? 20 }),
    ),
    route(
      {
        method: "POST",
        path: "/v1/templates/validate",
        summary:
          "Check a template source (templates:write; html, subject and text at most 512 KiB each): problems at their line and column",
        tags,
        body: ValidateTemplateSchema,
        responses: { 200: TemplateValidationSchema },
      },
      ({ actor, body }) => {
        const source = parseValidateInput(body);
        return templates.validate(actor, source.engine ?? engineOf(source.html), source);
      },
    ),
    route(
      {
        method: "GET",
        path: "/v1/templates/:id",
        summary: "Get a template by id or alias (its current version)",
        tags,
        params: IdOrAlias,
        responses: { 200: TemplateSchema },
      },
      ({ actor, params }) => templates.get(actor, params.id),
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/templates/:id",
        summary: "Edit a template: the draft changes, sends keep the published version",
        tags,
        params: IdOrAlias,
        body: UpdateTemplateSchema,
        responses: { 200: TemplateResponseSchema },
        errors: ["conflict"],
      },
      ({ actor, params, body }) => templates.update(actor, params.id, parseTemplateInput(body)),
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/templates/:id",
        summary: "Delete a template",
        tags,
        params: IdOrAlias,
        responses: { 200: DeletedOf("template") },
      },
      ({ actor, params }) => templates.remove(actor, params.id),
    ),
    route(
      {
        method: "POST",
        path: "/v1/templates/:id/publish",
        summary: "Publish the current version: sends use it from now on",
        tags,
        params: IdOrAlias,
        responses: { 200: TemplateResponseSchema },
      },
      ({ actor, params }) => templates.publish(actor, params.id),
    ),
    route(
      {
        method: "POST",
        path: "/v1/templates/:id/duplicate",
        summary: "Copy a template as a new draft",
        tags,
        params: IdOrAlias,
        responses: { 200: TemplateResponseSchema },
      },
      ({ actor, params }) => templates.duplicate(actor, params.id),
    ),
    route(
      {
        method: "POST",
        path: "/v1/templates/:id/render",
        summary: "Render the current version with variables: {subject, html, text}",
        tags,
        params: IdOrAlias,
        body: RenderTemplateSchema,
        optionalBody: true,
        responses: { 200: RenderedTemplateSchema },
      },
      ({ actor, params, body }) => templates.render(actor, params.id, body.variables ?? {}),
    ),
  ]);
}
