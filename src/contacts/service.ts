/**
 * Contacts (docs/contacts.md): one per address per organisation, keyed as the suppression list keys addresses,
 * with names, `unsubscribed`, property values, segments and topic choices; and the three calls other areas make
 * (sending with a topic, unsubscribe links, broadcasts): `subscribedTo`, `setTopicSubscription`,
 * `unsubscribeEverywhere`. Invariants: a contact's every change appends its `contact.*` event in the same
 * transaction; a topic check reads by index, one statement per batch of recipients (docs/contacts.md#topic-rules).
 */
import type { Actor } from "../access.ts";
import { requireScope } from "../access.ts";
import type { PageOptions } from "../db/pages.ts";
import type { TopicSubscription } from "../db/schema/index.ts";
import { POLICY_CHANGED, policyCache } from "../db/read-cache.ts";
import type { Db, Store, Writer } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import type { EventLog } from "../events/service.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { findTopic as findTopicRow, propertiesOf, setChoice, type TopicRow } from "./audience-repo.ts";
import type { ContactView, TopicView } from "./model.ts";
import {
  addMember,
  type ContactRow,
  deleteContact,
  findContactByEmail,
  findContactById,
  findSegment as findSegmentRow,
  insertContact,
  pageContacts,
  searchContacts,
  segmentIdsOf,
  topicChoicesAmong,
  updateContact,
} from "./repo.ts";
import { contactKey, contactRef, mergedProperties, nameOf } from "./validate.ts";
import { contactEventData, contactView, topicView } from "./views.ts";

export interface CreateContact {
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  unsubscribed?: boolean;
  properties?: Record<string, string | number | null>;
  segments?: Array<{ id: string }>;
  topics?: Array<{ id: string; subscription: TopicSubscription }>;
}

export interface UpdateContact {
  first_name?: string | null;
  last_name?: string | null;
  unsubscribed?: boolean;
  properties?: Record<string, string | number | boolean | null>;
}

/** What `setTopicSubscription` and `unsubscribeEverywhere` did. */
export interface ContactChange {
  contactId: string;
  /** The address had no contact: one was made. */
  created: boolean;
}

export interface ContactService {
  /**
   * The address keys among `emails` who receive mail sent with `topicId` (docs/contacts.md#topic-rules): a contact
   * receives unless `unsubscribed`, or its own choice (else the topic's default) is opt_out; an address that is no
   * contact receives opt_in topics only. One indexed statement for the batch. A topic the organisation does not
   * have is a 400 `validation_error` naming `topic_id`.
   */
  subscribedTo(organizationId: string, topicId: string, emails: string[]): Promise<Set<string>>;
  /**
   * Records the address's choice of a topic, making the contact if need be, with `contact.topics.updated` (and
   * `contact.created`) — inside `tx` when given (an unsubscribe recorded with its `email.unsubscribed`).
   */
  setTopicSubscription(
    organizationId: string,
    email: string,
    topicId: string,
    subscription: TopicSubscription,
    tx?: Db,
  ): Promise<ContactChange>;
  /** Sets `unsubscribed: true` on the address's contact (made if need be), with `contact.updated`/`created`. */
  unsubscribeEverywhere(organizationId: string, email: string, tx?: Db): Promise<ContactChange>;
  /** The organisation's topic, or undefined. */
  findTopic(organizationId: string, topicId: string): Promise<TopicView | undefined>;

  create(actor: Actor, input: CreateContact): Promise<ContactView>;
  /** By id or address (get shows property values). */
  get(actor: Actor, idOrEmail: string): Promise<ContactView>;
  /**
   * Newest first, paged; `segmentId`: that segment's members. `search` (docs/contacts.md#search) answers one page of
   * the contacts it finds instead, with no cursor.
   */
  list(
    actor: Actor,
    options: PageOptions & { segmentId?: string; search?: string },
  ): Promise<{ object: "list"; has_more: boolean; data: ContactView[] }>;
  update(actor: Actor, idOrEmail: string, input: UpdateContact): Promise<ContactView>;
  remove(actor: Actor, idOrEmail: string): Promise<ContactView>;
  /** The contact named by id or address, in `db` (a route's own check); 404 when there is none. */
  resolve(db: Db, organizationId: string, idOrEmail: string): Promise<ContactRow>;
}

