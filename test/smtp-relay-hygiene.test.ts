/**
 * Connection hygiene of the SMTP relay (limits on clients, messages per connection, idle clients), the greeting
 * (prompt by default, smtp-server's pause on request), unknown errors (451 4.3.0 with a reference, nothing
 * internal on the wire) and the reply mapping itself.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { AppError, ERROR_NAMES, ERROR_TABLE } from "../src/errors.ts";
import { createLogger, silentLogger } from "../src/lib/logger.ts";
import { replyFor } from "../src/smtp/replies.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { authPlain, smtpChat, type SmtpChat } from "./helpers/smtp-chat.ts";

let t: TestApp | undefined;
let dns: DnsServer | undefined;
const chats: SmtpChat[] = [];

afterEach(async () => {
  chats.splice(0).forEach((chat) => chat.close());
  await t?.close();
  await dns?.close();
  t = dns = undefined;
});

async function relay(smtp: Record<string, unknown> = {}, logLines?: string[]) {
  dns = await startDnsServer();
  const logger = logLines ? createLogger("debug", (line) => logLines.push(line)) : silentLogger;
  t = await createTestApp(
    { smtp: { submission_port: 0, smtps_port: 0, ...smtp }, dns: { servers: dns.servers } },
    { logger },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const listeners = await t.app.start();
  const ca = readFileSync(join(t.dataDir, "tls", "smtp-cert.pem"), "utf8");
  const smtps = listeners.find((l) => l.name === "smtps")!.port;
  return {
    connect: async () => {
      const chat = await smtpChat(smtps, { tls: true, ca });
      chats.push(chat);
      return chat;
    },
    login: async () => {
      const chat = await smtpChat(smtps, { tls: true, ca });
      chats.push(chat);
      expect((await chat.send("EHLO client.test")).code).toBe(250);
      expect((await chat.send(authPlain("apikey", t!.liveKey))).code).toBe(235);
      return chat;
    },
  };
}

const MESSAGE = "From: hi@example.com\r\nTo: a@dest.test\r\nSubject: Hi\r\n\r\nHello.\r\n";

async function sendOne(chat: SmtpChat) {
  const mail = await chat.send("MAIL FROM:<hi@example.com>");
  if (mail.code !== 250) return mail;
  expect((await chat.send("RCPT TO:<a@dest.test>")).code).toBe(250);
  expect((await chat.send("DATA")).code).toBe(354);
  return chat.data(MESSAGE);
}

describe("connection hygiene", () => {
  test("a connection that sent max_messages_per_connection messages is asked to reconnect with 421", async () => {
    const { login } = await relay({ max_messages_per_connection: 2 });
    const chat = await login();
    expect((await sendOne(chat)).code).toBe(250);
    expect((await sendOne(chat)).code).toBe(250);
    const third = await sendOne(chat);
    expect([third.code, third.lines[0]!.split(" ")[0]]).toEqual([421, "4.7.0"]);
    await chat.closed();
    expect((await sendOne(await login())).code).toBe(250);
  });

  test("beyond max_clients a connection is refused with 421", async () => {
    const { connect } = await relay({ max_clients: 1 });
    const first = await connect();
    expect(first.greeting.code).toBe(220);
    const second = await connect();
    expect(second.greeting.code).toBe(421);
  });

  test("a client silent for idle_timeout is disconnected", async () => {
    const { connect } = await relay({ idle_timeout: "200ms" });
    const chat = await connect();
    await chat.closed();
  });

  test("the greeting comes once, at once by default and after smtp-server's pause when greeting_pause is set", async () => {
    for (const greeting_pause of [false, true]) {
      const { login } = await relay({ greeting_pause });
      const chat = await login();
      expect((await sendOne(chat)).code).toBe(250);
      // A second greeting would have been read as the reply to EHLO or MAIL.
      chats.splice(0).forEach((c) => c.close());
      await t!.close();
      await dns!.close();
      t = dns = undefined;
    }
  });
});

describe("hostile clients", () => {
  const refusedContent = async (message: Buffer | string) => {
    const { login } = await relay();
    const chat = await login();
    expect((await chat.send("MAIL FROM:<hi@example.com>")).code).toBe(250);
    expect((await chat.send("RCPT TO:<a@dest.test>")).code).toBe(250);
    expect((await chat.send("DATA")).code).toBe(354);
    return chat.data(message);
  };

  test("a NUL byte in the message is refused with 554 5.6.0, and nothing is stored", async () => {
    const reply = await refusedContent(
      Buffer.from("From: hi@example.com\r\nTo: a@dest.test\r\nSubject: Hi\r\n\r\nHel\0lo.\r\n", "latin1"),
    );
    expect([reply.code, reply.lines[0]!.split(" ")[0]]).toEqual([554, "5.6.0"]);
    expect(reply.text).toContain("NUL");
    expect(
      (await t!.app.services.emails.list(await t!.app.services.keys.authenticate(t!.liveKey), { limit: 10 })).data,
    ).toHaveLength(0);
  });

  test("a line over 998 octets is refused with 554 5.6.0 naming the line (RFC 5321 §4.5.3.1.6)", async () => {
    const reply = await refusedContent(
      `From: hi@example.com\r\nTo: a@dest.test\r\nSubject: Hi\r\n\r\nshort\r\n${"x".repeat(200_000)}\r\n`,
    );
    expect([reply.code, reply.lines[0]!.split(" ")[0]]).toEqual([554, "5.6.0"]);
    expect(reply.text).toContain("Line 6 of the message is 200000 octets");
  });

  test("a line of exactly 998 octets is accepted", async () => {
    const reply = await refusedContent(
      `From: hi@example.com\r\nTo: a@dest.test\r\nSubject: Hi\r\n\r\n${"x".repeat(998)}\r\n`,
    );
    expect(reply.code).toBe(250);
  });

  describe("finding 9: a hidden second From behind a bare CR or LF", () => {
    /** A relay whose organisation owns two sending domains, and a key restricted to one of them. */
    const restrictedSession = async () => {
      const { connect } = await relay();
      await t!.app.services.domains.add(t!.operator, "bank.test", { verifiedOverride: true });
      const { key } = await t!.app.services.keys.create(t!.operator, {
        name: "example only",
        scopes: ["full_access"],
        mode: "live",
        domains: ["example.com"],
      });
      const chat = await connect();
      expect((await chat.send("EHLO client.test")).code).toBe(250);
      expect((await chat.send(authPlain("apikey", key))).code).toBe(235);
      expect((await chat.send("MAIL FROM:<hi@example.com>")).code).toBe(250);
      expect((await chat.send("RCPT TO:<a@dest.test>")).code).toBe(250);
      expect((await chat.send("DATA")).code).toBe(354);
      return chat;
    };
    /** Sends the message's bytes exactly as given (the chat's data() would turn every line end into CRLF). */
    const sendExactly = (chat: SmtpChat, message: string) => {
      const reply = chat.next();
      chat.write(Buffer.from(`${message}.\r\n`, "latin1"));
      return reply;
    };
    const nothingStored = async () =>
      expect((await t!.app.services.emails.list(t!.operator, { limit: 10 })).data).toHaveLength(0);

    test("finding 9: a From hidden after a bare CR is refused with 554 5.6.0 naming the line, over a domain-restricted key", async () => {
      const chat = await restrictedSession();
      // mailparser reads one From field (hi@example.com, allowed); a reader that breaks lines at CR shows the Boss.
      const reply = await sendExactly(
        chat,
        "From: Boss <ceo@bank.test>\rFrom: hi@example.com\r\nTo: a@dest.test\r\nSubject: Hi\r\n\r\nPay now.\r\n",
      );
      expect([reply.code, reply.lines[0]!.split(" ")[0]]).toEqual([554, "5.6.0"]);
      expect(reply.text).toContain("line 1 (the From field) holds a CR that does not end the line");
      expect(reply.text).not.toContain("Boss");
      await nothingStored();
    });

    test("finding 9: a bare LF inside a CRLF header is refused with 554 5.6.0 naming the line", async () => {
      const chat = await restrictedSession();
      const reply = await sendExactly(
        chat,
        "From: hi@example.com\r\nTo: a@dest.test\r\nSubject: Hi\nFrom: Boss <ceo@bank.test>\r\n\r\nPay now.\r\n",
      );
      expect([reply.code, reply.lines[0]!.split(" ")[0]]).toEqual([554, "5.6.0"]);
      expect(reply.text).toContain("line 3 (the Subject field) ends in a bare LF while other header lines end in CRLF");
      await nothingStored();
    });

    test("a message whose header lines all end in a bare LF is still accepted, and a bare CR in the body is the body's", async () => {
      const chat = await restrictedSession();
      const reply = await sendExactly(
        chat,
        "From: hi@example.com\nTo: a@dest.test\nSubject: Hi\n\nLF only,\rwith a CR.\r\n",
      );
      expect(reply.code).toBe(250);
      expect((await t!.app.services.emails.list(t!.operator, { limit: 10 })).data).toHaveLength(1);
    });
  });

  test("each failed AUTH from a client makes its next failure reply wait longer; a success resets it", async () => {
    const { connect } = await relay({ auth_failure_delay: "150ms" });
    const chat = await connect();
    expect((await chat.send("EHLO client.test")).code).toBe(250);
    const timed = async (line: string) => {
      const started = performance.now();
      const reply = await chat.send(line);
      return { code: reply.code, ms: performance.now() - started };
    };
    const first = await timed(authPlain("apikey", "mr_live_wrong"));
    const second = await timed(authPlain("apikey", "mr_live_wrong"));
    expect([first.code, second.code]).toEqual([535, 535]);
    // Lower bounds only: the delays are the behaviour; how fast the rest runs is not asserted.
    expect(first.ms).toBeGreaterThanOrEqual(140);
    expect(second.ms).toBeGreaterThanOrEqual(290);
    // Another connection from the same address inherits the count.
    const other = await connect();
    expect((await other.send("EHLO client.test")).code).toBe(250);
    const started = performance.now();
    expect((await other.send(authPlain("apikey", "mr_live_wrong"))).code).toBe(535);
    expect(performance.now() - started).toBeGreaterThanOrEqual(590);
  });

  test("beyond max_clients_per_ip a client's connection is refused with 421 4.7.0; closing one frees its slot", async () => {
    const { connect } = await relay({ max_clients_per_ip: 2 });
    const first = await connect();
    await connect();
    const third = await connect();
    expect([third.greeting.code, third.greeting.lines[0]!.split(" ")[0]]).toEqual([421, "4.7.0"]);
    first.close();
    await first.closed();
    await Bun.sleep(50);
    expect((await connect()).greeting.code).toBe(220);
  });

  test("a client that stops in the middle of DATA is cut off by idle_timeout, nothing is stored, and its slot is freed", async () => {
    // Long enough for the login and three commands on a loaded machine: the timer also runs between them.
    const { connect, login } = await relay({ idle_timeout: "2s", max_clients: 1 });
    const chat = await login();
    expect((await chat.send("MAIL FROM:<hi@example.com>")).code).toBe(250);
    expect((await chat.send("RCPT TO:<a@dest.test>")).code).toBe(250);
    expect((await chat.send("DATA")).code).toBe(354);
    chat.write("From: hi@example.com\r\nTo: a@dest.test\r\nSubject: half\r\n\r\nHalf a mess");
    await chat.closed();
    expect(
      (await t!.app.services.emails.list(await t!.app.services.keys.authenticate(t!.liveKey), { limit: 10 })).data,
    ).toHaveLength(0);
    await Bun.sleep(50);
    expect((await connect()).greeting.code).toBe(220);
  });
});

