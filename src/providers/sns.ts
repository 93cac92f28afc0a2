/**
 * Amazon SNS HTTP(S) notifications that carry Amazon SES events: an envelope is believed only once its signature
 * verifies, a subscription is confirmed by visiting its SubscribeURL, and an SES event record is read into the few
 * fields Mailroom acts on.
 *
 * - Checks run cheapest first, and nothing is fetched before the offline ones pass: the envelope's shape, its topic
 *   (one of `[sns] topics`, exactly), then the certificate URL — https on exactly `sns.<region>.amazonaws.com`
 *   (`.amazonaws.com.cn` in China) of the topic's own region, a `.pem` path. Only then is the certificate fetched,
 *   through the SSRF guard, and the signature checked (SignatureVersion 1: SHA1withRSA, 2: SHA256withRSA).
 * - The trust anchor is that host: a certificate served by SNS's own name over TLS verified against the system's
 *   roots is SNS's. Its issuer chain is not checked beyond that, as AWS's own SDK validators do.
 * - Certificate fetch: https, no redirects, at most 16 KiB, a timeout; kept per URL (32 at most) while it is valid.
 *   A fetch that fails is a 503 — not the sender's fault, and SNS retries — never an acceptance.
 * - Freshness: a verified message whose signed Timestamp is more than an hour old, or more than 5 minutes ahead of
 *   this server's clock, is refused 401 as a replay and logged. SNS stamps a message once, when it is published, and
 *   its retries to an HTTP endpoint end within the hour; an older one is a captured message posted again.
 * Invariant: `verify` returns a message only when its signature verifies with a certificate fetched from the SNS
 * host of its topic's region, its topic is one the operator configured, and it was published within the hour.
 */
import { verify as verifySignature, X509Certificate } from "node:crypto";
import { AppError, validationError, type ErrorDetail } from "../errors.ts";
import { readCappedBody } from "../lib/capped-body.ts";
import { systemClock, type Clock } from "../lib/clock.ts";
import { ConfigError } from "../lib/config-error.ts";
import { pinnedRequest, type EndpointGuard } from "../lib/endpoint-guard.ts";
import type { Logger } from "../lib/logger.ts";

export type SnsMessageType = "Notification" | "SubscriptionConfirmation" | "UnsubscribeConfirmation";

/**
 * An SNS envelope, with SNS's own field names: they are the names the signature covers, and the names its
 * documentation and every log line of AWS use.
 */
export interface SnsMessage {
  Type: SnsMessageType;
  MessageId: string;
  TopicArn: string;
  /** Notifications published with a subject only. */
  Subject?: string;
  /** For an SES event, its JSON record (`parseSesEvent`). */
  Message: string;
  Timestamp: string;
  SignatureVersion: "1" | "2";
  Signature: string;
  SigningCertURL: string;
  /** Confirmations only: visiting it confirms the subscription. */
  SubscribeURL?: string;
  /** Confirmations only. */
  Token?: string;
  /** Notifications only; not signed. */
  UnsubscribeURL?: string;
}

export interface SnsVerifierOptions {
  /** Topic ARNs whose messages are accepted (`[sns] topics`), compared exactly. */
  topics: readonly string[];
  timeoutMs: number;
  /** Checks the addresses of SNS's hosts before the certificate and SubscribeURL requests. */
  guard: EndpointGuard;
  /** Decides whether a certificate has expired and whether a message is too old. */
  clock?: Clock;
  /** Where replays are reported. */
  logger: Logger;
  /**
   * TEST ONLY: one more `host[:port]` trusted for SigningCertURL and SubscribeURL (e.g. `127.0.0.1:40123`); a URL
   * on it skips the guard.
   */
  testCertificateHost?: string;
  /** TEST ONLY: CA certificates (PEM) trusted for `testCertificateHost`. */
  ca?: string;
}

