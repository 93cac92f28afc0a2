/**
 * The AI endpoints' answers (docs/templates-and-ai.md#ai-writer-and-subject-scoring): whether a model is
 * configured, a subject's score with its findings and the model's better subjects, and a draft — written once, as
 * the schemas that type the service and document the routes, under the Node client's names.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { named, Nullable, OneOf } from "../lib/wire.ts";
import { TEMPLATE_ENGINES } from "../templates/model.ts";

/** How serious a subject rule's finding is, most serious first. */
export const SUBJECT_SEVERITIES = ["error", "warning", "info"] as const;

/** Whether drafts and suggestions can be asked for, so that a client can say so before anyone submits. */
export const AiStatusSchema = named(
  "AiStatus",
  t.Object({
    object: t.Literal("ai"),
    model_configured: t.Boolean(),
    model: Nullable(t.String(), { description: "The configured model's name (never its server or key)" }),
    message: Nullable(t.String(), { description: "What to configure, when no model is" }),
  }),
);
export type AiStatus = Static<typeof AiStatusSchema>;

export const SubjectFindingSchema = named(
  "SubjectFinding",
  t.Object({
    rule: t.String({ description: "The rule's stable dotted id, e.g. length.too_long" }),
    severity: OneOf(SUBJECT_SEVERITIES),
    message: t.String(),
    fix: t.String({ description: "What to change" }),
  }),
);
export type SubjectFinding = Static<typeof SubjectFindingSchema>;

export const SubjectScoreSchema = named(
  "SubjectScore",
  t.Object({
    subject: t.String(),
    score: t.Integer({ minimum: 0, maximum: 100 }),
    findings: t.Array(SubjectFindingSchema),
  }),
);
export type SubjectScore = Static<typeof SubjectScoreSchema>;

export const SubjectResponseSchema = named(
  "SubjectResponse",
  t.Object({
    score: t.Integer({ minimum: 0, maximum: 100 }),
    findings: t.Array(SubjectFindingSchema),
    suggestions: t.Array(SubjectScoreSchema, {
      description: "Better subjects from the model, best first; empty without one",
    }),
    suggestions_unavailable: t.Optional(
      t.String({ description: "Why there are no suggestions, when the model is not configured or failed" }),
    ),
    prompt_version: t.String(),
  }),
);
export type SubjectAnswer = Static<typeof SubjectResponseSchema>;

export const WriteResponseSchema = named(
  "WriteResponse",
  t.Object({
    object: t.Literal("draft"),
    subject: t.String(),
    html: t.String(),
    text: t.String(),
    engine: OneOf(TEMPLATE_ENGINES),
    variables: t.Array(t.String(), { description: "The placeholders the draft uses: the variables a send fills" }),
    template_id: Nullable(t.String(), { description: "The draft template it was saved as, when asked" }),
    prompt_version: t.String(),
  }),
);
export type WriteAnswer = Static<typeof WriteResponseSchema>;
