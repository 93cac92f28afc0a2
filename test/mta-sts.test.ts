/**
 * MTA-STS (RFC 8461) on direct delivery, against a loopback DNS server, an https policy server and an SMTP server
 * with STARTTLS, both with a certificate the test trusts (the test-only `mxCa`): under `enforce` mail goes only to
 * an MX host the policy names, over TLS with a valid certificate, else it is deferred; `testing` delivers and logs
 * what enforce would refuse; a policy is fetched once per id and kept for its max_age even when the TXT record
 * disappears; a domain whose policy cannot be fetched is delivered to as one without MTA-STS.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generate } from "selfsigned";
import { createMtaSts } from "../src/providers/mta-sts.ts";
import { createApp } from "../src/server/app.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { ManualClock } from "../src/lib/clock.ts";
import { createResolver } from "../src/lib/dns.ts";
import { createEndpointGuard } from "../src/lib/endpoint-guard.ts";
import { createLogger } from "../src/lib/logger.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { startFloodServer } from "./helpers/flood-server.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

/** Every name the certificate covers: MX hosts and policy hosts of the test's domains (not mx.badcert.test). */
const DOMAINS = [
  "enforced.test",
  "outside.test",
  "badcert.test",
  "testing.test",
  "cached.test",
  "nopolicy.test",
  "unfetchable.test",
  "flood.test",
  "plainbad.test",
];
const NAMES = DOMAINS.flatMap((domain) => [`mx.${domain}`, `mta-sts.${domain}`]).filter(
  (name) => name !== "mx.badcert.test" && name !== "mx.plainbad.test",
);

let dns: DnsServer;
let smtp: SmtpDouble;
let policyServer: ReturnType<typeof Bun.serve>;
let t: TestApp;
let certificate: { cert: string; private: string };
const clock = new ManualClock(Date.now());
const policies = new Map<string, string>();
const policyFetches: string[] = [];
const secured: string[] = [];
const warnings: Array<{ msg: string; fields: Record<string, unknown> }> = [];

const policy = (mode: string, mx: string[], maxAge = 86_400) =>
  ["version: STSv1", `mode: ${mode}`, ...mx.map((pattern) => `mx: ${pattern}`), `max_age: ${maxAge}`, ""].join("\r\n");

beforeAll(async () => {
  const now = new Date();
  const pair = await generate([{ name: "commonName", value: NAMES[0]! }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + 86_400_000),
    extensions: [{ name: "subjectAltName", altNames: NAMES.map((value) => ({ type: 2, value })) }],
  });
  certificate = pair;
  dns = await startDnsServer();
  smtp = await startSmtpDouble({
    disabledCommands: [],
    key: pair.private,
    cert: pair.cert,
    onSecure(_socket, session, callback) {
      secured.push(String(session.servername || ""));
      callback();
    },
  });
  policyServer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert: pair.cert, key: pair.private },
    fetch(request) {
      const host = (request.headers.get("host") ?? "").replace(/:\d+$/, "");
      policyFetches.push(host);
      const text = policies.get(host);
      if (new URL(request.url).pathname !== "/.well-known/mta-sts.txt" || text === undefined)
        return new Response("not found", { status: 404 });
      return new Response(text, { headers: { "content-type": "text/plain" } });
    },
  });
  const logger = createLogger("warn", (line) => {
    const { msg, ...fields } = JSON.parse(line);
    if (String(msg).startsWith("MTA-STS")) warnings.push({ msg, fields });
  });
  t = await createTestApp(
    {
      dns: { servers: dns.servers },
      delivery: { default_provider: "mx", retry_schedule: ["1m"], retry_max_age: "1h" },
      mx: {
        port: smtp.port,
        mta_sts_port: policyServer.port,
        connect_timeout: "2s",
        socket_timeout: "5s",
        allow_private_networks: true,
      },
    },
    { clock, logger, mxCa: pair.cert },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  await t.app.services.domains.add(t.operator, "strict.example", { verifiedOverride: true, tls: "enforced" });
  for (const domain of DOMAINS) {
    dns.set(domain, "MX", [{ exchange: `mx.${domain}`, priority: 10 }]);
    dns.set(`mx.${domain}`, "A", ["127.0.0.1"]);
    dns.set(`mta-sts.${domain}`, "A", ["127.0.0.1"]);
    if (domain !== "nopolicy.test" && domain !== "plainbad.test")
      dns.set(`_mta-sts.${domain}`, "TXT", ["v=STSv1; id=20261123T1"]);
  }
  policies.set("mta-sts.enforced.test", policy("enforce", ["mx.enforced.test"]));
  policies.set("mta-sts.outside.test", policy("enforce", ["*.elsewhere.test"]));
  policies.set("mta-sts.badcert.test", policy("enforce", ["mx.badcert.test"]));
  policies.set("mta-sts.testing.test", policy("testing", ["*.elsewhere.test"]));
  policies.set("mta-sts.cached.test", policy("enforce", ["*.elsewhere.test"]));
});

