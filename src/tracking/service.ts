/**
 * Open and click tracking and one-click unsubscribe (docs/events-and-webhooks.md, RFC 8058).
 *
 * At composition, `decorate` gives a message its tracked links, open pixel and unsubscribe URL, following the
 * sending domain's defaults unless the message overrides them. Afterwards the public endpoints call `open`,
 * `click` and `unsubscribe` with the token from the URL; each records its event (and, for unsubscribe, the
 * suppression) in one durable write.
 *
 * Invariants: a token that does not verify changes nothing and reveals nothing (the route answers 404); a click
 * redirects only to the link inside a verified token, and only until the token expires (`tracking.link_lifetime`
 * after the message is accepted, or after its scheduled time), so a link minted once is not a redirect forever.
 * Test-mode mail (test keys are a sandbox, docs/keys-and-limits.md) gets no tracked links at all: a test key cannot mint a
 * redirect. Its open pixel stays, as it leads nowhere. Repeated fetches are bounded: the same client fetching the
 * same thing within a minute records one event, and an email records at most `MAX_EVENTS_PER_EMAIL` opens and
 * as many clicks, so a public URL cannot be used to grow the event log or flood webhooks. Unsubscribing is
 * idempotent: the suppression and the `email.unsubscribed` event happen once.
 *
 * One message is composed for all its recipients, so a token names the message, not a recipient; an event names
 * the recipient when the message has exactly one (always the case with `unsubscribe: true`).
 *
 * A domain's tracking host (docs/deliverability.md) carries the links of that domain's live mail, and answers no other token:
 * asked by that Host, a token is answered only when its message is live mail sent from a domain that owns the host
 * (its organisation's own row of the name, tracking record found), so no tenant's redirect or page borrows another
 * tenant's name. Live mail only: a live key sends only from a verified domain, so a name an organisation added
 * without proving it (its tracking record found through another's CNAME) never gets a link there. Any other Host
 * (Mailroom's own) answers every token.
 */
import type { Db, Writer } from "../db/store.ts";
import type { DomainService } from "../domains/service.ts";
import { trackingOwner } from "../domains/send-policy.ts";
import type { EventLog } from "../events/service.ts";
import type { Actor } from "../access.ts";
import { domainOf } from "../lib/addresses.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { SecretBox } from "../lib/secrets.ts";
import type { SuppressionService } from "../suppressions/service.ts";
import { classifyFetch } from "./agents.ts";
import type { MessageDecorations } from "./decorations.ts";
import { eventsOf, findEmail, hasEvent, soleRecipient } from "./repo.ts";
import { createTokenCodec } from "./tokens.ts";

/** Per email and per kind (opens, clicks). */
export const MAX_EVENTS_PER_EMAIL = 50;
/** The same client fetching the same URL again within this time is one fetch (mail clients reload images). */
const REPEAT_WINDOW_MS = 60_000;

export interface FetchInfo {
  ip: string | null;
  userAgent: string | null;
}

/** Where a verified click token leads; `expired` when it no longer redirects (its page names the link instead). */
export interface ClickTarget {
  link: string;
  expired: boolean;
}

export interface UnsubscribeTarget {
  emailId: string;
  organizationId: string;
  recipient: string;
  /** The From header of the message, to tell the recipient who they unsubscribe from. */
  from: string;
}

/** What of a message about to be composed decides its decorations (a send's validated fields). */
export interface DecoratedMessage {
  from: { address: string };
  /** Epoch ms. */
  scheduledAt?: number;
  /** Per-message override of the sending domain's open/click tracking defaults. */
  tracking?: { opens?: boolean; clicks?: boolean };
  /** RFC 8058 one-click unsubscribe. */
  unsubscribe?: boolean;
}

