/**
 * Sending domains through the API against a real DNS server on loopback: the records to publish, verification
 * on demand and on the schedule (driven by an injected clock), the 72 h windows, DKIM rotation, settings, bad
 * input, deleting a domain with mail queued, and the CLI.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createPublicKey } from "node:crypto";
import { rmSync } from "node:fs";
import { and, eq, isNull } from "drizzle-orm";
import { tablesOf } from "../src/db/store.ts";
import type { DomainView } from "../src/domains/model.ts";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, tempDir, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { runCli } from "./helpers/process.ts";

const H = 3_600_000;
const HOST = "mail.mailroom.test";

let dns: DnsServer;
let clock: ManualClock;
let t: TestApp;

beforeEach(async () => {
  dns = await startDnsServer();
  clock = new ManualClock();
  t = await createTestApp(
    { dns: { servers: dns.servers }, server: { hostname: HOST, public_ips: ["127.0.0.1"] } },
    { clock },
  );
});

afterEach(async () => {
  await t.close();
  await dns.close();
});

/** Publishes `view`'s records in the test DNS server, except those of the kinds listed. */
function publish(view: DomainView, except: string[] = []) {
  for (const record of view.records) {
    if (except.includes(record.record) || (record.record === "Inbound" && record.status === "not_started")) continue;
    if (record.type === "TXT") dns.set(record.name, "TXT", [record.value]);
    else dns.set(record.name, "MX", [{ exchange: record.value, priority: record.priority! }]);
  }
}

const record = (view: DomainView, kind: string) => view.records.find((r) => r.record === kind)!;

async function create(name = "example.com", body: Record<string, unknown> = {}): Promise<DomainView> {
  const res = await t.json("POST", "/v1/domains", { body: { name, ...body } });
  expect(res.status).toBe(200);
  return res.body;
}

const get = async (id: string): Promise<DomainView> => (await t.json("GET", `/v1/domains/${id}`)).body;
const verify = async (id: string): Promise<DomainView> => (await t.json("POST", `/v1/domains/${id}/verify`)).body;
const send = (from = "hi@example.com") =>
  t.json("POST", "/v1/emails", { body: { from, to: "a@dest.test", subject: "Hi", html: "<p>Hi</p>" } });
const domainEvents = () => {
  const { db } = t.app.services.store;
  const { events } = tablesOf(db);
  return db
    .select()
    .from(events)
    .where(and(eq(events.type, "domain.updated"), isNull(events.emailId)))
    .orderBy(events.id);
};
const storedKeys = () => {
  const { db } = t.app.services.store;
  return db.select().from(tablesOf(db).dkimKeys);
};

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

describe("what a user sees while setting up", () => {
  test("after a check, each record shows what DNS answered beside what to publish", async () => {
    const view = await create();
    expect(record(view, "SPF")).not.toHaveProperty("found");
    dns.set(record(view, "SPF").name, "TXT", ["v=spf1 include:old.example ~all"]);
    const checked = await verify(view.id);
    expect(record(checked, "SPF")).toMatchObject({
      status: "pending",
      value: "v=spf1 ip4:127.0.0.1 ~all",
      found: ["v=spf1 include:old.example ~all"],
    });
    expect(record(checked, "DMARC").found).toEqual([]);
    publish(checked);
    expect(record(await verify(view.id), "SPF")).toMatchObject({
      status: "verified",
      found: ["v=spf1 ip4:127.0.0.1 ~all"],
    });
  });

  test("with [server] hostname unset, the records naming this machine are flagged and say what to set", async () => {
    const bare = await createTestApp(
      { dns: { servers: dns.servers }, server: { hostname: "", public_ips: [] } },
      { clock },
    );
    try {
      const view = (await bare.json("POST", "/v1/domains", { body: { name: "bare.example", receiving: true } }))
        .body as DomainView;
      for (const kind of ["SPF", "MX", "Inbound"])
        expect(record(view, kind).warning).toContain("[server] hostname is not set");
      expect(record(view, "DKIM").warning).toBeUndefined();
      expect(record(view, "DMARC").warning).toBeUndefined();
    } finally {
      await bare.close();
    }
    expect(record(await create("configured.example"), "MX").warning).toBeUndefined();
  });
});

