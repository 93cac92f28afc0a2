/**
 * The Organisation screen in Chromium (issue 28) at 1280 and 390 px: the limits with today's usage against the
 * daily quota, retention and storage; a quota set by keyboard alone and seen used up; the quota cleared and the
 * content window changed with the mouse, each confirmed by the server's answer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
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

const organization = async () => (await t.json("GET", "/v1/organization")).body;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  ui = await startUi(t, browserPeer.available);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

describe.skipIf(!browserPeer.available)("the Organisation screen in chromium", () => {
  for (const width of [1280, 390])
    test(`at ${width} px: a daily quota set by keyboard and seen used up; cleared, and retention changed, by mouse`, async () => {
      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      await openSection(page, "Organisation");
      await page.getByRole("heading", { name: "Limits" }).waitFor();
      await page.getByText("No daily quota").waitFor();
      await page.getByRole("heading", { name: "Storage" }).waitFor();

      // By keyboard: the quota's field, a number, Enter submits the form.
      const used = (await organization()).usage_today as number;
      await page.getByLabel("Daily quota (live messages per UTC day)").focus();
      await page.keyboard.type(String(used + 1));
      await page.keyboard.press("Enter");
      await page.getByRole("status").getByText("Saved.").waitFor();
      expect((await organization()).daily_quota).toBe(used + 1);
      await page.getByText(`${used} of ${used + 1} live messages today (UTC)`).waitFor();

      const sent = await t.json("POST", "/v1/emails", {
        body: { from: "ops@example.com", to: "someone@dest.test", subject: "Counted", text: "Hello" },
      });
      expect(sent.status).toBe(200);
      await page.reload();
      await page.getByText("The quota is used up").waitFor();
      await screenshot(page, `ui-organization-quota-${width}`);

      // By mouse: clear the quota (no quota), and keep content 7 days.
      await page.getByLabel("Daily quota (live messages per UTC day)").fill("");
      await page.getByLabel("Keep content (days)").fill("7");
      await page.getByRole("button", { name: "Save settings" }).click();
      await page.getByRole("status").getByText("Saved.").waitFor();
      await page.getByText("No daily quota").waitFor();
      await page.getByText("7 days").first().waitFor();
      expect(await organization()).toMatchObject({ daily_quota: null, retention: { content_days: 7 } });
      await screenshot(page, `ui-organization-${width}`);

      await t.json("PATCH", "/v1/organization", { body: { retention: { content_days: null } } });
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);
});