export interface TrackingService {
  /** Decorations for a message about to be composed; undefined when it has neither tracking nor unsubscribe. */
  decorate(
    emailId: string,
    actor: Pick<Actor, "organizationId" | "mode">,
    fields: DecoratedMessage,
  ): Promise<MessageDecorations | undefined>;
  /**
   * Records an open; false when the token is not valid (404), or not one `host` answers. Every method takes the
   * request's Host name (lower case, no port; null for none), as a domain's tracking host answers its own mail only.
   */
  open(token: string, info: FetchInfo, host: string | null): Promise<boolean>;
  /**
   * Records a click and returns the original link; null when the token is not valid (404). An expired token
   * records nothing and returns its link marked expired.
   */
  click(token: string, info: FetchInfo, host: string | null): Promise<ClickTarget | null>;
  /** What an unsubscribe link refers to, changing nothing; null when the token is not valid. */
  unsubscribeTarget(
    token: string,
    host: string | null,
  ): Promise<(UnsubscribeTarget & { unsubscribed: boolean }) | null>;
  /** Suppresses the recipient (origin unsubscribe) and records `email.unsubscribed`, once; null when not valid. */
  unsubscribe(token: string, host: string | null): Promise<UnsubscribeTarget | null>;
}

export function createTrackingService(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  events: EventLog;
  suppressions: SuppressionService;
  domains: DomainService;
  secrets: SecretBox;
  logger: Logger;
  /** The public base URL, without a trailing slash (`http.public_url`, or the bound address). */
  publicUrl: () => string;
  scannerWindowMs: number;
  /** How long a click token redirects after its message is accepted or, if later, scheduled (`tracking.link_lifetime`). */
  linkLifetimeMs: number;
}): TrackingService {
  const { db, writer, clock, events, suppressions, domains, logger } = deps;
  const tokenKey = deps.secrets.deriveKey("tracking-tokens");
  const tokens = createTokenCodec(tokenKey);
  let warnedAboutUrl = false;

  const baseUrl = () => {
    const base = deps.publicUrl();
    if (!warnedAboutUrl && !base.startsWith("https://")) {
      warnedAboutUrl = true;
      logger.warn(
        "tracking and unsubscribe links do not use https; set http.public_url to this server's public https address",
        { base_url: base },
      );
    }
    return base;
  };

  const recordFetch = (emailId: string, type: "email.opened" | "email.clicked", info: FetchInfo, link?: string) =>
    writer.write(async (tx) => {
      const email = await findEmail(tx, emailId);
      if (!email) return false;
      const history = await eventsOf(tx, emailId, [type, "email.sent", "email.delivered"]);
      const earlier = history.filter((event) => event.type === type);
      const now = clock.now();
      const repeat = earlier.some(
        (event) =>
          now - Date.parse(event.createdAt) < REPEAT_WINDOW_MS &&
          event.data.ip === info.ip &&
          event.data.user_agent === info.userAgent &&
          event.data.link === link,
      );
      if (repeat || earlier.length >= MAX_EVENTS_PER_EMAIL) return true;
      const handedOver = history.find((event) => event.type === "email.sent" || event.type === "email.delivered");
      const fetchedBy = classifyFetch({
        userAgent: info.userAgent,
        sinceDeliveryMs: handedOver ? now - Date.parse(handedOver.createdAt) : null,
        scannerWindowMs: deps.scannerWindowMs,
      });
      const prefetch = fetchedBy !== "person";
      // "First" counts people only: a scanner's fetch before the reader's does not take the flag.
      const firstByPerson = !prefetch && !earlier.some((event) => event.data.prefetch === false);
      await events.append(tx, {
        organizationId: email.organizationId,
        emailId,
        type,
        recipient: await soleRecipient(tx, emailId),
        data: {
          ...(link !== undefined && { link }),
          user_agent: info.userAgent,
          ip: info.ip,
          prefetch,
          fetched_by: fetchedBy,
          [type === "email.opened" ? "first_open" : "first_click"]: firstByPerson,
        },
      });
      return true;
    });

  /**
   * Click tokens minted before they carried an expiry expire as if they had one: `link_lifetime` after their
   * message was accepted; at once for test-mode mail (no longer tracked) and for a message no longer stored.
   */
  const unexpiringTokenExpiry = async (emailId: string): Promise<number> => {
    const email = await findEmail(db, emailId);
    return email?.mode === "live" ? Date.parse(email.createdAt) + deps.linkLifetimeMs : 0;
  };

  /** Whether `host` answers the tokens of message `emailId`: any but a tracking host does; that one, its own mail. */
  const answersOn = async (host: string | null, emailId: string): Promise<boolean> => {
    const owners = host === null ? undefined : await domains.trackingHostOwners(host);
    if (!owners) return true;
    const email = await findEmail(db, emailId);
    return email?.mode === "live" && owners.has(trackingOwner(email.organizationId, domainOf(email.envelopeFrom)));
  };

  const target = async (tx: Db, token: string, host: string | null): Promise<UnsubscribeTarget | null> => {
    const verified = tokens.verify(token, "unsubscribe");
    if (!verified || !(await answersOn(host, verified.emailId))) return null;
    const email = await findEmail(tx, verified.emailId);
    if (!email) return null;
    const recipient = await soleRecipient(tx, verified.emailId);
    if (!recipient) return null;
    return { emailId: verified.emailId, organizationId: email.organizationId, recipient, from: email.fromHeader };
  };

  return {
    async decorate(emailId, actor, fields) {
      const defaults = await domains.trackingDefaults(actor.organizationId, domainOf(fields.from.address));
      const opens = fields.tracking?.opens ?? defaults.opens;
      const clicks = (fields.tracking?.clicks ?? defaults.clicks) && actor.mode === "live";
      if (!opens && !clicks && !fields.unsubscribe) return undefined;
      // A domain's own tracking host (docs/deliverability.md) keeps its live mail's links on its name (the only mail it answers
      // for); TLS for it is the operator's proxy's.
      const base = defaults.host && actor.mode === "live" ? `https://${defaults.host}` : baseUrl();
      const decorations: MessageDecorations = {};
      if (fields.unsubscribe) decorations.unsubscribeUrl = `${base}/u/${tokens.mint({ kind: "unsubscribe", emailId })}`;
      if (opens || clicks) {
        // The links are written, and their tokens minted, by composition on a CPU-pool thread (decorations.ts).
        const issuedAt = Math.max(clock.now(), fields.scheduledAt ?? 0);
        decorations.tracking = {
          tokenKey,
          baseUrl: base,
          opens,
          ...(clicks && { clicksExpireAt: issuedAt + deps.linkLifetimeMs }),
        };
      }
      return decorations;
    },

    async open(token, info, host) {
      const verified = tokens.verify(token, "open");
      if (!verified || !(await answersOn(host, verified.emailId))) return false;
      return recordFetch(verified.emailId, "email.opened", info);
    },

    async click(token, info, host) {
      const verified = tokens.verify(token, "click");
      // Minted for http(s) links only; checked again so no other scheme can ever be reached from here.
      if (!verified?.link || !/^https?:\/\//i.test(verified.link)) return null;
      // Another tenant's link on this tracking host is not found: not even its expired page names it here.
      if (!(await answersOn(host, verified.emailId))) return null;
      const link = verified.link;
      if (clock.now() >= (verified.expiresAt ?? (await unexpiringTokenExpiry(verified.emailId))))
        return { link, expired: true };
      return (await recordFetch(verified.emailId, "email.clicked", info, link)) ? { link, expired: false } : null;
    },

    async unsubscribeTarget(token, host) {
      const found = await target(db, token, host);
      if (!found) return null;
      return {
        ...found,
        unsubscribed: (await suppressions.suppressedAmong(found.organizationId, [found.recipient])).size > 0,
      };
    },

    async unsubscribe(token, host) {
      return writer.write(async (tx) => {
        const found = await target(tx, token, host);
        if (!found) return null;
        await suppressions.addInTransaction(tx, found.organizationId, {
          email: found.recipient,
          origin: "unsubscribe",
          sourceId: found.emailId,
          reason: "one-click unsubscribe (RFC 8058)",
        });
        if (!(await hasEvent(tx, found.emailId, "email.unsubscribed")))
          await events.append(tx, {
            organizationId: found.organizationId,
            emailId: found.emailId,
            type: "email.unsubscribed",
            recipient: found.recipient,
          });
        return found;
      });
    },
  };
}
