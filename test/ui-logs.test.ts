/**
 * The Logs screen in Chromium (docs/logs-and-mcp.md#the-request-log), signed in as the organisation's owner (a
 * person's own requests are not recorded, so the list holds exactly what the keys did): the requests with the
 * organisation's usage above them, filtered by status, method, endpoint and key; one request with what was sent and
 * what was answered side by side at 1280 px and stacked at 390 px, secrets already "[redacted]"; the list and an entry
 * reached by keyboard alone; signed in with a key, the screen's own reads listed and said to be; and a new
 * organisation's empty log saying what it is for, how long it keeps requests, and offering its first step.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
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
const ATTACHMENT = Buffer.from("invoice 0042, the attachment's own words").toString("base64");
let t: TestApp;
let ui: UiSession;
let bare: TestApp;
let bareUi: UiSession;
let ciKey: string;

beforeAll(async () => {
  t = await createTestApp({ limits: { key_requests_per_minute: 100_000, org_requests_per_minute: 100_000 } });
  await setUpOwner(t);
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const ok = await t.json("POST", "/v1/emails", {
    body: {
      from: "Acme <billing@example.com>",
      to: "reader@x.org",
      subject: "Your invoice",
      text: "Attached.",
      attachments: [{ filename: "invoice.txt", content: ATTACHMENT }],
    },
    headers: { "user-agent": "billing-app/2.1" },
  });
  expect(ok.status).toBe(200);
  // A send the API refuses: no recipient (400 validation_error).
  expect((await t.json("POST", "/v1/emails", { body: { from: "billing@example.com", subject: "x" } })).status).toBe(
    400,
  );
  expect((await t.json("GET", "/v1/emails/01a24f3a-0000-7000-8000-000000000000")).status).toBe(404);
  const ci = await t.json("POST", "/v1/api-keys", { body: { name: "ci-deploy", permission: "full_access" } });
  expect(ci.status).toBe(201);
  ciKey = ci.body.token;
  expect((await t.json("GET", "/v1/domains", { key: ciKey, headers: { "user-agent": "deploy-bot" } })).status).toBe(
    200,
  );
  await Bun.sleep(20);
  await t.app.services.requestLog.flush();
  ui = await startUi(t, browserPeer.available);
  bare = await createTestApp();
  await setUpOwner(bare);
  bareUi = await startUi(bare, browserPeer.available, ui.browser);
}, BROWSER_START_MS);

afterAll(async () => {
  await bareUi?.close();
  await ui?.close();
  await bare?.close();
  await t?.close();
});

async function signInAsOwner(session: UiSession, page: Page) {
  await signInWithPassword(page, session.base, "owner@example.com", PASSWORD);
}

const rows = (page: Page) => page.locator("table.logs-table tbody tr");
const requests = (page: Page) => page.locator('table.logs-table td[data-label="Request"]').allTextContents();

/** Waits until the list shows exactly `expected` (requests as "METHOD /endpoint", newest first). */
async function listShows(page: Page, expected: string[]) {
  for (let i = 0; i < 50 && JSON.stringify(await requests(page)) !== JSON.stringify(expected); i++)
    await Bun.sleep(100);
  expect(await requests(page)).toEqual(expected);
}

const focusedText = (page: Page) =>
  page.evaluate(() => (globalThis as any).document.activeElement?.textContent?.trim() ?? "");

