/**
 * Security findings about rights (docs/keys-and-limits.md, docs/teams.md, docs/deliverability.md), each reproduced as the attack it was, through the HTTP API on
 * the suite's engine: a person or key acts only on keys within its own rights (finding 11); what a key mints shares
 * its daily quota (finding 8); a viewer reads records without message content (finding 10); a tenant's tracking host
 * answers its own mail's links only (finding 7); an IP pool is named and seen only by the organisations it is open to
 * (the suspicion about docs/deliverability.md's pools).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { simpleParser } from "mailparser";
import { operatorActor } from "../src/access.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { createApp } from "../src/server/app.ts";
import { createTestApp, testConfig, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { asPerson, PASSWORD, setUpOwner, signIn } from "./helpers/people.ts";

let t: TestApp;
let owner: string;
let developer: string;
let viewer: string;
let dns: DnsServer;

beforeAll(async () => {
  dns = await startDnsServer();
  t = await createTestApp({
    webhooks: { allow_private_networks: true },
    dns: { servers: dns.servers },
    server: { hostname: "mail.mailroom.test" },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  owner = await setUpOwner(t);
  const made = await t.app.services.people.createUser({
    email: "developer@example.com",
    organizationId: t.organizationId,
    role: "developer",
  });
  await t.app.services.people.setPassword({ token: made.token, password: PASSWORD });
  developer = await signIn(t, "developer@example.com");
  const watcher = await t.app.services.people.createUser({
    email: "viewer@example.com",
    organizationId: t.organizationId,
    role: "viewer",
  });
  await t.app.services.people.setPassword({ token: watcher.token, password: PASSWORD });
  viewer = await signIn(t, "viewer@example.com");
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});

const refused = (res: { status: number; body: { name: string; message: string } }, why: string) => {
  expect([res.status, res.body.name]).toEqual([403, "insufficient_scope"]);
  expect(res.body.message).toContain(why);
};

describe("finding 11: keys beyond one's own rights", () => {
  test("finding 11: a developer cannot rename or revoke the owner's full_access live key", async () => {
    const ownersKey = await asPerson(t, "POST", "/v1/api-keys", owner, { body: { name: "owner's live key" } });
    expect(ownersKey.status).toBe(201);
    const id = ownersKey.body.id as string;

    refused(await asPerson(t, "DELETE", `/v1/api-keys/${id}`, developer), '"members:read"');
    refused(await asPerson(t, "PATCH", `/v1/api-keys/${id}`, developer, { body: { name: "mine" } }), "rights");
    // Untouched: the key still works and keeps its name.
    const current = await t.json("GET", "/v1/api-keys/current", { key: ownersKey.body.token });
    expect(current.status).toBe(200);
    const listed = (await asPerson(t, "GET", "/v1/api-keys", owner)).body.data.find((k: { id: string }) => k.id === id);
    expect(listed.name).toBe("owner's live key");

    // A key within the developer's role is theirs to rename and revoke.
    const sending = await asPerson(t, "POST", "/v1/api-keys", owner, {
      body: { name: "sender", permission: "sending_access" },
    });
    expect(
      (await asPerson(t, "PATCH", `/v1/api-keys/${sending.body.id}`, developer, { body: { name: "s" } })).status,
    ).toBe(200);
    expect((await asPerson(t, "DELETE", `/v1/api-keys/${sending.body.id}`, developer)).status).toBe(200);
  });

  test("finding 11: a key revokes only keys whose scopes, domains and mode are within its own", async () => {
    const mint = async (body: Record<string, unknown>) => {
      const res = await t.json("POST", "/v1/api-keys", { body: { name: "k", ...body } });
      expect(res.status).toBe(201);
      return { id: res.body.id as string, token: res.body.token as string };
    };
    const keyManager = await mint({ scopes: ["api_keys:write", "api_keys:read", "emails:send"] });
    const fullAccess = await mint({});
    refused(await t.json("DELETE", `/v1/api-keys/${fullAccess.id}`, { key: keyManager.token }), '"emails:read"');
    const sender = await mint({ permission: "sending_access" });
    expect((await t.json("DELETE", `/v1/api-keys/${sender.id}`, { key: keyManager.token })).status).toBe(200);

    // A key restricted to one domain leaves unrestricted keys, and other domains' keys, alone.
    const restricted = await mint({ scopes: ["api_keys:write", "emails:send"], domains: ["example.com"] });
    const unrestricted = await mint({ permission: "sending_access" });
    refused(await t.json("DELETE", `/v1/api-keys/${unrestricted.id}`, { key: restricted.token }), "example.com");
    const otherDomain = await mint({ permission: "sending_access", domains: ["other.example"] });
    refused(
      await t.json("PATCH", `/v1/api-keys/${otherDomain.id}`, { key: restricted.token, body: { name: "x" } }),
      "other.example",
    );
    const sameDomain = await mint({ permission: "sending_access", domains: ["example.com"] });
    expect((await t.json("DELETE", `/v1/api-keys/${sameDomain.id}`, { key: restricted.token })).status).toBe(200);

    // A test key leaves live keys alone, saying it is a sandbox; test keys within it are its to revoke.
    refused(await t.json("DELETE", `/v1/api-keys/${sender.id}`, { key: t.testKey }), "sandbox");
    const testChild = await t.json("POST", "/v1/api-keys", { key: t.testKey, body: { name: "child" } });
    expect((await t.json("DELETE", `/v1/api-keys/${testChild.body.id}`, { key: t.testKey })).status).toBe(200);
  });
});

describe("finding 8: a key's daily quota", () => {
  test("finding 8: minting child keys does not multiply a key's daily quota", async () => {
    const parent = await t.json("POST", "/v1/api-keys", { body: { name: "three a day", daily_quota: 3 } });
    expect(parent.status).toBe(201);
    const mint = async (key: string) => {
      const child = await t.json("POST", "/v1/api-keys", { key, body: { name: "child" } });
      expect([child.status, child.body.daily_quota]).toEqual([201, 3]);
      return child.body.token as string;
    };
    const child = await mint(parent.body.token);
    const sibling = await mint(parent.body.token);
    const grandchild = await mint(child);
    const send = (key: string) =>
      t.json("POST", "/v1/emails", {
        key,
        body: { from: "hi@example.com", to: "reader@dest.example", subject: "Quota", text: "One of three" },
      });
    // Each has a quota of 3 of its own, but all three messages count against the parent's 3 too.
    for (const key of [child, sibling, grandchild]) expect((await send(key)).status).toBe(200);
    for (const key of [parent.body.token, child, sibling, grandchild]) {
      const refusedToday = await send(key);
      expect([refusedToday.status, refusedToday.body.name]).toEqual([429, "daily_quota_exceeded"]);
      expect(refusedToday.headers.get("retry-after")).not.toBeNull();
    }
    // A descendant is told whose quota it shares.
    expect((await send(grandchild)).body.message).toContain(parent.body.id);
  });
});

describe("finding 10: message content", () => {
  test("finding 10: a viewer reads records without message content: no html or text, raw, attachments, received mail or clicked links", async () => {
    const hook = await t.json("POST", "/v1/webhooks", {
      body: { endpoint: "http://127.0.0.1:9/hook", events: ["email.clicked"] },
    });
    const reset = "https://app.example.org/reset?token=s3cret-reset-token";
    const sent = await t.json("POST", "/v1/emails", {
      body: {
        from: "hi@example.com",
        to: "someone@dest.example",
        subject: "Reset your password",
        html: `<p><a href="${reset}">Reset</a></p>`,
        text: `Reset: ${reset}`,
        tracking: { clicks: true },
        attachments: [{ filename: "a.txt", content: Buffer.from("hello").toString("base64") }],
      },
    });
    expect(sent.status).toBe(200);
    const id = sent.body.id as string;
    // The recipient clicks the link: the click event, and its webhook payload, name it.
    const raw = Buffer.from(await (await t.request("GET", `/v1/emails/${id}/raw`)).arrayBuffer()).toString("latin1");
    const click = /\/t\/c\/[A-Za-z0-9_=-]+/.exec(raw.replace(/=\r\n/g, "").replace(/=3D/g, "="))![0];
    expect((await t.request("GET", click, { key: null })).status).toBe(302);
    const attachmentId = (await t.json("GET", `/v1/emails/${id}/attachments`)).body.data[0].id as string;

    const record = await asPerson(t, "GET", `/v1/emails/${id}`, viewer);
    expect(record.status).toBe(200);
    // Resend's wire shape stays: the fields are there, null.
    expect(record.body).toMatchObject({ id, subject: "Reset your password", html: null, text: null });
    const clicked = record.body.events.find((e: { type: string }) => e.type === "email.clicked");
    expect(clicked.data.link).toBeNull();
    expect(JSON.stringify(record.body)).not.toContain("s3cret-reset-token");
    const formB = await asPerson(t, "GET", `/functions/v1/send-email/${id}`, viewer);
    expect([formB.body.html, formB.body.text]).toEqual([null, null]);

    for (const path of [
      `/v1/emails/${id}/raw`,
      `/v1/emails/${id}/attachments`,
      `/v1/emails/${id}/attachments/${attachmentId}`,
      `/v1/emails/${id}/attachments/${attachmentId}/content`,
    ])
      refused(await asPerson(t, "GET", path, viewer), "Viewers read records, not message content");
    for (const path of ["/v1/emails/receiving", `/v1/emails/receiving/${id}`, `/v1/emails/receiving/${id}/raw`])
      refused(await asPerson(t, "GET", path, viewer), "Viewers do not read received mail");

    const events = await asPerson(t, "GET", `/v1/webhooks/${hook.body.id}/events`, viewer);
    const event = await asPerson(t, "GET", `/v1/webhooks/${hook.body.id}/events/${events.body.data[0].id}`, viewer);
    expect(event.status).toBe(200);
    expect(event.body.payload.data.link).toBeNull();
    expect(JSON.stringify(event.body)).not.toContain("s3cret-reset-token");

    // What a viewer is told it may do, and everyone else's reading as before: a developer and an emails:read key.
    expect((await asPerson(t, "GET", "/v1/api-keys/current", viewer)).body.reads_message_content).toBe(false);
    expect((await asPerson(t, "GET", "/v1/api-keys/current", developer)).body.reads_message_content).toBe(true);
    const byDeveloper = await asPerson(t, "GET", `/v1/emails/${id}`, developer);
    expect(byDeveloper.body.text).toContain("s3cret-reset-token");
    const reader = await t.json("POST", "/v1/api-keys", { body: { name: "reader", scopes: ["emails:read"] } });
    const byKey = await t.json("GET", `/v1/emails/${id}`, { key: reader.body.token });
    expect(byKey.body.html).toContain("<a href=");
    expect((await t.request("GET", `/v1/emails/${id}/raw`, { key: reader.body.token })).status).toBe(200);
  });
});

describe("finding 7: a tracking host is its owners'", () => {
  /** An organisation of its own with a live and a test key, made by the operator. */
  const organization = async (name: string) => {
    const { id } = await t.app.services.people.createOrganization(t.operator, name);
    const mint = (mode: "live" | "test") =>
      t.app.services.keys.create(operatorActor(id), { name, scopes: ["full_access"], mode }).then((k) => k.key);
    return { id, live: await mint("live"), test: await mint("test") };
  };
  /** `links.<domain>` asked for by `key`'s organisation and its CNAME found. */
  const trackingHostFor = async (key: string, domain: string) => {
    expect(
      (await t.json("PATCH", `/v1/domains/${domain}`, { key, body: { tracking_subdomain: "links" } })).status,
    ).toBe(200);
    const checked = await t.json("POST", `/v1/domains/${domain}/verify`, { key });
    expect(checked.body.records.find((r: { record: string }) => r.record === "Tracking").status).toBe("verified");
  };
  /** Sends a tracked message as `key` and answers the paths of its click, open and unsubscribe links, and their host. */
  const tracked = async (key: string, from: string) => {
    const sent = await t.json("POST", "/v1/emails", {
      key,
      body: {
        from,
        to: "reader@dest.example",
        subject: "Links",
        html: '<p><a href="https://evil.example/phish">Sale</a></p>',
        unsubscribe: true,
        tracking: { opens: true, clicks: true },
      },
    });
    expect(sent.status).toBe(200);
    const raw = Buffer.from(await (await t.request("GET", `/v1/emails/${sent.body.id}/raw`, { key })).arrayBuffer());
    // The header block (List-Unsubscribe) and the decoded HTML: the raw body is quoted-printable, wrapped mid-token.
    const header = raw.toString("latin1").slice(0, raw.indexOf("\r\n\r\n"));
    const text = `${header}\n${(await simpleParser(raw)).html}`;
    const path = (kind: string) => new RegExp(`https?://([^/\\s"]+)(/${kind}/[A-Za-z0-9_-]+)`).exec(text);
    const [click, open, unsubscribe] = [path("t/c"), path("t/o"), path("u")];
    return { click: click?.[2], open: open![2]!, unsubscribe: unsubscribe![2]!, host: open![1]! };
  };
  const on = (host: string, path: string, method = "GET") => t.request(method, path, { key: null, headers: { host } });

  test("finding 7: another organisation's click, open and unsubscribe tokens are not answered on a tenant's tracking host", async () => {
    dns.set("links.a.test", "CNAME", ["mail.mailroom.test"]);
    await t.app.services.domains.add(t.operator, "a.test", { verifiedOverride: true });
    await trackingHostFor(t.liveKey, "a.test");
    const own = await tracked(t.liveKey, "hi@a.test");
    expect(own.host).toBe("links.a.test");
    expect((await on("links.a.test", own.click!)).status).toBe(302);

    // Organisation B, with a verified domain of its own: its links are on Mailroom's own host, and work there.
    const b = await organization("B");
    await t.app.services.domains.add(operatorActor(b.id), "b.test", { verifiedOverride: true });
    const theirs = await tracked(b.live, "hi@b.test");
    expect(theirs.host).not.toBe("links.a.test");
    expect((await on("mail.example.net", theirs.click!)).status).toBe(302);
    // The attack: B's redirect asked for by A's name. Not found, nor its open pixel or unsubscribe pages.
    const redirect = await on("links.a.test", theirs.click!);
    expect([redirect.status, redirect.headers.get("location")]).toEqual([404, null]);
    expect((await on("links.a.test", theirs.open)).status).toBe(404);
    expect((await on("links.a.test", theirs.unsubscribe)).status).toBe(404);
    expect((await on("links.a.test", theirs.unsubscribe, "POST")).status).toBe(404);
    expect((await t.json("GET", "/v1/suppressions/reader@dest.example", { key: b.live })).status).toBe(404);

    // B adds the name a.test without proving it: A's CNAME makes its tracking record found, but B sends only test
    // mail from it, whose links stay on Mailroom's host, and whose tokens a.test's host does not answer.
    await t.json("POST", "/v1/domains", { key: b.live, body: { name: "a.test" } });
    await trackingHostFor(b.live, "a.test");
    const borrowed = await tracked(b.test, "hi@a.test");
    expect(borrowed.host).not.toBe("links.a.test");
    expect((await on("links.a.test", borrowed.unsubscribe)).status).toBe(404);
    expect((await on("links.a.test", borrowed.open)).status).toBe(404);

    // Organisation C verifies a.test too (each organisation proves it with its own DKIM key): it owns the host as
    // much as A, so its mail's links work there, and A's still do.
    const c = await organization("C");
    await t.app.services.domains.add(operatorActor(c.id), "a.test", { verifiedOverride: true });
    await trackingHostFor(c.live, "a.test");
    const shared = await tracked(c.live, "hi@a.test");
    expect(shared.host).toBe("links.a.test");
    expect((await on("links.a.test", shared.click!)).status).toBe(302);
    expect((await on("links.a.test", own.click!)).status).toBe(302);
    expect((await on("links.a.test", theirs.click!)).status).toBe(404);
  });
});

