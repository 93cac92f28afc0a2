/**
 * `mailroom.templates` (Resend's shape, docs/templates-and-ai.md#templates): saved Handlebars or MJML templates with drafts and published
 * versions, by id or alias. `create` and `duplicate` answer a chainable result, as Resend's SDK does, so
 * `await templates.create({...}).publish()` creates and publishes in one expression.
 */
import { MailroomError } from "./errors.js";
import { segment, type Transport } from "./http.js";
import { withRenderedReact } from "./react.js";
import { failure, missing } from "./results.js";
import type {
  CreateTemplateOptions,
  Deleted,
  List,
  MailroomResponse,
  PaginationOptions,
  RenderedTemplate,
  RenderTemplateOptions,
  RequestOptions,
  Template,
  TemplateResponse,
  TemplateSummary,
  TemplateValidation,
  UpdateTemplateOptions,
  ValidateTemplateOptions,
} from "./types.js";

type Publish = (id: string, options?: RequestOptions) => Promise<MailroomResponse<TemplateResponse>>;

/** A pending create or duplicate: await it for its answer, or call `publish()` to publish what it made. */
export class ChainableTemplateResult implements PromiseLike<MailroomResponse<TemplateResponse>> {
  constructor(
    private readonly promise: Promise<MailroomResponse<TemplateResponse>>,
    private readonly publishTemplate: Publish,
  ) {}

  // biome-ignore lint/suspicious/noThenProperty: deliberately thenable, so `await templates.create()` answers and `.publish()` chains (Resend's SDK shape)
  then<R1 = MailroomResponse<TemplateResponse>, R2 = never>(
    onfulfilled?: ((value: MailroomResponse<TemplateResponse>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.promise.then(onfulfilled, onrejected);
  }

  /** Publishes the template once it exists; the first failure (create or publish) is the answer. */
  async publish(options: RequestOptions = {}): Promise<MailroomResponse<TemplateResponse>> {
    const created = await this.promise;
    if (created.error) return created;
    return this.publishTemplate(created.data.id, options);
  }
}

export class Templates {
  constructor(private readonly transport: Transport) {}

  /** Creates a draft (`react` is rendered to `html`); publish it before sends can use it. */
  create(payload: CreateTemplateOptions, options: RequestOptions = {}): ChainableTemplateResult {
    const created = (async (): Promise<MailroomResponse<TemplateResponse>> => {
      const body = await withRenderedReact(payload);
      if (body instanceof MailroomError) return failure(body);
      return this.transport.request({ ...options, method: "POST", path: "/templates", body });
    })();
    return new ChainableTemplateResult(created, this.publish.bind(this));
  }

  /** By id or alias: the current version (the draft when it has unpublished changes). */
  async get(idOrAlias: string, options: RequestOptions = {}): Promise<MailroomResponse<Template>> {
    return (
      missing(idOrAlias, "id") ??
      this.transport.request({ ...options, method: "GET", path: `/templates/${segment(idOrAlias)}` })
    );
  }

  async list(
    options: PaginationOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<TemplateSummary>>> {
    const { limit, after, before } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/templates",
      query: { limit, after, before },
    });
  }

  /** Changes the draft; sends keep the published version until the next `publish`. */
  async update(
    idOrAlias: string,
    payload: UpdateTemplateOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<TemplateResponse>> {
    const missingId = missing<TemplateResponse>(idOrAlias, "id");
    if (missingId) return missingId;
    const body = await withRenderedReact(payload);
    if (body instanceof MailroomError) return failure(body);
    return this.transport.request({ ...options, method: "PATCH", path: `/templates/${segment(idOrAlias)}`, body });
  }

  async remove(idOrAlias: string, options: RequestOptions = {}): Promise<MailroomResponse<Deleted<"template">>> {
    return (
      missing(idOrAlias, "id") ??
      this.transport.request({ ...options, method: "DELETE", path: `/templates/${segment(idOrAlias)}` })
    );
  }

  /** Makes the current version the one sends render. */
  async publish(idOrAlias: string, options: RequestOptions = {}): Promise<MailroomResponse<TemplateResponse>> {
    return (
      missing(idOrAlias, "id") ??
      this.transport.request({ ...options, method: "POST", path: `/templates/${segment(idOrAlias)}/publish` })
    );
  }

  /** Copies a template as a new draft. */
  duplicate(idOrAlias: string, options: RequestOptions = {}): ChainableTemplateResult {
    const duplicated = (async (): Promise<MailroomResponse<TemplateResponse>> =>
      missing(idOrAlias, "id") ??
      this.transport.request({ ...options, method: "POST", path: `/templates/${segment(idOrAlias)}/duplicate` }))();
    return new ChainableTemplateResult(duplicated, this.publish.bind(this));
  }

  /** Renders the current version with `variables`: a preview of `{subject, html, text}`. */
  async render(
    idOrAlias: string,
    payload: RenderTemplateOptions = {},
    options: RequestOptions = {},
  ): Promise<MailroomResponse<RenderedTemplate>> {
    return (
      missing(idOrAlias, "id") ??
      this.transport.request({
        ...options,
        method: "POST",
        path: `/templates/${segment(idOrAlias)}/render`,
        body: payload,
      })
    );
  }

  /** Checks a source without saving it: each problem at its line and column. */
  async validate(
    payload: ValidateTemplateOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<TemplateValidation>> {
    return this.transport.request({ ...options, method: "POST", path: "/templates/validate", body: payload });
  }
}
