/**
 * The SSRF guard through the API and the dispatcher: literal private addresses and names that resolve to them
 * (through a DNS server on loopback — never the system resolver) are refused at creation and at delivery; the
 * request goes to the checked address while TLS and Host carry the endpoint's name.
 */
import { operatorActor } from "../src/access.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { generate } from "selfsigned";
import { createApp } from "../src/server/app.ts";
import { ManualClock } from "../src/lib/clock.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { createTestApp, tempDir, testConfig, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { startFloodServer } from "./helpers/flood-server.ts";
import { startWebhookReceiver } from "./helpers/webhook-receiver.ts";

let dns: DnsServer;
let t: TestApp;

beforeEach(async () => {
  dns = await startDnsServer();
  t = await createTestApp({ dns: { servers: dns.servers } });
});

afterEach(async () => {
  await t.close();
  await dns.close();
});

const create = (endpoint: string) =>
  t.json("POST", "/v1/webhooks", { body: { endpoint, events: ["suppression.added"] } });

describe("refused at creation", () => {
  test.each([
    ["plain http", "http://hooks.example.org/x", "must use https"],
    [
      "plain http on loopback, as a local receiver is",
      "http://127.0.0.1:4500/hooks",
      "must use https; webhook endpoints must be public (set [webhooks] allow_private_networks = true for local receivers)",
    ],
    ["loopback", "https://127.0.0.1/x", "loopback"],
    ["loopback in another spelling", "https://2130706433/x", "loopback"],
    ["RFC 1918", "https://10.1.2.3/x", "private"],
    ["RFC 1918 (192.168)", "https://192.168.1.1:8443/x", "private"],
    ["cloud metadata", "https://169.254.169.254/latest/meta-data", "link-local"],
    ["CGNAT", "https://100.64.0.1/x", "carrier-grade NAT"],
    ["this network", "https://0.0.0.0/x", "unspecified"],
    ["IPv6 loopback", "https://[::1]/x", "loopback"],
    ["IPv6 unique-local", "https://[fd00:ec2::254]/x", "unique-local"],
    ["IPv6 link-local", "https://[fe80::1]/x", "link-local"],
    ["IPv4-mapped IPv6", "https://[::ffff:127.0.0.1]/x", "loopback"],
    ["documentation range", "https://192.0.2.10/x", "reserved"],
    ["localhost name", "https://localhost/x", "loopback name"],
    ["credentials in the URL", "https://user:pass@hooks.example.org/x", "user name or password"],
  ])("%s: %s", async (_what, endpoint, reason) => {
    const res = await create(endpoint);
    expect(res.status).toBe(400);
    expect(res.body.name).toBe("validation_error");
    expect(res.body.details[0]).toMatchObject({ path: "endpoint", message: expect.stringContaining(reason) });
  });

  test("a name that resolves to 127.0.0.1 is refused", async () => {
    dns.set("internal.example.org", "A", ["127.0.0.1"]);
    const res = await create("https://internal.example.org/hook");
    expect(res.status).toBe(400);
    expect(res.body.details[0].message).toContain("127.0.0.1 is a loopback address");
    expect(dns.queries).toContain("internal.example.org A");
  });

  test("a name with one public and one private address is refused", async () => {
    dns.set("mixed.example.org", "A", ["8.8.8.8"]);
    dns.set("mixed.example.org", "AAAA", ["fd00::1"]);
    const res = await create("https://mixed.example.org/hook");
    expect(res.status).toBe(400);
    expect(res.body.details[0].message).toContain("fd00::1");
  });

  test("a name that does not resolve is refused", async () => {
    const res = await create("https://nowhere.example.org/hook");
    expect(res.status).toBe(400);
    expect(res.body.details[0].message).toContain("no A or AAAA record");
  });

  test("a name with only public addresses is accepted", async () => {
    dns.set("hooks.example.org", "A", ["8.8.8.8"]);
    dns.set("hooks.example.org", "AAAA", ["2001:4860:4860::8888"]);
    expect((await create("https://hooks.example.org/hook")).status).toBe(200);
  });
});

