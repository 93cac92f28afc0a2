/**
 * Mail through the smarthost provider leaves DKIM-signed by its verified domain with a per-recipient return path
 * on the return-path subdomain; a receiver checking with mailauth against the loopback DNS sees DKIM, SPF and
 * DMARC pass, aligned.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createReturnPathCodec } from "../src/domains/signing.ts";
import type { DomainView } from "../src/domains/model.ts";
import { tablesOf } from "../src/db/store.ts";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { checkAuthentication } from "./helpers/mail-auth.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

let dns: DnsServer;
let smtp: SmtpDouble;
let t: TestApp;

beforeEach(async () => {
  dns = await startDnsServer();
  smtp = await startSmtpDouble();
  t = await createTestApp(
    {
      dns: { servers: dns.servers },
      server: { hostname: "mail.mailroom.test", public_ips: ["127.0.0.1"] },
      delivery: { default_provider: "smtp" },
      smarthost: { host: "127.0.0.1", port: smtp.port, security: "none", connect_timeout: "2s", socket_timeout: "5s" },
    },
    { clock: new ManualClock(Date.now()) },
  );
});

afterEach(async () => {
  await t.close();
  await smtp.close();
  await dns.close();
});

function publish(view: DomainView) {
  for (const record of view.records) {
    if (record.status === "not_started") continue;
    if (record.type === "TXT") dns.set(record.name, "TXT", [record.value]);
    else dns.set(record.name, "MX", [{ exchange: record.value, priority: record.priority! }]);
  }
}

async function verifiedDomain(name = "example.com"): Promise<DomainView> {
  const view = (await t.json("POST", "/v1/domains", { body: { name } })).body as DomainView;
  publish(view);
  const verified = (await t.json("POST", `/v1/domains/${view.id}/verify`)).body as DomainView;
  expect(verified.status).toBe("verified");
  return verified;
}

describe("mail through the smarthost", () => {
  test("is signed, has a per-recipient return path, and passes DKIM, SPF and DMARC aligned", async () => {
    const domain = await verifiedDomain();
    const res = await t.json("POST", "/v1/emails", {
      body: {
        from: "Acme <hi@example.com>",
        to: ["a@dest.test", "b@dest.test"],
        cc: "c@dest.test",
        reply_to: "help@example.com",
        subject: "Signed",
        html: "<p>Hi</p>",
      },
    });
    expect(res.body).toMatchObject({ message: "Email sent." });
    const single = await t.json("POST", "/v1/emails", {
      body: {
        from: "hi@example.com",
        to: "d@dest.test",
        subject: "News",
        html: "<p>{{unsubscribe_url}}</p>",
        unsubscribe: true,
      },
    });
    expect(single.body).toMatchObject({ message: "Email sent." });
    await t.app.services.worker.runOnce();
    expect(smtp.received).toHaveLength(4);

    const selector = domain.records.find((r) => r.record === "DKIM")!.name.split(".")[0];
    const rows = await t.app.services.store.db.select().from(tablesOf(t.app.services.store.db).deliveries);
    const codec = createReturnPathCodec(t.app.services.secrets.deriveKey("return-path"));
    for (const message of smtp.received) {
      const raw = message.raw.toString();
      const signature = /^DKIM-Signature:[\s\S]*?(?=\r\n\S)/m.exec(raw)![0].replace(/\r\n\s+/g, " ");
      expect(signature).toContain(`d=example.com`);
      expect(signature).toContain(`s=${selector}`);
      expect(signature).toContain("c=relaxed/relaxed");
      const signed = /h=([^;]+)/.exec(signature)![1]!.replace(/\s/g, "").toLowerCase().split(":");
      // Every listed field the message has is signed (RFC 6376 §5.4: From always).
      const header = raw.slice(0, raw.indexOf("\r\n\r\n"));
      for (const field of [
        "from",
        "to",
        "cc",
        "subject",
        "date",
        "message-id",
        "reply-to",
        "mime-version",
        "content-type",
        "content-transfer-encoding",
      ]) {
        if (new RegExp(`^${field}:`, "im").test(header)) expect(signed).toContain(field);
      }
      expect(signed).toContain("from");
      if (message.recipients[0] === "d@dest.test") {
        expect(raw).toMatch(/^List-Unsubscribe-Post:/im);
        expect(signed).toContain("list-unsubscribe");
        expect(signed).toContain("list-unsubscribe-post");
      }

      // The return path names this very delivery (message and recipient).
      expect(message.mailFrom).toMatch(/^bounces\+[0-9a-f]{32}-[a-z2-7]{16}@send\.example\.com$/);
      const parsed = codec.parse(message.mailFrom)!;
      const row = rows.find((r) => r.id === parsed.deliveryId)!;
      expect(row.recipient).toBe(message.recipients[0]!);
      expect(row.emailId).toBe(message.recipients[0] === "d@dest.test" ? single.body.id : res.body.id);

      const verdict = await checkAuthentication(message.raw, { mailFrom: message.mailFrom, dnsServers: dns.servers });
      expect(verdict).toMatchObject({
        dkim: "pass",
        dkimDomain: "example.com",
        spf: "pass",
        spfDomain: "send.example.com",
        dmarc: "pass",
      });
      expect(verdict.spfAligned).toBe("send.example.com");
      expect(verdict.dkimAligned).toBe("example.com");
    }
    // The stored message is what the API returns: unsigned, never rewritten.
    const stored = await t.request("GET", `/v1/emails/${res.body.id}/raw`);
    expect(await stored.text()).not.toContain("DKIM-Signature");
  });

  test("a receiver that cannot find the key fails DKIM (the signature is real, not decorative)", async () => {
    const domain = await verifiedDomain();
    await t.json("POST", "/v1/emails", {
      body: { from: "hi@example.com", to: "a@dest.test", subject: "x", html: "<p>x</p>" },
    });
    await t.app.services.worker.runOnce();
    dns.remove(domain.records.find((r) => r.record === "DKIM")!.name);
    const verdict = await checkAuthentication(smtp.received[0]!.raw, {
      mailFrom: smtp.received[0]!.mailFrom,
      dnsServers: dns.servers,
    });
    expect(verdict.dkim).not.toBe("pass");
    // SPF still passes and aligns, so DMARC passes on SPF alone.
    expect(verdict.spf).toBe("pass");
    expect(verdict.dmarc).toBe("pass");
  });

  test("Ed25519 on request: its own record, and once that is found a second signature that verifies (RFC 8463)", async () => {
    const domain = await verifiedDomain();
    const patched = (await t.json("PATCH", `/v1/domains/${domain.id}`, { body: { dkim: { ed25519: true } } }))
      .body as DomainView;
    expect(patched.dkim).toEqual({ ed25519: true });
    const records = patched.records.filter((r) => r.record === "DKIM");
    expect(records).toHaveLength(2);
    const ed = records.find((r) => r.value.includes("k=ed25519"))!;
    // The bare 32-byte key, not a SubjectPublicKeyInfo (RFC 8463 §4.2).
    expect(Buffer.from(/p=([^;]+)$/.exec(ed.value)![1]!, "base64")).toHaveLength(32);
    expect(ed.status).toBe("pending");

    // Before its record is found, mail is signed with RSA only.
    const send = () =>
      t.json("POST", "/v1/emails", {
        body: { from: "hi@example.com", to: "a@dest.test", subject: "Two keys", html: "<p>x</p>" },
      });
    await send();
    await t.app.services.worker.runOnce();
    expect(smtp.received[0]!.raw.toString().match(/^DKIM-Signature:/gm)).toHaveLength(1);

    publish(patched);
    const checked = (await t.json("POST", `/v1/domains/${domain.id}/verify`)).body as DomainView;
    expect(checked.records.find((r) => r.name === ed.name)!.status).toBe("verified");
    expect(checked.status).toBe("verified");
    await send();
    await t.app.services.worker.runOnce();
    const raw = smtp.received[1]!.raw;
    expect(raw.toString().match(/^DKIM-Signature:/gm)).toHaveLength(2);
    const { dkimVerify } = await import("mailauth/lib/dkim/verify.js");
    const { createResolver, resolveFunction } = await import("../src/lib/dns.ts");
    const verified = await dkimVerify(raw, {
      resolver: resolveFunction(createResolver(dns.servers, { timeoutMs: 2000, tries: 1 })),
    });
    const results = verified.results.map((r: any) => [r.algo, r.status.result]);
    expect(results).toEqual(
      expect.arrayContaining([
        ["rsa-sha256", "pass"],
        ["ed25519-sha256", "pass"],
      ]),
    );
    // A receiver that cannot find the Ed25519 key fails that signature only.
    dns.remove(ed.name);
    const without = await dkimVerify(raw, {
      resolver: resolveFunction(createResolver(dns.servers, { timeoutMs: 2000, tries: 1 })),
    });
    expect(without.results.find((r: any) => r.algo === "ed25519-sha256")?.status.result).not.toBe("pass");

    // Turned off: its record leaves the list and mail is signed with RSA alone again.
    const off = (await t.json("PATCH", `/v1/domains/${domain.id}`, { body: { dkim: { ed25519: false } } }))
      .body as DomainView;
    expect(off.dkim).toEqual({ ed25519: false });
    expect(off.records.filter((r) => r.record === "DKIM")).toHaveLength(1);
    await send();
    await t.app.services.worker.runOnce();
    expect(smtp.received[2]!.raw.toString().match(/^DKIM-Signature:/gm)).toHaveLength(1);
  });

  test("mail from a domain the organisation does not have leaves unsigned with its own envelope sender", async () => {
    await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
    const job = {
      deliveryId: "0190f3a2-b4c5-7d8e-9f0a-1b2c3d4e5f60",
      emailId: "e",
      organizationId: t.organizationId,
      envelopeFrom: "someone@stranger.test",
      recipient: "a@dest.test",
      attempts: 0,
      messageId: "<m@stranger.test>",
      raw: Buffer.from("From: someone@stranger.test\r\nTo: a@dest.test\r\nSubject: x\r\n\r\nbody\r\n"),
    };
    const { createOutgoingSigner } = await import("../src/domains/signing.ts");
    const { createCpuPool } = await import("../src/cpu/pool.ts");
    const dkim = createCpuPool(new URL("../src/cpu/thread.ts", import.meta.url), 1);
    const signer = createOutgoingSigner({
      domains: t.app.services.domains,
      returnPaths: createReturnPathCodec(Buffer.alloc(32)),
      dkim,
      clock: t.app.services.clock,
      logger: t.app.services.logger,
    });
    expect(await signer.prepare(job)).toEqual(job);
    dkim.close();
  });
});
