/**
 * The SMTP relay (docs/smtp.md): message submission on the STARTTLS port (RFC 6409, 587) and the implicit-TLS port
 * (RFC 8314, 465). An adapter only: it turns protocol state into the same `emails.submit` call the HTTP API makes
 * (a raw-MIME input, or the fields of a message naming a template), and `AppError`s back into replies
 * (replies.ts). It holds no sending rules.
 *
 * Invariants:
 * - AUTH is offered and accepted only inside TLS (RFC 4954 §4); the username is the literal `apikey`, the password
 *   an API key. The key is checked again at every MAIL FROM, so a revoked key stops a long-lived connection too.
 * - Every message counts once against the key's and organisation's windows, in the limiter the API uses, when the
 *   transaction starts (MAIL FROM) — refused before the client uploads the message.
 * - A 250 after DATA means the message is durably stored; anything else stored nothing.
 * - Reverse DNS happens only through the configured resolver, or not at all.
 */
import { hostname as machineName } from "node:os";
import { SMTPServer, type SMTPServerAddress, type SMTPServerOptions, type SMTPServerSession } from "smtp-server";
import type { Config } from "../config/options.ts";
import type { Idempotency, IdempotencyClaim } from "../idempotency/service.ts";
import { idempotencyRequest, readHeader } from "../emails/raw-message.ts";
import type { SubmitInput } from "../emails/model.ts";
import type { DsnMode, RelayDsnParams } from "../emails/relay-dsn.ts";
import { decodeXtext } from "../lib/xtext.ts";
import type { EmailService } from "../emails/service.ts";
import { namesTemplate, TEMPLATE_FIELDS } from "../emails/templated-message.ts";
import { AppError, validationError } from "../errors.ts";
import type { Actor } from "../access.ts";
import type { KeyService } from "../keys/service.ts";
import { requireScope } from "../access.ts";
import { normalizeAddress } from "../lib/addresses.ts";
import type { Clock } from "../lib/clock.ts";
import type { DnsResolver } from "../lib/dns.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import { createAuthFailures } from "../limits/auth-failures.ts";
import { chargeRequest, type RateLimiter } from "../limits/rate-limiter.ts";
import {
  COMMON_SERVER_OPTIONS,
  createClientCounter,
  listen,
  PromptGreetingServer,
  readMessage,
  stopGracefully,
} from "./listener.ts";
import { sendFields } from "../emails/send-fields.ts";
import type { TemplateService } from "../templates/service.ts";
import { loadCertificates, type CertificateSource } from "./tls.ts";
import { PROTOCOL_REPLIES, queuedText, replyFor, type ReplyError } from "./replies.ts";

/** The username every client uses (the convention of SendGrid and others): the password carries the identity. */
/** Reading a relayed message off the event loop (the CPU pool): the call the relay makes of it. */
export interface TemplatedBodyReader {
  /**
   * The send body a relayed message naming a template stands for; throws the `AppError` a bad message earns.
   * `tenant`: the sending organisation.
   */
  templatedSendBody(raw: Buffer, envelopeTo: string[], tenant: string): Promise<Record<string, unknown>>;
}

export const SMTP_USERNAME = "apikey";
/** RFC 3461 §4.4 and §4.2: ENVID is at most 100 characters, ORCPT at most 500. */
const MAX_ENVID = 100;
const MAX_ORCPT = 500;

/**
 * A DSN parameter decoded from xtext (ORCPT keeps its `addr-type;` prefix, RFC 3461 §4.2), or undefined when not
 * given; refused (501 5.5.4) when it is not valid xtext or decodes to anything but printable ASCII.
 */
function dsnParameter(args: unknown, name: "ENVID" | "ORCPT", max: number): string | undefined {
  const given = args && typeof args === "object" ? (args as Record<string, unknown>)[name] : undefined;
  if (typeof given !== "string") return undefined;
  const semicolon = name === "ORCPT" ? given.indexOf(";") : -1;
  const decoded = decodeXtext(given.slice(semicolon + 1), max);
  if (decoded === null || (name === "ORCPT" && !decoded.includes("@")))
    throw validationError([
      { path: name, message: `${name} must be xtext (RFC 3461 §4) of at most ${max} characters` },
    ]);
  return semicolon < 0 ? decoded : `${given.slice(0, semicolon)};${decoded}`;
}
/** Idempotency keys sent in a message header share the API send endpoint's namespace: one key, one message. */
const IDEMPOTENCY_ENDPOINT = "emails.send";

export interface SmtpListener {
  name: "submission" | "smtps";
  host: string;
  port: number;
}

