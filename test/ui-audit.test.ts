/**
 * The audit log as an owner reads it at 1280 px (issue 49 item 8, docs/teams.md#audit-log): actions never broken
 * mid-word, changes wrapping within the table's width, settings in the API's snake_case, and organisations by
 * name — also at 390 px, where the table stacks.
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
} from "./helpers/browser.ts";
import { asPerson, PASSWORD, setUpOwner } from "./helpers/people.ts";

const browserPeer = checkBrowser();
let t: TestApp;
let ui: UiSession;
let owner: string;

beforeAll(async () => {
  t = await createTestApp();
  ui = await startUi(t, browserPeer.available);
  owner = await setUpOwner(t);
  const patched = await asPerson(t, "PATCH", "/v1/organization", owner, {
    body: { name: "Acme Mail", daily_quota: 5000, rate_limit: 120, retention: { content_days: 7, metadata_days: 90 } },
  });
  expect(patched.status).toBe(200);
  // A change whose values run long: a key with many scopes, named at length.
  const key = await asPerson(t, "POST", "/v1/api-keys", owner, {
    body: {
      name: "deployment pipeline for the transactional mail of every regional storefront",
      scopes: [
        "emails:send",
        "emails:read",
        "domains:read",
        "templates:read",
        "templates:write",
        "webhooks:read",
        "suppressions:read",
        "suppressions:write",
        "deliveries:read",
      ],
    },
  });
  expect(key.status).toBe(201);
  expect(
    (await asPerson(t, "POST", "/v1/sending/pause", owner, { body: { scope: "organization", reason: "holiday" } }))
      .status,
  ).toBe(200);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

describe("the audit record of an organisation's settings", () => {
  test("names the organisation and its settings as the API does", async () => {
    const log = await asPerson(t, "GET", "/v1/audit-log?action=organization.updated", owner);
    expect(log.body.data[0].target).toMatchObject({ type: "organization", name: "Acme Mail" });
    expect(log.body.data[0].changes).toEqual({
      name: "Acme Mail",
      rate_limit: 120,
      daily_quota: 5000,
      "retention.content_days": 7,
      "retention.metadata_days": 90,
    });
  });
});

async function signIn(page: Page) {
  await page.goto(`${ui.base}/`);
  await page.getByLabel("Email").fill("owner@example.com");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator("header.top").waitFor();
}

describe.skipIf(!browserPeer.available)("the audit log in chromium", () => {
  for (const width of [1280, 390])
    test(`at ${width} px: actions whole, changes within the width, snake_case, organisations by name`, async () => {
      const { page, problems } = await ui.open(width);
      await signIn(page);
      await openSection(page, "Audit log");
      const table = page.locator("table.audit-table");
      await table.getByText("organization.updated").waitFor();

      // No word of an action is split across lines: each part (up to a dot or underscore) is one box.
      const splitParts = await page.evaluate(() =>
        [...(globalThis as any).document.querySelectorAll(".audit-action > span")]
          .filter((part: any) => {
            const range = (globalThis as any).document.createRange();
            range.selectNodeContents(part.firstChild);
            return range.getClientRects().length > 1;
          })
          .map((part: any) => part.textContent),
      );
      expect(splitParts).toEqual([]);
      // The table stays within its box, the page within the screen: nothing runs off the edge.
      const overflow = await page.evaluate(() => {
        const scroll = (globalThis as any).document.querySelector("table.audit-table").parentElement;
        return scroll.scrollWidth - scroll.clientWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );

      const row = table.locator("tbody tr").filter({ hasText: "organization.updated" });
      expect(await row.locator('td[data-label="On"]').textContent()).toBe("organization Acme Mail");
      expect(await row.locator('td[data-label="Changes"] li').allTextContents()).toEqual([
        'name: "Acme Mail"',
        "rate_limit: 120",
        "daily_quota: 5000",
        "retention.content_days: 7",
        "retention.metadata_days: 90",
      ]);
      // Every setting named in snake_case, as the API names it.
      for (const line of await table.locator(".audit-changes li").allTextContents())
        expect(line).toMatch(/^[a-z0-9_.]+: /);
      await screenshot(page, `ui-audit-${width}`);
      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);
});
