/**
 * Saved templates (docs/templates-and-ai.md#templates, Resend's template API): create, get by id or alias, list, update, delete, publish,
 * duplicate, render a preview, validate a source (`templates:write`: a check costs up to the render budget); and the
 * published version a send renders. Invariants: an edit changes the draft only — sends keep using the published
 * version until the next publish; a version is validated before it is saved, so a saved template always compiles;
 * an organisation sees only its own templates; rendering and checking run on the CPU pool within a time budget,
 * never on the event loop (a send's render on the send path's lane, checks and previews on the other), and a render
 * is never larger than the message size limit.
 */
import type { PageOptions } from "../db/pages.ts";
import type { Db, Writer } from "../db/store.ts";
import { engineCode } from "../db/faults.ts";
import { AppError, validationError } from "../errors.ts";
import type { Actor } from "../access.ts";
import { recordAudit } from "../audit/log.ts";
import { requireScope } from "../access.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { CpuTaskOverrun } from "../threads/thread-pool.ts";
import type {
  Rendered,
  TemplateContent,
  TemplateEngine,
  TemplatePaths,
  TemplateProblem,
  TemplateSummary,
  TemplateView,
} from "./model.ts";
import type { TemplateJob, TemplateOutcome } from "./render.ts";
import {
  deleteTemplate,
  findTemplate,
  insertTemplate,
  pageTemplates,
  type TemplateRow,
  updateTemplate,
} from "./repo.ts";
import type { TemplateInput } from "./validate.ts";
import { resolveVariables } from "./variables.ts";

/** `{{unsubscribe_url}}` is filled when the message is composed (`unsubscribe: true`), so it passes through. */
const UNSUBSCRIBE_PLACEHOLDER = "{{unsubscribe_url}}";

/** Whose work a render or check is, and whether a send waits for it (the pool keeps that work apart). */
export interface TemplateWork {
  tenant: string;
  forSend: boolean;
}

/** Rendering off the event loop (the CPU pool): the call this area makes of it. */
export interface TemplateRenderer {
  /** Rejects with `CpuTaskOverrun` when the work takes longer than `budgetMs` (loading the engines not counted). */
  template(job: TemplateJob, budgetMs: number, work: TemplateWork): Promise<TemplateOutcome>;
}

export interface TemplateService {
  create(
    actor: Actor,
    input: TemplateInput & { name: string; html: string },
  ): Promise<{ object: "template"; id: string }>;
  get(actor: Actor, idOrAlias: string): Promise<TemplateView>;
  list(actor: Actor, options: PageOptions): Promise<{ object: "list"; has_more: boolean; data: TemplateSummary[] }>;
  update(actor: Actor, idOrAlias: string, input: TemplateInput): Promise<{ object: "template"; id: string }>;
  remove(actor: Actor, idOrAlias: string): Promise<{ object: "template"; id: string; deleted: true }>;
  publish(actor: Actor, idOrAlias: string): Promise<{ object: "template"; id: string }>;
  duplicate(actor: Actor, idOrAlias: string): Promise<{ object: "template"; id: string }>;
  /** Renders the current version (the editor's preview) with `variables`. */
  render(actor: Actor, idOrAlias: string, variables: Record<string, unknown>): Promise<Rendered>;
  /** Checks a source (the editor's, as one types): `templates:write`, as for saving it. */
  validate(
    actor: Actor,
    engine: TemplateEngine,
    source: { html: string; subject?: string; text?: string },
  ): Promise<{ valid: boolean; errors: Array<TemplateProblem & { field: string }> }>;
  /** The published version a send uses, rendered; 400 when the template was never published. */
  renderForSend(
    actor: Actor,
    idOrAlias: string,
    variables: Record<string, unknown>,
    paths: TemplatePaths,
  ): Promise<
    Omit<Rendered, "text"> & { text: string | null; templateId: string; from: string | null; replyTo: string[] | null }
  >;
}

export interface TemplateLimits {
  /** A render's subject, html and text together, in bytes: the message size limit. */
  maxMessageBytes: number;
  /** How long one render or check may work before it is stopped. */
  renderTimeoutMs: number;
}

