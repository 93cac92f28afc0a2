/**
 * `mailroom.contacts`: contacts by id or address (docs/contacts.md#addresses), with Resend's method names and its
 * nested `imports` (CSV uploads, docs/contacts.md#imports), `segments` (membership) and `topics` (the contact's
 * choices). A call given `audienceId` uses Resend's older `/audiences/:id/contacts` paths, which act within that
 * segment only. Every contact named in a path is encoded, so `a+b@example.com` reaches the server intact.
 */
import type {
  Contact,
  ContactDeleted,
  ContactImport,
  ContactImportCreated,
  ContactSegmentAdded,
  ContactSegmentOptions,
  ContactSegmentRemoved,
  ContactSegmentsSelector,
  ContactSelector,
  ContactTopic,
  ContactTopicsUpdated,
  CreateContactImportOptions,
  CreateContactOptions,
  GetContactOptions,
  ListContactImportsOptions,
  ListContactSegmentsOptions,
  ListContactsOptions,
  ListContactTopicsOptions,
  RemoveContactOptions,
  Segment,
  UpdateContactOptions,
  UpdateContactTopicsOptions,
} from "./audience-types.js";
import { MailroomError } from "./errors.js";
import { segment, type Transport } from "./http.js";
import { failure, missing } from "./results.js";
import type { List, MailroomResponse, RequestOptions } from "./types.js";

/** The id or address a selector names, or nothing (the call then fails before any request). */
const contactOf = (selector: Partial<ContactSelector> | string | undefined): string | undefined =>
  typeof selector === "string" ? selector : (selector?.id ?? selector?.email ?? undefined);

/** `/contacts/<contact>`, or `/audiences/<audience>/contacts/<contact>` in Resend's older form. */
const contactPath = (contact: string, audienceId: string | undefined): string =>
  audienceId ? `/audiences/${segment(audienceId)}/contacts/${segment(contact)}` : `/contacts/${segment(contact)}`;

const missingContact = <T>(): MailroomResponse<T> =>
  failure(new MailroomError({ name: "missing_required_field", message: "Missing `id` or `email`." }));

export class ContactImports {
  constructor(private readonly transport: Transport) {}

  /**
   * Uploads a CSV; the import runs in the background and the answer is its id: follow it with `get`, whose counts
   * move after every batch of lines.
   */
  async create(
    payload: CreateContactImportOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<ContactImportCreated>> {
    const { file, column_map, on_conflict, segments, topics } = payload;
    if (file === undefined || file === null)
      return failure(new MailroomError({ name: "missing_required_field", message: "Missing `file`." }));
    const form = new FormData();
    const part = typeof file === "string" || file instanceof Blob ? file : new Uint8Array(file);
    const csv = part instanceof Blob ? part : new Blob([part], { type: "text/csv" });
    // A File keeps its name; `File` is no global before Node 20, so its name is read rather than its class tested.
    const name = (file as { name?: unknown }).name;
    form.append("file", csv, typeof name === "string" && name ? name : "contacts.csv");
    if (column_map) form.append("column_map", JSON.stringify(column_map));
    if (on_conflict) form.append("on_conflict", on_conflict);
    if (segments) form.append("segments", JSON.stringify(segments));
    if (topics) form.append("topics", JSON.stringify(topics));
    return this.transport.request({ ...options, method: "POST", path: "/contacts/imports", form });
  }

  /** Newest first; filter by `status`. */
  async list(
    options: ListContactImportsOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<ContactImport>>> {
    const { limit, after, before, status } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/contacts/imports",
      query: { limit, after, before, status },
    });
  }

  /** Its status, counts and the first lines that failed. */
  async get(id: string, options: RequestOptions = {}): Promise<MailroomResponse<ContactImport>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "GET", path: `/contacts/imports/${segment(id)}` })
    );
  }
}

export class ContactSegments {
  constructor(private readonly transport: Transport) {}

