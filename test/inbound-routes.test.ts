/**
 * Inbound routes on both store engines: the API (kept in order 1..n, created and moved to a position, removed with
 * the gap closed, checked, scoped, tested against an address) and what they do to mail arriving at the MX over real
 * SMTP on loopback — a reject route answers 550 5.7.1 after the data and keeps nothing, a drop route answers 250 and
 * keeps nothing, a header condition decides, a webhook route notifies only its webhooks, and no route stores.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { smtpChat } from "./helpers/smtp-chat.ts";

let t: TestApp;
let dns: DnsServer;
let mxPort: number;

beforeAll(async () => {
  dns = await startDnsServer();
  t = await createTestApp({
    dns: { servers: dns.servers },
    webhooks: { allow_private_networks: true },
    inbound: { messages_per_ip_per_minute: 1000 },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  expect((await t.json("PATCH", "/v1/domains/example.com", { body: { receiving: true } })).status).toBe(200);
  const listeners = await t.app.start();
  mxPort = listeners.find((l) => l.name === "mx")!.port;
});

afterAll(async () => {
  await t.close();
  await dns.close();
});

type Route = { id: string; position: number; action: string; match: { recipient: string | null } };

const create = async (body: Record<string, unknown>) => {
  const res = await t.json("POST", "/v1/inbound/routes", { body });
  expect(res.status).toBe(200);
  return res.body as Route;
};
const order = async () =>
  ((await t.json("GET", "/v1/inbound/routes")).body.data as Route[]).map((r) => [r.match.recipient, r.position]);
const clear = async () => {
  for (const route of (await t.json("GET", "/v1/inbound/routes")).body.data as Route[])
    await t.json("DELETE", `/v1/inbound/routes/${route.id}`);
};

/** One SMTP transaction on the MX: the reply to the data (or to the first refused RCPT). */
async function deliver(to: string, headers: Record<string, string> = {}) {
  const chat = await smtpChat(mxPort);
  try {
    await chat.send("EHLO mail.sender.test");
    await chat.send("MAIL FROM:<someone@sender.test>");
    const rcpt = await chat.send(`RCPT TO:<${to}>`);
    if (rcpt.code !== 250) return rcpt;
    await chat.send("DATA");
    const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    chat.write(
      Buffer.from(
        `From: someone@sender.test\r\nTo: ${to}\r\nSubject: routed ${crypto.randomUUID()}\r\n${extra.join("")}\r\nHello.\r\n.\r\n`,
      ),
    );
    return await chat.next();
  } finally {
    chat.close();
  }
}

const storedFor = async (address: string) =>
  (await t.json("GET", "/v1/emails/receiving?limit=100")).body.data.filter((m: { received_for: string[] }) =>
    m.received_for.includes(address),
  );

