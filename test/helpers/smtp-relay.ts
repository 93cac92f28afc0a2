/**
 * The SMTP relay tests' app (test/smtp-relay.test.ts, smtp-relay-replies.test.ts): one started app with example.com
 * verified and a 64 KiB message limit, delivering to a programmable SMTP server as its smarthost, its domain checks
 * answered by a DNS server on loopback; and the conversations a test opens, closed after it.
 */
import { afterEach } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./app.ts";
import { startDnsServer, type DnsServer } from "./dns-server.ts";
import { closeAll, setUpFixture } from "./fixture.ts";
import { smtpChat, type SmtpChat } from "./smtp-chat.ts";
import { startSmtpDouble, type SmtpDouble } from "./smtp-double.ts";

export const MAX_MESSAGE_BYTES = 64 * 1024;

export interface RelayApp {
  t: TestApp;
  smarthost: SmtpDouble;
  dns: DnsServer;
  /** The relay's self-signed certificate, to trust. */
  ca: string;
  submissionPort: number;
  smtpsPort: number;
}

/** The id in the relay's answer to a message, or undefined when it is not that answer. */
export const queuedId = (reply: string) => /^250 2\.0\.0 Ok: queued as ([0-9a-f-]{36})$/.exec(reply.trim())?.[1];

async function startRelay(): Promise<RelayApp> {
  const smarthost = await startSmtpDouble();
  // Domain checks run in the background; a local DNS server answers them at once.
  const dns = await startDnsServer();
  const t = await createTestApp({
    dns: { servers: dns.servers },
    delivery: { default_provider: "smtp" },
    smarthost: { host: "127.0.0.1", port: smarthost.port, security: "none" },
    limits: { max_message_bytes: MAX_MESSAGE_BYTES },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const listeners = await t.app.start();
  return {
    t,
    smarthost,
    dns,
    ca: readFileSync(join(t.dataDir, "tls", "smtp-cert.pem"), "utf8"),
    submissionPort: listeners.find((l) => l.name === "submission")!.port,
    smtpsPort: listeners.find((l) => l.name === "smtps")!.port,
  };
}

/** The relay for the file's tests, started before them and handed to `bind`; answers `open`. */
export function setUpRelay(bind: (relay: RelayApp) => void) {
  const running = setUpFixture({
    start: startRelay,
    stop: ({ t, smarthost, dns }) => closeAll(t, smarthost, dns),
    bind,
  });
  /** Every conversation a test opens, closed after it. */
  const chats: SmtpChat[] = [];
  afterEach(() => chats.splice(0).forEach((chat) => chat.close()));
  return {
    /** A conversation with the relay on `port` (implicit TLS with `tls`). */
    async open(port: number, options: { tls?: boolean } = {}) {
      const chat = await smtpChat(port, { ca: running().ca, ...options });
      chats.push(chat);
      return chat;
    },
  };
}
