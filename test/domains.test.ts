/**
 * Sending domains through the API, against a real DNS server on loopback: adding one answers the records to
 * publish (a fresh DKIM key sealed at rest); its settings (tracking, receiving, return path) change with an event
 * each; bad names and fields are refused; deleting a domain with mail queued needs force; scopes; and the CLI.
 * How a domain gets and loses its verification is in domains-verification.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { createPublicKey } from "node:crypto";
import { rmSync } from "node:fs";
import type { DomainView } from "../src/domains/model.ts";
import { tempDir, type TestApp } from "./helpers/app.ts";
import type { DnsServer } from "./helpers/dns-server.ts";
import { HOST, record, setUpDomainApp } from "./helpers/domains.ts";
import { runCli } from "./helpers/process.ts";

let dns: DnsServer;
let t: TestApp;

const { publish, create, get, verify, send, domainEvents, storedKeys } = setUpDomainApp((app) => ({ dns, t } = app));

describe("adding a domain", () => {
  test("answers the records to publish, with a fresh 2048-bit DKIM key sealed at rest", async () => {
    const view = await create();
    expect(view).toMatchObject({
      object: "domain",
      name: "example.com",
      status: "pending",
      verified_override: false,
      return_path_subdomain: "send",
      receiving_enabled: false,
    });
    const dkim = record(view, "DKIM");
    expect(dkim).toMatchObject({ type: "TXT", status: "pending", key_state: "active" });
    expect(dkim.name).toMatch(/^mr\d{8}[0-9a-f]{4}\._domainkey\.example\.com$/);
    const p = /^v=DKIM1; k=rsa; p=([A-Za-z0-9+/=]+)$/.exec(dkim.value)![1]!;
    expect(
      createPublicKey({ key: Buffer.from(p, "base64"), format: "der", type: "spki" }).asymmetricKeyDetails
        ?.modulusLength,
    ).toBe(2048);
    expect(record(view, "SPF")).toMatchObject({
      name: "send.example.com",
      type: "TXT",
      value: "v=spf1 ip4:127.0.0.1 ~all",
      status: "pending",
    });
    expect(record(view, "MX")).toMatchObject({
      name: "send.example.com",
      type: "MX",
      value: HOST,
      priority: 10,
      status: "pending",
    });
    expect(record(view, "DMARC")).toMatchObject({ name: "_dmarc.example.com", type: "TXT", status: "pending" });
    expect(record(view, "DMARC").value).toStartWith("v=DMARC1; p=none");
    expect(record(view, "Inbound")).toMatchObject({
      name: "example.com",
      type: "MX",
      value: HOST,
      status: "not_started",
    });

    const stored = await storedKeys();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.privateKey).toStartWith("v1:");
    expect(stored[0]!.privateKey).not.toContain("PRIVATE KEY");
    expect(t.app.services.secrets.open(stored[0]!.privateKey)).toContain("BEGIN PRIVATE KEY");
  });

  test("lists and gets it by id or by name", async () => {
    const view = await create();
    const list = await t.json("GET", "/v1/domains");
    expect(list.body.object).toBe("list");
    expect(list.body.data.map((d: DomainView) => d.id)).toEqual([view.id]);
    expect((await get("example.com")).id).toBe(view.id);
    expect((await t.json("GET", "/v1/domains/nope.example")).status).toBe(404);
    expect((await t.json("GET", "/v1/domains/0190f3a2-b4c5-7d8e-9f0a-1b2c3d4e5f60")).body.name).toBe("not_found");
  });
});

describe("settings", () => {
  test("tracking defaults, receiving and the return path can be changed; each change is an event", async () => {
    const view = await create();
    publish(view);
    await verify(view.id);
    const before = (await domainEvents()).length;

    const tracked = (
      await t.json("PATCH", `/v1/domains/${view.id}`, { body: { open_tracking: true, click_tracking: true } })
    ).body;
    expect(tracked).toMatchObject({ open_tracking: true, click_tracking: true });
    expect(await t.app.services.domains.trackingDefaults(t.organizationId, "example.com")).toEqual({
      opens: true,
      clicks: true,
    });

    const receiving = (await t.json("PATCH", `/v1/domains/${view.id}`, { body: { receiving_enabled: true } }))
      .body as DomainView;
    expect(record(receiving, "Inbound").status).toBe("pending");
    dns.set("example.com", "MX", [{ exchange: HOST, priority: 10 }]);
    expect(record(await verify(view.id), "Inbound").status).toBe("verified");

    const moved = (await t.json("PATCH", `/v1/domains/${view.id}`, { body: { return_path_subdomain: "bounce" } }))
      .body as DomainView;
    expect(record(moved, "SPF")).toMatchObject({ name: "bounce.example.com", status: "pending" });
    expect(record(moved, "MX")).toMatchObject({ name: "bounce.example.com", status: "pending" });
    expect((await t.app.services.domains.signingIdentity(t.organizationId, "example.com"))?.returnPathDomain).toBe(
      "bounce.example.com",
    );

    expect((await domainEvents()).length).toBeGreaterThanOrEqual(before + 4);
    const unchanged = (await domainEvents()).length;
    await t.json("PATCH", `/v1/domains/${view.id}`, { body: { open_tracking: true } });
    expect((await domainEvents()).length).toBe(unchanged);
  });
});

describe("bad input", () => {
  const invalid: Array<[string, unknown]> = [
    ["an empty name", ""],
    ["a single label", "localhost"],
    ["a label starting with a hyphen", "-bad.example"],
    ["an empty label", "a..example"],
    ["a 64-character label", `${"a".repeat(64)}.example`],
    ["a name over 253 characters", `${Array.from({ length: 64 }, () => "abc").join(".")}.example`],
    ["a space", "exa mple.com"],
    ["an IP address", "192.0.2.1"],
    ["an email address", "hi@example.com"],
    ["a number instead of a string", 42],
  ];
  for (const [name, value] of invalid) {
    test(`${name} is a validation error`, async () => {
      const res = await t.json("POST", "/v1/domains", { body: { name: value } });
      expect(res.status).toBe(400);
      expect(res.body.name).toBe("validation_error");
    });
  }

  const badFields: Array<[string, Record<string, unknown>, string]> = [
    ["an unknown field", { name: "example.com", colour: "red" }, "colour"],
    [
      "a return path that is not one label",
      { name: "example.com", return_path_subdomain: "a.b" },
      "return_path_subdomain",
    ],
    ["a tracking flag that is not a boolean", { name: "example.com", open_tracking: "yes" }, "open_tracking"],
  ];
  for (const [name, body, path] of badFields) {
    test(`${name} is a validation error naming ${path}`, async () => {
      const res = await t.json("POST", "/v1/domains", { body });
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    });
  }

  test("an internationalised name is stored as punycode, and both spellings are one domain", async () => {
    const view = await create("Bücher.Example");
    expect(view.name).toBe("xn--bcher-kva.example");
    expect(record(view, "SPF").name).toBe("send.xn--bcher-kva.example");
    const again = await t.json("POST", "/v1/domains", { body: { name: "xn--bcher-kva.example" } });
    expect(again.status).toBe(409);
    expect(again.body.name).toBe("conflict");
    expect((await get("bücher.example")).id).toBe(view.id);
  });

  test("a duplicate, in any case and with a final dot, is 409 conflict", async () => {
    await create();
    const res = await t.json("POST", "/v1/domains", { body: { name: "EXAMPLE.com." } });
    expect(res.status).toBe(409);
    expect(res.body.name).toBe("conflict");
  });
});

describe("deleting", () => {
  test("an idle domain is deleted with its keys", async () => {
    const view = await create();
    const res = await t.json("DELETE", `/v1/domains/${view.id}`);
    expect(res.body).toEqual({ object: "domain", id: view.id, name: "example.com", deleted: true });
    expect((await t.json("GET", `/v1/domains/${view.id}`)).status).toBe(404);
    expect(await storedKeys()).toHaveLength(0);
  });

  test("a domain with mail queued is 409 unless forced; forcing fails that mail", async () => {
    await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
    const sent = await send();
    expect(sent.status).toBe(200);

    const refused = await t.json("DELETE", "/v1/domains/example.com");
    expect(refused.status).toBe(409);
    expect(refused.body.name).toBe("conflict");
    expect((await get("example.com")).name).toBe("example.com");

    expect((await t.json("DELETE", "/v1/domains/example.com?force=yes")).status).toBe(400);
    expect((await t.json("DELETE", "/v1/domains/example.com?force=true")).status).toBe(200);
    const email = (await t.json("GET", `/v1/emails/${sent.body.id}`)).body;
    expect(email.status).toBe("failed");
    expect(email.recipients[0].status).toBe("failed");
    expect(await t.app.services.worker.runOnce()).toBe(0);
  });
});

describe("scopes", () => {
  test("reading needs domains:read, changing needs domains:write", async () => {
    const view = await create();
    const reader = await t.app.services.keys.create(t.operator, {
      name: "reader",
      scopes: ["domains:read"],
      mode: "live",
    });
    expect((await t.json("GET", "/v1/domains", { key: reader.key })).status).toBe(200);
    expect((await t.json("POST", `/v1/domains/${view.id}/verify`, { key: reader.key })).body.name).toBe(
      "insufficient_scope",
    );
    expect((await t.json("DELETE", `/v1/domains/${view.id}`, { key: reader.key })).status).toBe(403);
    const sender = await t.app.services.keys.create(t.operator, {
      name: "sender",
      scopes: ["sending_access"],
      mode: "live",
    });
    expect((await t.json("GET", "/v1/domains", { key: sender.key })).status).toBe(403);
  });

  test("a sending key restricted to one domain may not send from another verified domain", async () => {
    await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
    await t.app.services.domains.add(t.operator, "other.example", { verifiedOverride: true });
    const restricted = await t.app.services.keys.create(t.operator, {
      name: "restricted",
      scopes: ["sending_access"],
      mode: "live",
      domains: ["example.com"],
    });
    const body = (from: string) => ({ from, to: "a@dest.test", subject: "Hi", html: "<p>Hi</p>" });
    expect((await t.json("POST", "/v1/emails", { key: restricted.key, body: body("hi@example.com") })).status).toBe(
      200,
    );
    const refused = await t.json("POST", "/v1/emails", { key: restricted.key, body: body("hi@other.example") });
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe("insufficient_scope");
  });
});

describe("the CLI", () => {
  test("domains add prints the records, list labels the override, verify checks DNS, remove deletes", async () => {
    const dataDir = tempDir();
    const env = {
      MAILROOM_DATA_DIR: dataDir,
      MAILROOM_DNS_SERVERS: dns.servers[0]!,
      MAILROOM_SERVER_HOSTNAME: HOST,
      MAILROOM_SERVER_PUBLIC_IPS: "127.0.0.1",
      MAILROOM_LOG_LEVEL: "error",
    };
    try {
      await runCli(["init"], env);
      const added = await runCli(["domains", "add", "cli.example"], env);
      expect(added).toContain("cli.example  pending");
      expect(added).toMatch(/SPF\s+TXT send\.cli\.example {2}v=spf1 ip4:127\.0\.0\.1 ~all {2}\[pending\]/);
      await runCli(["domains", "add", "forced.example", "--verified"], env);
      expect(await runCli(["domains", "list"], env)).toContain("forced.example  verified (operator override)");

      const view = JSON.parse(await runCli(["domains", "add", "json.example", "--json"], env)) as DomainView;
      publish(view);
      expect(await runCli(["domains", "verify", "json.example"], env)).toContain("json.example  verified");

      expect(await runCli(["domains", "remove", "cli.example"], env)).toContain("removed cli.example");
      expect(await runCli(["domains", "list"], env)).not.toContain("cli.example");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