export interface SnsVerifier {
  /** The envelope of a request body (already JSON-parsed), once its signature verifies. Throws AppError. */
  verify(body: unknown): Promise<SnsMessage>;
  /** Confirms a verified SubscriptionConfirmation by visiting its SubscribeURL. Throws AppError. */
  confirmSubscription(message: SnsMessage): Promise<void>;
}

const MAX_CERTIFICATE_BYTES = 16 * 1024;
const CERTIFICATE_CACHE_SIZE = 32;
/** A message published longer ago than this is a replay. */
const MAX_MESSAGE_AGE_MS = 3_600_000;
/** A Timestamp this far ahead of our clock is drift between AWS's clock and ours; further is not SNS's. */
const MAX_CLOCK_AHEAD_MS = 5 * 60_000;
/** SNS's Timestamp: ISO 8601 in UTC with milliseconds (`2026-11-25T20:31:05.123Z`). */
const SNS_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

const MESSAGE_TYPES: readonly SnsMessageType[] = [
  "Notification",
  "SubscriptionConfirmation",
  "UnsubscribeConfirmation",
];
const ENVELOPE_FIELDS = ["MessageId", "TopicArn", "Message", "Timestamp", "Signature", "SigningCertURL"] as const;
const CONFIRMATION_FIELDS = ["SubscribeURL", "Token"] as const;
const OPTIONAL_FIELDS = ["Subject", "UnsubscribeURL"] as const;

/** What SNS signs, in the order it signs them (AWS: "Verifying the signatures of Amazon SNS messages"). */
const CONFIRMATION_SIGNED = ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"] as const;
const SIGNED_FIELDS: Record<SnsMessageType, readonly (keyof SnsMessage)[]> = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: CONFIRMATION_SIGNED,
  UnsubscribeConfirmation: CONFIRMATION_SIGNED,
};

const SIGNATURE_ALGORITHMS = { "1": "RSA-SHA1", "2": "RSA-SHA256" } as const;

/** `arn:<partition>:sns:<region>:<account>:<name>` */
const TOPIC_ARN = /^arn:(aws(?:-[a-z]+)*):sns:([a-z]{2}(?:-[a-z]+)+-\d{1,2}):\d{12}:[A-Za-z0-9_-]{1,256}(?:\.fifo)?$/;

