/**
 * The smarthost provider: relays each delivery to one configured SMTP server over pooled nodemailer connections
 * (implicit TLS or required STARTTLS, AUTH, timeouts). One transaction per recipient, so every recipient gets
 * its own reply and, later, its own return path. Replies are classified by ./classify.ts.
 */
import type { Transporter } from "nodemailer";
import { classifyReply } from "./classify.ts";
import type { DeliveryResult, Provider } from "./types.ts";

export interface SmarthostOptions {
  host: string;
  port: number;
  security: "starttls" | "tls" | "none";
  username: string;
  password: string;
  poolSize: number;
  connectTimeoutMs: number;
  socketTimeoutMs: number;
  tlsRejectUnauthorized: boolean;
  /** Name announced in EHLO. */
  ehloName?: string;
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  rejectedErrors?: SmtpError[];
}

/** nodemailer's codes for failures of the connection itself: the smarthost, not the message or recipient. */
const CONNECTION_FAULTS = new Set([
  "ECONNECTION",
  "ETIMEDOUT",
  "ESOCKET",
  "EAUTH",
  "ENOAUTH",
  "ETLS",
  "EREQUIRETLS",
  "EDNS",
  "EPROTOCOL",
  "EHLO",
  "EPROXY",
]);

export function resultFromError(error: SmtpError): DeliveryResult {
  const specific = error.rejectedErrors?.[0] ?? error;
  const code = specific.responseCode;
  const response = (specific.response ?? `${specific.code ?? "ERROR"} ${specific.message}`).slice(0, 1000);
  // A smarthost that cannot be reached, refuses our credentials or closes (421) is at fault, whatever the code:
  // its recipients must wait (or fail over), never bounce.
  if (CONNECTION_FAULTS.has(specific.code ?? "") || code === 421)
    return {
      outcome: "temporary",
      response,
      providerFault: true,
      retryAfterMs: classifyReply(code, response).retryAfterMs,
    };
  const verdict = classifyReply(code, response);
  // "accepted" cannot come with an error; treat any oddity as temporary rather than lose or bounce the message.
  const outcome = verdict.outcome === "permanent" ? "permanent" : "temporary";
  return { outcome, response, subType: verdict.subType, retryAfterMs: verdict.retryAfterMs };
}

export function createSmtpProvider(options: SmarthostOptions): Provider {
  const settings = {
    pool: true as const,
    host: options.host,
    port: options.port,
    secure: options.security === "tls",
    requireTLS: options.security === "starttls",
    ignoreTLS: options.security === "none",
    auth: options.username ? { user: options.username, pass: options.password } : undefined,
    maxConnections: options.poolSize,
    maxMessages: Infinity,
    connectionTimeout: options.connectTimeoutMs,
    greetingTimeout: options.connectTimeoutMs,
    socketTimeout: options.socketTimeoutMs,
    name: options.ehloName,
    tls: { rejectUnauthorized: options.tlsRejectUnauthorized, minVersion: "TLSv1.2" as const },
  };
  // nodemailer's transports are loaded by the first delivery through the smarthost, not by every start.
  let transport: Promise<Transporter> | undefined;
  const connected = () =>
    (transport ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(settings)));

  return {
    name: "smtp",
    async deliver(job) {
      try {
        const info = await (await connected()).sendMail({
          envelope: { from: job.envelopeFrom, to: [job.recipient] },
          raw: job.raw,
        });
        return { outcome: "sent", response: info.response ?? "250 OK", providerMessageId: job.messageId };
      } catch (error) {
        return resultFromError(error as SmtpError);
      }
    },
    async close() {
      (await transport)?.close();
    },
  };
}