describe("IP pools and organisations (docs/deliverability.md)", () => {
  test("a pool naming organisations is theirs alone: another neither sees it nor binds its domain to it", async () => {
    const shared = { addresses: ["127.0.0.2"] };
    const dedicated = { addresses: ["127.0.0.3"] };
    // Before: every pool open to every organisation, as on a one-team instance. B binds its domain to the pool the
    // operator then dedicates to A, and restarts with the pool closed to B.
    const before = await createTestApp({ ip_pools: { shared, dedicated } });
    const a = before.organizationId;
    const b = (await before.app.services.people.createOrganization(before.operator, "B")).id;
    const bKey = (await before.app.services.keys.create(operatorActor(b), { name: "B", scopes: ["full_access"] })).key;
    for (const [organization, domain] of [
      [a, "a.test"],
      [b, "b.test"],
    ] as const)
      await before.app.services.domains.add(operatorActor(organization), domain, { verifiedOverride: true });
    const bound = await before.json("PATCH", "/v1/domains/b.test", { key: bKey, body: { ip_pool: "dedicated" } });
    expect(bound.body.ip_pool).toBe("dedicated");
    await before.app.stop();
    expect(() =>
      testConfig(before.dataDir, { ip_pools: { dedicated: { ...dedicated, organizations: ["acme"] } } }),
    ).toThrow(/organizations: "acme" is not an organisation's id/);
    const app = await createApp(
      testConfig(before.dataDir, {
        store: { url: before.config.store.url },
        ip_pools: { shared, dedicated: { ...dedicated, organizations: [a.toUpperCase()] } },
      }),
      { logger: silentLogger },
    );
    try {
      const as = async (key: string, method: string, path: string, body?: unknown) => {
        const headers: Record<string, string> = { authorization: `Bearer ${key}`, "content-type": "application/json" };
        const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
        const res = await app.http.handle(new Request(`http://localhost${path}`, init));
        return { status: res.status, body: (await res.json()) as any };
      };
      const pools = async (key: string) =>
        (await as(key, "GET", "/v1/ip-pools")).body.data.map((pool: { name: string }) => pool.name);
      expect(await pools(before.liveKey)).toEqual(["shared", "dedicated"]);
      expect(await pools(bKey)).toEqual(["shared"]);
      // What B bound before the pool was closed to it is not used: its mail leaves from the default address.
      const identity = await app.services.domains.signingIdentity(b, "b.test");
      expect(identity).toMatchObject({ domain: "b.test", ipPool: null });

      const refused = await as(bKey, "PATCH", "/v1/domains/b.test", { ip_pool: "dedicated" });
      expect([refused.status, refused.body.name, refused.body.details[0].path]).toEqual([
        400,
        "validation_error",
        "ip_pool",
      ]);
      // Refused as a pool that is not there would be: the message names only what B may choose.
      expect(refused.body.details[0].message).toContain("open to it: shared");
      expect((await as(bKey, "PATCH", "/v1/domains/b.test", { ip_pool: "shared" })).status).toBe(200);
      expect((await as(before.liveKey, "PATCH", "/v1/domains/a.test", { ip_pool: "dedicated" })).body.ip_pool).toBe(
        "dedicated",
      );
      expect((await app.services.domains.signingIdentity(a, "a.test"))?.ipPool).toBe("dedicated");
    } finally {
      await app.stop();
      rmSync(before.dataDir, { recursive: true, force: true });
    }
  });
});