export function createTemplateService(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  /** Does a job on the CPU pool's threads; rejects with `CpuTaskOverrun` past `budgetMs`. */
  cpu: TemplateRenderer;
  limits: TemplateLimits;
}): TemplateService {
  const { db, writer, clock, cpu, limits } = deps;

  /** A job done on the CPU pool; one cut off for its time is the request's fault, a 400 at `path`. */
  const perform = async (job: TemplateJob, path: string, work: TemplateWork): Promise<TemplateOutcome> => {
    try {
      return await cpu.template(job, limits.renderTimeoutMs, work);
    } catch (error) {
      if (!(error instanceof CpuTaskOverrun)) throw error;
      const doing = job.kind === "render" ? "rendering the template with these variables" : "checking the template";
      throw validationError([
        { path, message: `${doing} took longer than ${limits.renderTimeoutMs} ms and was stopped` },
      ]);
    }
  };

  /**
   * A version rendered with the variables given, its text null when the template has none unless it is a preview
   * (a preview shows the text made from the html; a send leaves that to the composer). `path` names the variables in
   * a refusal: `variables` of a render, `template.variables` of a send.
   */
  const renderVersion = async (
    versionId: string,
    content: TemplateContent,
    given: Record<string, unknown>,
    path: string,
    work: TemplateWork,
  ) => {
    const withText = !work.forSend;
    const values = {
      unsubscribe_url: UNSUBSCRIBE_PLACEHOLDER,
      ...resolveVariables(content, given, path, limits.maxMessageBytes),
    };
    const job: TemplateJob = { kind: "render", versionId, content, values, maxBytes: limits.maxMessageBytes, withText };
    const outcome = (await perform(job, path, work)) as Extract<TemplateOutcome, { kind: "rendered" | "refused" }>;
    if (outcome.kind === "rendered") return { subject: outcome.subject, html: outcome.html, text: outcome.text };
    if (outcome.reason === "too_large") {
      throw new AppError(
        "payload_too_large",
        `The template rendered with these variables would be ${outcome.message}.`,
        { details: [{ path, message: `the rendered template would be ${outcome.message}` }] },
      );
    }
    throw validationError([
      { path, message: `the template could not be rendered with these variables: ${outcome.message}` },
    ]);
  };

  const notFound = () => new AppError("not_found", "Template not found.");
  const find = async (tx: Db, actor: Actor, idOrAlias: string) => {
    const row = await findTemplate(tx, actor.organizationId, idOrAlias);
    if (!row) throw notFound();
    return row;
  };

  const view = (row: TemplateRow): TemplateView => ({
    object: "template",
    id: row.id,
    name: row.name,
    alias: row.alias,
    ...row.draft,
    engine: row.engine,
    status: row.publishedVersionId ? "published" : "draft",
    published_at: row.publishedAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    has_unpublished_versions: row.draftVersionId !== row.publishedVersionId,
    current_version_id: row.draftVersionId,
  });
  const summary = ({
    id,
    name,
    alias,
    status,
    published_at,
    created_at,
    updated_at,
    engine,
  }: TemplateView): TemplateSummary => ({ id, name, alias, status, published_at, created_at, updated_at, engine });

  /** Refuses a version that does not compile, with each problem at its field, line and column. */
  const assertValid = async (actor: Actor, engine: TemplateEngine, content: TemplateContent) => {
    const { errors } = await service.validate(actor, engine, {
      html: content.html,
      subject: content.subject ?? undefined,
      text: content.text ?? undefined,
    });
    if (errors.length)
      throw validationError(
        errors.map((e) => ({ path: e.field, message: `line ${e.line}, column ${e.column}: ${e.message}` })),
      );
  };

  /** A unique alias is the store's to enforce; its refusal becomes a 409 naming the alias. */
  const aliasTaken = (error: unknown, alias: string | null | undefined) => {
    const code = engineCode(error);
    if (alias && (code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE"))
      return new AppError("conflict", `The alias "${alias}" is taken by another template.`);
    return error;
  };

  const withVariableTimes = (
    content: TemplateContent,
    previous: TemplateContent | null,
    now: string,
  ): TemplateContent => ({
    ...content,
    variables: content.variables.map((variable) => {
      const before = previous?.variables.find((v) => v.key === variable.key);
      return { ...variable, created_at: before?.created_at ?? now, updated_at: now };
    }),
  });

  /** The audit log's record of a change to a template, in the change's transaction. */
  const audited = (
    tx: Db,
    actor: Actor,
    action: string,
    template: { id: string; name: string },
    changes?: Record<string, unknown>,
  ) =>
    recordAudit(
      tx,
      actor,
      { action, target: { type: "template", id: template.id, name: template.name }, changes },
      clock.now(),
    );

  const service: TemplateService = {
    async create(actor, input) {
      requireScope(actor, "templates:write");
      const now = isoTime(clock.now());
      const engine = input.engine ?? "handlebars";
      const content = withVariableTimes(
        {
          engine,
          subject: input.subject ?? null,
          from: input.from ?? null,
          reply_to: input.replyTo ?? null,
          html: input.html,
          text: input.text ?? null,
          variables: input.variables ?? [],
        },
        null,
        now,
      );
      await assertValid(actor, engine, content);
      const id = newId();
      try {
        await writer.write(async (tx) => {
          await insertTemplate(tx, {
            id,
            organizationId: actor.organizationId,
            name: input.name,
            alias: input.alias ?? null,
            engine,
            draft: content,
            draftVersionId: newId(),
            createdAt: now,
            updatedAt: now,
          });
          await audited(
            tx,
            actor,
            "template.created",
            { id, name: input.name },
            { alias: input.alias ?? null, engine },
          );
        });
      } catch (error) {
        throw aliasTaken(error, input.alias);
      }
      return { object: "template", id };
    },

    async get(actor, idOrAlias) {
      requireScope(actor, "templates:read");
      return view(await find(db, actor, idOrAlias));
    },

    async list(actor, options) {
      requireScope(actor, "templates:read");
      const { page, hasMore } = await pageTemplates(db, actor.organizationId, options);
      return { object: "list", has_more: hasMore, data: page.map((row) => summary(view(row))) };
    },

    async update(actor, idOrAlias, input) {
      requireScope(actor, "templates:write");
      try {
        return await writer.write(async (tx) => {
          const row = await find(tx, actor, idOrAlias);
          const now = isoTime(clock.now());
          const engine = input.engine ?? row.engine;
          const draft = withVariableTimes(
            {
              engine,
              subject: input.subject === undefined ? row.draft.subject : input.subject,
              from: input.from === undefined ? row.draft.from : input.from,
              reply_to: input.replyTo === undefined ? row.draft.reply_to : input.replyTo,
              html: input.html ?? row.draft.html,
              text: input.text === undefined ? row.draft.text : input.text,
              variables: input.variables ?? row.draft.variables,
            },
            row.draft,
            now,
          );
          await assertValid(actor, engine, draft);
          await updateTemplate(tx, row.id, {
            name: input.name ?? row.name,
            alias: input.alias === undefined ? row.alias : input.alias,
            engine,
            draft,
            draftVersionId: newId(),
            updatedAt: now,
          });
          // The draft's content is the template's own (in its versions); the log names what was touched.
          const touched = Object.keys(input).filter((field) => input[field as keyof typeof input] !== undefined);
          await audited(tx, actor, "template.updated", row, { fields: touched });
          return { object: "template" as const, id: row.id };
        });
      } catch (error) {
        throw aliasTaken(error, input.alias);
      }
    },

    async remove(actor, idOrAlias) {
      requireScope(actor, "templates:write");
      return writer.write(async (tx) => {
        const row = await find(tx, actor, idOrAlias);
        await deleteTemplate(tx, row.id);
        await audited(tx, actor, "template.deleted", row);
        return { object: "template" as const, id: row.id, deleted: true as const };
      });
    },

    async publish(actor, idOrAlias) {
      requireScope(actor, "templates:write");
      return writer.write(async (tx) => {
        const row = await find(tx, actor, idOrAlias);
        const now = isoTime(clock.now());
        await updateTemplate(tx, row.id, {
          published: row.draft,
          publishedVersionId: row.draftVersionId,
          publishedAt: now,
          updatedAt: now,
        });
        await audited(tx, actor, "template.published", row, { version_id: row.draftVersionId });
        return { object: "template" as const, id: row.id };
      });
    },

    async duplicate(actor, idOrAlias) {
      requireScope(actor, "templates:write");
      return writer.write(async (tx) => {
        const row = await find(tx, actor, idOrAlias);
        const now = isoTime(clock.now());
        const id = newId();
        await insertTemplate(tx, {
          id,
          organizationId: row.organizationId,
          name: `${row.name} (copy)`,
          alias: null,
          engine: row.engine,
          draft: row.draft,
          draftVersionId: newId(),
          createdAt: now,
          updatedAt: now,
        });
        await audited(tx, actor, "template.created", { id, name: `${row.name} (copy)` }, { duplicated_from: row.id });
        return { object: "template" as const, id };
      });
    },

    async render(actor, idOrAlias, variables) {
      requireScope(actor, "templates:read");
      const row = await find(db, actor, idOrAlias);
      const rendered = await renderVersion(row.draftVersionId, row.draft, variables, "variables", {
        tenant: actor.organizationId,
        forSend: false,
      });
      return { ...rendered, text: rendered.text ?? "" };
    },

    async validate(actor, engine, source) {
      // Checking costs up to the render budget of CPU: a change, not a read (docs/templates-and-ai.md#templates), so test keys may not.
      requireScope(actor, "templates:write");
      const job: TemplateJob = {
        kind: "check",
        engine,
        source: { html: source.html, subject: source.subject, text: source.text },
      };
      const work = { tenant: actor.organizationId, forSend: false };
      const { errors } = (await perform(job, "html", work)) as Extract<TemplateOutcome, { kind: "checked" }>;
      return { valid: errors.length === 0, errors };
    },

    async renderForSend(actor, idOrAlias, variables, paths) {
      const row = await find(db, actor, idOrAlias);
      if (!row.published || !row.publishedVersionId) {
        throw validationError([
          { path: paths.id, message: `the template "${idOrAlias}" has no published version; publish it first` },
        ]);
      }
      return {
        ...(await renderVersion(row.publishedVersionId, row.published, variables, paths.variables, {
          tenant: actor.organizationId,
          forSend: true,
        })),
        templateId: row.id,
        from: row.published.from,
        replyTo: row.published.reply_to,
      };
    },
  };
  return service;
}
