/**
 * Topic preferences and unsubscribing (docs/contacts-preferences.md): the topic check at send, the one-click
 * headers of each recipient's copy of topic mail, and the three public paths that change a recipient's choices —
 * the one-click POST (RFC 8058), a mail to the mailto address (through the inbound MX), and the preference page.
 *
 * Invariants:
 * - A token that does not verify, or that the request's Host does not answer, changes nothing and reveals nothing
 *   (404). A domain's tracking host answers only its own live mail's tokens (as src/tracking does), and a
 *   contact's page link only on a tracking host of that contact's organisation.
 * - Showing the page changes nothing; only a POST does. One-click and mailto leave the link's topic only (all the
 *   organisation's mail when the link names no topic), making the contact if need be; repeating them changes
 *   nothing more, and `email.unsubscribed` (with `topic_id`) is appended once, when the choice actually changed, in
 *   the same write as the choice.
 * - Mail without a topic is never affected: the topic check runs only for a message that names one.
 */
import type { Db, Writer } from "../db/store.ts";
import type { DomainService } from "../domains/service.ts";
import { trackingOwner } from "../domains/send-policy.ts";
import type { EventLog } from "../events/service.ts";
import { addressKey, domainOf } from "../lib/addresses.ts";
import { listUnsubscribeLines, mailboxToken, pageUrl, unsubscribeMailbox } from "./links.ts";
import type { Audience, PageChoices, PreferencePage, TokenSubject } from "./model.ts";
import { contactSubject, deliverySubject, organizationName, pageTopics, unsubscribedEverywhere } from "./repo.ts";
import type { PreferenceTokens } from "./tokens.ts";

export interface PreferenceService {
  /** Of `recipients`, the address keys of those who left `topicId` (one statement); 400 naming `topic_id` when unknown. */
  unsubscribedAmong(organizationId: string, topicId: string, recipients: string[]): Promise<Set<string>>;
  /** The List-Unsubscribe lines of one recipient's copy of topic mail (domains/signing.ts calls this per delivery). */
  listUnsubscribe(
    job: { deliveryId: string; organizationId: string },
    identity: { domain: string; returnPathDomain: string },
  ): Promise<string>;
  /**
   * A contact's own preference page link, for mail composed per contact (broadcasts' `{{{RESEND_UNSUBSCRIBE_URL}}}`):
   * on the tracking host of `fromDomain` when it has a verified one, else on the public URL. `topicId`: the topic
   * one-click leaves; null for all the organisation's mail.
   */
  contactPageUrl(input: {
    organizationId: string;
    contactId: string;
    topicId: string | null;
    fromDomain: string;
  }): Promise<string>;
  /** Whether `token` has the shape and MAC of this area's tokens (the other `/u/` tokens are src/tracking's). */
  recognises(token: string): boolean;
  /** What the page shows for `token` on `host` (lower case, no port; null for none); null when not valid there. */
  page(token: string, host: string | null): Promise<PreferencePage | null>;
  /** RFC 8058 one-click: leaves the link's topic; null when the token is not valid there. */
  oneClick(token: string, host: string | null): Promise<PreferencePage | null>;
  /** The page's form: each listed topic as ticked, and "everything" when ticked; null when not valid there. */
  save(token: string, host: string | null, choices: PageChoices): Promise<PreferencePage | null>;
  /** Whether `address` is an `unsubscribe+TOKEN@…` address whose token verifies (the MX's RCPT check). */
  isUnsubscribeAddress(address: string): boolean;
  /** A mail to an `unsubscribe+TOKEN@…` address: as one-click; false when the token does not verify. */
  byMail(address: string): Promise<boolean>;
}

