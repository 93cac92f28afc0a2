/**
 * Hostile HTTP input (issue: hardening): requests the router cannot take, path parameters, deep JSON, header
 * folding, custom headers that would be dropped, trickled bodies. Each test names the defect it guards against;
 * every failure must have the contract's error shape (docs/errors.md) and say nothing internal.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { simpleParser } from "mailparser";
import { ERROR_NAMES } from "../src/errors.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ http: { body_timeout: "300ms", body_min_rate: 1024 } });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  port = (await t.app.start()).find((l) => l.name === "http")!.port;
});
afterAll(() => t.close());

/** Sends raw bytes on a socket and reads until the server closes or `ms` pass. */
function rawRequest(bytes: string, ms = 2000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    let answer = "";
    const done = () => resolve(answer);
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      const length = /content-length: (\d+)/i.exec(answer)?.[1];
      const bodyStart = answer.indexOf("\r\n\r\n") + 4;
      if (length !== undefined && bodyStart >= 4 && answer.length - bodyStart >= Number(length)) socket.destroy();
    });
    socket.on("close", done);
    socket.on("error", done);
    setTimeout(() => socket.destroy(), ms);
  });
}

function parseResponse(answer: string) {
  const [head, ...rest] = answer.split("\r\n\r\n");
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? "")?.[1]), head: head ?? "", body: rest.join("\r\n\r\n") };
}

/** The contract's failure body with nothing internal in it. */
function expectErrorShape(status: number, body: any) {
  expect([typeof body.error, typeof body.message, body.statusCode]).toEqual(["string", "string", status]);
  expect(ERROR_NAMES as string[]).toContain(body.name);
  expect(JSON.stringify(body)).not.toMatch(/ at |\/work\/|node_modules|\.ts:|Error:|SQLITE|mailroom-test-/);
}

/** RFC 2047 Q encoded-words back to text (mailparser leaves unknown headers encoded). */
const decodeQWords = (value: string) =>
  value
    .split(/\s+/)
    .map((word) => /^=\?UTF-8\?Q\?(.*)\?=$/.exec(word)![1]!)
    .map((text) =>
      Buffer.from(
        text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))),
        "latin1",
      ).toString("utf8"),
    )
    .join("");

const send = (body: unknown, headers: Record<string, string> = {}) => t.json("POST", "/v1/emails", { body, headers });
const message = (extra: Record<string, unknown> = {}) => ({
  from: "hi@example.com",
  to: "a@dest.test",
  subject: "Hi",
  html: "<p>Hi</p>",
  ...extra,
});