/** SNS's host in a topic's region; null for an ARN that is not a topic's, or a partition with no known host. */
function snsHostOf(topicArn: string): string | null {
  const match = TOPIC_ARN.exec(topicArn);
  if (!match) return null;
  const [, partition, region] = match;
  if (partition === "aws" || partition === "aws-us-gov") return `sns.${region}.amazonaws.com`;
  if (partition === "aws-cn") return `sns.${region}.amazonaws.com.cn`;
  return null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The envelope's fields for its Type, each a string; throws validation_error naming every field that is not. */
function parseEnvelope(body: unknown): SnsMessage {
  if (!isRecord(body)) throw validationError([{ path: "", message: "an SNS message is a JSON object" }]);
  const type = body.Type;
  if (typeof type !== "string" || !MESSAGE_TYPES.includes(type as SnsMessageType)) {
    throw validationError([{ path: "Type", message: `must be one of ${MESSAGE_TYPES.join(", ")}` }]);
  }
  const required: readonly string[] =
    type === "Notification" ? ENVELOPE_FIELDS : [...ENVELOPE_FIELDS, ...CONFIRMATION_FIELDS];
  const details: ErrorDetail[] = required
    .filter((field) => typeof body[field] !== "string")
    .map((field) => ({ path: field, message: "is required and must be a string" }));
  for (const field of OPTIONAL_FIELDS) {
    if (body[field] != null && typeof body[field] !== "string") {
      details.push({ path: field, message: "must be a string" });
    }
  }
  if (body.SignatureVersion !== "1" && body.SignatureVersion !== "2") {
    details.push({ path: "SignatureVersion", message: 'must be "1" (SHA1withRSA) or "2" (SHA256withRSA)' });
  }
  if (details.length) throw validationError(details);
  // Only the known fields are kept: nothing unsigned rides along into the caller's hands by accident.
  const message: Record<string, unknown> = { Type: type, SignatureVersion: body.SignatureVersion };
  for (const field of [...required, ...OPTIONAL_FIELDS]) {
    if (typeof body[field] === "string") message[field] = body[field];
  }
  return message as unknown as SnsMessage;
}

function stringToSign(message: SnsMessage): string {
  let text = "";
  for (const field of SIGNED_FIELDS[message.Type]) {
    const value = message[field];
    if (value !== undefined) text += `${field}\n${value}\n`;
  }
  return text;
}

/** A URL that passed the host rule; `viaGuard` unless it is on the test host. */
interface TrustedUrl {
  url: URL;
  viaGuard: boolean;
}

export function createSnsVerifier(options: SnsVerifierOptions): SnsVerifier {
  const { guard, testCertificateHost } = options;
  const clock = options.clock ?? systemClock;
  for (const topic of options.topics) {
    if (!snsHostOf(topic)) {
      throw new ConfigError(
        `[sns] topics: "${topic}" is not an SNS topic ARN (arn:aws|aws-cn|aws-us-gov:sns:<region>:<account>:<name>)`,
      );
    }
  }
  const topics = new Set(options.topics);
  const certificates = new Map<string, X509Certificate>();
  // Concurrent messages signed with one certificate share its fetch: a burst after a start fetches it once.
  const fetching = new Map<string, Promise<X509Certificate>>();

  /** The SNS host of the message's topic, once the topic is one configured (403 otherwise). */
  const snsHostFor = (message: SnsMessage): string => {
    const host = topics.has(message.TopicArn) ? snsHostOf(message.TopicArn) : null;
    if (!host) throw new AppError("insufficient_scope", `SNS topic ${message.TopicArn} is not one [sns] topics names.`);
    return host;
  };

  /** The URL when it is https, without credentials, on exactly the SNS host (default port) or the test host. */
  const trusted = (raw: string, snsHost: string): TrustedUrl | null => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return null;
    }
    if (url.protocol !== "https:" || url.username || url.password) return null;
    if (testCertificateHost && url.host === testCertificateHost) return { url, viaGuard: false };
    // URL parsing lower-cases the host name and drops the default port, so this is the whole comparison.
    if (url.hostname === snsHost && url.port === "") return { url, viaGuard: true };
    return null;
  };

  /** GET without following redirects; SNS's hosts go to the address the guard checked, under their own name. */
  const get = async ({ url, viaGuard }: TrustedUrl): Promise<Response> => {
    const request = viaGuard
      ? pinnedRequest(await guard.resolve(guard.parse(url.href)))
      : { url: url.href, host: url.host, serverName: undefined };
    return fetch(request.url, {
      headers: { host: request.host },
      redirect: "manual",
      // Connect directly: a proxy from the environment would make its own lookup of the name.
      proxy: false,
      signal: AbortSignal.timeout(options.timeoutMs),
      tls: { serverName: request.serverName, ...(!viaGuard && options.ca && { ca: options.ca }) },
    });
  };

  const fetchCertificate = async (target: TrustedUrl): Promise<X509Certificate> => {
    const response = await get(target);
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`the certificate URL answered ${response.status}`);
    }
    return new X509Certificate(await readCappedBody(response, MAX_CERTIFICATE_BYTES));
  };

  const expired = (certificate: X509Certificate) => Date.parse(certificate.validTo) <= clock.now();

  const certificateAt = async (target: TrustedUrl): Promise<X509Certificate> => {
    const key = target.url.href;
    const cached = certificates.get(key);
    if (cached && !expired(cached)) return cached;
    certificates.delete(key);
    let pending = fetching.get(key);
    if (!pending) {
      pending = fetchCertificate(target).finally(() => fetching.delete(key));
      fetching.set(key, pending);
    }
    let certificate: X509Certificate;
    try {
      certificate = await pending;
    } catch (error) {
      throw new AppError("service_unavailable", "The SNS signing certificate could not be fetched; try again later.", {
        cause: error,
      });
    }
    // SNS signs with a current certificate; an expired one means an old message replayed, which no retry mends.
    if (expired(certificate)) throw new AppError("unauthorized", "The SNS signing certificate has expired.");
    certificates.set(key, certificate);
    if (certificates.size > CERTIFICATE_CACHE_SIZE) certificates.delete(certificates.keys().next().value!);
    return certificate;
  };

  return {
    async verify(body) {
      const message = parseEnvelope(body);
      const snsHost = snsHostFor(message);
      const target = trusted(message.SigningCertURL, snsHost);
      if (!target?.url.pathname.endsWith(".pem")) {
        throw validationError([
          { path: "SigningCertURL", message: `must be an https URL of a .pem file on ${snsHost}` },
        ]);
      }
      const certificate = await certificateAt(target);
      let verified = false;
      try {
        verified =
          certificate.publicKey.asymmetricKeyType === "rsa" &&
          verifySignature(
            SIGNATURE_ALGORITHMS[message.SignatureVersion],
            Buffer.from(stringToSign(message), "utf8"),
            certificate.publicKey,
            Buffer.from(message.Signature, "base64"),
          );
      } catch {
        // A signature of the wrong length for the key throws rather than returning false: the same refusal.
      }
      if (!verified) throw new AppError("unauthorized", "The SNS message signature does not verify.");
      // After the signature, so that what is logged is SNS's own message, sent again, not anyone's forgery.
      const publishedAt = SNS_TIMESTAMP.test(message.Timestamp) ? Date.parse(message.Timestamp) : NaN;
      const age = clock.now() - publishedAt;
      if (!(age <= MAX_MESSAGE_AGE_MS && age >= -MAX_CLOCK_AHEAD_MS)) {
        options.logger.warn(
          "SNS message refused as a replay: its Timestamp is more than an hour old or ahead of this server's clock",
          {
            topic: message.TopicArn,
            sns_message_id: message.MessageId,
            timestamp: message.Timestamp,
          },
        );
        throw new AppError(
          "unauthorized",
          "The SNS message was published more than an hour ago (or its Timestamp is ahead of this server's clock): refused as a replay.",
        );
      }
      return message;
    },

    async confirmSubscription(message) {
      // An UnsubscribeConfirmation carries a SubscribeURL too, but visiting it would undo the unsubscription.
      if (message.Type !== "SubscriptionConfirmation" || message.SubscribeURL === undefined) {
        throw validationError([{ path: "Type", message: "only a SubscriptionConfirmation is confirmed" }]);
      }
      const snsHost = snsHostFor(message);
      const target = trusted(message.SubscribeURL, snsHost);
      if (!target) throw validationError([{ path: "SubscribeURL", message: `must be an https URL on ${snsHost}` }]);
      const failed = (cause: unknown) =>
        new AppError("service_unavailable", "The SNS subscription could not be confirmed; try again later.", { cause });
      let response: Response;
      try {
        response = await get(target);
        // Only the status matters; the body (SNS's XML receipt) is not read at all.
        await response.body?.cancel();
      } catch (error) {
        throw failed(error);
      }
      if (response.status < 200 || response.status > 299) {
        throw failed(new Error(`SubscribeURL answered ${response.status}`));
      }
    },
  };
}

