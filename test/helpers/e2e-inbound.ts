/**
 * The inbound end-to-end tests' server (test/e2e-inbound*.test.ts): the built executable on a data directory of its
 * own, sending through a programmable SMTP server, its look-ups answered by a DNS server on loopback that holds what
 * a receiving MTA checks of dest.test's replies (SPF for the loopback client, a DKIM key, DMARC), with example.com
 * and quiet.example verified and a webhook receiver subscribed to bounces, complaints and received mail; swaks and a
 * raw socket as the sending MTA; and the API calls the tests make.
 */
import { afterAll, beforeAll, expect } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./app.ts";
import { startDnsServer, type DnsServer } from "./dns-server.ts";
import { runCli, startMailroom, type MailroomProcess } from "./process.ts";
import { smtpChat, type SmtpReply } from "./smtp-chat.ts";
import { startSmtpDouble, type SmtpDouble } from "./smtp-double.ts";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "./webhook-receiver.ts";

export const MIB = 1024 * 1024;
// A 10 MiB binary attachment is ~13.7 MiB once base64-encoded in 76-column lines, so the limit sits above that
// and the oversized message (16 MiB of data) clearly above the limit.
export const MAX_MESSAGE_BYTES = 15 * MIB;
export const ATTACHMENT_BYTES = 10 * MIB;

export interface InboundServer {
  server: MailroomProcess;
  smtp: SmtpDouble;
  /** A full_access API key. */
  key: string;
  /** The private half of dest.test's DKIM key (selector e2e), to sign replies with. */
  dkimPrivateKey: string;
}

/** The server's replies in a swaks transcript (`<-` for replies, `<**` for refusals), one space after the marker. */
export const replies = (output: string) =>
  output
    .split("\n")
    .filter((line) => /^\s*<(-|~|\*\*) /.test(line))
    .map((line) => line.trim().replace(/ +/, " "))
    .join("\n");

/** A reply's code and enhanced status code. */
export const enhanced = (reply: SmtpReply) => [reply.code, reply.lines[0]!.split(" ")[0]];

/** Polls `probe` until it returns something truthy; fails with `what` after `timeoutMs`. */
async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/**
 * Starts the server before the tests of the describe it is called in (30 s allowed: it builds a data directory with
 * the CLI first) and hands it to `bind`; stops it and removes its files after them. Answers the calls the tests make.
 */