describe("requests the router cannot take", () => {
  test("CONNECT gets 405 in the error shape, not a framework page with paths and stack frames", async () => {
    const { status, head, body } = parseResponse(await rawRequest("CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n\r\n"));
    expect(status).toBe(405);
    expect(head).toMatch(/content-type: application\/json/i);
    expectErrorShape(405, JSON.parse(body));
    expect(body).not.toContain(t.dataDir);
  });

  test("an absolute-form target is routed by its path (RFC 9112 §3.2.2)", async () => {
    const { status, body } = parseResponse(
      await rawRequest("GET http://other.test/v1/nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
    );
    expect(status).toBe(404);
    expectErrorShape(404, JSON.parse(body));
  });

  test("a one-letter Host still routes by the whole path", async () => {
    const { status, body } = parseResponse(
      await rawRequest(
        `GET /v1/emails HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.liveKey}\r\nConnection: close\r\n\r\n`,
      ),
    );
    expect([status, JSON.parse(body).object]).toEqual([200, "list"]);
  });

  test("an unknown method is 405 with the error shape", async () => {
    const { status, body } = parseResponse(
      await rawRequest("PROPFIND /v1/emails HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
    );
    expect(status).toBe(405);
    expectErrorShape(405, JSON.parse(body));
  });
});

describe("path parameters are decoded once", () => {
  test("a suppressed address containing % can be read and removed, and %25 never means another address", async () => {
    expect((await t.json("POST", "/v1/suppressions", { body: { email: "a%61@x.test" } })).status).toBe(200);
    expect((await t.json("POST", "/v1/suppressions", { body: { email: "aa@x.test" } })).status).toBe(200);
    const read = await t.json("GET", "/v1/suppressions/a%2561@x.test");
    expect([read.status, read.body.email]).toEqual([200, "a%61@x.test"]);
    expect((await t.json("DELETE", "/v1/suppressions/a%2561@x.test")).status).toBe(200);
    // The entry of aa@x.test — what a second decoding would have named — is untouched.
    expect((await t.json("GET", "/v1/suppressions/aa@x.test")).status).toBe(200);
    expect((await t.json("GET", "/v1/suppressions/a%2561@x.test")).status).toBe(404);
  });

  test.each([
    "/v1/suppressions/%25",
    "/v1/suppressions/%zz",
    "/v1/suppressions/%E0%A4%A",
    "/v1/domains/%",
    "/v1/domains/%25/verify",
    "/v1/emails/%zz",
    "/v1/webhooks/%",
  ])("%s is a 4xx in the error shape", async (path) => {
    const { status, body } = await t.json(path.endsWith("verify") ? "POST" : "GET", path);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expectErrorShape(status, body);
  });
});

describe("JSON bodies", () => {
  test("nesting 100,000 deep is a 400 with or without an Idempotency-Key", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    for (const headers of [{}, { "idempotency-key": "deep-1" }] as Array<Record<string, string>>) {
      const { status, body } = await send(deep, headers);
      expect(status).toBe(400);
      expectErrorShape(400, body);
      expect(body.message).toContain("nests deeper");
    }
  });

  test("a body trickled slower than the minimum rate is cut off with a 400", async () => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    const closed = new Promise((resolve) => socket.on("close", resolve));
    socket.write(
      `POST /v1/emails HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.liveKey}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"from":`,
    );
    const trickle = setInterval(() => socket.writable && socket.write(" "), 100);
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5000))]);
    clearInterval(trickle);
    socket.destroy();
    const { status, body } = parseResponse(answer);
    expect(status).toBe(400);
    expect(JSON.parse(body).message).toContain("did not arrive in time");
  });
});

describe("headers are written as RFC 5322 requires", () => {
  test("long runs of spaces never produce folded lines of whitespace alone, and the values read back exactly", async () => {
    const subject = `${" ".repeat(200)}x`;
    const custom = `a${" ".repeat(300)}b`;
    const { status, body } = await send(message({ subject, headers: { "X-Spaces": custom } }));
    expect(status).toBe(200);
    const raw = await (await t.request("GET", `/v1/emails/${body.id}/raw`)).text();
    const header = raw.split("\r\n\r\n")[0]!;
    for (const line of header.split("\r\n")) {
      expect(line).not.toMatch(/^[ \t]*$/);
      expect(line.length).toBeLessThanOrEqual(78);
    }
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe(subject);
    expect(decodeQWords(parsed.headers.get("x-spaces") as string)).toBe(custom);
  });
});

