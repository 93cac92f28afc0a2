/**
 * HTTP routes of the AI writer and subject optimiser (DESIGN §8): `GET /v1/ai` (whether a model is configured),
 * `POST /v1/ai/subject`, `POST /v1/ai/write`.
 */
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readBody } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import type { AiService } from "./service.ts";
import { parseSubjectRequest, parseWriteRequest, SubjectRequestSchema, WriteRequestSchema } from "./validate.ts";

export function aiRoutes(deps: AuthDeps & { ai: AiService }) {
  const { ai, config } = deps;
  const limits = bodyLimits(config);
  const tags = ["AI"];
  return new Elysia()
    .use(authenticated(deps))
    .get("/v1/ai", ({ actor }) => ai.status(actor), {
      detail: {
        summary: "Whether a model is configured for drafts and subject suggestions (its name, or what to configure)",
        tags,
      },
    })
    .post(
      "/v1/ai/subject",
      async ({ request, actor }) =>
        ai.subject(actor, await readBody(request, limits, SubjectRequestSchema, { rules: parseSubjectRequest })),
      {
        parse: "none",
        detail: {
          summary: "Score a subject line offline (rules with fixes); better subjects when a model is configured",
          tags,
          requestBody: jsonContent(SubjectRequestSchema),
        },
      },
    )
    .post(
      "/v1/ai/write",
      async ({ request, actor }) =>
        ai.write(actor, await readBody(request, limits, WriteRequestSchema, { rules: parseWriteRequest })),
      {
        parse: "none",
        detail: {
          summary:
            "Draft an email from a brief through the configured model (checked; optionally saved as a draft template; never sent)",
          tags,
          requestBody: jsonContent(WriteRequestSchema),
        },
      },
    );
}
