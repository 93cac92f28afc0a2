/**
 * The admin overview in a real browser (Debian's chromium via playwright-core) against the app on loopback: a new
 * install shows its empty state; then mail sent through the API is delivered for real to an SMTP server on loopback
 * that takes some recipients and refuses one (bounced, then suppressed), and a feedback report complains about one,
 * and the screen shows the totals and rates and draws bars for the current hour and day, with each chart's figures
 * in its accessible name and in the table — at 1280 and 390 px, with no console error and no request off loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import {
  BROWSER_START_MS,
  browserPeer as checkBrowser,
  screenshot,
  startUi,
  type UiSession,
} from "./helpers/browser.ts";
import { inboundFixture } from "./helpers/inbound-fixtures.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

const browserPeer = checkBrowser();

let smtp: SmtpDouble;
let t: TestApp;
let ui: UiSession;

beforeAll(async () => {
  smtp = await startSmtpDouble();
  smtp.rules.set("gone@dest.test", { reply: "reject", code: 550, message: "5.1.1 User unknown" });
  t = await createTestApp({
    delivery: { default_provider: "smtp" },
    smarthost: { host: "127.0.0.1", port: smtp.port, security: "none" },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  ui = await startUi(t, browserPeer.available);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
  await smtp?.close();
});

const send = async (to: string[]) => {
  const res = await t.json("POST", "/v1/emails", {
    body: { from: "Acme <hello@example.com>", to, subject: "Overview", html: "<p>Hi</p>" },
  });
  expect(res.status).toBe(200);
  return res.body.id as string;
};

/**
 * Waits until the running worker has recorded what the stats should show. It asks with a live key of its own (a test
 * key counts test-mode mail only), which keeps the browser's key's rate limit for the browser.
 */
async function statsReach(expected: Record<string, number>) {
  const deadline = Date.now() + 10_000;
  const { key } = await t.app.services.keys.create(t.operator, {
    name: "stats poller",
    scopes: ["emails:read"],
    mode: "live",
  });
  for (;;) {
    const totals = (await t.json("GET", "/v1/emails/stats", { key })).body.totals;
    if (Object.entries(expected).every(([name, n]) => totals[name] === n)) return;
    if (Date.now() > deadline)
      throw new Error(`stats never reached ${JSON.stringify(expected)}: ${JSON.stringify(totals)}`);
    await Bun.sleep(200);
  }
}

const HOUR_MS = 3_600_000;
/** The test's own length, with room: it must not run across the turn of an hour. */
const HOUR_GUARD_MS = 90_000;

const figure = async (page: Page, term: string) =>
  (await page.locator(".figures > div", { hasText: term }).innerText()).replace(/[ \t\n]+/g, " ");