describe("finding 11: address headers are encoded and folded by the one header encoder", () => {
  const collapsed = (name: string) => name.replace(/\s+/gu, " ").trim();
  const mailbox = (name: string, address: string) => `"${name.replace(/["\\]/g, "\\$&")}" <${address}>`;

  test("finding 11: display names of runs of spaces and tabs, long names and non-ASCII names fold into valid lines and read back", async () => {
    const names = {
      from: `Acme${" ".repeat(120)}\t\t\tBilling`,
      to: [
        `${" \t".repeat(80)}Ann`,
        `Jöhn “Q” Smith, Jr.${"  ".repeat(40)}(Sales) @ HQ`,
        `${"Verylongword ".repeat(12)}end`,
      ],
      cc: [`Zoë${"\t".repeat(100)}Ørsted`],
      reply_to: [`a${" ".repeat(300)}b`],
    };
    const { status, body } = await send(
      message({
        from: mailbox(names.from, "hi@example.com"),
        to: names.to.map((name, i) => mailbox(name, `to${i}@dest.test`)),
        cc: names.cc.map((name) => mailbox(name, "cc@dest.test")),
        reply_to: names.reply_to.map((name) => mailbox(name, "reply@dest.test")),
      }),
    );
    expect(status).toBe(200);
    const raw = await (await t.request("GET", `/v1/emails/${body.id}/raw`)).arrayBuffer();
    const header = Buffer.from(raw).toString("latin1").split("\r\n\r\n")[0]!;
    for (const line of header.split("\r\n")) {
      // RFC 5322 §3.2.2: a folded line holds more than white space; §2.1.1: at most 998 octets, 78 where possible.
      expect(line).not.toMatch(/^[ \t]*$/);
      expect(line.length).toBeLessThanOrEqual(78);
    }
    const parsed = await simpleParser(Buffer.from(raw));
    const names_ = (field: typeof parsed.to) =>
      [field ?? []].flat().flatMap((object) => object.value.map((entry) => entry.name));
    expect(names_(parsed.from)).toEqual([collapsed(names.from)]);
    expect(names_(parsed.to)).toEqual(names.to.map(collapsed));
    expect(names_(parsed.cc)).toEqual(names.cc.map(collapsed));
    expect(names_(parsed.replyTo)).toEqual(names.reply_to.map(collapsed));
    expect([
      parsed.from!.value[0]!.address,
      ...[parsed.to!].flat().flatMap((o) => o.value.map((e) => e.address)),
    ]).toEqual(["hi@example.com", "to0@dest.test", "to1@dest.test", "to2@dest.test"]);
  });

  test("a name too long for one line stays one word within 998 octets, and specials are quoted", async () => {
    const long = "x".repeat(600);
    const { status, body } = await send(
      message({ from: mailbox("Ops: a, b; c", "hi@example.com"), to: mailbox(long, "a@dest.test") }),
    );
    expect(status).toBe(200);
    const raw = await (await t.request("GET", `/v1/emails/${body.id}/raw`)).text();
    const header = raw.split("\r\n\r\n")[0]!;
    for (const line of header.split("\r\n")) expect(line.length).toBeLessThanOrEqual(998);
    expect(header).toMatch(/^From: "Ops: a, b; c" <hi@example\.com>\r$/m);
    const parsed = await simpleParser(raw);
    expect(parsed.to && !Array.isArray(parsed.to) && parsed.to.value[0]!.name).toBe(long);
  });
});

describe("custom headers are applied or refused, never dropped", () => {
  test("an empty value, a Reply-To header and a name given twice are refused, each named", async () => {
    const { status, body } = await send(
      message({
        headers: { "X-Empty": "", "X-Blank": "   ", "Reply-To": "r@example.com", "X-Twice": "1", "x-twice": "2" },
      }),
    );
    expect(status).toBe(400);
    expect(body.details.map((d: { path: string }) => d.path).sort()).toEqual([
      "headers.Reply-To",
      "headers.X-Blank",
      "headers.X-Empty",
      "headers.x-twice",
    ]);
  });

  test("every accepted custom header is in the message, __proto__ included", async () => {
    const headers =
      '{"__proto__": "p", "constructor": "c", "In-Reply-To": "<parent@example.com>", "References": "<parent@example.com>", "X-Entity-Ref-ID": "42"}';
    const { status, body } = await send(JSON.stringify(message()).replace(/}$/, `,"headers":${headers}}`));
    expect(status).toBe(200);
    const raw = await (await t.request("GET", `/v1/emails/${body.id}/raw`)).text();
    const parsed = await simpleParser(raw);
    expect(parsed.headers.get("x-entity-ref-id")).toBe("42");
    expect(parsed.headers.get("constructor")).toBe("c");
    expect(parsed.inReplyTo).toBe("<parent@example.com>");
    expect(parsed.references).toBe("<parent@example.com>");
    expect(raw).toMatch(/^__proto__: p\r$/m);
  });

  test("Sender is held to the From rule: an unverified domain is refused, a verified one is written", async () => {
    const refused = await send(message({ headers: { Sender: "ops@unverified.test" } }));
    expect([refused.status, refused.body.name]).toEqual([422, "domain_not_verified"]);
    const accepted = await send(message({ headers: { Sender: "Ops <ops@example.com>" } }));
    expect(accepted.status).toBe(200);
    const raw = await (await t.request("GET", `/v1/emails/${accepted.body.id}/raw`)).text();
    expect(raw).toMatch(/^Sender: Ops <ops@example\.com>\r$/m);
  });
});