describe("checked again at delivery", () => {
  // The runtime's resolver keeps answers for their TTL, so the moved record is seen by a fresh process: the app
  // is restarted on the same data directory (an attacker's low TTL would have the same effect in production).
  test("a name that moved to a private address after creation is refused, and nothing is sent", async () => {
    const clock = new ManualClock(Date.now());
    const receiver = await startWebhookReceiver({ clock });
    const dataDir = tempDir();
    const config = testConfig(dataDir, { dns: { servers: dns.servers } });
    let app = await createApp(config, { logger: silentLogger, clock });
    try {
      const org = await app.services.organizations.ensureDefault();
      const actor = await app.services.keys.authenticate(
        (await app.services.keys.create(operatorActor(org.id), { name: "k", scopes: ["full_access"] })).key,
      );
      dns.set("rebind.example.org", "A", ["8.8.8.8"]);
      const created = await app.services.webhooks.create(actor, {
        endpoint: `https://rebind.example.org:${receiver.port}/hooks`,
        events: ["suppression.added"],
      });
      await app.stop();

      dns.set("rebind.example.org", "A", ["127.0.0.1"]);
      app = await createApp(config, { logger: silentLogger, clock });
      await app.services.suppressions.add(operatorActor(org.id), { email: "x@dest.test" });
      expect(await app.services.webhookDispatcher.runOnce()).toBe(1);
      const [delivery] = (await app.services.webhooks.listDeliveries(actor, created.id, { limit: 10 })).data;
      expect(delivery).toMatchObject({ status: "attempting", last_status_code: null });
      expect(delivery!.last_error).toMatch(/^refused: 127\.0\.0\.1 is a loopback address/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await app.stop();
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("allow_private_networks", () => {
  test("allows loopback and plain http", async () => {
    const open = await createTestApp({ dns: { servers: dns.servers }, webhooks: { allow_private_networks: true } });
    try {
      expect(
        (
          await open.json("POST", "/v1/webhooks", {
            body: { endpoint: "http://127.0.0.1:9/x", events: ["email.sent"] },
          })
        ).status,
      ).toBe(200);
    } finally {
      await open.close();
    }
  });

  test("https goes to the resolved address with the endpoint's name in Host, SNI and certificate check", async () => {
    const now = new Date();
    const pair = await generate([{ name: "commonName", value: "hooks.example.org" }], {
      keyType: "ec",
      curve: "P-256",
      algorithm: "sha256",
      notBeforeDate: new Date(now.getTime() - 60_000),
      notAfterDate: new Date(now.getTime() + 86_400_000),
      extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: "hooks.example.org" }] }],
    });
    const clock = new ManualClock(Date.now());
    const receiver = await startWebhookReceiver({ clock, tls: { cert: pair.cert, key: pair.private } });
    const app = await createTestApp(
      { dns: { servers: dns.servers }, webhooks: { allow_private_networks: true } },
      { clock, webhookCa: pair.cert },
    );
    try {
      dns.set("hooks.example.org", "A", ["127.0.0.1"]);
      const created = await app.json("POST", "/v1/webhooks", {
        body: { endpoint: `https://hooks.example.org:${receiver.port}/hooks`, events: ["suppression.added"] },
      });
      expect(created.status).toBe(200);
      receiver.secrets.push(created.body.signing_secret);
      await app.json("POST", "/v1/suppressions", { body: { email: "x@dest.test" } });
      await app.app.services.webhookDispatcher.runOnce();
      const [delivery] = (await app.json("GET", `/v1/webhooks/${created.body.id}/events`)).body.data;
      expect(delivery).toMatchObject({ status: "success", last_error: null });
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]!.host).toBe(`hooks.example.org:${receiver.port}`);
      expect(receiver.received[0]!.verifiedWith).toEqual([0]);
    } finally {
      await app.close();
      await receiver.close();
    }
  });

  test("a certificate for another name is refused even at the pinned address", async () => {
    const now = new Date();
    const pair = await generate([{ name: "commonName", value: "other.example.org" }], {
      keyType: "ec",
      curve: "P-256",
      algorithm: "sha256",
      notBeforeDate: new Date(now.getTime() - 60_000),
      notAfterDate: new Date(now.getTime() + 86_400_000),
      extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: "other.example.org" }] }],
    });
    const receiver = await startWebhookReceiver({ tls: { cert: pair.cert, key: pair.private } });
    const app = await createTestApp(
      { dns: { servers: dns.servers }, webhooks: { allow_private_networks: true } },
      { webhookCa: pair.cert },
    );
    try {
      dns.set("hooks.example.org", "A", ["127.0.0.1"]);
      const created = await app.json("POST", "/v1/webhooks", {
        body: { endpoint: `https://hooks.example.org:${receiver.port}/hooks`, events: ["suppression.added"] },
      });
      await app.json("POST", "/v1/suppressions", { body: { email: "x@dest.test" } });
      await app.app.services.webhookDispatcher.runOnce();
      const [delivery] = (await app.json("GET", `/v1/webhooks/${created.body.id}/events`)).body.data;
      expect(delivery.status).toBe("attempting");
      expect(delivery.last_error).toMatch(/^connection failed/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await app.close();
      await receiver.close();
    }
  });
});

test("finding 6 (audit): a webhook receiver's endless answer is read no further than the 1 KiB the attempt log keeps", async () => {
  const flood = await startFloodServer({ totalBytes: 64 * 1024 * 1024 });
  const open = await createTestApp({ dns: { servers: dns.servers }, webhooks: { allow_private_networks: true } });
  try {
    const created = await open.json("POST", "/v1/webhooks", {
      body: { endpoint: `http://127.0.0.1:${flood.port}/hooks`, events: ["suppression.added"] },
    });
    await open.json("POST", "/v1/suppressions", { body: { email: "x@dest.test" } });
    await open.app.services.webhookDispatcher.runOnce();
    const [delivery] = (await open.json("GET", `/v1/webhooks/${created.body.id}/events`)).body.data;
    expect(delivery.status).toBe("success");
    const [attempt] = (await open.json("GET", `/v1/webhooks/${created.body.id}/events/${delivery.id}`)).body.attempts;
    expect(attempt.response).toBe("a".repeat(1024));
    expect(await flood.responseOver()).toBeLessThan(16 * 1024 * 1024);
  } finally {
    await open.close();
    await flood.close();
  }
});