describe("shutdown", () => {
  test("stops accepting, tells idle sessions 421 4.3.2 and closes them", async () => {
    const { connect, login } = await relay();
    const chat = await login();
    const stopping = t!.app.smtp.stop();
    const goodbye = await chat.next();
    expect([goodbye.code, goodbye.lines[0]!.split(" ")[0]]).toEqual([421, "4.3.2"]);
    await chat.closed();
    await stopping;
    expect(connect()).rejects.toThrow();
  });
});

describe("unknown errors", () => {
  test("answer 451 4.3.0 with a reference id that is logged with the cause, and no internal text", async () => {
    const lines: string[] = [];
    const { login } = await relay({}, lines);
    // Break the store under the running app: the write of the next message fails with an SQLite error.
    await t!.app.services.store.query(sql`ALTER TABLE deliveries RENAME TO deliveries_moved`);
    const reply = await sendOne(await login());
    expect(reply.code).toBe(451);
    expect(reply.text).toMatch(
      /^4\.3\.0 Temporary local problem, please try again later \(reference ([0-9a-f-]{36})\)$/,
    );
    expect(reply.text).not.toMatch(/deliveries|sqlite|table/i);
    const reference = /reference ([0-9a-f-]{36})/.exec(reply.text)![1];
    const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.reference === reference);
    expect(logged.level).toBe("error");
    expect(JSON.stringify(logged.err)).toContain("deliveries");
    // Logged once: no second line repeats the failure.
    expect(lines.filter((line) => line.includes(reference!))).toHaveLength(1);
    await t!.app.services.store.query(sql`ALTER TABLE deliveries_moved RENAME TO deliveries`);
  });
});

