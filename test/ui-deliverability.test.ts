/**
 * Deliverability in Chromium (docs/deliverability.md): the organisation's and each domain's sending health in a table that
 * stacks on a phone, a guardrail's pause said in words and resumed by keyboard alone; a domain's page with who sends
 * as it (the receivers' DMARC reports, Mailroom's address told from another's); its tracking domain, TLS policy and
 * Ed25519 signature set with the mouse, each adding what it should to the records; a key that may only read sees the
 * settings as text and no control; an organisation without a domain is told what the screen is for. Sending IPs: an
 * IP pool's addresses with their EHLO names, warm-up day, today's messages per provider and a back-off, in a table
 * that stacks on a phone; a domain's IP pool chosen by keyboard alone; a server without pools says how to add one
 * and offers no choice.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { DeliveryJob, DeliveryResult, Provider } from "../src/providers/types.ts";
import { tablesOf } from "../src/db/store.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import {
  BROWSER_START_MS,
  browserPeer as checkBrowser,
  openSection,
  screenshot,
  startUi,
  type UiSession,
} from "./helpers/browser.ts";

const browserPeer = checkBrowser();
let t: TestApp;
let ui: UiSession;
let bare: TestApp;
let bareUi: UiSession;

/** `bad…@` addresses do not exist (a permanent bounce); every other is delivered. */
const judged: Provider = {
  name: "judged",
  async deliver(job: DeliveryJob): Promise<DeliveryResult> {
    return job.recipient.startsWith("bad")
      ? { outcome: "permanent", response: "550 5.1.1 <bad> user unknown", subType: "General" }
      : { outcome: "delivered", response: "250 2.0.0 OK" };
  },
  async close() {},
};

