/**
 * Deliverability on the wire, against a scripted server of the test's own: a domain's settings (the tracking host,
 * TLS policy, Ed25519 key, IP pool; null sent, not dropped), the sending health, DMARC reports, their rows and the
 * summary (an empty id refused before any request), and the IP pools listed as the server answers them.
 */
import { afterEach, beforeAll, expect, test } from "bun:test";
import type { IpPoolList } from "@mailroom/node";
import { json, scripted, stopServers } from "./scripted.ts";
import { loadLibrary, type Library } from "./support.ts";

let lib: Library;
beforeAll(async () => {
  lib = await loadLibrary();
}, 120_000);
afterEach(stopServers);

test("deliverability's wire: domain settings with a null tracking host, sending health, DMARC reports and summary", async () => {
  const { seen, baseUrl } = scripted(json(200, { object: "list", has_more: false, data: [] }));
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  await client.domains.update({
    id: "example.com",
    tracking_subdomain: "links",
    tls: "enforced",
    dkim: { ed25519: true },
  });
  // null is a value here (the tracking host removed), so it must reach the server rather than be dropped.
  await client.domains.update({ id: "d/1", tracking_subdomain: null });
  await client.domains.create({ name: "example.org", tls: "opportunistic", dkim: { ed25519: false } });
  await client.sending.health();
  await client.domains.dmarcReports("example.com");
  await client.domains.dmarcReports("d/1", { limit: 5, before: "r1" });
  await client.domains.dmarcReports("d/1", { after: "r2" });
  await client.domains.dmarcReportRows("d/1", "r/2", { limit: 100, after: "w1" });
  await client.domains.dmarcSummary("example.com");
  await client.domains.dmarcSummary("d/1", { days: 30 });

  expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
    "PATCH /v1/domains/example.com",
    "PATCH /v1/domains/d%2F1",
    "POST /v1/domains",
    "GET /v1/sending/health",
    "GET /v1/domains/example.com/dmarc",
    "GET /v1/domains/d%2F1/dmarc?limit=5&before=r1",
    "GET /v1/domains/d%2F1/dmarc?after=r2",
    "GET /v1/domains/d%2F1/dmarc/r%2F2/rows?limit=100&after=w1",
    "GET /v1/domains/example.com/dmarc/summary",
    "GET /v1/domains/d%2F1/dmarc/summary?days=30",
  ]);
  expect(seen.map((request) => (request.body ? JSON.parse(request.body) : null))).toEqual([
    { tracking_subdomain: "links", tls: "enforced", dkim: { ed25519: true } },
    { tracking_subdomain: null },
    { name: "example.org", tls: "opportunistic", dkim: { ed25519: false } },
    null,
    null,
    null,
    null,
    null,
    null,
    null,
  ]);
  // An empty id would address another route: refused before any request.
  for (const refused of [
    await client.domains.dmarcReports(""),
    await client.domains.dmarcSummary("", { days: 7 }),
    await client.domains.dmarcReportRows("d/1", ""),
  ])
    expect(refused.error?.name).toBe("missing_required_field");
  expect(seen.length).toBe(10);
});

test("sending IPs' wire: the pools listed, a domain's ip_pool set and cleared with null", async () => {
  const pools: IpPoolList = {
    object: "list",
    has_more: false,
    data: [
      {
        name: "main",
        warmup: "30d",
        addresses: [
          {
            address: "203.0.113.5",
            ehlo_name: "mta1.example.com",
            warmup_day: 3,
            daily_cap: 200,
            today: { gmail: 12, other: 3 },
            backed_off: [{ provider: "gmail", messages_per_minute: 300, until: "2026-01-01T01:00:00.000Z" }],
          },
          { address: "203.0.113.6", ehlo_name: null, warmup_day: null, daily_cap: 50, today: {}, backed_off: [] },
        ],
      },
    ],
  };
  const { seen, baseUrl } = scripted(json(200, pools));
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  const listed = await client.ipPools.list();
  expect(listed.error).toBeNull();
  expect(listed.data).toEqual(pools);
  const address = listed.data!.data[0]!.addresses[0]!;
  expect([address.warmup_day, address.daily_cap, address.today.gmail]).toEqual([3, 200, 12]);
  expect(address.backed_off[0]!.messages_per_minute).toBe(300);
  await client.domains.update({ id: "example.com", ip_pool: "main" });
  // null is a value here (the domain leaves its pool), so it must reach the server rather than be dropped.
  await client.domains.update({ id: "d/1", ip_pool: null });
  await client.domains.create({ name: "example.org", ip_pool: "main" });

  expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
    "GET /v1/ip-pools",
    "PATCH /v1/domains/example.com",
    "PATCH /v1/domains/d%2F1",
    "POST /v1/domains",
  ]);
  expect(seen.map((request) => (request.body ? JSON.parse(request.body) : null))).toEqual([
    null,
    { ip_pool: "main" },
    { ip_pool: null },
    { name: "example.org", ip_pool: "main" },
  ]);
  expect(seen[0]!.headers.authorization).toBe("Bearer mr_test_key");
});
