/**
 * The request and response shapes of contacts, contact properties, segments (and their older name, audiences),
 * topics and CSV imports (docs/contacts.md). The bodies and answers come from generated.ts (`npm run generate`);
 * what is written here is the client's side: which contact a call names (by id or by address, as Resend's SDK
 * takes it), the pagination options, and the shapes the document leaves unnamed (the multipart import form, the
 * membership answers), each checked by the live tests against the server.
 */
import type {
  CreateContactOptions as CreateContactBody,
  UpdateContactOptions as UpdateContactBody,
  UpdateContactPropertyOptions as UpdateContactPropertyBody,
  UpdateTopicOptions as UpdateTopicBody,
} from "./generated.js";
import type { Deleted, PaginationOptions } from "./types.js";

export type {
  Contact,
  ContactImport,
  ContactImportCounts,
  ContactImportError,
  ContactProperty,
  ContactPropertyValue,
  ContactTopic,
  CreateContactOptionsSegment,
  CreateContactOptionsTopic,
  CreateContactPropertyOptions,
  CreateSegmentOptions,
  CreateTopicOptions,
  Segment,
  Topic,
} from "./generated.js";

/** A contact named by its id or by its address (never both), as Resend's SDK names one. */
export type ContactSelector = { id: string; email?: never } | { email: string; id?: never };

/** Resend's older form: the call acts on the contact within that audience (segment) only. */
export interface InAudience {
  /** @deprecated Resend's older form; use `contacts.segments` instead. */
  audienceId?: string;
}

/** A topic choice: `opt_in` receives the topic's mail, `opt_out` does not. */
export type TopicSubscription = "opt_in" | "opt_out";

// ---------------------------------------------------------------------------------------------------------------
// Contacts

export interface CreateContactOptions extends CreateContactBody, InAudience {}

/** An id or address, or `{ id }` / `{ email }`, optionally within an audience. */
export type GetContactOptions = string | (ContactSelector & InAudience);

export type RemoveContactOptions = GetContactOptions;

export type UpdateContactOptions = ContactSelector & InAudience & UpdateContactBody;

export interface ListContactsOptions extends PaginationOptions {
  /** Only the members of this segment. */
  segmentId?: string;
  /** @deprecated Resend's older name of `segmentId`. */
  audienceId?: string;
}

export interface ContactDeleted extends Deleted<"contact"> {
  /** The contact's id again (Resend's field). */
  contact: string;
}

// ---------------------------------------------------------------------------------------------------------------
// A contact's segments and topics

/** The contact by `contactId` or by `email` (never both), as Resend's `contacts.segments` takes it. */
export type ContactSegmentsSelector = { contactId: string; email?: never } | { email: string; contactId?: never };

export type ListContactSegmentsOptions = ContactSegmentsSelector & PaginationOptions;

export type ContactSegmentOptions = ContactSegmentsSelector & { segmentId: string };

export interface ContactSegmentAdded {
  /** The segment. */
  id: string;
  contact_id: string;
}

export interface ContactSegmentRemoved extends ContactSegmentAdded {
  deleted: true;
}

export type ListContactTopicsOptions = ContactSelector & PaginationOptions;

export type UpdateContactTopicsOptions = ContactSelector & {
  topics: Array<{ id: string; subscription: TopicSubscription }>;
};

export interface ContactTopicsUpdated {
  /** The contact. */
  id: string;
}

// ---------------------------------------------------------------------------------------------------------------
// CSV imports

/** Which CSV column holds each field; without one, the header names `email`, `first_name`… are looked for. */
export interface ContactImportColumnMap {
  email?: string;
  first_name?: string;
  last_name?: string;
  unsubscribed?: string;
  /** Each contact property's column, by the property's key. */
  properties?: Record<string, { column: string; type?: "string" | "number" | "boolean" }>;
}

export interface CreateContactImportOptions {
  /** The CSV, with a header line: a Blob (a File), bytes, or the text itself. */
  file: Blob | Uint8Array | ArrayBuffer | string;
  column_map?: ContactImportColumnMap;
  /** `upsert` (the default) updates a contact that exists; `skip` leaves it. */
  on_conflict?: "upsert" | "skip";
  /** Segments every imported contact joins. */
  segments?: Array<{ id: string }>;
  /** Topic choices given to every imported contact. */
  topics?: Array<{ id: string; subscription: TopicSubscription }>;
}

export interface ContactImportCreated {
  object: "contact_import";
  id: string;
}

export interface ListContactImportsOptions extends PaginationOptions {
  status?: "queued" | "in_progress" | "completed" | "failed";
}

// ---------------------------------------------------------------------------------------------------------------
// Segments, topics, contact properties

export interface UpdateSegmentOptions {
  name: string;
}

export interface UpdateTopicOptions extends Omit<UpdateTopicBody, "id"> {
  id: string;
}

export interface UpdateContactPropertyOptions extends UpdateContactPropertyBody {
  id: string;
}
