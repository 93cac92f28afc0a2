/**
 * Blocklist checks (issue 30, docs/deliverability.md) on the suite's engine, against a DNS server on loopback playing two
 * blocklists: a sending address listed on one shows on the sending health overview with the list's reason and in
 * /metrics; a list's "query refused" answer (127.255.255.x) is no listing; the names asked are RFC 5782's, for IPv4
 * and IPv6.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { blocklistQuery } from "../src/reputation/blocklists.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";

let dns: DnsServer;
let t: TestApp;

beforeAll(async () => {
  dns = await startDnsServer();
  t = await createTestApp({
    dns: { servers: dns.servers },
    server: { public_ips: ["192.0.2.10", "2001:db8::25"] },
    deliverability: { dnsbl: ["bl.example", "strict.example"] },
  });
});

afterAll(async () => {
  await t.close();
  await dns.close();
});

test("the names looked up are the address reversed under the zone (RFC 5782 §2.1, §2.4)", () => {
  expect(blocklistQuery("192.0.2.10", "bl.example")).toBe("10.2.0.192.bl.example");
  expect(blocklistQuery("2001:db8::25", "bl.example")).toBe(
    "5.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.bl.example",
  );
});

describe("a daily check", () => {
  test("a listing shows on the overview with its reason and in /metrics; a refused query is none", async () => {
    dns.set("10.2.0.192.bl.example", "A", ["127.0.0.2"]);
    dns.set("10.2.0.192.bl.example", "TXT", ["Listed: spam trap hits, see https://bl.example/lookup"]);
    // strict.example refuses queries from this resolver: its answer is no verdict on the address.
    dns.set("10.2.0.192.strict.example", "A", ["127.255.255.254"]);
    await t.app.services.blocklists.check();

    const { blocklists } = (await t.json("GET", "/v1/sending/health")).body;
    expect(blocklists[0]).toMatchObject({
      address: "192.0.2.10",
      list: "bl.example",
      listed: true,
      reason: "Listed: spam trap hits, see https://bl.example/lookup",
    });
    expect(blocklists.filter((l: { listed: boolean }) => l.listed)).toHaveLength(1);
    expect(
      blocklists.find(
        (l: { list: string; address: string }) => l.list === "strict.example" && l.address === "192.0.2.10",
      ),
    ).toBeUndefined();
    expect(blocklists).toContainEqual(
      expect.objectContaining({ address: "2001:db8::25", list: "bl.example", listed: false }),
    );

    const metrics = await t.app.services.metrics.render();
    expect(metrics).toContain('mailroom_blocklisted{address="192.0.2.10",list="bl.example"} 1');
    expect(metrics).toContain('mailroom_blocklisted{address="2001:db8::25",list="bl.example"} 0');
  });
});
