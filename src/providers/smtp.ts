/**
 * The smarthost provider: relays each delivery to one configured SMTP server over pooled sessions (./smtp-pool.ts:
 * implicit TLS or required STARTTLS, AUTH, timeouts). One transaction per recipient, so every recipient gets
 * its own reply and, later, its own return path. Replies are classified by ./classify.ts.
 */
import type SMTPConnection from "nodemailer/lib/smtp-connection";
import { classifyReply } from "./classify.ts";
import { createSmtpPool, greeted, type PooledSession } from "./smtp-pool.ts";
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
  // nodemailer's SMTP client is loaded by the first delivery through the smarthost, not by every start.
  let client: Promise<typeof SMTPConnection> | undefined;
  const connect = async (): Promise<PooledSession> => {
    const Client = await (client ??= import("nodemailer/lib/smtp-connection").then((module) => module.default));
    const smtp = new Client({
      host: options.host,
      port: options.port,
      secure: options.security === "tls",
      requireTLS: options.security === "starttls",
      ignoreTLS: options.security === "none",
      name: options.ehloName,
      connectionTimeout: options.connectTimeoutMs,
      greetingTimeout: options.connectTimeoutMs,
      socketTimeout: options.socketTimeoutMs,
      tls: { rejectUnauthorized: options.tlsRejectUnauthorized, minVersion: "TLSv1.2" },
      logger: false,
    });
    try {
      await greeted(smtp);
      if (options.username)
        await new Promise<void>((resolve, reject) =>
          smtp.login({ user: options.username, pass: options.password }, (error) =>
            error ? reject(error) : resolve(),
          ),
        );
    } catch (error) {
      smtp.close();
      throw error;
    }
    return { smtp, host: options.host, messages: 0, broken: false };
  };
  const pool = createSmtpPool({ maxConnections: options.poolSize, connect });

  return {
    name: "smtp",
    async deliver(job) {
      try {
        const sent = await pool.send(options.host, { from: job.envelopeFrom, to: job.recipient }, job.raw);
        if (!("host" in sent)) return sent;
        return { outcome: "sent", response: sent.response ?? "250 OK", providerMessageId: job.messageId };
      } catch (error) {
        return resultFromError(error as SmtpError);
      }
    },
    async close() {
      pool.close();
    },
  };
}
