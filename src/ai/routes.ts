/**
 * HTTP routes of the AI writer and subject optimiser (docs/templates-and-ai.md#ai-writer-and-subject-scoring):
 * `GET /v1/ai` (whether a model is configured), `POST /v1/ai/subject`, `POST /v1/ai/write` — each route one
 * contract (http/contract.ts); the bodies' rules (validate.ts) run once their shape is checked.
 */
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import type { AiService } from "./service.ts";
import { parseSubjectRequest, parseWriteRequest, SubjectRequestSchema, WriteRequestSchema } from "./validate.ts";
import { AiStatusSchema, SubjectResponseSchema, WriteResponseSchema } from "./wire.ts";

const tags = ["AI"];

export function aiRoutes(deps: AuthDeps & { ai: AiService }) {
  const { ai } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "GET",
        path: "/v1/ai",
        summary: "Whether a model is configured for drafts and subject suggestions (its name, or what to configure)",
        tags,
        responses: { 200: AiStatusSchema },
      },
      ({ actor }) => ai.status(actor),
    ),
    route(
      {
        method: "POST",
        path: "/v1/ai/subject",
        summary: "Score a subject line offline (rules with fixes); better subjects when a model is configured",
        tags,
        body: SubjectRequestSchema,
        responses: { 200: SubjectResponseSchema },
      },
      ({ actor, body }) => ai.subject(actor, parseSubjectRequest(body)),
    ),
    route(
      {
        method: "POST",
        path: "/v1/ai/write",
        summary:
          "Draft an email from a brief through the configured model (checked; optionally saved as a draft template; never sent)",
        tags,
        body: WriteRequestSchema,
        responses: { 200: WriteResponseSchema },
        // Saved as a template whose alias another template has.
        errors: ["conflict"],
      },
      ({ actor, body }) => ai.write(actor, parseWriteRequest(body)),
    ),
  ]);
}
