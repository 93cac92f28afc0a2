/**
 * A stand-in for Amazon SNS's side of an HTTP subscription: an https server on loopback that serves an RSA signing
 * certificate (and a redirect and an oversize body to refuse) and records SubscribeURL visits, a signer for SNS
 * envelopes, and sample SES event records in the configuration-set event publishing format.
 *
 * Invariant: the string to sign is built here on its own, from AWS's documentation, never imported from
 * src/providers/sns.ts — a mistake there must make a test fail, not be signed along.
 */
import { createSign, randomBytes, randomUUID } from "node:crypto";
import { generate } from "selfsigned";

export type SnsFields = Record<string, string>;
export type SignedSnsFields<T extends SnsFields> = T & {
  SignatureVersion: "1" | "2";
  Signature: string;
  SigningCertURL: string;
};

export interface SnsCertificateServer {
  /** `127.0.0.1:<port>`: the verifier's `testCertificateHost`. */
  host: string;
  /** The PEM certificate of the https server, to trust as the verifier's `ca`. */
  ca: string;
  certificateUrl: string;
  /** Answers 302 to `certificateUrl`. */
  redirectCertificateUrl: string;
  /** Streams 64 KiB, chunked, with no Content-Length. */
  oversizeCertificateUrl: string;
  subscribeUrl(token: string): string;
  /** Path and query of every request, in order; tests may empty it. */
  requests: string[];
  /** Tokens of the SubscribeURL visits. */
  confirmations: string[];
  /** PEM private key of the signing certificate. */
  signingKey: string;
  /** The fields with SignatureVersion, SigningCertURL (`certificateUrl` unless given) and their Signature added. */
  sign<T extends SnsFields>(fields: T, version: "1" | "2", options?: { certificateUrl?: string }): SignedSnsFields<T>;
  /** An unsigned SubscriptionConfirmation for the topic whose SubscribeURL is this server's. */
  subscriptionConfirmation(topicArn: string, token?: string): SnsFields;
  close(): Promise<void>;
}

/** The string SNS signs: for each key of the message's Type, in this order, that the message has, `key\nvalue\n`. */
function canonicalString(fields: SnsFields): string {
  const keys =
    fields.Type === "Notification"
      ? ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"]
      : fields.Type === "SubscriptionConfirmation" || fields.Type === "UnsubscribeConfirmation"
        ? ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"]
        : null;
  if (!keys) throw new Error(`no signing rule for Type ${fields.Type}`);
  const present = keys.filter((key) => fields[key] !== undefined);
  return `${present.flatMap((key) => [key, fields[key]]).join("\n")}\n`;
}

const PEM_HEADERS = { "content-type": "application/x-pem-file" };

export async function startSnsCertificateServer(): Promise<SnsCertificateServer> {
  const now = Date.now();
  const tls = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + 86_400_000),
    extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
  });
  // SNS signs with RSA; a day's validity lets a test move a clock past it.
  const signing = await generate([{ name: "commonName", value: "sns.amazonaws.com" }], {
    keyType: "rsa",
    keySize: 2048,
    algorithm: "sha256",
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + 86_400_000),
  });
  const certificatePath = `/SimpleNotificationService-${randomBytes(16).toString("hex")}.pem`;
  const requests: string[] = [];
  const confirmations: string[] = [];

  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert: tls.cert, key: tls.private },
    fetch(request): Response {
      const url = new URL(request.url);
      requests.push(url.pathname + url.search);
      if (url.pathname === certificatePath) return new Response(signing.cert, { headers: PEM_HEADERS });
      if (url.pathname === `/redirect${certificatePath}`) return Response.redirect(`${base}${certificatePath}`, 302);
      if (url.pathname === `/oversize${certificatePath}`) {
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent++ === 64) return controller.close();
            controller.enqueue(new Uint8Array(1024).fill(0x41));
          },
        });
        return new Response(body, { headers: PEM_HEADERS });
      }
      if (url.pathname === "/confirm" && url.searchParams.get("Action") === "ConfirmSubscription") {
        confirmations.push(url.searchParams.get("Token") ?? "");
        return new Response("<ConfirmSubscriptionResponse><ConfirmSubscriptionResult/></ConfirmSubscriptionResponse>", {
          headers: { "content-type": "text/xml" },
        });
      }
      return new Response("not found", { status: 404 });
    },
  });
  const host = `127.0.0.1:${server.port}`;
  const base = `https://${host}`;
  const subscribeUrl = (token: string) =>
    `${base}/confirm?Action=ConfirmSubscription&Token=${encodeURIComponent(token)}`;

  return {
    host,
    ca: tls.cert,
    certificateUrl: `${base}${certificatePath}`,
    redirectCertificateUrl: `${base}/redirect${certificatePath}`,
    oversizeCertificateUrl: `${base}/oversize${certificatePath}`,
    subscribeUrl,
    requests,
    confirmations,
    signingKey: signing.private,
    sign(fields, version, options = {}) {
      const signer = createSign(version === "1" ? "RSA-SHA1" : "RSA-SHA256");
      signer.update(canonicalString(fields));
      const Signature = signer.sign(signing.private, "base64");
      const SigningCertURL = options.certificateUrl ?? `${base}${certificatePath}`;
      return { ...fields, SignatureVersion: version, Signature, SigningCertURL };
    },
    subscriptionConfirmation(topicArn, token = randomBytes(32).toString("hex")) {
      return {
        Type: "SubscriptionConfirmation",
        MessageId: randomUUID(),
        Token: token,
        TopicArn: topicArn,
        Message:
          `You have chosen to subscribe to the topic ${topicArn}.\n` +
          "To confirm the subscription, visit the SubscribeURL included in this message.",
        SubscribeURL: subscribeUrl(token),
        Timestamp: new Date().toISOString(),
      };
    },
    close: () => server.stop(true),
  };
}