afterAll(async () => {
  await t.close();
  policyServer.stop(true);
  await smtp.close();
  await dns.close();
});

/** Sends one message to `to` and runs the delivery worker once; the recipient's state afterwards. */
async function deliver(to: string, from = "hello@example.com") {
  const sent = await t.json("POST", "/v1/emails", {
    body: { from, to, subject: "Hello", html: "<p>Hi</p>" },
  });
  expect(sent.status).toBe(200);
  await t.app.services.worker.runOnce();
  return (await t.json("GET", `/v1/emails/${sent.body.id}`)).body.recipients[0] as {
    status: string;
    last_response: string | null;
  };
}

describe("enforce", () => {
  test("a matching MX host with a valid certificate gets the mail over TLS", async () => {
    const before = smtp.received.length;
    expect((await deliver("ann@enforced.test")).status).toBe("delivered");
    expect(smtp.received.length).toBe(before + 1);
    expect(secured).toContain("mx.enforced.test");
    expect(policyFetches).toContain("mta-sts.enforced.test");
  });

  test("MX hosts the policy does not name are never contacted: deferred", async () => {
    const before = smtp.received.length;
    const recipient = await deliver("ann@outside.test");
    expect(recipient.status).toBe("deferred");
    expect(recipient.last_response).toContain(
      "MTA-STS policy of outside.test allows none of its MX hosts (mx.outside.test)",
    );
    expect(smtp.received.length).toBe(before);
  });

  test("a certificate not valid for the MX host defers the mail rather than send it without TLS checks", async () => {
    const before = smtp.received.length;
    const recipient = await deliver("ann@badcert.test");
    expect(recipient.status).toBe("deferred");
    expect(recipient.last_response).toContain("MTA-STS requires TLS with a valid certificate");
    expect(smtp.received.length).toBe(before);
  });
});

test("testing: delivered as without a policy, and what enforce would refuse is logged", async () => {
  expect((await deliver("ann@testing.test")).status).toBe("delivered");
  expect(warnings.find((w) => w.msg === "MTA-STS (testing): MX hosts outside the policy")?.fields).toMatchObject({
    domain: "testing.test",
    hosts: ["mx.testing.test"],
  });
});

test("a policy is fetched once per id, kept for its max_age when the TXT record disappears, and fetched again for a new id", async () => {
  const fetches = () => policyFetches.filter((host) => host === "mta-sts.cached.test").length;
  expect((await deliver("a@cached.test")).status).toBe("deferred");
  expect((await deliver("b@cached.test")).status).toBe("deferred");
  expect(fetches()).toBe(1);
  // An attacker who strips the TXT record and serves a weaker policy changes nothing while the cached one is valid.
  dns.set("_mta-sts.cached.test", "TXT", []);
  policies.set("mta-sts.cached.test", policy("none", []));
  const stripped = await deliver("c@cached.test");
  expect(stripped.status).toBe("deferred");
  expect(stripped.last_response).toContain("allows none of its MX hosts (mx.cached.test)");
  expect(fetches()).toBe(1);
  // The domain's owner publishes a new policy under a new id: it is fetched and applies at once.
  dns.set("_mta-sts.cached.test", "TXT", ["v=STSv1; id=20261123T2"]);
  policies.set("mta-sts.cached.test", policy("enforce", ["*.cached.test"]));
  expect((await deliver("d@cached.test")).status).toBe("delivered");
  expect(fetches()).toBe(2);
});

test("without a TXT record, or when the policy cannot be fetched, mail is delivered as without MTA-STS", async () => {
  expect((await deliver("ann@nopolicy.test")).status).toBe("delivered");
  expect(policyFetches).not.toContain("mta-sts.nopolicy.test");
  expect((await deliver("ann@unfetchable.test")).status).toBe("delivered");
  expect(policyFetches).toContain("mta-sts.unfetchable.test");
  expect(warnings.find((w) => w.msg === "MTA-STS policy could not be fetched")?.fields).toMatchObject({
    domain: "unfetchable.test",
    using: "none",
  });
});