const addresses = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}-${i}@dest.test`);

/** One message per recipient in one batch (the key's request budget stays the browser's), then the worker until idle. */
async function sendEach(from: string, recipients: string[]) {
  const { status } = await t.json("POST", "/v1/emails/batch", {
    body: recipients.map((to) => ({ from, to, subject: "Judged", text: "Hi" })),
  });
  expect(status).toBe(200);
  while ((await t.app.services.worker.runOnce()) > 0);
}

const pausesNow = async () =>
  (await t.app.services.store.db.query.sendingPauses.findMany()).map((p) => [p.scope, p.name, p.reason]);

beforeAll(async () => {
  t = await createTestApp(
    {
      guardrails: { min_recipients: 20 },
      server: { public_ips: ["203.0.113.5"] },
      deliverability: { dnsbl: ["bl.example"] },
      // The test's mail goes through `judged`, so the pool never sends: its counts are written below.
      ip_pools: {
        main: { addresses: ["127.0.0.2", "127.0.0.3"], ehlo_names: ["mta2.example.com", "mta3.example.com"] },
      },
    },
    { liveProvider: judged },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  await t.app.services.domains.add(t.operator, "risky.example", { verifiedOverride: true });
  // example.com: 1 bounce in 20 (5 %, over the 4 % warning); risky.example: 4 in 20 (20 %, over the 8 % pause).
  await sendEach("ops@example.com", [...addresses("good", 19), ...addresses("bad", 1)]);
  await sendEach("ops@risky.example", [...addresses("fine", 16), ...addresses("bad-list", 4)]);
  await t.app.services.guardrails.evaluate();
  const day = 86_400_000;
  await t.app.services.dmarcReports.store("example.com", [
    {
      reporter: "google.com",
      report_id: "r1",
      policy_domain: "example.com",
      begin: new Date(Date.now() - day).toISOString(),
      end: new Date().toISOString(),
      rows: [
        {
          source_ip: "203.0.113.5",
          count: 40,
          disposition: "none",
          dkim: "pass",
          spf: "pass",
          header_from: "example.com",
        },
        {
          source_ip: "198.51.100.7",
          count: 3,
          disposition: "quarantine",
          dkim: "fail",
          spf: "fail",
          header_from: "example.com",
        },
      ],
    },
  ]);
  // A blocklist's answer as its daily check stores it (test/blocklists.test.ts asks a real DNS server).
  const { blocklistListings } = tablesOf(t.app.services.store.db);
  await t.app.services.store.db.insert(blocklistListings).values({
    address: "203.0.113.5",
    zone: "bl.example",
    listed: true,
    reason: "Listed: spam trap hits",
    checkedAt: new Date().toISOString(),
  });
  // 127.0.0.2 first sent today (day 1 of its warm-up) and took 12 messages to gmail and 3 to outlook; gmail then
  // answered with a throttling reply, which halves its rate for the address for an hour (this instance's, in memory).
  const { ipVolumes, ipFirstUse } = tablesOf(t.app.services.store.db);
  const today = new Date().toISOString().slice(0, 10);
  await t.app.services.sendingIps.settled("127.0.0.2", "gmail", {
    taken: false,
    response: "421 4.7.0 Try again later, closing connection",
  });
  await t.app.services.store.db.insert(ipFirstUse).values({ address: "127.0.0.2", day: today });
  await t.app.services.store.db.insert(ipVolumes).values([
    { address: "127.0.0.2", provider: "gmail", day: today, messages: 12 },
    { address: "127.0.0.2", provider: "outlook", day: today, messages: 3 },
  ]);
  ui = await startUi(t, browserPeer.available);
  bare = await createTestApp();
  bareUi = await startUi(bare, browserPeer.available, ui.browser);
}, BROWSER_START_MS);

afterAll(async () => {
  await bareUi?.close();
  await ui?.close();
  await bare?.close();
  await t?.close();
});

test("the guardrails judged what the test sent: example.com warns, risky.example is paused by the system", async () => {
  const health = (await t.json("GET", "/v1/sending/health")).body;
  const byName = Object.fromEntries(
    health.domains.map((d: { name: string; health: { status: string } }) => [d.name, d.health.status]),
  );
  expect(byName).toEqual({ "example.com": "warning", "risky.example": "paused" });
  expect(await pausesNow()).toEqual([["domain", "risky.example", "guardrail: bounce rate 20.0 % over 24 h"]]);
});

/** Waits for `done` to hold (the server's state after a click), a few seconds at most. */
async function until(done: () => Promise<boolean>) {
  for (let i = 0; i < 50 && !(await done()); i++) await Bun.sleep(100);
  expect(await done()).toBe(true);
}

/** Nothing on the page is wider than the window: on a phone the tables stack into labelled blocks. */
async function expectNoHorizontalOverflow(page: Page, width: number) {
  expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}

describe.skipIf(!browserPeer.available)("deliverability in chromium", () => {
  test("at 1280 px: both domains' health and the organisation's, the guardrail's pause with its reason, resumed by keyboard alone", async () => {
    const { page, problems } = await ui.open(1280);
    await ui.signIn(page, t.liveKey);
    // The overview says what needs attention and leads here.
    const notice = page.getByRole("region", { name: "Deliverability needs attention" });
    await notice.getByText("risky.example: paused", { exact: false }).waitFor();
    await notice.getByText("203.0.113.5 is listed on bl.example").waitFor();
    // Next to the Queue in the navigation.
    const links = await page.getByRole("navigation", { name: "Sections" }).getByRole("link").allTextContents();
    expect(links[links.indexOf("Queue") + 1]).toBe("Deliverability");
    await openSection(page, "Deliverability");

    const table = page.locator("table.health-table");
    const row = (name: string) => table.getByRole("row").filter({ hasText: name });
    await row("risky.example").waitFor();
    // The status is a word, not a colour alone; the rates as percentages; why it is not ok.
    expect(await row("Whole organisation").locator('td[data-label="Health"]').textContent()).toBe("Warning");
    expect(await row("example.com").locator('td[data-label="Health"]').textContent()).toBe("Warning");
    expect(await row("example.com").locator('td[data-label="Bounce rate"]').textContent()).toBe("5\u00a0%");
    expect(await row("example.com").locator('td[data-label="Why"]').textContent()).toBe("bounce rate 5.0 % over 24 h");
    expect(await row("example.com").locator('td[data-label="Measured over"]').textContent()).toBe("20 recipients");
    expect(await row("risky.example").locator('td[data-label="Health"]').textContent()).toBe("Paused");
    expect(await row("risky.example").locator('td[data-label="Bounce rate"]').textContent()).toBe("20\u00a0%");
    // What the thresholds mean.
    await page.getByText("By default it warns at 4 % bounces or 0.1 % complaints", { exact: false }).waitFor();

    // The guardrail's pause: a clear line with its reason, and the resume control.
    const pause = page.getByRole("region", { name: "Sending from risky.example is paused by a guardrail" });
    await pause.getByText("bounce rate 20.0 % over 24 h", { exact: false }).first().waitFor();
    await pause.getByText("Sending paused since").waitFor();
    // The blocklists' answers about the sending addresses.
    await page.getByRole("cell", { name: "Listed: spam trap hits" }).waitFor();
    await screenshot(page, "ui-deliverability-1280");

    // Resumed by keyboard alone: from the section's link, Tab through the header to the control, Enter, then Enter on
    // the confirmation.
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Deliverability" }).focus();
    await page.waitForSelector('nav a[aria-current="page"]:focus');
    const focusedText = () => page.evaluate(() => (globalThis as any).document.activeElement?.textContent ?? "");
    for (let i = 0; i < 25 && (await focusedText()) !== "Resume sending from risky.example"; i++)
      await page.keyboard.press("Tab");
    expect(await focusedText()).toBe("Resume sending from risky.example");
    await page.keyboard.press("Enter");
    // The confirmation renders on the next frame and takes the focus then: it says what resuming does.
    await page.waitForFunction(
      () =>
        (globalThis as any).document.activeElement?.textContent ===
        "Resume sending from risky.example: send what it held",
    );
    await screenshot(page, "ui-deliverability-resume-1280");
    await page.keyboard.press("Enter");
    await pause.waitFor({ state: "detached" });
    expect(await pausesNow()).toEqual([]);
    // A resume starts the window afresh: nothing is judged until enough recipients end again (issue 49 item 9).
    await page.waitForFunction(
      () =>
        [...(globalThis as any).document.querySelectorAll("table.health-table tr")]
          .find((tr: any) => tr.textContent.includes("risky.example"))
          ?.querySelector('td[data-label="Health"]')?.textContent === "not judged yet",
    );

    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("at 390 px: the health table stacked without overflow; a domain's page says who sends as it; its tracking domain, TLS and Ed25519 set by mouse", async () => {
    const { page, problems } = await ui.open(390);
    await ui.signIn(page, t.liveKey);
    await openSection(page, "Deliverability");
    const table = page.locator("table.health-table");
    await table.getByRole("row").filter({ hasText: "example.com" }).first().waitFor();
    // Stacked: the headings are hidden and every cell is a labelled line of its own.
    expect(await table.locator("thead").evaluate((el) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(1);
    expect(
      await table
        .locator("td")
        .first()
        .evaluate((el) => (globalThis as any).getComputedStyle(el).display),
    ).toBe("block");
    await expectNoHorizontalOverflow(page, 390);
    await screenshot(page, "ui-deliverability-390");

    // The domain's page: who sends as it, Mailroom's address told from another's.
    await table.getByRole("link", { name: "example.com", exact: true }).click();
    await page.getByRole("heading", { name: "example.com verified", level: 1 }).waitFor();
    const who = page.getByRole("region", { name: "Who sends as you" });
    const mailroom = who.getByRole("row").filter({ hasText: "203.0.113.5" });
    await mailroom.waitFor();
    expect(await mailroom.locator('td[data-label="Messages"]').textContent()).toBe("40");
    expect(await mailroom.locator('td[data-label="Passed aligned"]').textContent()).toBe("100\u00a0%");
    expect(await mailroom.locator('td[data-label="Sender"]').textContent()).toBe("Mailroom");
    const other = who.getByRole("row").filter({ hasText: "198.51.100.7" });
    expect(await other.locator('td[data-label="Messages"]').textContent()).toBe("3");
    expect(await other.locator('td[data-label="Passed aligned"]').textContent()).toBe("0\u00a0%");
    expect(await other.locator('td[data-label="Sender"]').textContent()).toBe("Not Mailroom");
    // The card says the domain's health too.
    const card = page.getByRole("article", { name: "example.com verified" });
    const health = card.getByRole("group", { name: "Sending health of example.com" });
    expect(await health.textContent()).toContain("Warning");
    expect(await health.textContent()).toContain("bounce rate 5\u00a0%");
    await expectNoHorizontalOverflow(page, 390);
    await who.scrollIntoViewIfNeeded();
    await screenshot(page, "ui-domain-who-sends-390");

    // A tracking subdomain and TLS required, by mouse: the Tracking CNAME record appears.
    const records = card.locator("table.records tbody tr");
    expect(await records.filter({ hasText: "Tracking" }).count()).toBe(0);
    await card.getByLabel("Tracking subdomain").click();
    await card.getByLabel("Tracking subdomain").fill("links");
    await card.getByRole("button", { name: "Save tracking domain" }).click();
    const tracking = records.filter({ hasText: "Tracking" });
    await tracking.waitFor();
    expect(await tracking.locator('td[data-label="Type"]').textContent()).toBe("CNAME");
    expect(await tracking.locator('td[data-label="Name"] code').textContent()).toBe("links.example.com");
    await card.getByText("https://links.example.com — links use it once its CNAME record above is found.").waitFor();
    await card.getByRole("checkbox", { name: "Require TLS" }).click();
    await until(async () => (await t.json("GET", "/v1/domains/example.com")).body.tls === "enforced");

    // Ed25519 on: a second DKIM record, k=ed25519 (the DMARC record's "adkim" must not count as one).
    const dkimRows = records.filter({ has: page.locator('td[data-label="Record"]', { hasText: /^DKIM$/ }) });
    expect(await dkimRows.count()).toBe(1);
    await card.getByRole("checkbox", { name: "Ed25519 signature" }).click();
    await records.filter({ hasText: "k=ed25519" }).waitFor();
    expect(await dkimRows.count()).toBe(2);
    await card
      .getByText("Waiting for that record: mail is signed with RSA alone until then.", { exact: false })
      .waitFor();
    await expectNoHorizontalOverflow(page, 390);
    await screenshot(page, "ui-domain-settings-390");

    const api = (await t.json("GET", "/v1/domains/example.com")).body;
    expect([api.tracking_subdomain, api.tls, api.dkim]).toEqual(["links", "enforced", { ed25519: true }]);

    // Removed again: the CNAME record goes with it.
    await card.getByRole("button", { name: "Remove tracking domain" }).click();
    await tracking.waitFor({ state: "detached" });
    expect((await t.json("GET", "/v1/domains/example.com")).body.tracking_subdomain).toBeNull();

    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("at 1280 px: the pool's addresses with their warm-up day, today's messages and back-off; a domain's IP pool set by keyboard alone", async () => {
    const { page, problems } = await ui.open(1280);
    await ui.signIn(page, t.liveKey);
    await openSection(page, "Deliverability");
    const pool = page.getByRole("table", { name: "Addresses of IP pool main" });
    const address = (ip: string) => pool.getByRole("row").filter({ hasText: ip });
    const cell = (ip: string, label: string) => address(ip).locator(`td[data-label="${label}"]`).textContent();
    await address("127.0.0.2").waitFor();
    expect(await cell("127.0.0.2", "EHLO name")).toBe("mta2.example.com");
    expect(await cell("127.0.0.2", "Warm-up")).toBe("day 1 of 30, up to 50 per provider today");
    expect(await cell("127.0.0.2", "Today (UTC)")).toBe("gmail: 12, outlook: 3");
    expect(await cell("127.0.0.2", "Back-off")).toMatch(/^gmail: 300\/min until \d{1,2}:\d{2}.* \(throttled\)$/);
    expect(await cell("127.0.0.3", "EHLO name")).toBe("mta3.example.com");
    expect(await cell("127.0.0.3", "Warm-up")).toBe("not used yet");
    expect(await cell("127.0.0.3", "Today (UTC)")).toBe("none yet");
    expect(await cell("127.0.0.3", "Back-off")).toBe("none");
    // What warm-up and back-off mean.
    await page
      .getByText("each address sends at most 50 messages a day to each destination provider", { exact: false })
      .waitFor();
    await page.getByText("at half the rate for an hour", { exact: false }).waitFor();
    await page.getByRole("heading", { name: "Sending IPs" }).scrollIntoViewIfNeeded();
    await screenshot(page, "ui-sending-ips-1280");

    // The domain's IP pool, by keyboard alone: from the page's first link, Tab to the choice, type the pool's name,
    // Tab to Save and press Enter.
    const id = (await t.json("GET", "/v1/domains/example.com")).body.id;
    expect((await t.json("GET", `/v1/domains/${id}`)).body.ip_pool).toBeNull();
    await page.goto(`${ui.base}/#/domains/${id}`);
    const card = page.getByRole("article", { name: "example.com verified" });
    const setting = card.getByRole("form", { name: "IP pool of example.com" });
    await setting
      .getByText("IP pool: none: direct delivery of its mail leaves from the machine's own address.")
      .waitFor();
    const choice = setting.getByRole("combobox", { name: "IP pool", exact: true });
    expect(await choice.locator("option").allTextContents()).toEqual(["None (the machine's own address)", "main"]);
    await page.getByRole("link", { name: "← All domains" }).focus();
    const focusedId = () => page.evaluate(() => (globalThis as any).document.activeElement?.id ?? "");
    for (let i = 0; i < 60 && (await focusedId()) !== `ip-pool-${id}`; i++) await page.keyboard.press("Tab");
    expect(await focusedId()).toBe(`ip-pool-${id}`);
    await page.keyboard.type("main");
    expect(await choice.inputValue()).toBe("main");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe("Save IP pool");
    await page.keyboard.press("Enter");
    await until(async () => (await t.json("GET", `/v1/domains/${id}`)).body.ip_pool === "main");
    await setting.getByText("IP pool: main — direct delivery of its mail leaves from that pool's addresses.").waitFor();
    expect(await setting.getByRole("button", { name: "Save IP pool" }).isDisabled()).toBe(true);
    await setting.scrollIntoViewIfNeeded();
    await screenshot(page, "ui-domain-ip-pool-1280");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("at 390 px: the pool's table stacked into labelled blocks without overflow", async () => {
    const { page, problems } = await ui.open(390);
    await ui.signIn(page, t.liveKey);
    await openSection(page, "Deliverability");
    const pool = page.getByRole("table", { name: "Addresses of IP pool main" });
    const row = pool.getByRole("row").filter({ hasText: "127.0.0.2" });
    await row.waitFor();
    expect(await pool.locator("thead").evaluate((el) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(1);
    expect(
      await row.locator('td[data-label="Warm-up"]').evaluate((el) => (globalThis as any).getComputedStyle(el).display),
    ).toBe("block");
    expect(await row.locator('td[data-label="Today (UTC)"]').textContent()).toBe("gmail: 12, outlook: 3");
    await expectNoHorizontalOverflow(page, 390);
    await pool.scrollIntoViewIfNeeded();
    await screenshot(page, "ui-sending-ips-390");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("a key that may only read domains sees health, settings and who sends as it, and no control that changes them", async () => {
    const reader = await t.app.services.keys.create(t.operator, {
      name: "domains reader",
      scopes: ["domains:read"],
      mode: "live",
    });
    const { page, problems } = await ui.open(1280);
    await ui.signIn(page, reader.key);
    await openSection(page, "Deliverability");
    await page.locator("table.health-table").getByRole("row").filter({ hasText: "risky.example" }).waitFor();
    await openSection(page, "Domains");
    const card = page.getByRole("article", { name: "example.com verified" });
    await card.getByText("Tracking domain:").waitFor();
    expect(await card.getByText("TLS: required (enforced)").count()).toBe(1);
    expect(await card.getByText("Ed25519 signature: on").count()).toBe(1);
    expect(await card.getByLabel("Tracking subdomain").count()).toBe(0);
    expect(await card.getByRole("checkbox", { name: "Require TLS" }).count()).toBe(0);
    expect(await card.getByRole("checkbox", { name: "Ed25519 signature" }).count()).toBe(0);
    // Read once the pools are known (they load beside the domains).
    await card.getByText("IP pool: main — direct delivery of its mail leaves from that pool's addresses.").waitFor();
    expect(await card.getByRole("combobox", { name: "IP pool" }).count()).toBe(0);
    await card.getByRole("link", { name: "Who sends as example.com" }).click();
    await page.getByRole("region", { name: "Who sends as you" }).getByText("203.0.113.5").waitFor();
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  for (const width of [1280, 390])
    test(`at ${width} px without a domain: the screen says what it is for and links to adding one`, async () => {
      const { page, problems } = await bareUi.open(width);
      await bareUi.signIn(page, bare.liveKey);
      await openSection(page, "Deliverability");
      const empty = page.getByRole("region", { name: "Nothing to measure yet" });
      await empty.getByRole("heading", { name: "Nothing to measure yet" }).waitFor();
      expect(await empty.getByRole("link").getAttribute("href")).toBe("#/domains");
      // Without a pool: one line on how to configure one, no table.
      await page.getByText("Direct delivery sends from this machine's own address.", { exact: false }).waitFor();
      expect(await page.getByRole("table", { name: /^Addresses of IP pool/ }).count()).toBe(0);
      await screenshot(page, `ui-deliverability-empty-${width}`);
      await empty.getByRole("link").click();
      await page.getByRole("heading", { name: "Domains", level: 1 }).waitFor();
      // A domain's page before any report: where reports come from, and the way to the record that asks for them.
      await bare.app.services.domains.add(bare.operator, `fresh-${width}.example`, { verifiedOverride: true });
      const id = (await bare.json("GET", `/v1/domains/fresh-${width}.example`)).body.id;
      await page.goto(`${bareUi.base}/#/domains/${id}`);
      const none = page.getByRole("region", { name: "No DMARC report yet" });
      await none.getByText(`dmarc@send.fresh-${width}.example`).waitFor();
      expect(await none.textContent()).toContain("once a day");
      // No pool configured: no IP pool setting on the domain's card.
      expect(await page.getByRole("form", { name: /^IP pool of/ }).count()).toBe(0);
      await none.getByRole("button", { name: "Go to the DMARC record to publish" }).click();
      expect(await page.locator(":focus").getAttribute("aria-label")).toBe("Copy the DMARC record's value");
      await expectNoHorizontalOverflow(page, width);
      await screenshot(page, `ui-domain-no-dmarc-${width}`);
      // Gone again, so the next width starts without a domain.
      expect((await bare.json("DELETE", `/v1/domains/${id}`)).status).toBe(200);
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);
});
