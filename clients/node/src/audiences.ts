/**
 * `mailroom.segments` (also `mailroom.audiences`, Resend's older name: the same resource), `mailroom.topics` and
 * `mailroom.contactProperties`, with Resend's method names (docs/contacts.md). Contacts join segments through
 * `contacts.segments` and choose topics through `contacts.topics`.
 */
import type {
  Contact,
  ContactProperty,
  CreateContactPropertyOptions,
  CreateSegmentOptions,
  CreateTopicOptions,
  Segment,
  Topic,
  UpdateContactPropertyOptions,
  UpdateSegmentOptions,
  UpdateTopicOptions,
} from "./audience-types.js";
import { segment, type Transport } from "./http.js";
import { missing } from "./results.js";
import type { Deleted, List, MailroomResponse, PaginationOptions, RequestOptions } from "./types.js";

/** The create, list, get, update and remove every one of these resources has, under `/v1/<base>`. */
class Collection<T, Create, Update> {
  constructor(
    protected readonly transport: Transport,
    private readonly base: string,
  ) {}

  protected async post(payload: Create, options: RequestOptions): Promise<MailroomResponse<T>> {
    return this.transport.request({ ...options, method: "POST", path: `/${this.base}`, body: payload });
  }

  protected async page(options: PaginationOptions, requestOptions: RequestOptions): Promise<MailroomResponse<List<T>>> {
    const { limit, after, before } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: `/${this.base}`,
      query: { limit, after, before },
    });
  }

  protected async one(id: string, options: RequestOptions): Promise<MailroomResponse<T>> {
    return (
      missing(id, "id") ?? this.transport.request({ ...options, method: "GET", path: `/${this.base}/${segment(id)}` })
    );
  }

  protected async patch(id: string, body: Update, options: RequestOptions): Promise<MailroomResponse<T>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "PATCH", path: `/${this.base}/${segment(id)}`, body })
    );
  }

  protected async delete<O extends string>(id: string, options: RequestOptions): Promise<MailroomResponse<Deleted<O>>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "DELETE", path: `/${this.base}/${segment(id)}` })
    );
  }
}

export class Segments extends Collection<Segment, CreateSegmentOptions, UpdateSegmentOptions> {
  constructor(transport: Transport) {
    super(transport, "segments");
  }

  create(payload: CreateSegmentOptions, options: RequestOptions = {}): Promise<MailroomResponse<Segment>> {
    return this.post(payload, options);
  }

  /** Newest first. */
  list(options: PaginationOptions = {}, requestOptions: RequestOptions = {}): Promise<MailroomResponse<List<Segment>>> {
    return this.page(options, requestOptions);
  }

  get(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Segment>> {
    return this.one(id, options);
  }

  /** Renames the segment (Resend's signature: the id, then the changes). */
  update(id: string, payload: UpdateSegmentOptions, options: RequestOptions = {}): Promise<MailroomResponse<Segment>> {
    return this.patch(id, payload, options);
  }

  /** Its members, newest first (the same as `contacts.list({ segmentId })`). */
  async contacts(
    id: string,
    options: PaginationOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<Contact>>> {
    const { limit, after, before } = options;
    return (
      missing(id, "id") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: `/segments/${segment(id)}/contacts`,
        query: { limit, after, before },
      })
    );
  }

  /** Its contacts stay; they leave the segment. */
  remove(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Deleted<"segment">>> {
    return this.delete(id, options);
  }
}

export class Topics extends Collection<Topic, CreateTopicOptions, Omit<UpdateTopicOptions, "id">> {
  constructor(transport: Transport) {
    super(transport, "topics");
  }

  /** `default_subscription` is what a contact who never chose receives, fixed once created. */
  create(payload: CreateTopicOptions, options: RequestOptions = {}): Promise<MailroomResponse<Topic>> {
    return this.post(payload, options);
  }

  list(options: PaginationOptions = {}, requestOptions: RequestOptions = {}): Promise<MailroomResponse<List<Topic>>> {
    return this.page(options, requestOptions);
  }

  get(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Topic>> {
    return this.one(id, options);
  }

  /** Name, description or visibility; what is left out stays. */
  update(payload: UpdateTopicOptions, options: RequestOptions = {}): Promise<MailroomResponse<Topic>> {
    const { id, ...changes } = payload;
    return this.patch(id, changes, options);
  }

  remove(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Deleted<"topic">>> {
    return this.delete(id, options);
  }
}

export class ContactProperties extends Collection<
  ContactProperty,
  CreateContactPropertyOptions,
  Omit<UpdateContactPropertyOptions, "id">
> {
  constructor(transport: Transport) {
    super(transport, "contact-properties");
  }

  /** A key (letters, digits, underscores) and its type, `string` or `number`, with an optional fallback value. */
  create(
    payload: CreateContactPropertyOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<ContactProperty>> {
    return this.post(payload, options);
  }

  list(
    options: PaginationOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<ContactProperty>>> {
    return this.page(options, requestOptions);
  }

  get(id: string, options: RequestOptions = {}): Promise<MailroomResponse<ContactProperty>> {
    return this.one(id, options);
  }

  /** Only the fallback value changes; a property's key and type are fixed. */
  update(
    payload: UpdateContactPropertyOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<ContactProperty>> {
    const { id, ...changes } = payload;
    return this.patch(id, changes, options);
  }

  remove(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Deleted<"contact_property">>> {
    return this.delete(id, options);
  }
}