describe("verification", () => {
  test("publishing the records verifies the domain: pending → verified, with a domain.updated event", async () => {
    const view = await create();
    expect((await send()).body.name).toBe("domain_not_verified");
    publish(view);
    const verified = await verify(view.id);
    expect(verified.status).toBe("verified");
    expect(verified.records.map((r) => r.status)).toEqual([
      "verified",
      "verified",
      "verified",
      "verified",
      "not_started",
    ]);
    expect(verified.last_checked_at).toBe(new Date(clock.now()).toISOString());
    expect((await send()).status).toBe(200);

    const [event] = await domainEvents();
    expect(event!.data).toMatchObject({
      id: view.id,
      name: "example.com",
      status: "verified",
      previous_status: "pending",
    });
  });

  test("the scheduler verifies a domain whose records were published in advance", async () => {
    const view = await create();
    publish(view);
    expect(await t.app.services.domains.runOnce()).toBe(1);
    expect((await get(view.id)).status).toBe("verified");
    // Not due again until the daily recheck.
    expect(await t.app.services.domains.runOnce()).toBe(0);
  });

  test("DKIM without SPF is partially_verified and cannot send", async () => {
    const view = await create();
    publish(view, ["SPF"]);
    const checked = await verify(view.id);
    expect(checked.status).toBe("partially_verified");
    expect(record(checked, "SPF").status).toBe("pending");
    expect((await send()).body.name).toBe("domain_not_verified");
  });

  test("a record that vanishes: verified → temporary_failure (still sending) → failed 72 h later", async () => {
    const view = await create();
    publish(view);
    await verify(view.id);
    dns.remove(record(view, "SPF").name, "TXT");

    clock.advance(24 * H);
    expect(await t.app.services.domains.runOnce()).toBe(1);
    let current = await get(view.id);
    expect(current.status).toBe("temporary_failure");
    expect(record(current, "SPF").status).toBe("temporary_failure");
    expect((await send()).status).toBe(200);

    clock.advance(71 * H);
    await t.app.services.domains.runOnce();
    expect((await get(view.id)).status).toBe("temporary_failure");

    clock.advance(1 * H);
    await t.app.services.domains.runOnce();
    current = await get(view.id);
    expect(current.status).toBe("failed");
    expect(record(current, "SPF").status).toBe("failed");
    expect((await send()).body.name).toBe("domain_not_verified");
    expect((await domainEvents()).map((e) => e.data.status)).toEqual(["verified", "temporary_failure", "failed"]);

    // Failed domains are not rechecked on the schedule; a manual check with the record back verifies again.
    clock.advance(48 * H);
    expect(await t.app.services.domains.runOnce()).toBe(0);
    publish(view);
    expect((await verify(view.id)).status).toBe("verified");
  });

  test("a domain never published fails 72 h after it was added; a later manual check restarts its window", async () => {
    const view = await create();
    await t.app.services.domains.runOnce();
    clock.advance(71 * H);
    await t.app.services.domains.runOnce();
    expect((await get(view.id)).status).toBe("pending");
    clock.advance(1 * H);
    await t.app.services.domains.runOnce();
    expect((await get(view.id)).status).toBe("failed");
    const again = await verify(view.id);
    expect(again.status).toBe("pending");
    expect(record(again, "DKIM").status).toBe("pending");
  });

  test("a DNS server failure is not a missing record: a verified domain stays verified", async () => {
    const view = await create();
    publish(view);
    await verify(view.id);
    dns.fail(record(view, "SPF").name);
    clock.advance(24 * H);
    await t.app.services.domains.runOnce();
    const current = await get(view.id);
    expect(current.status).toBe("verified");
    expect(record(current, "SPF").status).toBe("verified");
  });

  test("the operator override stays verified and is labelled", async () => {
    const view = await t.app.services.domains.add(t.operator, "override.example", { verifiedOverride: true });
    expect(view).toMatchObject({ status: "verified", verified_override: true });
    expect((await verify(view.id)).status).toBe("verified");
  });
});

describe("DKIM rotation", () => {
  test("rotations asked for at once: one starts, the others are 409 conflict, never a 500", async () => {
    const view = await create();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => t.json("POST", `/v1/domains/${view.id}/dkim/rotate`)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body.name])).toEqual(
      Array(5).fill([409, "conflict"]),
    );
  });

  test("publishes a new selector beside the old one, which signs once its record is found", async () => {
    const view = await create();
    publish(view);
    await verify(view.id);
    const oldSelector = record(view, "DKIM").name.split(".")[0];

    const rotating = (await t.json("POST", `/v1/domains/${view.id}/dkim/rotate`)).body as DomainView;
    const dkim = rotating.records.filter((r) => r.record === "DKIM");
    expect(dkim.map((r) => r.key_state)).toEqual(["active", "next"]);
    expect(dkim[1]!.status).toBe("pending");
    expect((await t.json("POST", `/v1/domains/${view.id}/dkim/rotate`)).status).toBe(409);
    expect((await t.app.services.domains.signingIdentity(t.organizationId, "example.com"))?.selector).toBe(oldSelector);

    // Not published yet: the old key keeps signing and the domain stays verified.
    await t.app.services.domains.runOnce();
    expect((await get(view.id)).status).toBe("verified");

    dns.set(dkim[1]!.name, "TXT", [dkim[1]!.value]);
    clock.advance(10 * 60_000);
    await t.app.services.domains.runOnce();
    const rotated = await get(view.id);
    const after = rotated.records.filter((r) => r.record === "DKIM");
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ name: dkim[1]!.name, key_state: "active", status: "verified" });
    expect(rotated.status).toBe("verified");
    expect((await t.app.services.domains.signingIdentity(t.organizationId, "example.com"))?.selector).toBe(
      dkim[1]!.name.split(".")[0],
    );
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
