/**
 * A domain's DANE status per destination in Chromium (docs/deliverability.md#dane-per-destination), after real direct
 * deliveries through a validating Unbound in front of a signed zone (test/helpers/dnssec.ts) to an SMTP sink whose
 * certificate is self-signed and expired: a matching TLSA record reads "Verified", a mismatched one "Mismatched …
 * deferred 4.7.5", an unsigned destination "none secure" and "TLS setting" — in a table at 1280 px that stacks at
 * 390 px. A server with DANE off says so, and a domain without direct delivery says what the part is for and takes
 * the keyboard to the Require TLS switch, which Space turns on.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash, X509Certificate } from "node:crypto";
import type { Page } from "playwright-core";
import { generate } from "selfsigned";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import {
  BROWSER_START_MS,
  browserPeer as checkBrowser,
  screenshot,
  startUi,
  type UiSession,
} from "./helpers/browser.ts";
import { dnssecPeer, startDnssecServers, type DnssecServers } from "./helpers/dnssec.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

const browserPeer = checkBrowser();
const peer = dnssecPeer();
const DAY = 86_400_000;
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

let dns: DnssecServers;
let sink: SmtpDouble;
let t: TestApp;
let ui: UiSession;
let off: TestApp;
let offUi: UiSession;
let domainId: string;
let offDomainId: string;

/** Sends one message to `to` and runs the worker until it was attempted. */
async function deliver(to: string) {
  const sent = await t.json("POST", "/v1/emails", {
    body: { from: "hello@example.com", to, subject: "Hi", text: "Hi" },
  });
  expect(sent.status).toBe(200);
  for (let i = 0; i < 20; i++) {
    if ((await t.json("GET", `/v1/emails/${sent.body.id}`)).body.recipients[0].attempts > 0) return;
    await t.app.services.worker.runOnce();
  }
  throw new Error(`${to} was never attempted`);
}

beforeAll(async () => {
  if (!peer.available || !browserPeer.available) return;
  const now = Date.now();
  const pair = await generate([{ name: "commonName", value: "expired.invalid" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(now - 3 * DAY),
    notAfterDate: new Date(now - DAY),
  });
  sink = await startSmtpDouble({ disabledCommands: [], key: pair.private, cert: pair.cert });
  const spki = sha256(new X509Certificate(pair.cert).publicKey.export({ type: "spki", format: "der" }));
  const tlsa = (host: string, record: string) => `_${sink.port}._tcp.${host} IN TLSA ${record}`;
  const destination = (label: string) => [`${label} IN MX 10 mx.${label}`, `mx.${label} IN A 127.0.0.1`];
  dns = await startDnssecServers([
    {
      origin: "dane.test",
      signed: true,
      records: [
        ...destination("good"),
        tlsa("mx.good", `3 1 1 ${spki}`),
        ...destination("wrong"),
        tlsa("mx.wrong", `3 1 1 ${"00".repeat(32)}`),
      ],
    },
    { origin: "plain.test", signed: false, records: ["@ IN MX 10 mx", "mx IN A 127.0.0.1"] },
  ]);
  const mx = {
    port: sink.port,
    dane_probe: "dane.test.",
    mta_sts: false,
    connect_timeout: "2s",
    socket_timeout: "5s",
    allow_private_networks: true,
  };
  const delivery = { default_provider: "mx", retry_schedule: ["1m"], retry_max_age: "1h" };
  t = await createTestApp({ dns: { servers: [dns.resolver] }, delivery, mx: { ...mx, dane: "on" } });
  domainId = (await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true })).id;
  for (const to of ["ann@good.dane.test", "ann@wrong.dane.test", "ann@plain.test"]) await deliver(to);
  await t.app.services.tlsReports.settled();
  ui = await startUi(t, true);
  off = await createTestApp({ dns: { servers: [dns.resolver] }, delivery, mx: { ...mx, dane: "off" } });
  offDomainId = (await off.app.services.domains.add(off.operator, "example.org", { verifiedOverride: true })).id;
  offUi = await startUi(off, true, ui.browser);
}, BROWSER_START_MS);

afterAll(async () => {
  await offUi?.close();
  await ui?.close();
  await off?.close();
  await t?.close();
  await sink?.close();
  await dns?.close();
});

const cell = (page: Page, destination: string, label: string) =>
  page
    .locator("table.dane-table tbody tr")
    .filter({ hasText: destination })
    .locator(`td[data-label="${label}"]`)
    .textContent();

describe.skipIf(!peer.available || !browserPeer.available)("DANE per destination in chromium", () => {
  for (const width of [1280, 390])
    test(`at ${width} px the domain's page says each destination's TLSA records and last outcome`, async () => {
      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      await page.goto(`${ui.base}/#/domains/${domainId}`);
      const part = page.getByRole("region", { name: "TLS per destination (DANE)" });
      await part.getByText("DANE is on", { exact: false }).waitFor();
      await part.locator("table.dane-table tbody tr").nth(2).waitFor();
      expect(await cell(page, "good.dane.test", "TLSA records")).toBe("DNSSEC-secure");
      expect(await cell(page, "good.dane.test", "Last outcome")).toBe("Verified the certificate matched a TLSA record");
      expect(await cell(page, "wrong.dane.test", "TLSA records")).toBe("DNSSEC-secure");
      expect(await cell(page, "wrong.dane.test", "Last outcome")).toBe(
        "Mismatched tlsa-invalid: deferred 4.7.5, nothing sent",
      );
      expect(await cell(page, "plain.test", "TLSA records")).toBe("none secure");
      expect(await cell(page, "plain.test", "Last outcome")).toBe("TLS setting fell back to the TLS setting (success)");
      expect(await cell(page, "plain.test", "MX host")).toBe("mx.plain.test");
      if (width === 390) {
        // Stacked: each cell under its label, nothing wider than the phone.
        const label = await page.evaluate(
          () =>
            (globalThis as any).getComputedStyle(
              (globalThis as any).document.querySelector('table.dane-table td[data-label="Last outcome"]'),
              "::before",
            ).content,
        );
        expect(label).toBe('"Last outcome"');
        expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          390,
        );
      }
      await part.scrollIntoViewIfNeeded();
      await screenshot(page, `ui-dane-${width}`);
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);

  test("with DANE off and no direct delivery yet: said so, and the keyboard goes to Require TLS and turns it on", async () => {
    const { page, problems } = await offUi.open(1280);
    await offUi.signIn(page, off.liveKey);
    await page.goto(`${offUi.base}/#/domains/${offDomainId}`);
    const part = page.getByRole("region", { name: "TLS per destination (DANE)" });
    await part.getByText("DANE is off on this server", { exact: false }).waitFor();
    const empty = part.getByRole("region", { name: "No direct delivery yet" });
    expect(await empty.textContent()).toContain("whether its MX host publishes DNSSEC-secure TLSA records");
    await empty.getByRole("button", { name: "Go to the Require TLS setting" }).focus();
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe(
      `require-tls-${offDomainId}`,
    );
    await page.keyboard.press("Space");
    for (let i = 0; i < 50; i++) {
      if ((await off.json("GET", `/v1/domains/${offDomainId}`)).body.tls === "enforced") break;
      await Bun.sleep(100);
    }
    expect((await off.json("GET", `/v1/domains/${offDomainId}`)).body.tls).toBe("enforced");
    await screenshot(page, "ui-dane-off-1280");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
