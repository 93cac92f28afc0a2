/**
 * Forwarding by inbound routes (docs/inbound.md#forwarding): a forwarded copy leaves through the one outgoing funnel
 * (`emails.submit`, source `forward`) from the receiving domain — its envelope sender rewritten by SRS onto the
 * domain's return-path name (lib/srs.ts), so SPF is checked where this server may send; its header and body as they
 * came, with a Received field and the ARC set (RFC 8617) sealed with the receiving domain's DKIM key on top — and a
 * bounce to the SRS address goes back, by the same funnel, to the original sender.
 *
 * Invariants: mail is forwarded only to the addresses a route of the organisation that receives for the recipient's
 * domain names, and returned only to the sender an SRS address whose MAC verifies names — never an open relay; only
 * notifications (a null sender) are returned; a message that went round more than `MAX_HOPS` times, or that carries
 * this domain's own seal already, is refused as a loop (RFC 5321 §6.3) rather than sent on.
 */
import type { Actor } from "../access.ts";
import { operatorActor } from "../access.ts";
import type { SigningIdentity } from "../domains/send-policy.ts";
import type { ForwardInput } from "../emails/model.ts";
import { AppError } from "../errors.ts";
import type { Clock } from "../lib/clock.ts";
import { blankLineAfter } from "../lib/header-end.ts";
import { newId } from "../lib/ids.ts";
import type { Logger } from "../lib/logger.ts";
import type { SrsCodec } from "../lib/srs.ts";
import type { ReceivedFields } from "./received.ts";

/** More Received fields than this and a message is taken to be looping (RFC 5321 §6.3 suggests 100; 30 is common). */
export const MAX_HOPS = 30;

/** How a forwarded copy enters the outgoing funnel (emails.submit). */
export type ForwardSubmit = (input: ForwardInput, actor: Actor) => Promise<{ id: string }>;

/** The key and names a forward from a receiving domain uses. */
export interface ForwardIdentity {
  domain: string;
  selector: string;
  privateKeyPem: string;
  /** The receiving domain's return-path name: the SRS sender's domain, whose SPF names this server. */
  srsDomain: string;
}

/** The header block's fields, unfolded. */
const headerFields = (raw: Buffer) => {
  const end = blankLineAfter(raw);
  return raw
    .subarray(0, end < 0 ? raw.length : end)
    .toString("latin1")
    .replace(/\r?\n(?=[ \t])/g, "")
    .split(/\r?\n/);
};

/** Whether forwarding `raw` from `identity`'s domain would close a loop: too many hops, or our own seal on it. */
export function forwardingLoop(
  raw: Buffer,
  identity: Pick<ForwardIdentity, "domain" | "selector"> | null,
): string | null {
  const fields = headerFields(raw);
  const hops = fields.filter((field) => /^received\s*:/i.test(field)).length;
  if (hops > MAX_HOPS) return `it passed ${hops} servers`;
  const tag = (name: string, value: string) =>
    new RegExp(`(?:^|[:;\\s])${name}\\s*=\\s*${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*(?:;|$)`, "i");
  if (!identity) return null;
  const ours = fields.some(
    (field) =>
      /^arc-seal\s*:/i.test(field) && tag("d", identity.domain).test(field) && tag("s", identity.selector).test(field),
  );
  return ours ? `it carries ${identity.domain}'s own ARC seal` : null;
}

/** The Received field this server adds to a copy it forwards (RFC 5321 §4.4). */
export function receivedField(input: { helo: string; clientAddress: string; hostname: string; now: number }) {
  const date = new Date(input.now).toUTCString().replace("GMT", "+0000");
  return `Received: from ${input.helo || "unknown"} ([${input.clientAddress}])\r\n\tby ${input.hostname} with ESMTP id ${newId()};\r\n\t${date}\r\n`;
}

