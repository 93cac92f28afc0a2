/**
 * SMTP load for `npm run bench:smtp`: a lean submission client (no library on the hot path, so the loader costs the
 * 2-core machine little). Each session connects, upgrades with STARTTLS and authenticates when the server offers
 * them, then sends its share of the messages one transaction after another (MAIL, RCPT, DATA; no pipelining).
 * The same loader drives Mailroom and Postfix, so only the server differs.
 */
import { connect as tcpConnect, type Socket } from "node:net";
import { connect as tlsConnect, type TLSSocket } from "node:tls";

export interface SmtpTarget {
  port: number;
  /** PEM the server's certificate verifies against. */
  ca: string;
  /** AUTH PLAIN credentials, used when the server offers AUTH. */
  auth?: { username: string; password: string };
}

interface Reply {
  code: number;
  lines: string[];
}

/** One SMTP connection with a reply reader; `command` sends a line and resolves with the complete reply. */
class Session {
  private buffer = "";
  private waiter?: { resolve: (reply: Reply) => void; reject: (error: Error) => void };
  private lines: string[] = [];

  private constructor(private socket: Socket | TLSSocket) {
    this.listen(socket);
  }

  static async open(port: number): Promise<Session> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = tcpConnect({ port, host: "127.0.0.1" }, () => resolve(s));
      s.once("error", reject);
    });
    socket.setNoDelay(true);
    const session = new Session(socket);
    const greeting = await session.read();
    if (greeting.code !== 220) throw new Error(`greeting: ${greeting.code} ${greeting.lines.join(" ")}`);
    return session;
  }

  private listen(socket: Socket | TLSSocket) {
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      this.buffer += chunk;
      this.drain();
    });
    socket.on("error", (error) => this.waiter?.reject(error));
    socket.on("close", () => this.waiter?.reject(new Error("connection closed")));
  }

  private drain() {
    let end: number;
    while (this.waiter && (end = this.buffer.indexOf("\r\n")) >= 0) {
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.lines.push(line.slice(4));
      if (line[3] !== "-") {
        const reply = { code: Number(line.slice(0, 3)), lines: this.lines };
        this.lines = [];
        const waiter = this.waiter;
        this.waiter = undefined;
        waiter.resolve(reply);
      }
    }
  }

  read(): Promise<Reply> {
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
      this.drain();
    });
  }

  async command(line: string, expect: number): Promise<Reply> {
    const reply = this.read();
    this.socket.write(`${line}\r\n`);
    const result = await reply;
    if (result.code !== expect) throw new Error(`${line.split(" ")[0]}: ${result.code} ${result.lines.join(" ")}`);
    return result;
  }

  async send(data: string): Promise<Reply> {
    const reply = this.read();
    this.socket.write(data);
    const result = await reply;
    if (result.code !== 250) throw new Error(`DATA: ${result.code} ${result.lines.join(" ")}`);
    return result;
  }

  async starttls(ca: string) {
    await this.command("STARTTLS", 220);
    const plain = this.socket;
    plain.removeAllListeners("data");
    plain.removeAllListeners("close");
    this.socket = await new Promise<TLSSocket>((resolve, reject) => {
      const secure = tlsConnect({ socket: plain as Socket, ca, servername: "localhost" }, () => resolve(secure));
      secure.once("error", reject);
    });
    this.listen(this.socket);
  }

  close() {
    this.socket.destroy();
  }
}

/** Connects and gets a session ready to send: EHLO, STARTTLS and AUTH when offered. */
async function ready(target: SmtpTarget): Promise<Session> {
  const session = await Session.open(target.port);
  let ehlo = await session.command("EHLO loader.bench.test", 250);
  if (ehlo.lines.includes("STARTTLS")) {
    await session.starttls(target.ca);
    ehlo = await session.command("EHLO loader.bench.test", 250);
  }
  if (target.auth && ehlo.lines.some((line) => /^AUTH\b.*\bPLAIN\b/i.test(line))) {
    await session.command(
      `AUTH PLAIN ${Buffer.from(`\0${target.auth.username}\0${target.auth.password}`).toString("base64")}`,
      235,
    );
  }
  return session;
}

/** A ~2 KB message (headers and body), dot-terminated for DATA. */
export function benchMessage(index: number, to: string): string {
  const body = Array.from(
    { length: 24 },
    (_, line) => `Line ${line} of message ${index}: the quick brown fox jumps over the lazy dog again.`,
  ).join("\r\n");
  return [
    "From: Bench <bench@example.com>",
    `To: ${to}`,
    `Subject: Benchmark message ${index}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <bench-${index}-${process.pid}@loader.bench.test>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    body,
    ".",
    "",
  ].join("\r\n");
}

const recipient = (i: number) => `user${i}@dest${i % 100}.test`;

async function transaction(session: Session, index: number) {
  await session.command("MAIL FROM:<bench@example.com>", 250);
  await session.command(`RCPT TO:<${recipient(index)}>`, 250);
  await session.command("DATA", 354);
  await session.send(benchMessage(index, recipient(index)));
}

/** N sessions share M messages; resolves with the time until every message was accepted (250 after DATA). */
export async function runSmtpLoad(
  target: SmtpTarget,
  sessions: number,
  messages: number,
): Promise<{ seconds: number }> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: sessions }, async () => {
      const session = await ready(target);
      for (let index = next++; index < messages; index = next++) await transaction(session, index);
      await session.command("QUIT", 221).catch(() => undefined);
      session.close();
    }),
  );
  return { seconds: (performance.now() - started) / 1000 };
}

/** A client that opens one connection per message (PHP mailers, CMSs): `messages` sends, one after another. */
export async function runConnectionPerMessage(target: SmtpTarget, messages: number): Promise<{ seconds: number }> {
  const started = performance.now();
  for (let index = 0; index < messages; index++) {
    const session = await ready(target);
    await transaction(session, index);
    await session.command("QUIT", 221).catch(() => undefined);
    session.close();
  }
  return { seconds: (performance.now() - started) / 1000 };
}
