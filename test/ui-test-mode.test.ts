/**
 * Test-mode mail as a person sees it (issue 49 item 6, docs/keys-and-limits.md#test-keys-are-a-sandbox): marked
 * "test mode" in the Emails list and on its page, live mail not; and `held` (accepted during a pause,
 * docs/operations.md#pauses) offered by the status filter, finding the held message. In Chromium at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import {
  BROWSER_START_MS,
  browserPeer as checkBrowser,
  screenshot,
  startUi,
  type UiSession,
} from "./helpers/browser.ts";

const browserPeer = checkBrowser();
let t: TestApp;
let ui: UiSession;
let testId: string;

const send = async (subject: string, key?: string) => {
  const sent = await t.json("POST", "/v1/emails", {
    body: { from: "hi@example.com", to: "someone@dest.example", subject, text: "hello" },
    key,
  });
  expect(sent.status).toBe(200);
  return sent.body.id as string;
};

beforeAll(async () => {
  t = await createTestApp();
  ui = await startUi(t, browserPeer.available);
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  testId = await send("Rehearsal", t.testKey);
  await send("Live one");
  await t.app.services.worker.runOnce();
  // Sending paused: the next live message is accepted and held.
  expect((await t.json("POST", "/v1/sending/pause", { body: { scope: "organization" } })).status).toBe(200);
  await send("Held one");
  await t.app.services.worker.runOnce();
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

describe("the API says which mail is test mode", () => {
  test("list entries and records carry mode; the status filter takes held", async () => {
    const listed = await t.json("GET", "/v1/emails");
    const modes = Object.fromEntries(
      listed.body.data.map((e: { subject: string; mode: string }) => [e.subject, e.mode]),
    );
    expect(modes).toEqual({ Rehearsal: "test", "Live one": "live", "Held one": "live" });
    expect((await t.json("GET", `/v1/emails/${testId}`)).body.mode).toBe("test");
    const held = await t.json("GET", "/v1/emails?status=held");
    expect([held.status, held.body.data.map((e: { subject: string }) => e.subject)]).toEqual([200, ["Held one"]]);
  });
});

describe.skipIf(!browserPeer.available)("test mode in chromium", () => {
  for (const width of [1280, 390])
    test(`at ${width} px test-mode mail is marked in the list and on its page; held is a status to filter by`, async () => {
      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      await page.goto(`${ui.base}/#/emails`);
      const row = (subject: string) => page.getByRole("row").filter({ hasText: subject });
      await row("Rehearsal").getByText("test mode", { exact: true }).waitFor();
      expect(await row("Live one").getByText("test mode", { exact: true }).count()).toBe(0);
      await screenshot(page, `ui-emails-test-mode-${width}`);

      const status = page.getByLabel("Status");
      expect(await status.locator("option").allTextContents()).toContain("held");
      await status.selectOption("held");
      await page.getByRole("button", { name: "Filter" }).press("Enter");
      await row("Live one").waitFor({ state: "detached" });
      // The filtered page is drawn after the old rows leave: wait for it, then read every row.
      await row("Held one").waitFor();
      expect(await page.locator("tbody tr").allTextContents()).toEqual([expect.stringContaining("Held one")]);

      await page.goto(`${ui.base}/#/emails/${testId}`);
      await page.getByRole("heading", { name: "Rehearsal" }).waitFor();
      await page.getByText("sent with a test key: captured here, never delivered to anyone").waitFor();
      await screenshot(page, `ui-email-test-mode-${width}`);
      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);
});