describe("the reply mapping", () => {
  test.each(ERROR_NAMES.filter((name) => name !== "internal_error"))(
    "%s answers the table's code and the error's own text",
    (name) => {
      const command = replyFor(new AppError(name, "Public text."), "command", silentLogger);
      const data = replyFor(new AppError(name, "Public text."), "data", silentLogger);
      const entry = ERROR_TABLE[name];
      expect([command.responseCode, command.message]).toEqual([entry.smtp.code, `${entry.smtp.enhanced} Public text.`]);
      const afterData = entry.smtpData ?? entry.smtp;
      expect([data.responseCode, data.message]).toEqual([afterData.code, `${afterData.enhanced} Public text.`]);
    },
  );

  test("an error that is not an AppError is temporary and says nothing of itself", () => {
    const reply = replyFor(
      new TypeError("cannot read properties of undefined (reading 'secret')"),
      "data",
      silentLogger,
    );
    expect(reply.responseCode).toBe(451);
    expect(reply.message).toStartWith("4.3.0 ");
    expect(reply.message).not.toContain("secret");
  });

  test("reply text is one line and at most 400 characters", () => {
    const reply = replyFor(
      new AppError("validation_error", `bad\r\nRCPT TO:<x@y.z> ${"x".repeat(600)}`),
      "command",
      silentLogger,
    );
    expect(reply.message).not.toMatch(/[\r\n]/);
    expect(reply.message.length).toBeLessThanOrEqual(400 + "5.5.4 ".length);
  });
});