export function createForwarding(deps: {
  srs: SrsCodec;
  clock: Clock;
  logger: Logger;
  submit: ForwardSubmit;
  signingIdentity(organizationId: string, domain: string): Promise<SigningIdentity | null>;
  /** The organisation whose return-path name `domain` is (`<subdomain>.<its domain>`), if any. */
  returnPathOwner(domain: string): Promise<string | null>;
}) {
  const { srs, clock, logger } = deps;

  const copyFields = (fields: ReceivedFields): ForwardInput["fields"] => ({
    messageId: fields.messageId,
    fromHeader: fields.fromHeader,
    to: fields.to,
    cc: fields.cc,
    replyTo: fields.replyTo,
    subject: fields.subject,
    html: fields.html,
    text: fields.text,
  });

  return {
    /** The receiving domain's key and SRS name; null when the organisation holds no key for it. */
    async identity(organizationId: string, domain: string): Promise<ForwardIdentity | null> {
      const identity = await deps.signingIdentity(organizationId, domain);
      if (!identity) return null;
      return {
        domain: identity.domain,
        selector: identity.selector,
        privateKeyPem: identity.privateKeyPem,
        srsDomain: identity.returnPathDomain,
      };
    },

    /**
     * Sends the copy to the route's addresses. A refusal of the funnel's own (every address suppressed, a quota) is
     * logged and the message stays received; a store fault propagates, so the sender retries.
     */
    async forward(input: {
      organizationId: string;
      routeId: string;
      raw: Buffer;
      envelopeFrom: string;
      identity: ForwardIdentity;
      to: string[];
      fields: ReceivedFields;
    }): Promise<string | null> {
      // A notification (null sender) stays one, so it never comes back (RFC 5321 §4.5.5).
      const from = input.envelopeFrom ? srs.forward(input.envelopeFrom, input.identity.srsDomain, clock.now()) : "";
      try {
        const { id } = await deps.submit(
          {
            kind: "forward",
            source: "forward",
            raw: input.raw,
            envelope: { from, to: input.to },
            fields: copyFields(input.fields),
          },
          operatorActor(input.organizationId),
        );
        logger.info("inbound message forwarded", {
          route_id: input.routeId,
          email_id: id,
          recipients: input.to.length,
        });
        return id;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        logger.warn("inbound message not forwarded", { route_id: input.routeId, reason: error.message });
        return null;
      }
    },

    /**
     * Whether the MX takes mail for `address` as an SRS address of ours: its MAC and age verified, at a return-path
     * name some organisation still holds (a domain removed since takes nothing back).
     */
    async accepts(address: string) {
      if (srs.reverse(address, clock.now()) === null) return false;
      return (await deps.returnPathOwner(address.slice(address.lastIndexOf("@") + 1).toLowerCase())) !== null;
    },
    /** Whether `address` is written as an SRS address (one that does not verify is refused, not routed). */
    looksLike: (address: string) => srs.looksLike(address),

    /**
     * Sends a bounce that came to an SRS address back to the sender it names, unchanged, with a null sender. Only a
     * notification is returned: anything else sent there is refused (550 5.7.1), so the address relays nothing else.
     */
    async returnToSender(input: { address: string; raw: Buffer; envelopeFrom: string; fields: ReceivedFields }) {
      const original = srs.reverse(input.address, clock.now());
      const domain = input.address.slice(input.address.lastIndexOf("@") + 1).toLowerCase();
      const organizationId = original ? await deps.returnPathOwner(domain) : null;
      if (!original || !organizationId) return null;
      if (input.envelopeFrom !== "")
        throw new AppError("insufficient_scope", "This address takes only delivery status notifications.");
      const { id } = await deps.submit(
        {
          kind: "forward",
          source: "forward",
          raw: input.raw,
          envelope: { from: "", to: [original] },
          fields: copyFields(input.fields),
        },
        operatorActor(organizationId),
      );
      logger.info("bounce to a forwarded message returned to its sender", { email_id: id });
      return { organizationId, emailId: id };
    },
  };
}

export type Forwarding = ReturnType<typeof createForwarding>;
