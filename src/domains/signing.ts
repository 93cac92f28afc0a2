/**
 * What every message leaving through the `smtp` and `mx` providers gets on its way out: a DKIM signature by its
 * From domain's active key (RFC 6376, relaxed/relaxed; and an Ed25519 one beside it when the domain asked, RFC 8463) and a per-recipient return path on that domain's
 * return-path subdomain, so SPF is checked — and DMARC aligned (RFC 7489 §3.1) — on a name Mailroom controls,
 * and a bounce finds its message and recipient.
 *
 * Return path: `bounces+<delivery>-<mac>@<subdomain>.<domain>`. `<delivery>` is the delivery row's id (one row per
 * message and recipient) as 32 hex digits; `<mac>` is the first 80 bits of HMAC-SHA256 over it under a key
 * derived from the master key, in lower-case base32 (16 characters; the local part is 57, under RFC 5321's 64).
 * The MAC makes forged bounces rejectable without a database read and without relying on ids being unguessable;
 * everything is lower case because some servers fold the case of local parts.
 *
 * Invariant: the stored message is never changed — signing prepends to the copy being sent, at send time, so a
 * rotated key takes over for retries too. Mail whose From domain is not one of the organisation's leaves as it is.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import addressparser from "nodemailer/lib/addressparser";
import { normalizeDomain } from "../lib/addresses.ts";
import type { Clock } from "../lib/clock.ts";
import { blankLineAfter } from "../lib/header-end.ts";
import type { Logger } from "../lib/logger.ts";
import type { DeliveryJob, Provider } from "../providers/types.ts";
import type { dkimSign } from "mailauth";
import type { DomainService } from "./service.ts";
import type { SigningIdentity } from "./send-policy.ts";

/** Signing off the event loop (the CPU pool): the call this area makes of it. */
export interface DkimSigner {
  /** Settles with the signature header, or with the errors that the caller turns into "send unsigned"; `tenant`: whose. */
  sign(raw: Buffer, options: DkimOptions, tenant: string): Promise<DkimResult>;
}

/** mailauth's signing options, as the CPU pool's thread passes them on. */
export type DkimOptions = Parameters<typeof dkimSign>[1];
/** The signature headers, or the errors that the signer turns into "send unsigned". */
export interface DkimResult {
  signatures: string;
  errors: unknown[];
}

/** Header fields signed when present (From first: RFC 6376 §5.4 requires it). */
export const SIGNED_HEADERS = [
  "From",
  "To",
  "Cc",
  "Subject",
  "Date",
  "Message-ID",
  "Reply-To",
  "MIME-Version",
  "Content-Type",
  "Content-Transfer-Encoding",
  "List-Unsubscribe",
  "List-Unsubscribe-Post",
] as const;

const BOUNCE_LOCAL_PREFIX = "bounces+";
const MAC_BYTES = 10;
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export interface ReturnPathCodec {
  /** `bounces+<delivery>-<mac>@<returnPathDomain>` for one delivery (message + recipient). */
  address(deliveryId: string, returnPathDomain: string): string;
  /** The delivery id a bounce address names, or null when it is not one of ours or its MAC is wrong. */
  parse(address: string): { deliveryId: string; returnPathDomain: string } | null;
}

/** Builds the codec from a 32-byte key (`secrets.deriveKey("return-path")`). */
export function createReturnPathCodec(key: Buffer): ReturnPathCodec {
  const mac = (hexId: string) => base32(createHmac("sha256", key).update(hexId).digest().subarray(0, MAC_BYTES));
  return {
    address(deliveryId, returnPathDomain) {
      const hexId = deliveryId.replace(/-/g, "").toLowerCase();
      return `${BOUNCE_LOCAL_PREFIX}${hexId}-${mac(hexId)}@${returnPathDomain}`;
    },
    parse(address) {
      const match = /^bounces\+([0-9a-f]{32})-([a-z2-7]{16})@([^@]+)$/.exec(address.trim().toLowerCase());
      if (!match) return null;
      const [, hexId, given, returnPathDomain] = match as unknown as [string, string, string, string];
      if (!timingSafeEqual(Buffer.from(mac(hexId)), Buffer.from(given))) return null;
      const deliveryId = `${hexId.slice(0, 8)}-${hexId.slice(8, 12)}-${hexId.slice(12, 16)}-${hexId.slice(16, 20)}-${hexId.slice(20)}`;
      return { deliveryId, returnPathDomain };
    },
  };
}

/** The domain of the message's single From address (lower-case punycode), or null when there is not exactly one. */
export function authorDomain(raw: Buffer): string | null {
  // Only the header is decoded: it runs for every delivery, and the body may be megabytes of attachments.
  const end = blankLineAfter(raw);
  const text = raw.subarray(0, end < 0 ? raw.length : end).toString("latin1");
  // RFC 5322 §2.2.3: folded lines continue with whitespace.
  const header = text.replace(/\r?\n(?=[ \t])/g, "");
  const fromLines = header.split(/\r?\n/).filter((line) => /^from\s*:/i.test(line));
  if (fromLines.length !== 1) return null;
  const mailboxes = addressparser(fromLines[0]!.slice(fromLines[0]!.indexOf(":") + 1)).filter(
    (entry): entry is { name: string; address: string } => "address" in entry && !!entry.address,
  );
  if (mailboxes.length !== 1) return null;
  const address = mailboxes[0]!.address;
  const domain = normalizeDomain(address.slice(address.lastIndexOf("@") + 1));
  return "error" in domain ? null : domain.domain;
}

