/**
 * What the SMTP listeners (the relay and the inbound MX) share: a server that greets at once, a message read
 * within its size limit, binding with a clear error, counting connections per client network, and the graceful
 * stop that lets messages being stored finish and answer first. Invariant: a listener that stops never cuts off a
 * message whose write has begun — its client gets the reply, then 421.
 */
import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerOptions, type SMTPServerSession } from "smtp-server";
import { AppError } from "../errors.ts";
import { ConfigError } from "../lib/config-error.ts";
import { meterHeader } from "../lib/header-block.ts";
import type { Logger } from "../lib/logger.ts";
import { clientNetwork } from "../limits/auth-failures.ts";
import { replyFor, type ReplyError } from "./replies.ts";

/** Options every Mailroom SMTP listener has. */
export const COMMON_SERVER_OPTIONS = {
  // RFC 8996 deprecates TLS 1.0 and 1.1; smtp-server's default would allow them.
  minVersion: "TLSv1.2",
  // Enhanced status codes are written by replies.ts from the error table (smtp-server would derive its own from
  // the basic code, e.g. 5.1.1 for every 550); not advertised, as smtp-server's own protocol replies lack them.
  hideENHANCEDSTATUSCODES: true,
  // Addresses must be ASCII (delivery does not negotiate SMTPUTF8 downstream), so SMTPUTF8 is not offered;
  // DSN and REQUIRETLS requests could not be honoured end to end either.
  hideSMTPUTF8: true,
  hideDSN: true,
  hideREQUIRETLS: true,
  logger: false,
} satisfies SMTPServerOptions;

/**
 * smtp-server waits a fixed 100 ms before the greeting (`init()` arms `setTimeout(connectionReady, 100)`) to catch
 * clients that talk too soon. On ports that require AUTH that trap catches nothing worth catching, and a client
 * that opens one connection per message (PHP mailers, CMSs, printers) pays it on every message: measured with
 * `npm run bench:smtp` (connect, STARTTLS, AUTH, one 2 KB message, QUIT, one after another on loopback), such a
 * client needs about 7 ms per message without the pause and 111 ms with it — over ten times slower. So unless
 * asked for, the session starts at once: the connection is made ready immediately and the pending timer finds
 * nothing left to do. Relies on smtp-server 3.21 calling `this.connectionReady()` from that timer; the package
 * version is pinned and the relay tests would catch a change (no greeting, or two).
 */
export class PromptGreetingServer extends SMTPServer {
  override connect(socket: Socket | TLSSocket, options?: Parameters<SMTPServer["connect"]>[1]): void {
    super.connect(socket, options);
    // Absent when init() already refused the connection (max_clients): it was answered 421 and needs nothing more.
    const connection = [...this.connections].find((candidate) => candidate._socket === socket);
    if (!connection) return;
    const ready = connection.connectionReady.bind(connection);
    connection.connectionReady = () => {};
    ready();
  }
}

/**
 * Reads DATA into memory, never more than `maxBytes` (smtp-server keeps counting past it): the message,
 * "oversized", "header_too_large" when its header block is over `header`'s limits (the rest is then read and
 * dropped, unkept), or "aborted" when the client went away mid-message. With `shared`, the message's bytes live in a
 * SharedArrayBuffer, so a CPU-pool thread reads them without a copy (copying 25 MiB to a thread holds the event
 * loop for a tenth of a second or more).
 */
export function readMessage(
  stream: SMTPServerDataStream,
  maxBytes: number,
  options?: { shared?: boolean },
): Promise<Buffer | "oversized" | "aborted">;
export function readMessage(
  stream: SMTPServerDataStream,
  maxBytes: number,
  options: { shared?: boolean; header: { maxBytes: number; maxLines: number } },
): Promise<Buffer | "oversized" | "header_too_large" | "aborted">;
export function readMessage(
  stream: SMTPServerDataStream,
  maxBytes: number,
  options: { shared?: boolean; header?: { maxBytes: number; maxLines: number } } = {},
) {
  return new Promise<Buffer | "oversized" | "header_too_large" | "aborted">((resolve) => {
    const chunks: Buffer[] = [];
    const header = options.header && meterHeader(options.header.maxBytes, options.header.maxLines);
    let headerOver = false;
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (header && !headerOver && typeof header.feed(chunk) === "object") {
        headerOver = true;
        chunks.length = 0;
      }
      if (size <= maxBytes && !headerOver) chunks.push(chunk);
    });
    stream.on("end", () => {
      if (stream.sizeExceeded || size > maxBytes) return resolve("oversized");
      if (headerOver || (header && typeof header.verdict() === "object")) return resolve("header_too_large");
      if (!options.shared) return resolve(Buffer.concat(chunks, size));
      const message = Buffer.from(new SharedArrayBuffer(size));
      let offset = 0;
      for (const chunk of chunks) offset += chunk.copy(message, offset);
      resolve(message);
    });
    stream.on("error", () => resolve("aborted"));
  });
}

/** Listens on `host:port`; a port that cannot be bound is a configuration error naming its option. */
export function listen(server: SMTPServer, option: string, host: string, port: number) {
  return new Promise<number>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) =>
      reject(new ConfigError(`${option}: cannot listen on ${host}:${port} (${error.code ?? error.message})`));
    server.server.once("error", fail);
    server.listen(port, host, () => {
      server.server.off("error", fail);
      resolve((server.server.address() as { port: number }).port);
    });
  });
}

/** Open connections per client network (IPv6: one /64) and listener, for a `max_clients_per_ip` limit. */
export function createClientCounter(maxPerClient: number) {
  const open = new Map<string, number>();
  /** Sessions counted (a refused connection never was, and its close must not uncount). */
  const counted = new WeakSet<SMTPServerSession>();
  const keyOf = (listener: string, session: SMTPServerSession) => `${listener} ${clientNetwork(session.remoteAddress)}`;
  return {
    /** Counts the session in; false when its network already has the maximum open. */
    admit(listener: string, session: SMTPServerSession): boolean {
      const key = keyOf(listener, session);
      const current = open.get(key) ?? 0;
      if (current >= maxPerClient) return false;
      open.set(key, current + 1);
      counted.add(session);
      return true;
    },
    release(listener: string, session: SMTPServerSession) {
      if (!counted.delete(session)) return;
      const key = keyOf(listener, session);
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    },
  };
}

/**
 * Stops accepting, waits for the messages being stored (so their replies are sent), then says 421 to every
 * connection left and closes.
 */
export async function stopGracefully(servers: SMTPServer[], storing: Set<Promise<unknown>>, logger: Logger) {
  const closed = servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
  await Promise.allSettled([...storing]);
  await new Promise((resolve) => setImmediate(resolve));
  const goodbye: ReplyError = replyFor(
    new AppError("service_unavailable", "Service shutting down, try again later"),
    "command",
    logger,
  );
  // smtp-server closes the connection after any 421.
  for (const server of servers)
    for (const connection of server.connections) connection.send(goodbye.responseCode, goodbye.message);
  await Promise.all(closed);
}