  /** The segments the contact is in. */
  async list(
    options: ListContactSegmentsOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<Segment>>> {
    const contact = selected(options);
    if (!contact) return missingContact();
    const { limit, after, before } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: `/contacts/${segment(contact)}/segments`,
      query: { limit, after, before },
    });
  }

  async add(
    options: ContactSegmentOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<ContactSegmentAdded>> {
    const contact = selected(options);
    if (!contact) return missingContact();
    return (
      missing(options.segmentId, "segmentId") ??
      this.transport.request({
        ...requestOptions,
        method: "POST",
        path: `/contacts/${segment(contact)}/segments/${segment(options.segmentId)}`,
      })
    );
  }

  async remove(
    options: ContactSegmentOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<ContactSegmentRemoved>> {
    const contact = selected(options);
    if (!contact) return missingContact();
    return (
      missing(options.segmentId, "segmentId") ??
      this.transport.request({
        ...requestOptions,
        method: "DELETE",
        path: `/contacts/${segment(contact)}/segments/${segment(options.segmentId)}`,
      })
    );
  }
}

/** `contacts.segments` names the contact `contactId` (Resend's field) or `email`. */
const selected = (options: Partial<ContactSegmentsSelector> | undefined): string | undefined =>
  options?.contactId ?? options?.email ?? undefined;

export class ContactTopics {
  constructor(private readonly transport: Transport) {}

  /** Every topic with the contact's effective choice (its own, else the topic's default). */
  async list(
    options: ListContactTopicsOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<ContactTopic>>> {
    const contact = contactOf(options);
    if (!contact) return missingContact();
    const { limit, after, before } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: `/contacts/${segment(contact)}/topics`,
      query: { limit, after, before },
    });
  }

  /** Sets the contact's choice for each topic given; the others keep theirs. */
  async update(
    options: UpdateContactTopicsOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<ContactTopicsUpdated>> {
    const contact = contactOf(options);
    if (!contact) return missingContact();
    return this.transport.request({
      ...requestOptions,
      method: "PATCH",
      path: `/contacts/${segment(contact)}/topics`,
      body: { topics: options.topics },
    });
  }
}

export class Contacts {
  readonly imports: ContactImports;
  readonly segments: ContactSegments;
  readonly topics: ContactTopics;

  constructor(private readonly transport: Transport) {
    this.imports = new ContactImports(transport);
    this.segments = new ContactSegments(transport);
    this.topics = new ContactTopics(transport);
  }

  /** Adds a contact, with its properties, segments and topic choices; `audienceId` adds it to that segment. */
  async create(payload: CreateContactOptions, options: RequestOptions = {}): Promise<MailroomResponse<Contact>> {
    const { audienceId, ...body } = payload;
    const path = audienceId ? `/audiences/${segment(audienceId)}/contacts` : "/contacts";
    return this.transport.request({ ...options, method: "POST", path, body });
  }

  /** By id or address, with its properties (each value, or the property's fallback). */
  async get(options: GetContactOptions, requestOptions: RequestOptions = {}): Promise<MailroomResponse<Contact>> {
    const contact = contactOf(options);
    if (!contact) return missingContact();
    const audienceId = typeof options === "string" ? undefined : options.audienceId;
    return this.transport.request({ ...requestOptions, method: "GET", path: contactPath(contact, audienceId) });
  }

  /** Newest first; `segmentId` lists one segment's members. */
  async list(
    options: ListContactsOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<Contact>>> {
    const { limit, after, before, segmentId, audienceId } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/contacts",
      query: { limit, after, before, segment_id: segmentId ?? audienceId },
    });
  }

  /** What is left out stays; `null` clears a name, a property set to `null` is removed. */
  async update(options: UpdateContactOptions, requestOptions: RequestOptions = {}): Promise<MailroomResponse<Contact>> {
    const { id, email, audienceId, ...body } = options;
    const contact = id ?? email;
    if (!contact) return missingContact();
    return this.transport.request({
      ...requestOptions,
      method: "PATCH",
      path: contactPath(contact, audienceId),
      body,
    });
  }

  /** By id or address; with `audienceId`, it leaves that segment only. */
  async remove(
    options: RemoveContactOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<ContactDeleted>> {
    const contact = contactOf(options);
    if (!contact) return missingContact();
    const audienceId = typeof options === "string" ? undefined : options.audienceId;
    return this.transport.request({ ...requestOptions, method: "DELETE", path: contactPath(contact, audienceId) });
  }
}
