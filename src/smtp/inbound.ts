/**
 * The inbound MX (docs/inbound.md): the server other mail servers deliver to, for receiving domains and return paths.
 * An adapter only: every accepted message goes to the `inbound.receive` funnel, every refusal comes from the
 * error table (replies.ts). STARTTLS is offered with the relay's certificate; there is no AUTH on this port.
 *
 * Invariants:
 * - Never an open relay: RCPT is accepted only for a return path whose token verifies or a domain receiving here
 *   (`inbound.acceptRecipient`); anything else is 550 at RCPT, before any data is taken.
 * - A 250 after DATA means the message was applied or stored durably; a failure that is not the message's fault
 *   is a 4xx (the sender keeps it and retries), never a bounce.
 * - Per client network: at most `max_clients_per_ip` connections, and `messages_per_ip_per_minute` messages and
 *   `bytes_per_ip_per_minute` bytes of message data in any minute; a client over either is told to try later (451).
 * - A header block over `max_header_bytes` or `max_header_lines` is refused (552 5.3.4) unread: what parses and
 *   authenticates headers costs the square of a folded header's lines, and one such message once held the CPU pool.
 * - A session lasts at most `max_session_time`, however steadily it trickles bytes (each resets the idle timeout):
 *   then 421, after the reply to a message being stored.
 */
import { hostname as machineName } from "node:os";
import type { SMTPServer, SMTPServerOptions, SMTPServerSession } from "smtp-server";
import type { Config } from "../config/options.ts";
import { AppError } from "../errors.ts";
import type { InboundService } from "../inbound/service.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import { clientNetwork } from "../limits/auth-failures.ts";
import { createByteBudget } from "../limits/byte-budget.ts";
import { createSubjectWindows } from "../limits/rate-limiter.ts";
import {
  COMMON_SERVER_OPTIONS,
  createClientCounter,
  listen,
  PromptGreetingServer,
  readMessage,
  stopGracefully,
} from "./listener.ts";
import { PROTOCOL_REPLIES, replyFor, type ReplyError } from "./replies.ts";
import { loadCertificates, type CertificateSource } from "./tls.ts";

export interface InboundMx {
  /** Listens when `[inbound] enabled`; the bound address, or null when disabled. */
  start(): Promise<{ host: string; port: number } | null>;
  stop(): Promise<void>;
  /** Open connections (a gauge). */
  connections(): number;
}

