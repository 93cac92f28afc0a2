/**
 * Saved templates' types and wire (docs/templates-and-ai.md#templates), in the Resend SDK's shapes: a template as
 * the API shows it, its summary in a list, a variable, a render and a check — written once, as the schemas that type
 * the service and document the routes, under the Node client's names. What a version stores is the store's
 * (db/schema/templates.ts).
 */
import { type Static, Type as t } from "@sinclair/typebox";
import type { TemplateContent, TemplateEngine, TemplateVariable } from "../db/schema/templates.ts";
import { TEMPLATE_ENGINES } from "../db/schema/templates.ts";
import { named, Nullable, OneOf } from "../lib/wire.ts";

export { TEMPLATE_ENGINES };
export type { TemplateContent, TemplateEngine, TemplateVariable };

/** The values a render uses, by variable key: strings and numbers only, nothing a template can iterate. */
export type TemplateValues = Record<string, string | number>;

const Time = t.String({ format: "date-time" });
const Engine = OneOf(TEMPLATE_ENGINES, { description: "How html is read: Handlebars, or MJML with Handlebars" });
const Status = OneOf(["draft", "published"], { description: "published once a version was published" });

export const TemplateVariableSchema = named(
  "TemplateVariable",
  t.Object({
    key: t.String(),
    type: OneOf(["string", "number"]),
    fallback_value: Nullable(t.Union([t.String(), t.Number()]), { description: "Used when a send gives none" }),
    created_at: Time,
    updated_at: Time,
  }),
);

export const TemplateSchema = named(
  "Template",
  t.Object({
    object: t.Literal("template"),
    id: t.String({ format: "uuid" }),
    name: t.String(),
    alias: Nullable(t.String()),
    engine: Engine,
    status: Status,
    subject: Nullable(t.String()),
    from: Nullable(t.String()),
    reply_to: Nullable(t.Array(t.String())),
    html: t.String(),
    text: Nullable(t.String()),
    variables: t.Array(TemplateVariableSchema),
    published_at: Nullable(Time),
    created_at: Time,
    updated_at: Time,
    has_unpublished_versions: t.Boolean({ description: "The current version is not the published one" }),
    current_version_id: t.String({ description: "The version get shows and an update replaces" }),
  }),
);
export type TemplateView = Static<typeof TemplateSchema>;

/** A template in a list: no content. */
export const TemplateSummarySchema = named(
  "TemplateSummary",
  t.Object({
    id: t.String({ format: "uuid" }),
    name: t.String(),
    alias: Nullable(t.String()),
    status: Status,
    published_at: Nullable(Time),
    created_at: Time,
    updated_at: Time,
    engine: Engine,
  }),
);
export type TemplateSummary = Static<typeof TemplateSummarySchema>;

/** The answer of a create, an update, a publish and a duplicate: the template's id. */
export const TemplateResponseSchema = named(
  "TemplateResponse",
  t.Object({ object: t.Literal("template"), id: t.String({ format: "uuid" }) }),
);

export const RenderedTemplateSchema = named(
  "RenderedTemplate",
  t.Object({ subject: Nullable(t.String()), html: t.String(), text: t.String() }),
);
export type Rendered = Static<typeof RenderedTemplateSchema>;

export interface TemplateProblem {
  line: number;
  column: number;
  message: string;
}

export const TemplateValidationSchema = named(
  "TemplateValidation",
  t.Object({
    valid: t.Boolean(),
    errors: t.Array(
      t.Object({
        field: t.String({ description: "html, subject or text" }),
        line: t.Integer(),
        column: t.Integer(),
        message: t.String(),
      }),
    ),
  }),
);

/** Where a template reference sits in a request, for naming it in a refusal. */
export interface TemplatePaths {
  id: string;
  variables: string;
}