describe("the routes API", () => {
  test("routes run 1..n: a new one goes last or to its position, PATCH moves one, removing closes the gap", async () => {
    await clear();
    const a = await create({ match: { recipient: "a@example.com" }, action: "store" });
    const b = await create({ match: { recipient: "B@Example.com" }, action: "drop" });
    await create({ match: { recipient: "*@example.com" }, action: "reject", position: 1 });
    expect(b.match.recipient).toBe("b@example.com");
    expect(await order()).toEqual([
      ["*@example.com", 1],
      ["a@example.com", 2],
      ["b@example.com", 3],
    ]);
    const moved = await t.json("PATCH", `/v1/inbound/routes/${b.id}`, { body: { position: 1 } });
    expect(moved.body).toMatchObject({ position: 1, action: "drop" });
    expect(await order()).toEqual([
      ["b@example.com", 1],
      ["*@example.com", 2],
      ["a@example.com", 3],
    ]);
    expect((await t.json("DELETE", `/v1/inbound/routes/${b.id}`)).body).toEqual({
      object: "inbound_route",
      id: b.id,
      deleted: true,
    });
    expect(await order()).toEqual([
      ["*@example.com", 1],
      ["a@example.com", 2],
    ]);
    expect((await t.json("GET", `/v1/inbound/routes/${a.id}`)).body.position).toBe(2);
    expect((await t.json("GET", `/v1/inbound/routes/${b.id}`)).status).toBe(404);
    const page = await t.json("GET", "/v1/inbound/routes?limit=1");
    expect(page.body).toMatchObject({ object: "list", has_more: true });
    await clear();
  });

  test("routes created and moved at the same time still run 1..n, each at one position", async () => {
    await clear();
    const made = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create({ match: { recipient: `r${i}@example.com` }, action: "store" })),
    );
    const positions = async () =>
      ((await t.json("GET", "/v1/inbound/routes")).body.data as Route[]).map((r) => r.position);
    expect(await positions()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await Promise.all(
      made.map((route, i) => t.json("PATCH", `/v1/inbound/routes/${route.id}`, { body: { position: (i % 3) + 1 } })),
    );
    expect(await positions()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // A change that does not move a route, beside moves of others, keeps its place wherever they put it.
    await Promise.all(
      made.map((route, i) =>
        t.json("PATCH", `/v1/inbound/routes/${route.id}`, {
          body: i % 2 ? { spam_threshold: i } : { position: 8 - i },
        }),
      ),
    );
    expect(await positions()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await Promise.all(made.slice(0, 4).map((route) => t.json("DELETE", `/v1/inbound/routes/${route.id}`)));
    expect(await positions()).toEqual([1, 2, 3, 4]);
    await clear();
  });

  test("an action gets what it needs and nothing it would ignore; a webhook must be the organisation's", async () => {
    const refused = async (body: Record<string, unknown>, path: string) => {
      const res = await t.json("POST", "/v1/inbound/routes", { body });
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    };
    await refused({ action: "forward" }, "forward_to");
    await refused({ action: "forward", forward_to: ["not an address"] }, "forward_to.0");
    await refused({ action: "store", forward_to: ["x@elsewhere.test"] }, "forward_to");
    await refused({ action: "webhook" }, "webhook_ids");
    await refused({ action: "webhook", webhook_ids: [crypto.randomUUID()] }, "webhook_ids");
    await refused({ action: "store", match: { recipient: "*@" } }, "match.recipient");
    await refused({ action: "bounce" }, "action");
  });

  test("testing an address names the route that decides and whether the MX takes its mail", async () => {
    await clear();
    const vip = await create({
      match: { recipient: "*@example.com", header: { name: "X-Priority", contains: "urgent" } },
      action: "reject",
    });
    const tried = (body: Record<string, unknown>) => t.json("POST", "/v1/inbound/routes/test", { body });
    expect((await tried({ recipient: "Help@Example.com" })).body).toEqual({
      object: "inbound_route_test",
      recipient: "help@example.com",
      receiving: true,
      route: null,
      action: "store",
    });
    const urgent = await tried({ recipient: "help@example.com", headers: { "x-priority": "Very URGENT" } });
    expect(urgent.body).toMatchObject({ action: "reject", route: { id: vip.id } });
    expect((await tried({ recipient: "someone@elsewhere.test" })).body.receiving).toBe(false);
    expect((await tried({ recipient: "*@example.com" })).status).toBe(400);
    await clear();
  });

  test("reading takes inbound:read and changing domains:write; a test key has neither", async () => {
    const reader = await t.app.services.keys.create(t.operator, { name: "reader", scopes: ["inbound:read"] });
    expect((await t.json("GET", "/v1/inbound/routes", { key: reader.key })).status).toBe(200);
    const write = await t.json("POST", "/v1/inbound/routes", { key: reader.key, body: { action: "drop" } });
    expect(write.status).toBe(403);
    expect((await t.json("GET", "/v1/inbound/routes", { key: t.testKey })).status).toBe(403);
  });
});

describe("routes at the MX", () => {
  test("reject refuses after the data with 550 5.7.1 and keeps nothing; drop takes it and keeps nothing", async () => {
    await clear();
    await create({ match: { recipient: "no-reply@example.com" }, action: "reject" });
    await create({ match: { header: { name: "X-Spam-Flag", contains: "yes" } }, action: "drop" });
    const rejected = await deliver("no-reply@example.com");
    expect(rejected.code).toBe(550);
    expect(rejected.text).toContain("5.7.1");
    expect(await storedFor("no-reply@example.com")).toEqual([]);
    const dropped = await deliver("sales@example.com", { "X-Spam-Flag": "YES" });
    expect(dropped.code).toBe(250);
    expect(await storedFor("sales@example.com")).toEqual([]);
    expect((await deliver("sales@example.com")).code).toBe(250);
    const kept = await storedFor("sales@example.com");
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ route_id: null, spam: null });
    await clear();
  });

  test("a webhook route stores the message and tells only its webhooks", async () => {
    await clear();
    const hook = async (name: string) =>
      (
        await t.json("POST", "/v1/webhooks", {
          body: { endpoint: `http://127.0.0.1:9/${name}`, events: ["email.received"] },
        })
      ).body.id as string;
    const [chosen, other, unsubscribed] = [await hook("chosen"), await hook("other"), await hook("unsubscribed")];
    await t.json("PATCH", `/v1/webhooks/${unsubscribed}`, { body: { events: ["email.sent"] } });
    const route = await create({
      match: { recipient: "support@example.com" },
      action: "webhook",
      webhook_ids: [chosen, unsubscribed],
    });
    expect((await deliver("support@example.com")).code).toBe(250);
    const [message] = await storedFor("support@example.com");
    expect(message.route_id).toBe(route.id);
    const outbox = await t.app.services.store.query<{ endpoint_id: string }>(
      sql`SELECT d.endpoint_id FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
          WHERE e.type = 'email.received' AND CAST(e.data AS TEXT) LIKE ${`%${message.id}%`}`,
    );
    expect(outbox.map((row) => row.endpoint_id).sort()).toEqual([chosen, unsubscribed].sort());
    // Without a route, every webhook subscribed to email.received hears of it, as before.
    await clear();
    expect((await deliver("info@example.com")).code).toBe(250);
    const [plain] = await storedFor("info@example.com");
    const all = await t.app.services.store.query<{ endpoint_id: string }>(
      sql`SELECT d.endpoint_id FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
          WHERE e.type = 'email.received' AND CAST(e.data AS TEXT) LIKE ${`%${plain.id}%`}`,
    );
    expect(all.map((row) => row.endpoint_id).sort()).toEqual([chosen, other].sort());
  });
});
