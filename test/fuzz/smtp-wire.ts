/**
 * A byte-level SMTP client for the fuzzer: writes anything (NUL, 8-bit, bare LF, megabyte lines), reads whole
 * replies with a deadline, upgrades with STARTTLS, and hands every reply line to the caller unjudged — the
 * fuzzer checks the RFC 5321 grammar itself. Unlike test/helpers/smtp-chat.ts it never throws on a bad line
 * and trusts any certificate (loopback only).
 */
import { connect as tcpConnect, type Socket } from "node:net";
import { connect as tlsConnect, type TLSSocket } from "node:tls";

export interface WireReply {
  code: number;
  /** Every line as received, without its line break. */
  lines: string[];
  /** Lines that ended with a bare LF instead of CRLF. */
  bareLf: boolean;
}

export type ReadOutcome = WireReply | "closed" | "timeout";

/** A reply line's code and separator; RFC 5321 §4.2: `Reply-code [ SP textstring ] CRLF`, "-" on continuations. */
const LINE = /^(\d{3})([ -]|$)/;

export class SmtpWire {
  private socket: Socket | TLSSocket;
  private buffer = "";
  private waiter: (() => void) | undefined;
  ended = false;
  /** Lines that did not even start with a code, collected for the grammar check. */
  readonly malformed: string[] = [];

  private constructor(socket: Socket | TLSSocket) {
    this.socket = socket;
    this.attach(socket);
  }

  static open(port: number, implicitTls: boolean, timeoutMs: number): Promise<SmtpWire> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error("connect timeout"));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(new SmtpWire(socket));
      };
      const socket: Socket | TLSSocket = implicitTls
        ? tlsConnect({ port, host: "127.0.0.1", rejectUnauthorized: false, servername: "localhost" }, done)
        : tcpConnect({ port, host: "127.0.0.1" }, done);
      socket.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  private attach(socket: Socket | TLSSocket) {
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      this.buffer += chunk;
      this.waiter?.();
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      this.ended = true;
      this.waiter?.();
    });
  }

  /** One complete reply from what is buffered, or undefined. */
  private take(): WireReply | undefined {
    const lines: string[] = [];
    let consumed = 0;
    let bareLf = false;
    for (;;) {
      const end = this.buffer.indexOf("\n", consumed);
      if (end < 0) return undefined;
      let line = this.buffer.slice(consumed, end);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      else bareLf = true;
      consumed = end + 1;
      lines.push(line);
      const match = LINE.exec(line);
      if (!match) {
        this.malformed.push(line);
        continue;
      }
      if (match[2] !== "-") {
        this.buffer = this.buffer.slice(consumed);
        return { code: Number(match[1]), lines, bareLf };
      }
    }
  }

  /** The next reply; "closed" once the server closed and nothing complete is left; "timeout" after `ms`. */
  read(ms: number): Promise<ReadOutcome> {
    const ready = this.take();
    if (ready) return Promise.resolve(ready);
    if (this.ended) return Promise.resolve("closed");
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve("timeout");
      }, ms);
      this.waiter = () => {
        const reply = this.take();
        if (reply || this.ended) {
          clearTimeout(timer);
          this.waiter = undefined;
          resolve(reply ?? "closed");
        }
      };
    });
  }

  /** Whatever partial text is buffered (for a report when a reply never completes). */
  pending(): string {
    return this.buffer;
  }

  write(data: string | Buffer): void {
    if (this.ended) return;
    this.socket.write(typeof data === "string" ? Buffer.from(data, "latin1") : data);
  }

  /** Upgrades after a 220 to STARTTLS; false when the handshake fails. */
  async upgrade(timeoutMs: number): Promise<boolean> {
    const plain = this.socket as Socket;
    plain.removeAllListeners("data");
    plain.removeAllListeners("close");
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      const secure = tlsConnect({ socket: plain, rejectUnauthorized: false, servername: "localhost" }, () => {
        clearTimeout(timer);
        resolve(true);
      });
      secure.once("error", () => {
        clearTimeout(timer);
        resolve(false);
      });
      this.socket = secure;
      this.attach(secure);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

/** RFC 5321 §4.5.2 transparency: a line that starts with "." gets another one; then the terminator. */
export function dataPayload(message: Buffer): Buffer {
  const text = message.toString("latin1");
  const stuffed = text.replace(/(^|\r\n)\./g, "$1..");
  return Buffer.from(`${stuffed + (stuffed.endsWith("\r\n") ? "" : "\r\n")}.\r\n`, "latin1");
}

/** A line as a report shows it: long ones cut, with their full length. */
export const shortLine = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…(${s.length})` : s);

/** What is wrong with a reply's form (RFC 5321 §4.2): each problem's property name and what showed it. */
export function replyFormProblems(reply: WireReply): Array<[property: string, shown: string]> {
  const text = reply.lines.join("\n");
  const problems: Array<[string, string]> = [];
  if (reply.bareLf) problems.push(["reply line ended with a bare LF", text]);
  for (const line of reply.lines) {
    if (!/^[2-5][0-5]\d([ -]|$)/.test(line)) problems.push(["reply line breaks the RFC 5321 grammar", line]);
    else if (line.slice(0, 3) !== String(reply.code)) problems.push(["multi-line reply with different codes", text]);
    if (Buffer.byteLength(line, "latin1") + 2 > 512)
      problems.push(["reply line longer than 512 octets", shortLine(line)]);
    if (/[\r\0]/.test(line)) problems.push(["CR or NUL inside a reply line", JSON.stringify(line)]);
  }
  return problems;
}