export type SesEventKind = "send" | "delivery" | "bounce" | "complaint" | "delivery_delay" | "reject" | "other";

export interface SesRecipient {
  /** Lower-cased. */
  email: string;
  /** The enhanced status code of a bounce or a delay (`5.1.1`); null for other events. */
  status: string | null;
  /** The remote server's words: a bounce's or delay's `diagnosticCode`, a delivery's `smtpResponse`. */
  diagnostic: string | null;
}

export interface SesEvent {
  kind: SesEventKind;
  /** `mail.messageId`: the id SES's SendEmail answer returned for the message. */
  sesMessageId: string;
  /** The recipients the event is about; empty for `other` (opens, clicks and the like name none). */
  recipients: SesRecipient[];
  bounceType?: "Permanent" | "Transient" | "Undetermined";
  /** `General`, `NoEmail`, `Suppressed`, `OnAccountSuppressionList`, `MailboxFull`, `MessageTooLarge`, … */
  bounceSubType?: string;
  complaintFeedbackType?: string;
  delayType?: string;
  rejectReason?: string;
  /** When the event happened (its own object's timestamp), else when SES accepted the message. */
  timestamp?: string;
}

const SES_KINDS: Record<string, SesEventKind> = {
  Send: "send",
  Delivery: "delivery",
  Bounce: "bounce",
  Complaint: "complaint",
  DeliveryDelay: "delivery_delay",
  Reject: "reject",
};

