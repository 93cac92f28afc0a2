/**
 * A recipient's preferences as the public unsubscribe paths see them (docs/contacts-preferences.md): who a token
 * speaks for, what the preference page shows, and what this area asks of the audience (src/contacts), which owns
 * contacts and their topic choices and announces every change (`contact.created`, `contact.topics.updated`, …).
 */
import type { Db } from "../db/store.ts";

export type TopicSubscription = "opt_in" | "opt_out";

/** The contacts service's calls this area makes (docs/contacts.md); the server wires it in. */
export interface Audience {
  /** The address keys among `emails` who receive mail of `topicId`; a topic the organisation lacks is a 400 naming `topic_id`. */
  subscribedTo(organizationId: string, topicId: string, emails: string[]): Promise<Set<string>>;
  /** Records one address's choice of one topic, making the contact if need be, with its events; inside `tx` when given. */
  setTopicSubscription(
    organizationId: string,
    email: string,
    topicId: string,
    subscription: TopicSubscription,
    tx?: Db,
  ): Promise<unknown>;
  /** Sets `unsubscribed: true` on the address's contact (made if need be), with its events; inside `tx` when given. */
  unsubscribeEverywhere(organizationId: string, email: string, tx?: Db): Promise<unknown>;
}

/** Whom a verified token speaks for: an address of an organisation, a topic (null: all its mail), and the message that carried it. */
export interface TokenSubject {
  organizationId: string;
  /** The address key (lower case). */
  email: string;
  topicId: string | null;
  /** The message the link came in (delivery tokens); null for a contact's own page link. */
  emailId: string | null;
}

/** A topic as the preference page lists it, with the recipient's current choice. */
export interface PageTopic {
  id: string;
  name: string;
  description: string | null;
  subscribed: boolean;
}

/** What the preference page shows (GET /u/TOKEN); nothing here is changed by showing it. */
export interface PreferencePage {
  organizationName: string;
  email: string;
  /** The topic the link was for, if it is still there. */
  topicId: string | null;
  /** The organisation's public topics, and the one the link was for whatever its visibility. */
  topics: PageTopic[];
  /** The contact's `unsubscribed`: out of every topic and broadcast. */
  unsubscribedEverywhere: boolean;
}

/** What the page's form sends: the topics left ticked, and whether "unsubscribe from everything" is. */
export interface PageChoices {
  subscribed: ReadonlySet<string>;
  everything: boolean;
}