export interface SmtpRelay {
  /** Loads the certificate and listens on the enabled ports. */
  start(): Promise<SmtpListener[]>;
  /** Stops accepting, lets messages being stored finish and answer, then closes every connection. */
  stop(): Promise<void>;
  /** Loads changed certificate files now (the interval does this too); true when a new certificate is in use. */
  refreshCertificates(): boolean;
  /** Open connections per listener (a gauge). */
  connections(): Array<{ listener: string; open: number }>;
}

export interface SmtpRelayDeps {
  config: Config;
  clock: Clock;
  keys: KeyService;
  emails: EmailService;
  templates: TemplateService;
  /** Reads a relayed message naming a template, off the event loop (a message may be tens of megabytes). */
  cpu: TemplatedBodyReader;
  idempotency: Idempotency;
  limiter: RateLimiter;
  logger: Logger;
  metrics: Metrics;
  /** The process's one resolver (`[dns] servers`), for optional reverse lookups of clients. */
  resolver: DnsResolver;
}

/** What the relay remembers about an authenticated connection. */
interface SessionState {
  /** The key presented at AUTH, resolved again at each MAIL FROM (revocation, scope changes). */
  presentedKey: string;
  /** The actor of the transaction in progress, set at MAIL FROM. */
  actor?: Actor;
}