const BOUNCE_TYPES = new Set(["Permanent", "Transient", "Undetermined"]);

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);
const records = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];

/** Recipient objects (`emailAddress`, and a status and diagnostic where the event has them). */
const recipientsOf = (value: unknown): SesRecipient[] =>
  records(value)
    .filter((recipient) => typeof recipient.emailAddress === "string")
    .map((recipient) => ({
      email: (recipient.emailAddress as string).trim().toLowerCase(),
      status: text(recipient.status),
      diagnostic: text(recipient.diagnosticCode),
    }));

const addressesOf = (value: unknown, diagnostic: string | null = null): SesRecipient[] =>
  strings(value).map((email) => ({ email: email.trim().toLowerCase(), status: null, diagnostic }));

/**
 * An SES event record — the Message of an SNS notification — in either of SES's formats: configuration-set event
 * publishing (`eventType`) or identity feedback notifications (`notificationType`). Null when it is not one (bad
 * JSON, no `mail.messageId`, SNS's "subscription succeeded" notice).
 */
export function parseSesEvent(message: string): SesEvent | null {
  let record: unknown;
  try {
    record = JSON.parse(message);
  } catch {
    return null;
  }
  if (!isRecord(record) || !isRecord(record.mail)) return null;
  const mail = record.mail;
  const sesMessageId = text(mail.messageId);
  if (!sesMessageId) return null;
  const type = text(record.eventType) ?? text(record.notificationType) ?? "";
  const kind = Object.hasOwn(SES_KINDS, type) ? SES_KINDS[type]! : "other";
  const mailTimestamp = text(mail.timestamp) ?? undefined;
  const event: SesEvent = { kind, sesMessageId, recipients: [], timestamp: mailTimestamp };
  const details = (field: string): Record<string, unknown> => {
    const value = record[field];
    if (!isRecord(value)) return {};
    event.timestamp = text(value.timestamp) ?? mailTimestamp;
    return value;
  };
  switch (kind) {
    case "delivery": {
      const delivery = details("delivery");
      event.recipients = addressesOf(delivery.recipients, text(delivery.smtpResponse));
      break;
    }
    case "bounce": {
      const bounce = details("bounce");
      event.recipients = recipientsOf(bounce.bouncedRecipients);
      const bounceType = text(bounce.bounceType);
      event.bounceType = BOUNCE_TYPES.has(bounceType ?? "") ? (bounceType as SesEvent["bounceType"]) : "Undetermined";
      event.bounceSubType = text(bounce.bounceSubType) ?? "Undetermined";
      break;
    }
    case "complaint": {
      const complaint = details("complaint");
      event.recipients = recipientsOf(complaint.complainedRecipients);
      // SES leaves the feedback type out when the mailbox provider's report had none; abuse is what such reports mean.
      event.complaintFeedbackType = text(complaint.complaintFeedbackType) ?? "abuse";
      break;
    }
    case "delivery_delay": {
      const delay = details("deliveryDelay");
      event.recipients = recipientsOf(delay.delayedRecipients);
      event.delayType = text(delay.delayType) ?? undefined;
      break;
    }
    case "reject":
      event.recipients = addressesOf(mail.destination);
      event.rejectReason = text(details("reject").reason) ?? undefined;
      break;
    case "send":
      event.recipients = addressesOf(mail.destination);
      break;
    case "other":
      break;
  }
  return event;
}
