/**
 * A contact's segments and topic choices as the API manages them (docs/contacts.md): the contact named by id or
 * address, each segment and topic by id within the same organisation. Invariant: a change of a contact's topics
 * appends one `contact.topics.updated` naming every choice it made, in the change's transaction.
 */
import type { Actor } from "../access.ts";
import { requireScope } from "../access.ts";
import type { PageOptions } from "../db/pages.ts";
import type { TopicSubscription } from "../db/schema/index.ts";
import { AppError, validationError } from "../errors.ts";
import { isoTime } from "../lib/clock.ts";
import { findTopic, pageTopicChoices, setChoice } from "./audience-repo.ts";
import type { ContactTopicView, ContactView, SegmentView } from "./model.ts";
import { addMember, findSegment, isMember, pageSegmentsOf, removeMember } from "./repo.ts";
import type { ContactDeps, ContactService } from "./service.ts";
import { contactView, segmentView } from "./views.ts";

/** Topic choices per request. */
const MAX_CHOICES = 100;

type List<T> = { object: "list"; has_more: boolean; data: T[] };

export interface Membership {
  segmentsOf(actor: Actor, idOrEmail: string, options: PageOptions): Promise<List<SegmentView>>;
  /** The contact, which must be in the segment (404 otherwise): the legacy audience forms. */
  contactIn(actor: Actor, segmentId: string, idOrEmail: string): Promise<ContactView>;
  /** Adds the contact to the segment (already in it: unchanged). */
  addToSegment(actor: Actor, idOrEmail: string, segmentId: string): Promise<{ contactId: string; segmentId: string }>;
  /** Takes the contact out of the segment; 404 when it was not in it. */
  removeFromSegment(
    actor: Actor,
    idOrEmail: string,
    segmentId: string,
  ): Promise<{ contactId: string; segmentId: string }>;
  /** Every topic with the contact's effective subscription (its choice, else the topic's default). */
  topicsOf(actor: Actor, idOrEmail: string, options: PageOptions): Promise<List<ContactTopicView>>;
  updateTopicsOf(
    actor: Actor,
    idOrEmail: string,
    choices: Array<{ id: string; subscription: TopicSubscription }>,
  ): Promise<{ contactId: string }>;
}

export function createMembership(deps: ContactDeps & { contacts: ContactService }): Membership {
  const { db, writer, clock, events, contacts } = deps;
  const segmentIn = async (from: typeof db, organizationId: string, id: string) => {
    const segment = await findSegment(from, organizationId, id.toLowerCase());
    if (!segment) throw new AppError("not_found", "Segment not found.");
    return segment;
  };
  return {
    async segmentsOf(actor, idOrEmail, options) {
      requireScope(actor, "contacts:read");
      const contact = await contacts.resolve(db, actor.organizationId, idOrEmail);
      const { page, hasMore } = await pageSegmentsOf(db, contact.id, options);
      return { object: "list", has_more: hasMore, data: page.map(segmentView) };
    },

    async contactIn(actor, segmentId, idOrEmail) {
      requireScope(actor, "contacts:read");
      const contact = await contacts.resolve(db, actor.organizationId, idOrEmail);
      if (!(await isMember(db, segmentId.toLowerCase(), contact.id)))
        throw new AppError("not_found", "Contact not found in that audience.");
      return contactView(contact);
    },

    async addToSegment(actor, idOrEmail, segmentId) {
      requireScope(actor, "contacts:write");
      return writer.write(async (tx) => {
        const contact = await contacts.resolve(tx, actor.organizationId, idOrEmail);
        const segment = await segmentIn(tx, actor.organizationId, segmentId);
        await addMember(tx, segment.id, contact.id, isoTime(clock.now()));
        return { contactId: contact.id, segmentId: segment.id };
      });
    },

    async removeFromSegment(actor, idOrEmail, segmentId) {
      requireScope(actor, "contacts:write");
      return writer.write(async (tx) => {
        const contact = await contacts.resolve(tx, actor.organizationId, idOrEmail);
        const segment = await segmentIn(tx, actor.organizationId, segmentId);
        if (!(await removeMember(tx, segment.id, contact.id)))
          throw new AppError("not_found", "The contact is not in that segment.");
        return { contactId: contact.id, segmentId: segment.id };
      });
    },

    async topicsOf(actor, idOrEmail, options) {
      requireScope(actor, "contacts:read");
      const contact = await contacts.resolve(db, actor.organizationId, idOrEmail);
      const { page, hasMore } = await pageTopicChoices(db, actor.organizationId, contact.id, options);
      return {
        object: "list",
        has_more: hasMore,
        data: page.map(({ topic, subscription }) => ({
          id: topic.id,
          name: topic.name,
          description: topic.description ?? null,
          // An unsubscribed contact receives no topic, whatever it chose (docs/contacts.md#topic-rules).
          subscription: contact.unsubscribed ? "opt_out" : (subscription ?? topic.defaultSubscription),
        })),
      };
    },

    async updateTopicsOf(actor, idOrEmail, choices) {
      requireScope(actor, "contacts:write");
      if (choices.length === 0 || choices.length > MAX_CHOICES)
        throw validationError([{ path: "topics", message: `must list 1 to ${MAX_CHOICES} topics` }]);
      return writer.write(async (tx) => {
        const contact = await contacts.resolve(tx, actor.organizationId, idOrEmail);
        const at = isoTime(clock.now());
        const made: Array<{ id: string; subscription: TopicSubscription }> = [];
        for (const [i, choice] of choices.entries()) {
          const topic = await findTopic(tx, actor.organizationId, choice.id.toLowerCase());
          if (!topic) throw validationError([{ path: `topics.${i}.id`, message: "there is no such topic" }]);
          await setChoice(tx, contact.id, topic.id, choice.subscription, at);
          made.push({ id: topic.id, subscription: choice.subscription });
        }
        await events.append(tx, {
          organizationId: actor.organizationId,
          type: "contact.topics.updated",
          data: { id: contact.id, email: contact.email, topics: made },
        });
        return { contactId: contact.id };
      });
    },
  };
}