export function createPreferenceService(deps: {
  db: Db;
  writer: Writer;
  events: EventLog;
  audience: Audience;
  domains: Pick<DomainService, "trackingDefaults" | "trackingHostOwners">;
  tokens: PreferenceTokens;
  /** The public base URL, without a trailing slash (`http.public_url`, or the bound address). */
  publicUrl: () => string;
}): PreferenceService {
  const { db, writer, events, audience, domains, tokens } = deps;

  const baseFor = async (organizationId: string, domain: string) => {
    const host = (await domains.trackingDefaults(organizationId, domain)).host;
    return host ? `https://${host}` : deps.publicUrl();
  };

  /** Whom `token` names, as `host` answers it; null when it does not verify or is not this host's to answer. */
  const subjectOf = async (tx: Db, token: string, host: string | null): Promise<TokenSubject | null> => {
    const read = tokens.read(token);
    if (!read) return null;
    const owners = host === null ? undefined : await domains.trackingHostOwners(host);
    if (read.kind === "delivery") {
      const row = await deliverySubject(tx, read.deliveryId);
      if (!row) return null;
      if (owners && !(row.mode === "live" && owners.has(trackingOwner(row.organizationId, domainOf(row.envelopeFrom)))))
        return null;
      return {
        organizationId: row.organizationId,
        email: addressKey(row.recipient),
        topicId: row.topicId,
        emailId: row.emailId,
      };
    }
    const contact = await contactSubject(tx, read.contactId);
    if (!contact) return null;
    if (owners && ![...owners].some((owner) => owner.startsWith(`${contact.organizationId}|`))) return null;
    return { organizationId: contact.organizationId, email: contact.email, topicId: read.topicId, emailId: null };
  };

  const pageOf = async (tx: Db, subject: TokenSubject): Promise<PreferencePage> => {
    const topics = await pageTopics(tx, subject.organizationId, subject.email, subject.topicId);
    return {
      organizationName: await organizationName(tx, subject.organizationId),
      email: subject.email,
      topicId: topics.some((topic) => topic.id === subject.topicId) ? subject.topicId : null,
      topics,
      unsubscribedEverywhere: await unsubscribedEverywhere(tx, subject.organizationId, subject.email),
    };
  };

  /** Appends `email.unsubscribed` for the message the link came in (none for a contact's own page link). */
  const announce = (tx: Db, subject: TokenSubject, topicId: string | null) =>
    subject.emailId
      ? events.append(tx, {
          organizationId: subject.organizationId,
          emailId: subject.emailId,
          type: "email.unsubscribed",
          recipient: subject.email,
          data: { topic_id: topicId },
        })
      : undefined;

  /** One-click and mailto: leave the link's topic, or everything when the link names none (or its topic is gone). */
  const leave = (token: string, host: string | null) =>
    writer.write(async (tx) => {
      const subject = await subjectOf(tx, token, host);
      if (!subject) return null;
      const before = await pageOf(tx, subject);
      const topic = before.topics.find((candidate) => candidate.id === subject.topicId);
      if (subject.topicId === null) {
        if (!before.unsubscribedEverywhere) {
          await audience.unsubscribeEverywhere(subject.organizationId, subject.email, tx);
          await announce(tx, subject, null);
        }
      } else if (topic?.subscribed) {
        await audience.setTopicSubscription(subject.organizationId, subject.email, topic.id, "opt_out", tx);
        await announce(tx, subject, topic.id);
      }
      return pageOf(tx, subject);
    });

  return {
    async unsubscribedAmong(organizationId, topicId, recipients) {
      const keys = recipients.map(addressKey);
      const receiving = await audience.subscribedTo(organizationId, topicId, keys);
      return new Set(keys.filter((key) => !receiving.has(key)));
    },

    async listUnsubscribe(job, identity) {
      const token = tokens.forDelivery(job.deliveryId);
      const base = await baseFor(job.organizationId, identity.domain);
      return listUnsubscribeLines(pageUrl(base, token), unsubscribeMailbox(token, identity.returnPathDomain));
    },

    async contactPageUrl(input) {
      const base = await baseFor(input.organizationId, input.fromDomain);
      return pageUrl(base, tokens.forContact(input.contactId, input.topicId));
    },

    recognises: (token) => tokens.read(token) !== null,

    async page(token, host) {
      const subject = await subjectOf(db, token, host);
      return subject ? pageOf(db, subject) : null;
    },

    oneClick: leave,

    save: (token, host, choices) =>
      writer.write(async (tx) => {
        const subject = await subjectOf(tx, token, host);
        if (!subject) return null;
        const before = await pageOf(tx, subject);
        // Only the topics the page listed change; a ticked id of another topic is ignored.
        for (const topic of before.topics) {
          const wanted = choices.subscribed.has(topic.id);
          if (wanted === topic.subscribed) continue;
          const { organizationId, email } = subject;
          await audience.setTopicSubscription(organizationId, email, topic.id, wanted ? "opt_in" : "opt_out", tx);
          if (!wanted) await announce(tx, subject, topic.id);
        }
        if (choices.everything && !before.unsubscribedEverywhere) {
          await audience.unsubscribeEverywhere(subject.organizationId, subject.email, tx);
          await announce(tx, subject, null);
        }
        return pageOf(tx, subject);
      }),

    isUnsubscribeAddress(address) {
      const token = mailboxToken(address);
      return token !== null && tokens.read(token)?.kind === "delivery";
    },

    async byMail(address) {
      const token = mailboxToken(address);
      // A mail reaches the MX by name, not by a tracking host: any Host rule is moot (null).
      return token !== null && (await leave(token, null)) !== null;
    },
  };
}