export interface ContactDeps {
  db: Db;
  writer: Writer;
  clock: Clock;
  events: EventLog;
  /** The store's notifications: with them, the topics every send with `topic_id` asks about are kept in memory. */
  listen?: Store["listen"];
}

export const noContact = () => new AppError("not_found", "Contact not found.");

export function createContactService(deps: ContactDeps): ContactService {
  const { db, writer, clock, events } = deps;
  const now = () => isoTime(clock.now());
  const within = <T>(tx: Db | undefined, work: (tx: Db) => Promise<T>) => (tx ? work(tx) : writer.write(work));

  const resolve = async (from: Db, organizationId: string, idOrEmail: string) => {
    const ref = contactRef(idOrEmail);
    const row =
      "id" in ref
        ? await findContactById(from, organizationId, ref.id)
        : await findContactByEmail(from, organizationId, ref.email);
    if (!row) throw noContact();
    return row;
  };

  const emit = async (tx: Db, type: "contact.created" | "contact.updated" | "contact.deleted", row: ContactRow) =>
    events.append(tx, {
      organizationId: row.organizationId,
      type,
      data: contactEventData(row, type === "contact.deleted" ? [] : await segmentIdsOf(tx, row.id)),
    });

  /** The address's contact in `tx`, made (with `contact.created`) when there is none. */
  const contactFor = async (tx: Db, organizationId: string, email: string) => {
    const key = contactKey(email);
    const found = await findContactByEmail(tx, organizationId, key);
    if (found) return { row: found, created: false };
    const at = now();
    const row: ContactRow = {
      id: newId(),
      organizationId,
      email: key,
      firstName: null,
      lastName: null,
      unsubscribed: false,
      properties: {},
      createdAt: at,
      updatedAt: at,
    };
    await insertContact(tx, row);
    await emit(tx, "contact.created", row);
    return { row, created: true };
  };

  const topicOrFail = async (from: Db, organizationId: string, topicId: string, path: string) => {
    const topic = await findTopicRow(from, organizationId, topicId.toLowerCase());
    if (!topic) throw validationError([{ path, message: "there is no such topic" }]);
    return topic;
  };

  // A send with `topic_id` asks for its topic each time; topics change rarely, and each write notifies at commit.
  const sendTopics = policyCache<TopicRow | undefined>(deps, POLICY_CHANGED, 10_000);

  return {
    async subscribedTo(organizationId, topicId, emails) {
      const id = topicId.toLowerCase();
      const topic = await sendTopics.get(`${organizationId}/${id}`, () => findTopicRow(db, organizationId, id));
      if (!topic) throw validationError([{ path: "topic_id", message: "there is no such topic" }]);
      const keys = [...new Set(emails.map((email) => email.toLowerCase()))];
      if (keys.length === 0) return new Set();
      const rows = await topicChoicesAmong(db, organizationId, topic.id, keys);
      const contacts = new Map(rows.map((row) => [row.email, row]));
      return new Set(
        keys.filter((key) => {
          const contact = contacts.get(key);
          if (!contact) return topic.defaultSubscription === "opt_in";
          return !contact.unsubscribed && (contact.subscription ?? topic.defaultSubscription) === "opt_in";
        }),
      );
    },

    setTopicSubscription(organizationId, email, topicId, subscription, tx) {
      return within(tx, async (tx) => {
        const topic = await topicOrFail(tx, organizationId, topicId, "topic_id");
        const { row, created } = await contactFor(tx, organizationId, email);
        await setChoice(tx, row.id, topic.id, subscription, now());
        await events.append(tx, {
          organizationId,
          type: "contact.topics.updated",
          data: { id: row.id, email: row.email, topics: [{ id: topic.id, subscription }] },
        });
        return { contactId: row.id, created };
      });
    },

    unsubscribeEverywhere(organizationId, email, tx) {
      return within(tx, async (tx) => {
        const { row, created } = await contactFor(tx, organizationId, email);
        if (!row.unsubscribed) {
          const updated = { ...row, unsubscribed: true, updatedAt: now() };
          await updateContact(tx, row.id, { unsubscribed: true, updatedAt: updated.updatedAt });
          await emit(tx, "contact.updated", updated);
        }
        return { contactId: row.id, created };
      });
    },

    async findTopic(organizationId, topicId) {
      const row = await findTopicRow(db, organizationId, topicId.toLowerCase());
      return row ? topicView(row) : undefined;
    },

    async create(actor, input) {
      requireScope(actor, "contacts:write");
      const { organizationId } = actor;
      const email = contactKey(input.email);
      const row = await writer.write(async (tx) => {
        if (await findContactByEmail(tx, organizationId, email))
          throw new AppError("conflict", `A contact with the address ${email} already exists.`);
        const at = now();
        const types = input.properties ? await propertiesOf(tx, organizationId) : new Map();
        const row: ContactRow = {
          id: newId(),
          organizationId,
          email,
          firstName: nameOf(input.first_name, "first_name"),
          lastName: nameOf(input.last_name, "last_name"),
          unsubscribed: input.unsubscribed ?? false,
          properties: mergedProperties({}, input.properties, types),
          createdAt: at,
          updatedAt: at,
        };
        await insertContact(tx, row);
        for (const [i, { id }] of (input.segments ?? []).entries()) {
          const segment = await findSegmentRow(tx, organizationId, id.toLowerCase());
          if (!segment) throw validationError([{ path: `segments.${i}.id`, message: "there is no such segment" }]);
          await addMember(tx, segment.id, row.id, at);
        }
        for (const [i, { id, subscription }] of (input.topics ?? []).entries()) {
          const topic = await topicOrFail(tx, organizationId, id, `topics.${i}.id`);
          await setChoice(tx, row.id, topic.id, subscription, at);
        }
        await emit(tx, "contact.created", row);
        return row;
      });
      return contactView(row);
    },

    async get(actor, idOrEmail) {
      requireScope(actor, "contacts:read");
      const row = await resolve(db, actor.organizationId, idOrEmail);
      return contactView(row, await propertiesOf(db, actor.organizationId));
    },

    async list(actor, options) {
      requireScope(actor, "contacts:read");
      const { organizationId } = actor;
      if (options.segmentId && !(await findSegmentRow(db, organizationId, options.segmentId.toLowerCase())))
        throw new AppError("not_found", "Segment not found.");
      const term = options.search?.trim().toLowerCase();
      if (term) {
        // A cursor would page by id through answers ordered otherwise: refused rather than looping on one page.
        if (options.after || options.before || options.segmentId)
          throw validationError([
            { path: "search", message: "search answers one page on its own: no after, before or segment_id" },
          ]);
        const { page, hasMore } = await searchContacts(db, organizationId, term, options.limit);
        return { object: "list", has_more: hasMore, data: page.map((row) => contactView(row)) };
      }
      const { page, hasMore } = await pageContacts(db, organizationId, {
        ...options,
        segmentId: options.segmentId?.toLowerCase(),
      });
      return { object: "list", has_more: hasMore, data: page.map((row) => contactView(row)) };
    },

    async update(actor, idOrEmail, input) {
      requireScope(actor, "contacts:write");
      const { organizationId } = actor;
      const row = await writer.write(async (tx) => {
        const row = await resolve(tx, organizationId, idOrEmail);
        const types = input.properties ? await propertiesOf(tx, organizationId) : new Map();
        // A boolean is no property type; it is refused by mergedProperties as not a string.
        const updated: ContactRow = {
          ...row,
          firstName: input.first_name === undefined ? row.firstName : nameOf(input.first_name, "first_name"),
          lastName: input.last_name === undefined ? row.lastName : nameOf(input.last_name, "last_name"),
          unsubscribed: input.unsubscribed ?? row.unsubscribed,
          properties: mergedProperties(row.properties, input.properties, types),
          updatedAt: now(),
        };
        const { firstName, lastName, unsubscribed, properties, updatedAt } = updated;
        await updateContact(tx, row.id, { firstName, lastName, unsubscribed, properties, updatedAt });
        await emit(tx, "contact.updated", updated);
        return updated;
      });
      return contactView(row);
    },

    async remove(actor, idOrEmail) {
      requireScope(actor, "contacts:write");
      const row = await writer.write(async (tx) => {
        const row = await resolve(tx, actor.organizationId, idOrEmail);
        await deleteContact(tx, row.id);
        await emit(tx, "contact.deleted", row);
        return row;
      });
      return contactView(row);
    },

    resolve,
  };
}