test("finding 6: an MTA-STS policy larger than 64 KiB is refused without reading it whole", async () => {
  // 64 MiB, a thousand times the cap: read whole, all of it would cross; cut off at the cap, the sockets' buffers at most.
  const flood = await startFloodServer({
    totalBytes: 64 * 1024 * 1024,
    tls: { cert: certificate.cert, key: certificate.private },
  });
  const refusals: string[] = [];
  const resolver = createResolver(dns.servers, { timeoutMs: 2000, tries: 1 });
  const mtaSts = createMtaSts({
    resolver,
    guard: createEndpointGuard({ resolver, allowPrivateNetworks: true, hint: "" }),
    clock,
    logger: createLogger("warn", (line) => refusals.push(String(JSON.parse(line).error))),
    fetchTimeoutMs: 30_000,
    port: flood.port,
    ca: certificate.cert,
  });
  try {
    expect(await mtaSts.policyFor("flood.test")).toBeNull();
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain("larger than");
    // Measured: about 4.3 MiB sent before the hang-up (loopback and TLS buffers); 64 MiB when read whole.
    expect(await flood.responseOver()).toBeLessThan(16 * 1024 * 1024);
  } finally {
    await flood.close();
  }
});

describe("a sending domain with tls: enforced", () => {
  test("delivers only over STARTTLS with a certificate valid for the MX name; otherwise defers, then bounces with the reason", async () => {
    // Also the PATCH that sets it.
    expect((await t.json("PATCH", "/v1/domains/strict.example", { body: { tls: "enforced" } })).status).toBe(200);
    expect((await t.json("PATCH", "/v1/domains/strict.example", { body: { tls: "always" } })).status).toBe(400);
    expect((await t.json("GET", "/v1/domains/strict.example")).body.tls).toBe("enforced");
    // A domain without MTA-STS whose MX certificate is not valid for its name: opportunistic senders deliver...
    expect((await deliver("ann@plainbad.test")).status).toBe("delivered");
    // ...a sender that enforces TLS does not, and never in the clear.
    const before = smtp.received.length;
    const strict = await deliver("bob@plainbad.test", "hello@strict.example");
    expect(strict.status).toBe("deferred");
    expect(strict.last_response).toContain("4.7.10");
    expect(strict.last_response).toContain("requires TLS with a certificate valid for mx.plainbad.test");
    expect(smtp.received.length).toBe(before);
    // Where the certificate is valid it is delivered, over TLS.
    expect((await deliver("cy@nopolicy.test", "hello@strict.example")).status).toBe("delivered");
    expect(secured).toContain("mx.nopolicy.test");
    // Past the retry table's end (1h here) the deferred one bounces with the reason.
    clock.advance(61 * 60_000);
    await t.app.services.worker.runOnce();
    const recipients = await t.app.services.store.db.query.deliveries.findMany({
      where: (d, { eq }) => eq(d.recipient, "bob@plainbad.test"),
    });
    expect(recipients[0]).toMatchObject({ status: "bounced" });
    expect(recipients[0]!.lastResponse).toContain("4.7.10");
  });
});

test("the MTA-STS policy cache survives a restart: the new instance applies it without fetching it", async () => {
  // cached.test's policy (enforce, MX *.cached.test, id T2) was fetched above and is in the store.
  const fetches = () => policyFetches.filter((host) => host === "mta-sts.cached.test").length;
  const fetched = fetches();
  expect(fetched).toBeGreaterThan(0);
  // After the restart its policy server is down and an attacker points the MX elsewhere.
  policies.delete("mta-sts.cached.test");
  dns.set("cached.test", "MX", [{ exchange: "mx.rogue.test", priority: 10 }]);
  dns.set("mx.rogue.test", "A", ["127.0.0.1"]);
  await t.app.stop();
  const restarted = await createApp(t.config, { clock, logger: silentLogger, mxCa: certificate.cert });
  try {
    const before = smtp.received.length;
    const key = (
      await restarted.services.keys.create(t.operator, { name: "after restart", scopes: ["full_access"], mode: "live" })
    ).key;
    const sent = await restarted.http.handle(
      new Request("http://localhost/v1/emails", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ from: "hello@example.com", to: "e@cached.test", subject: "Hi", html: "<p>Hi</p>" }),
      }),
    );
    expect(sent.status).toBe(200);
    await restarted.services.worker.runOnce();
    const row = await restarted.services.store.db.query.deliveries.findFirst({
      where: (d, { eq }) => eq(d.recipient, "e@cached.test"),
    });
    expect(row!.status).toBe("deferred");
    expect(row!.lastResponse).toContain("allows none of its MX hosts (mx.rogue.test)");
    expect(smtp.received.length).toBe(before);
    expect(fetches()).toBe(fetched);
  } finally {
    await restarted.stop();
  }
});