export interface OutgoingSigner {
  /** The job as it should leave: signed and with its return path, or unchanged when the From domain is not ours. */
  prepare(job: DeliveryJob): Promise<DeliveryJob>;
}

/** Signatures kept for reuse: one message's deliveries (one per recipient) go out at nearly the same time. */
const SIGNATURE_CACHE_SIZE = 256;

/** What of the domain's transport policy the provider must apply (docs/deliverability.md): its TLS requirement, its IP pool. */
const policyOf = (identity: SigningIdentity): Pick<DeliveryJob, "tls" | "ipPool"> => ({
  ...(identity.tls === "enforced" && { tls: "enforced" }),
  ...(identity.ipPool && { ipPool: identity.ipPool }),
});

export interface OutgoingSignerDeps {
  domains: Pick<DomainService, "signingIdentity">;
  returnPaths: ReturnPathCodec;
  dkim: DkimSigner;
  clock: Clock;
  logger: Logger;
  /**
   * The List-Unsubscribe and List-Unsubscribe-Post lines (CRLF-ended) this recipient's copy of topic mail carries,
   * or null (docs/contacts-preferences.md#unsubscribing): one token per recipient, so they are written here, per
   * delivery, before signing, rather than into the message composed once for all its recipients.
   */
  listUnsubscribe?: (job: DeliveryJob, identity: SigningIdentity) => Promise<string | null>;
}

export function createOutgoingSigner(deps: OutgoingSignerDeps): OutgoingSigner {
  const { domains, returnPaths, dkim, clock, logger } = deps;
  // Every recipient of a message gets the same stored MIME and the return path is not part of it, so one
  // signature (about 2 ms of RSA and hashing) serves them all.
  const signatures = new Map<string, Promise<DkimResult>>();
  const sign = (job: DeliveryJob, identity: SigningIdentity, perRecipient: boolean) => {
    // A copy with its own header lines (topic mail) has its own signature.
    const key = `${perRecipient ? job.deliveryId : job.emailId}|${identity.domain}|${identity.selector}|${identity.ed25519?.selector}|${job.raw.length}`;
    let signed = signatures.get(key);
    if (!signed) {
      const signTime = new Date(clock.now());
      signed = dkim.sign(
        job.raw,
        {
          canonicalization: "relaxed/relaxed",
          algorithm: "rsa-sha256",
          signTime,
          // mailauth reads a colon-separated list here, whatever its type declaration says.
          headerList: SIGNED_HEADERS.join(":") as unknown as string[],
          signatureData: [
            { signingDomain: identity.domain, selector: identity.selector, privateKey: identity.privateKeyPem },
            ...(identity.ed25519
              ? [
                  {
                    signingDomain: identity.domain,
                    selector: identity.ed25519.selector,
                    privateKey: identity.ed25519.privateKeyPem,
                    algorithm: "ed25519-sha256",
                  },
                ]
              : []),
          ],
        } as DkimOptions,
        job.organizationId,
      );
      signatures.set(key, signed);
      // A failed signature is not kept: the message's other recipients get a fresh attempt.
      void signed.then((result) => result.errors.length && signatures.delete(key));
      if (signatures.size > SIGNATURE_CACHE_SIZE) signatures.delete(signatures.keys().next().value!);
    }
    return signed;
  };
  /** A null reverse path stays null: a delivery status notification must go without one (RFC 3461 §6.2). */
  const returnPathOf = (job: DeliveryJob, identity: SigningIdentity) =>
    job.envelopeFrom === "" ? "" : returnPaths.address(job.deliveryId, identity.returnPathDomain);
  return {
    async prepare(given) {
      // A copy an inbound route forwards (an SRS sender) keeps its envelope, so the bounce finds its way back; it
      // carries the ARC set it was sealed with (docs/inbound.md#forwarding). A null sender stays null (returnPathOf).
      if (/^srs0=/i.test(given.envelopeFrom)) return given;
      let job = given;
      const domain = authorDomain(job.raw);
      const identity = domain ? await domains.signingIdentity(job.organizationId, domain) : null;
      if (!identity) {
        logger.debug("message leaves unsigned: its From domain is not one of the organisation's", {
          email_id: job.emailId,
          delivery_id: job.deliveryId,
        });
        return job;
      }
      // Prepended before signing, so the signature covers them (RFC 8058 §4; SIGNED_HEADERS lists both).
      // Topic mail and every broadcast (docs/broadcasts.md#unsubscribing) carry them.
      const lines = job.topicId || job.broadcast ? await deps.listUnsubscribe?.(job, identity) : null;
      if (lines) job = { ...job, raw: Buffer.concat([Buffer.from(lines, "latin1"), job.raw]) };
      const { signatures: header, errors } = await sign(job, identity, !!lines);
      if (errors.length) {
        // Unsigned mail fails DMARC at strict receivers, but holding it back would be worse; the log says why.
        logger.error("DKIM signing failed; sending unsigned", {
          email_id: job.emailId,
          domain: identity.domain,
          err: errors[0],
        });
        return {
          ...job,
          ...policyOf(identity),
          envelopeFrom: returnPathOf(job, identity),
        };
      }
      return {
        ...job,
        ...policyOf(identity),
        envelopeFrom: returnPathOf(job, identity),
        raw: Buffer.concat([Buffer.from(header), job.raw]),
      };
    },
  };
}

/** Wraps a provider so every message it sends is prepared by `signer` first. */
export function withSigning(provider: Provider, signer: OutgoingSigner): Provider {
  return {
    name: provider.name,
    async deliver(job) {
      return provider.deliver(await signer.prepare(job));
    },
    close: () => provider.close(),
  };
}
