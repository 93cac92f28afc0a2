/**
 * A line-level SMTP client for tests that check exact replies: connect (plain or implicit TLS), send a command,
 * read the whole (multi-line) reply, upgrade with STARTTLS. Every reply is checked against the RFC 5321 §4.2
 * grammar (three digits, then "-" on continuation lines and a space or the end on the last one).
 */
import { connect as tcpConnect, type Socket } from "node:net";
import { connect as tlsConnect, TLSSocket, type PeerCertificate } from "node:tls";

export interface SmtpReply {
  code: number;
  /** Text of every line, without the code; the first line's text starts with the enhanced code when there is one. */
  lines: string[];
  text: string;
}

export interface SmtpChat {
  /** The 220 greeting (already read on connect). */
  greeting: SmtpReply;
  send(line: string): Promise<SmtpReply>;
  /** The next reply without sending anything (a reply the server sends on its own, e.g. 421 at shutdown). */
  next(): Promise<SmtpReply>;
  /** Writes raw bytes (message data) and reads the reply to the final dot. */
  data(message: string | Buffer): Promise<SmtpReply>;
  /** Writes raw bytes without waiting for a reply (a client that stops mid-message). */
  write(bytes: string | Buffer): void;
  /** STARTTLS, then the TLS handshake with `ca` trusted. */
  starttls(): Promise<SmtpReply>;
  /** The certificate the server presented (implicit TLS or after STARTTLS). */
  certificate(): PeerCertificate | undefined;
  /** Resolves when the server closed the connection. */
  closed(): Promise<void>;
  close(): void;
}

const REPLY_LINE = /^(\d{3})([ -]|$)(.*)$/;

/** `localAddress` connects from another loopback address (127.0.0.2…), as a second client network. */
export async function smtpChat(
  port: number,
  options: { tls?: boolean; ca?: string; localAddress?: string } = {},
): Promise<SmtpChat> {
  let socket: Socket | TLSSocket;
  let buffer = "";
  let waiting: { resolve: (reply: SmtpReply) => void; reject: (error: Error) => void } | undefined;
  let ended = false;
  const endWaiters: Array<() => void> = [];

  const tryDeliver = () => {
    if (!waiting) return;
    const lines: string[] = [];
    let consumed = 0;
    for (;;) {
      const end = buffer.indexOf("\r\n", consumed);
      if (end < 0) return;
      const line = buffer.slice(consumed, end);
      consumed = end + 2;
      const match = REPLY_LINE.exec(line);
      if (!match) {
        waiting.reject(new Error(`reply line does not follow RFC 5321: ${JSON.stringify(line)}`));
        waiting = undefined;
        return;
      }
      lines.push(match[3]!);
      if (match[2] !== "-") {
        buffer = buffer.slice(consumed);
        const pending = waiting;
        waiting = undefined;
        pending.resolve({ code: Number(match[1]), lines, text: lines.join("\n") });
        return;
      }
    }
  };

  const attach = (s: Socket | TLSSocket) => {
    socket = s;
    s.setEncoding("latin1");
    s.on("data", (chunk: string) => {
      buffer += chunk;
      tryDeliver();
    });
    s.on("error", (error) => waiting?.reject(error));
    s.on("close", () => {
      ended = true;
      waiting?.reject(new Error("connection closed"));
      endWaiters.splice(0).forEach((resolve) => resolve());
    });
  };

  const read = () =>
    new Promise<SmtpReply>((resolve, reject) => {
      if (ended && !buffer) return reject(new Error("connection closed"));
      waiting = { resolve, reject };
      tryDeliver();
    });

  await new Promise<void>((resolve, reject) => {
    const from = options.localAddress ? { localAddress: options.localAddress } : {};
    const s = options.tls
      ? tlsConnect({ port, host: "127.0.0.1", ...from, ca: options.ca }, resolve)
      : tcpConnect({ port, host: "127.0.0.1", ...from }, resolve);
    s.once("error", reject);
    attach(s);
  });
  const greeting = await read();

  const send = (line: string) => {
    const reply = read();
    socket.write(`${line}\r\n`);
    return reply;
  };

  return {
    greeting,
    send,
    next: read,
    data(message) {
      const reply = read();
      const body = Buffer.isBuffer(message) ? message.toString("latin1") : message;
      // RFC 5321 §4.5.2: a line starting with a dot gets another one.
      socket.write(
        `${body.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..") + (body.endsWith("\n") ? "" : "\r\n")}.\r\n`,
        "latin1",
      );
      return reply;
    },
    write: (bytes) => void socket.write(bytes),
    async starttls() {
      const reply = await send("STARTTLS");
      if (reply.code !== 220) return reply;
      const plain = socket as Socket;
      plain.removeAllListeners("data");
      plain.removeAllListeners("close");
      await new Promise<void>((resolve, reject) => {
        const secure = tlsConnect({ socket: plain, ca: options.ca, servername: "localhost" }, resolve);
        secure.once("error", reject);
        attach(secure);
      });
      return reply;
    },
    certificate: () => (socket instanceof TLSSocket ? socket.getPeerCertificate() : undefined),
    closed: () => (ended ? Promise.resolve() : new Promise<void>((resolve) => endWaiters.push(resolve))),
    close: () => socket.destroy(),
  };
}

/** `AUTH PLAIN` with the given username and password, base64 as RFC 4616 asks. */
export function authPlain(username: string, password: string): string {
  return `AUTH PLAIN ${Buffer.from(`\0${username}\0${password}`).toString("base64")}`;
}
