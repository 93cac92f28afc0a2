/**
 * A real SMTP server on loopback (smtp-server) standing in for a smarthost or a recipient MX, with programmable
 * replies per recipient: accept, reply with a code, drop the connection, or answer slowly. Records what it
 * accepted. Listens on port 0 and must be closed by the test.
 */
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

export type RecipientRule =
  | { reply: "accept" }
  | { reply: "reject"; code: number; message: string }
  | { reply: "drop" }
  | { reply: "slow"; delayMs: number }
  /** Takes the message (it is recorded) but never answers the end of DATA: the sender cannot know it arrived. */
  | { reply: "hang-after-data" };

export interface ReceivedMessage {
  mailFrom: string;
  recipients: string[];
  raw: Buffer;
}

export interface SmtpDouble {
  port: number;
  received: ReceivedMessage[];
  /** Rule for a recipient address (lower-case); unlisted recipients are accepted. */
  rules: Map<string, RecipientRule>;
  /** Resolves when `count` messages have been received. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** `listenPort` 0 (the default) picks an ephemeral port; a test that restarts a double passes its old port. */
export async function startSmtpDouble(options: Partial<SMTPServerOptions> = {}, listenPort = 0): Promise<SmtpDouble> {
  const received: ReceivedMessage[] = [];
  const rules = new Map<string, RecipientRule>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];

  const server: SMTPServer = new SMTPServer({
    disableReverseLookup: true,
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    size: 100 * 1024 * 1024,
    ...options,
    onRcptTo(address, session, callback) {
      const rule = rules.get(address.address.toLowerCase()) ?? { reply: "accept" };
      switch (rule.reply) {
        case "accept":
          return callback();
        case "reject": {
          const error = Object.assign(new Error(rule.message), { responseCode: rule.code });
          return callback(error);
        }
        case "drop": {
          const connections = (server as unknown as { connections: Set<{ id: string; _socket: { destroy(): void } }> })
            .connections;
          for (const connection of connections) if (connection.id === session.id) connection._socket.destroy();
          return;
        }
        case "slow":
          setTimeout(() => callback(), rule.delayMs);
          return;
        case "hang-after-data":
          return callback();
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          recipients: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        });
        for (const waiter of [...waiters]) {
          if (received.length >= waiter.count) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
        const hang = session.envelope.rcptTo.some(
          (r) => rules.get(r.address.toLowerCase())?.reply === "hang-after-data",
        );
        if (!hang) callback();
      });
    },
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(listenPort, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as { port: number }).port;

  return {
    port,
    received,
    rules,
    waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`SMTP double received ${received.length} of ${count} messages`)),
          timeoutMs,
        );
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
