/**
 * How a sending domain is verified, against a real DNS server on loopback and an injected clock: each record shows
 * what DNS answered beside what to publish; verification on demand and on the schedule; the 72 h windows before a
 * vanished or never-published record fails the domain; a DNS failure that is not a missing record; the operator
 * override; DKIM rotation, the old key signing until the new selector is found.
 */
import { describe, expect, test } from "bun:test";
import type { DomainView } from "../src/domains/model.ts";
import type { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import type { DnsServer } from "./helpers/dns-server.ts";
import { record, setUpDomainApp } from "./helpers/domains.ts";

const H = 3_600_000;

let dns: DnsServer;
let clock: ManualClock;
let t: TestApp;

const { publish, create, get, verify, send, domainEvents } = setUpDomainApp((app) => ({ dns, clock, t } = app));

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
