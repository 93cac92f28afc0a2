/**
 * The AI email writer and subject optimiser (docs/templates-and-ai.md#ai-writer-and-subject-scoring). Subjects are scored offline by the curated rules
 * (subject-rules.ts); a configured model proposes better subjects, each scored the same way, and drafts emails from
 * a brief. Invariants: nothing here sends mail — a draft is returned, or saved as a template draft; a draft is
 * shown only after it passed the checks (draft-check.ts), with one chance for the model to repair it; scoring
 * never fails because the model does.
 */
import { AppError } from "../errors.ts";
import type { Actor } from "../access.ts";
import { requireScope } from "../access.ts";
import type { TemplateService } from "../templates/service.ts";
import { textOf } from "../templates/render.ts";
import { checkDraft, placeholdersIn, type Draft } from "./draft-check.ts";
import { jsonOfAnswer, NO_MODEL, type ChatMessage, type ChatModel } from "./model.ts";
import { PROMPT_VERSION, repairPrompt, subjectPrompt, writePrompt } from "./prompts.ts";
import { previewText } from "./preview-text.ts";
import { scoreSubject } from "./subject-score.ts";
import type { SubjectRequest, WriteRequest } from "./validate.ts";
import type { AiStatus, SubjectAnswer, WriteAnswer } from "./wire.ts";

export type { AiStatus } from "./wire.ts";

export interface AiService {
  status(actor: Actor): AiStatus;
  subject(actor: Actor, request: SubjectRequest): Promise<SubjectAnswer>;
  write(actor: Actor, request: WriteRequest): Promise<WriteAnswer>;
}

const SUGGESTIONS = 3;
/** Filled by Mailroom itself when a message is composed, so never a variable of a saved draft. */
const FILLED_BY_MAILROOM = new Set(["unsubscribe_url"]);

export function createAiService(deps: { model: ChatModel; templates: TemplateService }): AiService {
  const { model, templates } = deps;

  /** One draft: the model's answer, checked; one repair turn when the checks fail. */
  const draftFor = async (request: WriteRequest, placeholders: string[]): Promise<Draft> => {
    let messages: ChatMessage[] = writePrompt({ ...request, placeholders });
    let problems: string[] = [];
    for (let turn = 0; turn < 2; turn++) {
      const answer = await model.complete(messages);
      const json = jsonOfAnswer(answer);
      const checked = json
        ? await checkDraft(json, request.format, placeholders)
        : { problems: ["the answer was not one JSON object"] };
      if (checked.draft) return checked.draft;
      problems = checked.problems;
      messages = repairPrompt(messages, answer, problems);
    }
    throw new AppError(
      "service_unavailable",
      `The model's draft failed the checks twice: ${problems.slice(0, 3).join("; ")}.`,
    );
  };

  return {
    status(actor) {
      requireScope(actor, "ai:use");
      const configured = model.name !== null;
      return { object: "ai", model_configured: configured, model: model.name, message: configured ? null : NO_MODEL };
    },

    async subject(actor, request) {
      requireScope(actor, "ai:use");
      const scored = scoreSubject(request);
      const answer: SubjectAnswer = { ...scored, suggestions: [], prompt_version: PROMPT_VERSION };
      const preview = previewText(request, 300) ?? "";
      try {
        const reply = jsonOfAnswer(
          await model.complete(
            subjectPrompt(
              request.subject,
              scored.findings.map((finding) => finding.message),
              preview,
            ),
          ),
        );
        const proposed = Array.isArray(reply?.subjects) ? reply.subjects : [];
        const distinct = new Set(
          proposed
            .filter((s): s is string => typeof s === "string")
            .map((s) => s.trim())
            .filter((s) => s && s.length <= 200 && !/[\r\n]/.test(s) && s !== request.subject),
        );
        if (!distinct.size) throw new AppError("service_unavailable", "The model's answer held no usable subjects.");
        answer.suggestions = [...distinct]
          .slice(0, SUGGESTIONS)
          .map((subject) => ({ subject, ...scoreSubject({ ...request, subject }) }))
          .sort((a, b) => b.score - a.score);
      } catch (error) {
        if (!(error instanceof AppError) || error.name !== "service_unavailable") throw error;
        answer.suggestions_unavailable = error.message;
      }
      return answer;
    },

    async write(actor, request) {
      requireScope(actor, "ai:use");
      if (request.saveAs) requireScope(actor, "templates:write");
      const draft = await draftFor(request, placeholdersIn(request.brief));
      const engine = request.format === "mjml" ? "mjml" : "handlebars";
      const variables = placeholdersIn(`${draft.subject}\n${draft.html}\n${draft.text}`).filter(
        (name) => !FILLED_BY_MAILROOM.has(name),
      );
      let templateId: string | null = null;
      if (request.saveAs) {
        const saved = await templates.create(actor, {
          name: request.saveAs.name,
          alias: request.saveAs.alias,
          engine,
          subject: draft.subject,
          html: draft.html,
          text: draft.text || null,
          variables: variables.map((key) => ({
            key,
            type: "string",
            fallback_value: null,
            created_at: "",
            updated_at: "",
          })),
        });
        templateId = saved.id;
      }
      return {
        object: "draft",
        ...draft,
        text: draft.text || (await textOf(engine, draft.html)),
        engine,
        variables,
        template_id: templateId,
        prompt_version: PROMPT_VERSION,
      };
    },
  };
}