describe.skipIf(!browserPeer.available)("the Logs screen in chromium", () => {
  test("at 1280 px: under Operations, usage above the requests, each filter, and one request beside its answer", async () => {
    const { page, problems } = await ui.open(1280);
    await signInAsOwner(ui, page);
    const operations = page
      .getByRole("navigation", { name: "Sections" })
      .locator(".nav-group", { hasText: "Operations" });
    await operations.getByRole("link", { name: "Logs", exact: true }).waitFor();
    await openSection(page, "Logs");
    await page.getByRole("heading", { name: "Logs", level: 1 }).waitFor();
    await page.getByText("Kept 30 days.", { exact: false }).waitFor();
    // Usage: one email sent today, no daily quota.
    const usage = page.getByRole("definition").filter({ hasText: "no daily quota" });
    expect(await usage.locator(".figure").textContent()).toBe("1");
    await listShows(page, [
      "GET /domains",
      "POST /api-keys",
      "GET /emails/01a24f3a-0000-7000-8000-000000000000",
      "POST /emails",
      "POST /emails",
    ]);
    expect(await rows(page).first().locator('td[data-label="Key"]').textContent()).toBe("ci-deploy");
    expect(await rows(page).first().locator('td[data-label="User agent"]').textContent()).toBe("deploy-bot");
    await screenshot(page, "ui-logs-1280");

    await page.getByLabel("Status").fill("400");
    await listShows(page, ["POST /emails"]);
    await page.getByLabel("Status").fill("");
    await page.getByLabel("Method").selectOption("GET");
    await listShows(page, ["GET /domains", "GET /emails/01a24f3a-0000-7000-8000-000000000000"]);
    await page.getByLabel("Endpoint").fill("/emails");
    await listShows(page, ["GET /emails/01a24f3a-0000-7000-8000-000000000000"]);
    await page.getByLabel("Method").selectOption("");
    await page.getByLabel("Endpoint").fill("");
    await page.locator("select#logs-key").selectOption({ label: "ci-deploy" });
    await listShows(page, ["GET /domains"]);
    await page.locator("select#logs-key").selectOption({ label: "Any" });
    await listShows(page, [
      "GET /domains",
      "POST /api-keys",
      "GET /emails/01a24f3a-0000-7000-8000-000000000000",
      "POST /emails",
      "POST /emails",
    ]);

    // The accepted send: the request and the answer side by side, the attachment's content never there.
    await rows(page).filter({ hasText: "200" }).filter({ hasText: "POST /emails" }).getByRole("link").click();
    await page.getByRole("heading", { name: "POST /emails 200", level: 1 }).waitFor();
    const request = page.getByRole("region", { name: "Request body" });
    const response = page.getByRole("region", { name: "Response body" });
    const sent = JSON.parse((await request.textContent())!);
    expect(sent).toMatchObject({
      subject: "Your invoice",
      attachments: [{ filename: "invoice.txt", content: "[redacted]" }],
    });
    expect(JSON.parse((await response.textContent())!)).toMatchObject({ message: "Email sent." });
    const [left, right] = [(await request.boundingBox())!, (await response.boundingBox())!];
    expect(right.x).toBeGreaterThan(left.x + left.width - 1);
    expect(Math.abs(right.y - left.y)).toBeLessThan(2);
    expect(await page.locator("main").textContent()).not.toContain(ATTACHMENT);
    await page.getByText("billing-app/2.1").waitFor();
    await screenshot(page, "ui-logs-entry-1280");

    // The key's token, minted in a request's answer, is not on the page either.
    await page.getByRole("link", { name: "← All requests" }).click();
    await rows(page).filter({ hasText: "POST /api-keys" }).getByRole("link").click();
    await page.getByRole("heading", { name: "POST /api-keys 201", level: 1 }).waitFor();
    expect(JSON.parse((await response.textContent())!).token).toBe("[redacted]");
    expect(await page.locator("main").textContent()).not.toContain(ciKey);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("at 390 px by keyboard alone: a status typed, the request opened with Enter, its bodies stacked and scrolled by focus", async () => {
    const { page, problems } = await ui.open(390);
    await signInAsOwner(ui, page);
    await openSection(page, "Logs");
    await listShows(page, [
      "GET /domains",
      "POST /api-keys",
      "GET /emails/01a24f3a-0000-7000-8000-000000000000",
      "POST /emails",
      "POST /emails",
    ]);
    await page.getByLabel("Status").focus();
    await page.keyboard.type("404");
    await listShows(page, ["GET /emails/01a24f3a-0000-7000-8000-000000000000"]);
    for (let i = 0; i < 15 && !(await focusedText(page)).startsWith("GET /emails/"); i++)
      await page.keyboard.press("Tab");
    expect(await focusedText(page)).toBe("GET /emails/01a24f3a-0000-7000-8000-000000000000");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "GET /emails/01a24f3a-0000-7000-8000-000000000000 404" }).waitFor();
    await page.getByRole("region", { name: "Request" }).getByText("No JSON body.").waitFor();
    const response = page.getByRole("region", { name: "Response body" });
    expect(JSON.parse((await response.textContent())!)).toMatchObject({ name: "not_found" });
    // The body takes the focus, so arrows scroll it.
    for (let i = 0; i < 20; i++) {
      const label = await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute("aria-label"));
      if (label === "Response body") break;
      await page.keyboard.press("Tab");
    }
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute("aria-label"))).toBe(
      "Response body",
    );

    // An entry with both bodies, stacked: the answer under the request, nothing wider than the phone.
    await page.goto(`${ui.base}/#/logs`);
    await rows(page).filter({ hasText: "200" }).filter({ hasText: "POST /emails" }).getByRole("link").click();
    const request = page.getByRole("region", { name: "Request body" });
    await request.waitFor();
    const [top, bottom] = [
      (await request.boundingBox())!,
      (await page.getByRole("region", { name: "Response body" }).boundingBox())!,
    ];
    expect(bottom.y).toBeGreaterThan(top.y + top.height - 1);
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await screenshot(page, "ui-logs-entry-390");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("signed in with a key, the screen says its own reads are that key's requests, and they are listed", async () => {
    const { page, problems } = await ui.open(1280);
    await ui.signIn(page, t.liveKey);
    await openSection(page, "Logs");
    await page.getByText("Signed in with the key live: this screen's own reads are its requests").waitFor();
    await page.getByLabel("Endpoint").fill("/logs");
    // The screen's first read is recorded after it is answered: the next poll (10 s) lists it.
    // Wait on the requests the filtered list shows, not on rows: a row of the unfiltered list may still be drawn.
    let listed = await requests(page);
    for (let i = 0; i < 100 && !(listed.length > 0 && listed.every((r) => r.startsWith("GET /logs"))); i++) {
      await Bun.sleep(200);
      listed = await requests(page);
    }
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((r) => r.startsWith("GET /logs"))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  for (const width of [1280, 390])
    test(`at ${width} px a new organisation's log says what it keeps, for how long, and offers an API key`, async () => {
      const { page, problems } = await bareUi.open(width);
      await signInAsOwner(bareUi, page);
      await openSection(page, "Logs");
      const empty = page.getByRole("region", { name: "No API request recorded yet" });
      await empty.waitFor();
      const text = (await empty.textContent())!;
      expect(text).toContain("every API request your keys make");
      expect(text).toContain("for 30 days ([retention] logs)");
      expect(await empty.getByRole("link").getAttribute("href")).toBe("#/keys");
      await empty.getByRole("link", { name: "Create an API key" }).click();
      await page.getByRole("heading", { name: "API keys", level: 1 }).waitFor();
      await screenshot(page, `ui-logs-empty-${width}`);
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);
});