/** An unsigned SNS Notification carrying an SES event record. */
export function sesNotification(event: object, topicArn: string): SnsFields {
  return {
    Type: "Notification",
    MessageId: randomUUID(),
    TopicArn: topicArn,
    Message: JSON.stringify(event),
    Timestamp: new Date().toISOString(),
  };
}

const SENDER = "notifications@example.com";

/** The `mail` object every SES event record carries, as event publishing through a configuration set writes it. */
function sesMail(messageId: string, destination: string[]) {
  const sentAt = new Date(Date.now() - 5_000).toISOString();
  return {
    timestamp: sentAt,
    source: SENDER,
    sourceArn: "arn:aws:ses:us-east-1:123456789012:identity/example.com",
    sendingAccountId: "123456789012",
    messageId,
    destination,
    headersTruncated: false,
    headers: [
      { name: "From", value: `Example <${SENDER}>` },
      { name: "To", value: destination.join(", ") },
      { name: "Subject", value: "Your receipt" },
      { name: "MIME-Version", value: "1.0" },
      { name: "Content-Type", value: 'multipart/alternative; boundary="----=_Part_0"' },
    ],
    commonHeaders: { from: [`Example <${SENDER}>`], to: destination, messageId, subject: "Your receipt" },
    tags: {
      "ses:configuration-set": ["mailroom"],
      "ses:source-ip": ["192.0.2.10"],
      "ses:from-domain": ["example.com"],
      "ses:caller-identity": ["mailroom"],
    },
  };
}

const now = () => new Date().toISOString();
const feedbackId = () => `0100018f${randomBytes(4).toString("hex")}-${randomUUID()}-000000`;

export function sesSendEvent(messageId: string, recipients: string[]) {
  return { eventType: "Send", mail: sesMail(messageId, recipients), send: {} };
}

export function sesDeliveryEvent(messageId: string, recipients: string[]) {
  return {
    eventType: "Delivery",
    mail: sesMail(messageId, recipients),
    delivery: {
      timestamp: now(),
      processingTimeMillis: 1_234,
      recipients,
      smtpResponse: "250 2.6.0 Message received",
      reportingMTA: "a8-30.smtp-out.amazonses.com",
      remoteMtaIp: "198.51.100.25",
    },
  };
}

/** Status and diagnostic SES reports for a bounce of each sub-type, as real receiving servers word them. */
const BOUNCE_DETAILS: Record<string, { status: string; diagnosticCode: string }> = {
  General: { status: "5.1.1", diagnosticCode: "smtp; 550 5.1.1 user unknown" },
  NoEmail: {
    status: "5.1.1",
    diagnosticCode: "smtp; 550 5.1.1 The email account that you tried to reach does not exist",
  },
  Suppressed: {
    status: "5.1.1",
    diagnosticCode:
      "Amazon SES has suppressed sending to this address because it has a recent history of bouncing as an invalid address.",
  },
  OnAccountSuppressionList: {
    status: "5.1.1",
    diagnosticCode:
      "Amazon SES did not send the message to this address because it is on the suppression list for your account.",
  },
  MailboxFull: { status: "5.2.2", diagnosticCode: "smtp; 552 5.2.2 Mailbox full" },
  MessageTooLarge: { status: "5.3.4", diagnosticCode: "smtp; 552 5.3.4 Message size exceeds fixed limit" },
  ContentRejected: { status: "5.7.1", diagnosticCode: "smtp; 554 5.7.1 Message rejected because of its content" },
  AttachmentRejected: { status: "5.7.1", diagnosticCode: "smtp; 554 5.7.1 Attachment type not allowed" },
};

export function sesBounceEvent(
  messageId: string,
  recipient: string,
  bounceType: "Permanent" | "Transient",
  subType = "General",
) {
  const details = BOUNCE_DETAILS[subType] ?? { status: "4.0.0", diagnosticCode: "smtp; 451 4.0.0 Temporary failure" };
  return {
    eventType: "Bounce",
    bounce: {
      bounceType,
      bounceSubType: subType,
      bouncedRecipients: [{ emailAddress: recipient, action: "failed", ...details }],
      timestamp: now(),
      feedbackId: feedbackId(),
      reportingMTA: "dsn; a8-30.smtp-out.amazonses.com",
    },
    mail: sesMail(messageId, [recipient]),
  };
}

export function sesComplaintEvent(messageId: string, recipient: string, complaintFeedbackType = "abuse") {
  return {
    eventType: "Complaint",
    complaint: {
      feedbackId: feedbackId(),
      complaintSubType: null,
      complainedRecipients: [{ emailAddress: recipient }],
      timestamp: now(),
      userAgent: "Yahoo!-Mail-Feedback/2.0",
      complaintFeedbackType,
      arrivalDate: new Date(Date.now() - 60_000).toISOString(),
    },
    mail: sesMail(messageId, [recipient]),
  };
}

export function sesDelayEvent(messageId: string, recipient: string, delayType = "TransientCommunicationFailure") {
  return {
    eventType: "DeliveryDelay",
    mail: sesMail(messageId, [recipient]),
    deliveryDelay: {
      timestamp: now(),
      delayType,
      expirationTime: new Date(Date.now() + 3_600_000).toISOString(),
      delayedRecipients: [
        {
          emailAddress: recipient,
          status: "4.4.1",
          diagnosticCode: "smtp; 421 4.4.1 Unable to connect to remote host",
        },
      ],
    },
  };
}

export function sesRejectEvent(messageId: string, recipients: string[]) {
  return { eventType: "Reject", mail: sesMail(messageId, recipients), reject: { reason: "Bad content" } };
}