export function createSmtpRelay(deps: SmtpRelayDeps): SmtpRelay {
  const { config, keys, emails, templates, idempotency, logger, metrics } = deps;
  const settings = config.smtp;
  const maxRecipients = config.limits.max_recipients;
  const hostname = settings.hostname || config.server.hostname || machineName();
  const sessions = new WeakMap<SMTPServerSession, SessionState>();
  const authFailures = createAuthFailures(deps.clock, {
    baseDelayMs: settings.auth_failure_delay,
    maxDelayMs: settings.auth_failure_delay * 16,
    forgetAfterMs: 15 * 60_000,
    maxTracked: 10_000,
  });
  const clients = createClientCounter(settings.max_clients_per_ip);
  const storing = new Set<Promise<unknown>>();
  const servers: SMTPServer[] = [];
  let certificates: CertificateSource | undefined;

  const log = (session: SMTPServerSession) => logger.child({ smtp_session: session.id, client: session.remoteAddress });

  /** Runs a protocol step; any failure becomes its reply (and a metric when a message was refused). */
  const guarded = async (
    session: SMTPServerSession,
    stage: "command" | "data",
    step: () => Promise<string | undefined> | string | undefined,
  ) => {
    try {
      return { ok: true as const, value: await step() };
    } catch (error) {
      const known = error instanceof AppError || (error instanceof Error && "responseCode" in error);
      const reply =
        error instanceof Error && "responseCode" in error
          ? (error as ReplyError)
          : replyFor(error, stage, log(session));
      if (stage === "data")
        metrics.inc("mailroom_smtp_messages_total", { outcome: reply.responseCode < 500 ? "deferred" : "rejected" });
      // An unknown error was logged once by replyFor, with its cause and the reference the reply carries.
      if (known)
        log(session).info("smtp reply", {
          stage,
          reply: `${reply.responseCode} ${reply.message}`,
          key_id: sessions.get(session)?.actor?.keyId,
        });
      return { ok: false as const, error: reply };
    }
  };

  const onConnect =
    (listener: string): SMTPServerOptions["onConnect"] =>
    (session, callback) => {
      if (!clients.admit(listener, session)) return callback(PROTOCOL_REPLIES.tooManyConnections());
      // Before TLS the session offers no AUTH at all (RFC 4954 §4: no plaintext passwords in the clear);
      // onSecure restores the listener's command set once STARTTLS completed.
      if (!session.secure) session.disabledCommands = ["AUTH"];
      callback();
    };

  const onClose =
    (listener: string): SMTPServerOptions["onClose"] =>
    (session) =>
      clients.release(listener, session);

  const onSecure: SMTPServerOptions["onSecure"] = (_socket, session, callback) => {
    session.disabledCommands = undefined;
    callback();
  };

  const onAuth: SMTPServerOptions["onAuth"] = (auth, session, callback) => {
    void guarded(session, "command", async () => {
      if (auth.username !== SMTP_USERNAME)
        throw new AppError(
          "unauthorized",
          `Authentication failed: the username is the literal "${SMTP_USERNAME}", the password an API key.`,
        );
      const actor = await keys.authenticate(auth.password ?? "");
      sessions.set(session, { presentedKey: auth.password! });
      return actor.keyId ?? undefined;
    }).then(async (result) => {
      metrics.inc("mailroom_smtp_auth_total", { outcome: result.ok ? "success" : "failure" });
      if (result.ok) {
        authFailures.succeed(session.remoteAddress);
        return callback(null, { user: result.value });
      }
      await authFailures.fail(session.remoteAddress);
      callback(result.error);
    });
  };

  const onMailFrom: SMTPServerOptions["onMailFrom"] = (address, session, callback) => {
    void guarded(session, "command", async () => {
      if (!session.secure) throw PROTOCOL_REPLIES.tlsRequired();
      dsnParameter(address.args, "ENVID", MAX_ENVID);
      const state = sessions.get(session);
      if (!state) throw PROTOCOL_REPLIES.authRequired();
      if (session.transaction > settings.max_messages_per_connection)
        throw PROTOCOL_REPLIES.reconnect(settings.max_messages_per_connection);
      const actor = await keys.authenticate(state.presentedKey);
      requireScope(actor, "emails:send");
      const decision = await chargeRequest(deps, actor);
      if (!decision.allowed) {
        throw new AppError(
          "rate_limit_exceeded",
          `Too many messages for this API key or organisation; try again in ${decision.retryAfterSeconds} seconds`,
          {
            retryAfter: decision.retryAfterSeconds,
          },
        );
      }
      state.actor = actor;
      return undefined;
    }).then((result) => (result.ok ? callback() : callback(result.error)));
  };

  const onRcptTo: SMTPServerOptions["onRcptTo"] = (address, session, callback) => {
    void guarded(session, "command", () => {
      const wanted = address.address.toLowerCase();
      // A repeated recipient replaces its earlier entry (smtp-server de-duplicates), so it never counts twice.
      const known = session.envelope.rcptTo.some((rcpt) => rcpt.address.toLowerCase() === wanted);
      if (!known && session.envelope.rcptTo.length >= maxRecipients)
        throw PROTOCOL_REPLIES.tooManyRecipients(maxRecipients);
      const normalized = normalizeAddress(address.address);
      if ("error" in normalized) throw validationError([{ path: "to", message: normalized.error }]);
      dsnParameter(address.args, "ORCPT", MAX_ORCPT);
      return undefined;
    }).then((result) => (result.ok ? callback() : callback(result.error)));
  };

  const store = async (session: SMTPServerSession, actor: Actor, raw: Buffer): Promise<string> => {
    const recipients = session.envelope.rcptTo.map((rcpt: SMTPServerAddress) => rcpt.address);
    const envelope = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: recipients };
    const key = readHeader(raw, "Idempotency-Key");
    let claim: IdempotencyClaim | undefined;
    let release = async () => {};
    if (key !== undefined && actor.keyId) {
      const outcome = await idempotency.begin(
        actor.keyId,
        IDEMPOTENCY_ENDPOINT,
        key,
        await idempotencyRequest(raw, recipients),
      );
      if (outcome.kind === "replay") return (outcome.result as { id: string }).id;
      ({ claim, release } = outcome);
    }
    try {
      // A message naming a template is composed from it, through the same rendering and checks as the API's.
      const input: SubmitInput = namesTemplate(raw)
        ? {
            kind: "fields",
            source: "smtp",
            fields: await sendFields(
              templates,
              actor,
              await deps.cpu.templatedSendBody(raw, recipients, actor.organizationId),
              { now: deps.clock.now(), maxRecipients },
              TEMPLATE_FIELDS,
            ),
          }
        : { kind: "raw", source: "smtp", raw, envelope, dsn: dsnRequest(session) };
      return (await emails.submit(input, actor, { idempotency: claim })).id;
    } catch (error) {
      await release();
      throw error;
    }
  };

  const onData: SMTPServerOptions["onData"] = (stream, session, callback) => {
    void guarded(session, "data", async () => {
      // In shared memory: the CPU pool's threads read it without a copy (emails.submit parses it there).
      const raw = await readMessage(stream, config.limits.max_message_bytes, { shared: true });
      if (raw === "aborted") throw PROTOCOL_REPLIES.connectionLost();
      if (raw === "oversized")
        throw new AppError(
          "payload_too_large",
          `The message exceeds the size limit of ${config.limits.max_message_bytes} bytes.`,
        );
      const actor = sessions.get(session)?.actor;
      if (!actor) throw new AppError("unauthorized", "Authentication required.");
      // Shutdown waits for messages being stored (so their 250 is sent), not for uploads still in progress.
      const stored = store(session, actor, raw);
      storing.add(stored);
      const id = await stored.finally(() => storing.delete(stored));
      metrics.inc("mailroom_smtp_messages_total", { outcome: "accepted" });
      log(session).info("smtp message accepted", { email_id: id, key_id: actor.keyId, size: raw.length });
      return queuedText(id);
    }).then((result) => (result.ok ? callback(null, result.value) : callback(result.error)));
  };

  /** What the client asked of delivery status notifications (RFC 3461), for emails/relay-dsn.ts to decide. */
  const dsnRequest = (session: SMTPServerSession): RelayDsnParams => {
    const asked = (session.envelope as { dsn?: { ret?: "FULL" | "HDRS"; envid?: string } }).dsn ?? {};
    const mailFrom = session.envelope.mailFrom;
    return {
      mode: settings.dsn as DsnMode,
      mailFrom: mailFrom ? mailFrom.address : "",
      ...(asked.ret && { ret: asked.ret }),
      ...(asked.envid && { envid: decodeXtext(asked.envid, MAX_ENVID)! }),
      recipients: session.envelope.rcptTo.map((rcpt) => {
        const dsn = (rcpt as { dsn?: { notify?: string[] } }).dsn;
        const orcpt = dsnParameter(rcpt.args, "ORCPT", MAX_ORCPT);
        return { address: rcpt.address, ...(dsn?.notify && { notify: dsn.notify }), ...(orcpt && { orcpt }) };
      }),
    };
  };

  const reverseResolver = () => {
    const resolver = deps.resolver;
    return {
      reverse: (ip: string, callback: (err: Error | null, hostnames?: string[]) => void) =>
        void resolver.reverse(ip).then(
          (names) => callback(null, names),
          (error: Error) => callback(error),
        ),
    };
  };

  const serverOptions = (implicitTls: boolean, pair: { key: string; cert: string }): SMTPServerOptions => ({
    ...COMMON_SERVER_OPTIONS,
    secure: implicitTls,
    name: hostname,
    banner: "Mailroom ready",
    key: pair.key,
    cert: pair.cert,
    size: config.limits.max_message_bytes,
    authMethods: ["PLAIN", "LOGIN"],
    // RFC 3461: offered unless `[smtp] dsn = "never"` (emails/relay-dsn.ts decides what each message is owed).
    hideDSN: settings.dsn === "never",
    authRequiredMessage: PROTOCOL_REPLIES.authRequiredText,
    maxClients: settings.max_clients,
    socketTimeout: settings.idle_timeout,
    maxAllowedUnauthenticatedCommands: settings.max_unauthenticated_commands,
    disableReverseLookup: !settings.reverse_lookup,
    resolver: settings.reverse_lookup ? reverseResolver() : undefined,
    onConnect: onConnect(implicitTls ? "smtps" : "submission"),
    onClose: onClose(implicitTls ? "smtps" : "submission"),
    onSecure,
    onAuth,
    onMailFrom,
    onRcptTo,
    onData,
  });

  return {
    connections: () =>
      servers.map((server) => ({
        listener: server.options.secure ? "smtps" : "submission",
        open: server.connections.size,
      })),
    async start() {
      certificates = await loadCertificates({
        certFile: settings.tls_cert,
        keyFile: settings.tls_key,
        dataDir: config.data_dir,
        hostname,
        reloadIntervalMs: settings.tls_reload_interval,
        logger,
      });
      const ServerClass = settings.greeting_pause ? SMTPServer : PromptGreetingServer;
      const wanted: Array<[SmtpListener["name"], boolean, number]> = [
        ["submission", settings.submission_enabled, settings.submission_port],
        ["smtps", settings.smtps_enabled, settings.smtps_port],
      ];
      const listeners: SmtpListener[] = [];
      for (const [name, enabled, port] of wanted) {
        if (!enabled) continue;
        const server = new ServerClass(serverOptions(name === "smtps", certificates.current()));
        // Client-side failures (handshakes of scanners, resets) are routine; the session's own replies are logged.
        server.on("error", (error: Error) =>
          logger.debug("smtp relay connection error", { listener: name, reason: error.message }),
        );
        servers.push(server);
        listeners.push({
          name,
          host: settings.host,
          port: await listen(server, `smtp.${name}_port`, settings.host, port),
        });
      }
      certificates.onChange((pair) =>
        servers.forEach((server) => server.updateSecureContext({ key: pair.key, cert: pair.cert })),
      );
      return listeners;
    },

    async stop() {
      certificates?.close();
      // New connections are refused and new commands get 421 from here on; messages being stored finish first.
      await stopGracefully(servers, storing, logger);
      servers.length = 0;
    },

    refreshCertificates: () => certificates?.refresh() ?? false,
  };
}