describe.skipIf(!browserPeer.available)("overview in chromium", () => {
  for (const width of [1280, 390]) {
    test(`at ${width} px a new install says there is no email yet`, async () => {
      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      await page.getByRole("heading", { name: "Overview" }).waitFor();
      await page.getByText("No email yet — send one").waitFor();
      expect(await page.locator("svg").count()).toBe(0);
      await screenshot(page, `ui-overview-empty-${width}`);
      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);
  }

  test(
    "after mail is sent, delivered, bounced, suppressed and complained about: totals, charts and table",
    async () => {
      // The charts' last bar is the current UTC hour (and day): start after the turn of the hour if it is near.
      const toNextHour = HOUR_MS - (Date.now() % HOUR_MS);
      if (toNextHour < HOUR_GUARD_MS) await Bun.sleep(toNextHour + 1_000);
      // Three recipients of one message: two taken by the server, one refused for good (bounced, then suppressed).
      const first = await send(["someone@dest.test", "b@dest.test", "gone@dest.test"]);
      await statsReach({ sent: 2, bounced: 1 });
      // The refused address is now suppressed beside a new one; one more message to one recipient.
      await send(["gone@dest.test", "c@dest.test"]);
      await send(["d@dest.test"]);
      await statsReach({ accepted: 3, sent: 4, suppressed: 1 });
      const record = (await t.json("GET", `/v1/emails/${first}`)).body;
      const returnPath = smtp.received.find((m) => m.recipients.includes("someone@dest.test"))!.mailFrom;
      const report = inboundFixture("arf-yahoo", { messageId: record.message_id, returnPath });
      expect(
        await t.app.services.inbound.receive(Buffer.from(report), {
          from: "feedback@arf.mail.yahoo.com",
          to: ["fbl@example.com"],
        }),
      ).toMatchObject([{ handled: "complaint" }]);

      for (const width of [1280, 390]) {
        const { page, problems } = await ui.open(width);
        await ui.signIn(page, t.liveKey);
        await page.getByRole("heading", { name: "Overview" }).waitFor();

        // Totals: 3 messages; 4 of 5 recipients delivered (to the smarthost), 1 bounced, 1 complaint of 4 delivered.
        await page.locator(".figures").waitFor();
        expect(await figure(page, "Accepted")).toBe("Accepted 3 messages");
        expect(await figure(page, "Delivered")).toBe("Delivered 80\u00a0% 4 of 5 recipients");
        expect(await figure(page, "Bounce rate")).toBe("Bounce rate 20\u00a0% 1 bounced");
        expect(await figure(page, "Complaint rate")).toBe("Complaint rate 25\u00a0% 1 complaint");
        await page.getByText("Delivered % and bounce rate: of the recipients whose delivery ended").waitFor();

        // The volume chart: its summary names the figures; the current hour (the last bar) has bars, earlier hours none.
        const volume = page.getByRole("img", {
          name: /^Emails per hour over the last 24 hours \(UTC\): 3 messages accepted, 4 recipients delivered; busiest hour/,
        });
        await volume.waitFor();
        const accepted = volume.locator("rect.bar.accepted");
        expect(await accepted.count()).toBe(24);
        expect(Number(await accepted.last().getAttribute("height"))).toBeGreaterThan(0);
        expect(Number(await volume.locator("rect.bar.delivered").last().getAttribute("height"))).toBeGreaterThan(0);
        expect(Number(await accepted.first().getAttribute("height"))).toBe(0);
        // The rates chart: a point for the current hour on both lines.
        const rateChart = page.getByRole("img", {
          name: /^Bounce and complaint rates per hour over the last 24 hours \(UTC\): bounce rate 20\s%, complaint rate 25\s%/,
        });
        expect(await rateChart.locator(".bounce circle.point").count()).toBe(1);
        expect(await rateChart.locator(".complaint circle.point").count()).toBe(1);

        // The same figures as a table, for the current hour, opened from the keyboard.
        await page.getByText("Figures per hour (table)").focus();
        await page.keyboard.press("Enter");
        const row = page.getByRole("row").last();
        expect((await row.getByRole("cell").allTextContents()).slice(0, 4)).toEqual(["3", "4", "0", "1"]);

        // Nothing is wider than the window.
        // The root tsconfig has no DOM types: the page's document is reached through globalThis.
        expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          width,
        );
        await screenshot(page, `ui-overview-${width}`);

        // By day, chosen from the keyboard: seven bars, today's drawn.
        await page.getByLabel("Period").focus();
        await page.keyboard.press("ArrowDown");
        expect(await page.getByLabel("Period").inputValue()).toBe("7d");
        const daily = page.getByRole("img", {
          name: /^Emails per day over the last 7 days \(UTC\): 3 messages accepted/,
        });
        await daily.waitFor();
        expect(await daily.locator("rect.bar.accepted").count()).toBe(7);
        expect(Number(await daily.locator("rect.bar.accepted").last().getAttribute("height"))).toBeGreaterThan(0);
        expect(await figure(page, "Accepted")).toBe("Accepted 3 messages");
        await screenshot(page, `ui-overview-days-${width}`);

        expect(problems).toEqual([]);
        await page.close();
      }
    },
    30_000 + HOUR_GUARD_MS,
  );
});
