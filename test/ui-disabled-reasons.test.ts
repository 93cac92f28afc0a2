/**
 * Controls a role or key may not use, in Chromium (issue 49 item 5, docs/teams.md#roles): each stays in view,
 * disabled, and says why on hover and on keyboard focus; pressing it asks the server nothing — a viewer's "Download
 * raw" no longer fails after the click. At 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import {
  BROWSER_START_MS,
  browserPeer as checkBrowser,
  openSection,
  screenshot,
  startUi,
  type UiSession,
  signInWithPassword,
} from "./helpers/browser.ts";
import { PASSWORD, setUpOwner } from "./helpers/people.ts";

const browserPeer = checkBrowser();
let t: TestApp;
let ui: UiSession;
let emailId: string;

const VIEWER_CONTENT =
  "Viewers read records, not message content: mail holds other people's password-reset links. An owner or admin can give you the developer role.";
const VIEWER_DOMAINS = "Your role (viewer) cannot add, verify, change or remove domains: ask an owner or admin.";

beforeAll(async () => {
  t = await createTestApp();
  ui = await startUi(t, browserPeer.available);
  await setUpOwner(t);
  const made = await t.app.services.people.createUser({
    email: "viewer@example.com",
    organizationId: t.organizationId,
    role: "viewer",
  });
  await t.app.services.people.setPassword({ token: made.token, password: PASSWORD });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  emailId = (
    await t.json("POST", "/v1/emails", {
      body: { from: "hi@example.com", to: "someone@dest.example", subject: "Quarterly note", text: "hello" },
    })
  ).body.id;
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

const signInAs = (page: Page, email: string) => signInWithPassword(page, ui.base, email, PASSWORD);

/** The reason a disabled control names as its description, and whether it is on screen now. */
async function reasonOf(control: Locator) {
  const id = await control.getAttribute("aria-describedby");
  const tip = control.page().locator(`[id="${id}"]`);
  return { text: await tip.textContent(), visible: await tip.isVisible() };
}

/** Tabs from the top of the page until `control` holds the focus (at most 80 presses). */
async function tabTo(page: Page, control: Locator) {
  await page.locator("body").focus();
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    if (await control.evaluate((el) => el === (globalThis as any).document.activeElement)) return;
  }
  throw new Error("the control never took the focus");
}

/** Checks one refused control: disabled, reason hidden at rest, shown on hover and on focus, a press does nothing. */
async function expectRefused(page: Page, control: Locator, reason: string, problems: string[]) {
  expect(await control.getAttribute("aria-disabled")).toBe("true");
  expect(await reasonOf(control)).toEqual({ text: reason, visible: false });
  await control.hover();
  expect(await reasonOf(control)).toEqual({ text: reason, visible: true });
  // Wholly on screen, at either width.
  const box = (await page.locator(`[id="${await control.getAttribute("aria-describedby")}"]`).boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  await page.mouse.move(0, 0);
  expect((await reasonOf(control)).visible).toBe(false);
  await tabTo(page, control);
  expect(await reasonOf(control)).toEqual({ text: reason, visible: true });
  const before = problems.length;
  await page.keyboard.press("Enter");
  await control.click({ force: true });
  await page.waitForTimeout(200);
  expect(problems.slice(before)).toEqual([]);
}

describe.skipIf(!browserPeer.available)("refused controls say why", () => {
  for (const width of [1280, 390])
    test(`at ${width} px a viewer's "Download raw" and "New domain" are disabled with the reason on hover and focus`, async () => {
      const { page, problems } = await ui.open(width);
      const downloads: string[] = [];
      page.on("download", (d) => downloads.push(d.suggestedFilename()));
      const asked: string[] = [];
      page.on("request", (r) => asked.push(new URL(r.url()).pathname));
      await signInAs(page, "viewer@example.com");

      await page.goto(`${ui.base}/#/emails/${emailId}`);
      await page.getByRole("heading", { name: "Quarterly note" }).waitFor();
      const raw = page.getByRole("button", { name: "Download raw (.eml)", exact: true });
      await expectRefused(page, raw, VIEWER_CONTENT, problems);
      await raw.hover();
      await screenshot(page, `ui-refused-raw-${width}`);
      expect(downloads).toEqual([]);
      expect(asked.filter((path) => path.endsWith("/raw"))).toEqual([]);

      await openSection(page, "Domains");
      await page.getByRole("heading", { name: "Domains", level: 1 }).waitFor();
      const add = page.getByRole("button", { name: "New domain", exact: true });
      await expectRefused(page, add, VIEWER_DOMAINS, problems);
      const verify = page.getByRole("button", { name: "Verify now", exact: true });
      expect(await reasonOf(verify)).toEqual({ text: VIEWER_DOMAINS, visible: false });
      await add.hover();
      await screenshot(page, `ui-refused-new-domain-${width}`);
      // The reason fits the screen: nothing scrolls sideways at a phone's width.
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);
});