export function createInboundMx(deps: {
  config: Config;
  clock: Clock;
  inbound: InboundService;
  logger: Logger;
  metrics: Metrics;
}): InboundMx {
  const { config, inbound, logger, metrics } = deps;
  const settings = config.inbound;
  const hostname = config.smtp.hostname || config.server.hostname || machineName();
  const clients = createClientCounter(settings.max_clients_per_ip);
  const messagesPerClient = createSubjectWindows(deps.clock, settings.messages_per_ip_per_minute);
  const bytesPerClient = createByteBudget(deps.clock, settings.bytes_per_ip_per_minute);
  /** RFC 3463 X.7.1 with 451, as for every rate limit here: a policy on this client for now, not a full mailbox or disk. */
  const tooMuchData = (retryAfterSeconds: number) => {
    metrics.inc("mailroom_inbound_limits_total", { limit: "client_bytes" });
    return new AppError(
      "rate_limit_exceeded",
      `Too much data from your network in the last minute; try again in ${retryAfterSeconds} seconds`,
      { retryAfter: retryAfterSeconds },
    );
  };
  const storing = new Set<Promise<unknown>>();
  /** Sessions whose message is being stored: their time limit waits for the reply. */
  const answering = new Set<string>();
  const sessionEnds = new Map<string, ReturnType<typeof setTimeout>>();
  /** Says 421 to a session past `max_session_time` (smtp-server closes the connection after any 421). */
  const endSession = (session: SMTPServerSession) => {
    if (answering.has(session.id)) {
      sessionEnds.set(
        session.id,
        setTimeout(() => endSession(session), 100),
      );
      return;
    }
    sessionEnds.delete(session.id);
    const connection = [...(server?.connections ?? [])].find((candidate) => candidate.id === session.id);
    if (!connection) return;
    metrics.inc("mailroom_inbound_limits_total", { limit: "session_time" });
    log(session).info("mx session ended at its time limit", { max_session_time: settings.max_session_time });
    const goodbye = PROTOCOL_REPLIES.sessionTooLong(Math.round(settings.max_session_time / 1000));
    connection.send(goodbye.responseCode, goodbye.message);
  };
  let server: SMTPServer | undefined;
  let certificates: CertificateSource | undefined;

  const log = (session: SMTPServerSession) => logger.child({ mx_session: session.id, client: session.remoteAddress });

  /** Runs a protocol step; any failure becomes its reply (unknown ones 451, logged with a reference). */
  const guarded = async (
    session: SMTPServerSession,
    stage: "command" | "data",
    step: () => Promise<string | undefined>,
  ) => {
    try {
      return { ok: true as const, value: await step() };
    } catch (error) {
      const reply =
        error instanceof Error && "responseCode" in error
          ? (error as ReplyError)
          : replyFor(error, stage, log(session));
      if (stage === "data")
        metrics.inc("mailroom_inbound_smtp_total", { outcome: reply.responseCode < 500 ? "deferred" : "rejected" });
      log(session).info("mx reply", { stage, reply: `${reply.responseCode} ${reply.message}` });
      return { ok: false as const, error: reply };
    }
  };

  const options: SMTPServerOptions = {
    ...COMMON_SERVER_OPTIONS,
    name: hostname,
    banner: "Mailroom MX ready",
    // 8BITMIME is announced (smtp-server's default): messages are stored as bytes, whatever their encoding.
    size: settings.max_message_bytes,
    authOptional: true,
    disabledCommands: ["AUTH"],
    maxClients: settings.max_clients,
    socketTimeout: settings.idle_timeout,
    disableReverseLookup: true,
    onConnect(session, callback) {
      if (!clients.admit("mx", session)) return callback(PROTOCOL_REPLIES.tooManyConnections());
      sessionEnds.set(
        session.id,
        setTimeout(() => endSession(session), settings.max_session_time),
      );
      callback();
    },
    onClose(session) {
      clearTimeout(sessionEnds.get(session.id));
      sessionEnds.delete(session.id);
      clients.release("mx", session);
    },
    onMailFrom(address, session, callback) {
      void guarded(session, "command", async () => {
        const network = clientNetwork(session.remoteAddress);
        // RFC 1870: the size the client declares (smtp-server has checked its form and the size limit).
        const args = address.args || {};
        const declared = Number(args.SIZE ?? 0) || 0;
        const wait = bytesPerClient.refusal(network, declared);
        if (wait !== null) throw tooMuchData(wait);
        const admitted = messagesPerClient.take(network);
        if (!admitted.allowed) {
          metrics.inc("mailroom_inbound_limits_total", { limit: "client_messages" });
          throw new AppError(
            "rate_limit_exceeded",
            `Too many messages from your network; try again in ${admitted.retryAfterSeconds} seconds`,
          );
        }
        return undefined;
      }).then((result) => (result.ok ? callback() : callback(result.error)));
    },
    onRcptTo(address, session, callback) {
      void guarded(session, "command", async () => {
        const wanted = address.address.toLowerCase();
        const known = session.envelope.rcptTo.some((rcpt) => rcpt.address.toLowerCase() === wanted);
        if (!known && session.envelope.rcptTo.length >= settings.max_recipients)
          throw PROTOCOL_REPLIES.tooManyRecipients(settings.max_recipients);
        await inbound.acceptRecipient(address.address);
        return undefined;
      }).then((result) => {
        if (result.ok) return callback();
        // Forged return paths and relay attempts end here: counted, and logged by guarded().
        metrics.inc("mailroom_inbound_smtp_total", { outcome: "recipient_refused" });
        callback(result.error);
      });
    },
    onData(stream, session, callback) {
      void guarded(session, "data", async () => {
        const network = clientNetwork(session.remoteAddress);
        let streamed = 0;
        // Counted as it arrives, so messages streaming in parallel share one budget.
        stream.on("data", (chunk: Buffer) => {
          streamed += chunk.length;
          bytesPerClient.spend(network, chunk.length);
        });
        // Shared: the CPU pool parses and authenticates it (inbound.receive) without copying it to a thread.
        const raw = await readMessage(stream, settings.max_message_bytes, {
          shared: true,
          header: { maxBytes: settings.max_header_bytes, maxLines: settings.max_header_lines },
        });
        if (raw === "aborted") throw PROTOCOL_REPLIES.connectionLost();
        if (raw === "oversized")
          throw new AppError(
            "payload_too_large",
            `The message exceeds the size limit of ${settings.max_message_bytes} bytes.`,
          );
        if (raw === "header_too_large") {
          metrics.inc("mailroom_inbound_limits_total", { limit: "header" });
          // RFC 3463 X.3.4 (message too big for system) with 552, as large mailbox providers answer a header too large.
          throw new AppError(
            "payload_too_large",
            `The message header exceeds the limit of ${settings.max_header_bytes} bytes or ${settings.max_header_lines} lines.`,
          );
        }
        const wait = bytesPerClient.refusal(network, 0, streamed);
        if (wait !== null) throw tooMuchData(wait);
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          client: { address: session.remoteAddress, helo: session.hostNameAppearsAs ?? "" },
        };
        // Shutdown waits for messages being stored (so their 250 is sent), not for uploads still in progress.
        const received = inbound.receive(raw, envelope);
        storing.add(received);
        answering.add(session.id);
        const outcomes = await received.finally(() => storing.delete(received));
        metrics.inc("mailroom_inbound_smtp_total", { outcome: "accepted" });
        log(session).info("mx message accepted", {
          size: raw.length,
          recipients: envelope.to.length,
          outcomes: outcomes.map((o) => o.handled),
        });
        return "2.0.0 Ok: received";
      }).then((result) => {
        if (result.ok) callback(null, result.value);
        else callback(result.error);
        answering.delete(session.id);
      });
    },
  };

  return {
    connections: () => server?.connections.size ?? 0,
    async start() {
      if (!settings.enabled) return null;
      const smtp = config.smtp;
      certificates = await loadCertificates({
        certFile: smtp.tls_cert,
        keyFile: smtp.tls_key,
        dataDir: config.data_dir,
        hostname,
        reloadIntervalMs: smtp.tls_reload_interval,
        logger,
      });
      const pair = certificates.current();
      const mx = new PromptGreetingServer({ ...options, key: pair.key, cert: pair.cert });
      // Client-side failures (handshakes of scanners, resets) are routine; the session's own replies are logged.
      mx.on("error", (error: Error) => logger.debug("inbound mx connection error", { reason: error.message }));
      certificates.onChange((next) => mx.updateSecureContext({ key: next.key, cert: next.cert }));
      server = mx;
      const port = await listen(mx, "inbound.port", settings.host, settings.port);
      return { host: settings.host, port };
    },
    async stop() {
      certificates?.close();
      if (server) await stopGracefully([server], storing, logger);
      server = undefined;
    },
  };
}