export function setUpInboundServer(bind: (started: InboundServer) => void) {
  let dataDir: string | undefined;
  let workDir: string | undefined;
  let server: MailroomProcess | undefined;
  let smtp: SmtpDouble | undefined;
  let dns: DnsServer | undefined;
  let hooks: WebhookReceiver | undefined;
  let key = "";
  let fileCount = 0;

  const api = async (method: string, path: string, body?: unknown, withKey = true) => {
    const res = await fetch(`${server!.baseUrl}${path}`, {
      method,
      headers: {
        ...(withKey ? { authorization: `Bearer ${key}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, body: json, text };
  };

  beforeAll(async () => {
    dataDir = tempDir("mailroom-e2e-inbound-");
    workDir = tempDir("mailroom-e2e-inbound-files-");
    smtp = await startSmtpDouble();
    dns = await startDnsServer();
    hooks = await startWebhookReceiver();

    // What a receiving MTA checks of the replies from dest.test: SPF for the loopback client, a DKIM key, DMARC.
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const dkimPrivateKey = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const spki = pair.publicKey.export({ type: "spki", format: "der" }).toString("base64");
    dns.set("dest.test", "TXT", ["v=spf1 ip4:127.0.0.1 -all"]);
    dns.set("e2e._domainkey.dest.test", "TXT", [`v=DKIM1; k=rsa; p=${spki}`]);
    dns.set("_dmarc.dest.test", "TXT", ["v=DMARC1; p=reject"]);

    const env = {
      MAILROOM_DATA_DIR: dataDir,
      MAILROOM_HTTP_PORT: "0",
      MAILROOM_DNS_SERVERS: dns.servers[0]!,
      MAILROOM_DELIVERY_DEFAULT_PROVIDER: "smtp",
      MAILROOM_SMARTHOST_HOST: "127.0.0.1",
      MAILROOM_SMARTHOST_PORT: String(smtp.port),
      MAILROOM_SMARTHOST_SECURITY: "none",
      MAILROOM_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "true",
      MAILROOM_INBOUND_MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES),
    };
    await runCli(["init"], env, true);
    ({ token: key } = JSON.parse(
      await runCli(["keys", "create", "--name", "e2e-inbound", "--scope", "full_access", "--json"], env, true),
    ));
    await runCli(["domains", "add", "example.com", "--verified"], env, true);
    await runCli(["domains", "add", "quiet.example", "--verified"], env, true);
    server = await startMailroom(env, { binary: true });
    expect(server.ports.mx).toBeGreaterThan(0);

    const webhook = await api("POST", "/v1/webhooks", {
      endpoint: hooks.url,
      events: ["email.bounced", "email.complained", "email.received"],
    });
    expect(webhook.status).toBe(200);
    hooks.secrets.push(webhook.body.signing_secret);
    bind({ server, smtp, key, dkimPrivateKey });
  }, 30_000);

  // Whatever the start got to is undone, even when it failed halfway.
  afterAll(async () => {
    server?.proc.kill("SIGKILL");
    await server?.exited;
    await smtp?.close();
    await dns?.close();
    await hooks?.close();
    for (const dir of [dataDir, workDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  return {
    api,

    /** Sends one message through Mailroom to the SMTP double; its id, Message-ID and the return path it left with. */
    async sendOne(to: string, subject: string) {
      const before = smtp!.received.length;
      const res = await api("POST", "/v1/emails", {
        from: "Acme <hello@example.com>",
        to,
        subject,
        html: "<p>Thanks.</p>",
      });
      expect(res.status).toBe(200);
      await smtp!.waitFor(before + 1);
      const sent = smtp!.received.at(-1)!;
      expect(sent.recipients).toEqual([to]);
      expect(sent.mailFrom).toMatch(/^bounces\+[0-9a-f]{32}-[a-z2-7]{16}@send\.example\.com$/);
      const record = (await api("GET", `/v1/emails/${res.body.id}`)).body;
      expect(record.message_id).toMatch(/^<.+@.+>$/);
      return { id: res.body.id as string, messageId: record.message_id as string, returnPath: sent.mailFrom };
    },

    /** `content` written to a file of the work directory, for swaks to read; its path. */
    file(content: string | Buffer): string {
      const path = join(workDir!, `message-${++fileCount}.eml`);
      writeFileSync(path, content);
      return path;
    },

    /** swaks delivering `data` (a file) to the MX; its exit code and its whole transcript. */
    async swaks(args: { from: string; to: string; data: string }) {
      const child = Bun.spawn(
        [
          "swaks",
          "--server",
          "127.0.0.1",
          "--port",
          String(server!.ports.mx),
          "--helo",
          "mx.dest.test",
          "--from",
          args.from,
          "--to",
          args.to,
          "--data",
          `@${args.data}`,
          "--suppress-data",
          "--timeout",
          "30",
        ],
        { stdout: "pipe", stderr: "pipe" },
      );
      const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
      return { code: await child.exited, output: out + err };
    },

    /** The first webhook of `type` (that `match` takes) the receiver got, waited for. */
    webhookOf: (type: string, match: (hook: ReceivedWebhook) => boolean = () => true) =>
      until(`an ${type} webhook`, () => hooks!.received.find((hook) => hook.payload?.type === type && match(hook))),

    /** The received message with this Message-ID, from the list as an API client finds it. */
    receivedByMessageId: (messageId: string) =>
      until(`a received message ${messageId}`, async () => {
        const list = await api("GET", "/v1/emails/receiving?limit=100");
        expect(list.status).toBe(200);
        expect(list.body).toMatchObject({ object: "list", has_more: false });
        return (list.body.data as Array<{ id: string; message_id: string | null }>).find(
          (row) => row.message_id === messageId,
        );
      }),

    /** One SMTP transaction over a raw socket, for replies checked exactly and message bytes sent exactly as given. */
    async transaction(
      from: string,
      to: string,
      data?: Buffer,
    ): Promise<{ mail: SmtpReply; rcpt: SmtpReply; end?: SmtpReply }> {
      const chat = await smtpChat(server!.ports.mx!);
      try {
        expect(chat.greeting.code).toBe(220);
        expect((await chat.send("EHLO mx.dest.test")).code).toBe(250);
        const mail = await chat.send(`MAIL FROM:<${from}>`);
        const rcpt = await chat.send(`RCPT TO:<${to}>`);
        if (!data || rcpt.code !== 250) return { mail, rcpt };
        expect((await chat.send("DATA")).code).toBe(354);
        // Written as is (smtpChat.data would turn bare LF into CRLF): the terminator is the protocol's, the rest ours.
        chat.write(Buffer.concat([data, Buffer.from(".\r\n")]));
        const end = await chat.next();
        await chat.send("QUIT").catch(() => undefined);
        return { mail, rcpt, end };
      } finally {
        chat.close();
      }
    },
  };
}
