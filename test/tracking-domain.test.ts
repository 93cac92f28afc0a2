/**
 * A domain's own tracking host (issue 30, docs/deliverability.md) on the suite's engine: `tracking_subdomain` adds a CNAME
 * record to the domain's records, verified through a DNS server on loopback; until it is found links use
 * `[http] public_url`, afterwards the domain's open, click and unsubscribe links use `https://<sub>.<domain>`; the
 * redirect answers by Host, and that host serves nothing but tracking paths.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { simpleParser } from "mailparser";
import type { DomainView } from "../src/domains/model.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";

const BASE = "https://mail.example.net";
let t: TestApp;
let dns: DnsServer;

beforeEach(async () => {
  dns = await startDnsServer();
  t = await createTestApp({
    http: { public_url: BASE },
    dns: { servers: dns.servers },
    server: { hostname: "mail.mailroom.test" },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
});

afterEach(async () => {
  await t.close();
  await dns.close();
});

async function sendTracked(): Promise<string> {
  const res = await t.json("POST", "/v1/emails", {
    body: {
      from: "Acme <hi@example.com>",
      to: "reader@dest.test",
      subject: "Links",
      html: '<p><a href="https://shop.example.org/sale">Sale</a> {{unsubscribe_url}}</p>',
      unsubscribe: true,
      tracking: { opens: true, clicks: true },
    },
  });
  expect(res.status).toBe(200);
  const raw = Buffer.from(await (await t.request("GET", `/v1/emails/${res.body.id}/raw`)).arrayBuffer());
  const parsed = await simpleParser(raw);
  const header = raw.toString("latin1").slice(0, raw.indexOf("\r\n\r\n"));
  return `${header}\n${parsed.html}`;
}

const onHost = (host: string, path: string, key: string | null = null) =>
  t.request("GET", path, { key, headers: { host } });

describe("a tracking subdomain", () => {
  test("its CNAME joins the records; once found, the domain's links use it, and the redirect answers by Host", async () => {
    const patched = await t.json("PATCH", "/v1/domains/example.com", { body: { tracking_subdomain: "Links" } });
    expect(patched.status).toBe(200);
    const view = patched.body as DomainView;
    expect(view.tracking_subdomain).toBe("links");
    const record = view.records.find((r) => r.record === "Tracking")!;
    expect(record).toMatchObject({
      name: "links.example.com",
      type: "CNAME",
      value: "mail.mailroom.test",
      status: "pending",
    });

    // Not found yet: links stay on [http] public_url.
    const before = await sendTracked();
    expect(before).toContain(`${BASE}/t/c/`);
    expect(before).not.toContain("links.example.com");

    dns.set("links.example.com", "CNAME", ["mail.mailroom.test"]);
    const checked = (await t.json("POST", "/v1/domains/example.com/verify")).body as DomainView;
    expect(checked.records.find((r) => r.record === "Tracking")).toMatchObject({
      status: "verified",
      found: ["mail.mailroom.test"],
    });

    const after = await sendTracked();
    const click = /https:\/\/links\.example\.com(\/t\/c\/[A-Za-z0-9_-]+)/.exec(after);
    expect(click).not.toBeNull();
    expect(after).toMatch(/https:\/\/links\.example\.com\/t\/o\/[A-Za-z0-9_-]+/);
    expect(after).toMatch(/<https:\/\/links\.example\.com\/u\/[A-Za-z0-9_-]+>/);
    expect(after).not.toContain(BASE);

    // The redirect, asked for on the tracking host.
    const redirect = await onHost("links.example.com", click![1]!);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe("https://shop.example.org/sale");
    // The tracking host serves nothing else: not the API (even with a key), not the admin UI.
    expect((await onHost("links.example.com", "/v1/emails", t.liveKey)).status).toBe(404);
    expect((await onHost("links.example.com:443", "/ui/")).status).toBe(404);
    expect((await onHost("links.example.com", "/docs")).status).toBe(404);
    // The server's own name still serves everything.
    expect((await onHost("mail.example.net", "/v1/emails", t.liveKey)).status).toBe(200);
  });

  test("bad labels are refused, null removes it, and it cannot be the return path's", async () => {
    for (const bad of ["links.example", "-links", "a".repeat(64), "lin ks"]) {
      const res = await t.json("PATCH", "/v1/domains/example.com", { body: { tracking_subdomain: bad } });
      expect([res.status, res.body.name]).toEqual([400, "validation_error"]);
    }
    const clash = await t.json("PATCH", "/v1/domains/example.com", { body: { tracking_subdomain: "send" } });
    expect([clash.status, clash.body.name]).toEqual([400, "validation_error"]);
    await t.json("PATCH", "/v1/domains/example.com", { body: { tracking_subdomain: "links" } });
    const removed = (await t.json("PATCH", "/v1/domains/example.com", { body: { tracking_subdomain: null } }))
      .body as DomainView;
    expect(removed.tracking_subdomain).toBeNull();
    expect(removed.records.some((r) => r.record === "Tracking")).toBe(false);
  });
});
