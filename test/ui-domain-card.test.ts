/**
 * A domain's card as a newcomer reads it (issue 49 item 9, docs/domains.md): the DNS records first, statuses in
 * words (never `not_started`), a warning several records share said once naming them, and sending health "not
 * judged yet: N of 200 recipients" until the guardrails have enough to judge — "OK" only once judged. In Chromium
 * at 1280 and 390 px.
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

beforeAll(async () => {
  // No [server] hostname: the SPF, MX and Inbound records each carry the same warning about it.
  t = await createTestApp({ server: { hostname: "" } });
  ui = await startUi(t, browserPeer.available);
  expect((await t.json("POST", "/v1/domains", { body: { name: "fresh.example" } })).status).toBe(200);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

describe("the health the API answers", () => {
  test("names the recipients needed before it judges", async () => {
    const domain = (await t.json("GET", "/v1/domains")).body.data[0];
    expect(domain.health).toMatchObject({ status: "ok", recipients: 0, min_recipients: 200, evaluated_at: null });
  });
});

describe.skipIf(!browserPeer.available)("the domain card in chromium", () => {
  for (const width of [1280, 390])
    test(`at ${width} px: records first, statuses in words, one hostname warning, health not judged yet`, async () => {
      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      await openSection(page, "Domains");
      const card = page.getByRole("article", { name: "fresh.example" });
      await card.getByRole("heading", { name: "fresh.example waiting for DNS" }).waitFor();

      // What a person came for comes first: the records table before the pause, providers, health and settings.
      const top = async (locator: ReturnType<typeof card.locator>) => (await locator.first().boundingBox())!.y;
      const records = card.locator("table.records");
      expect(await top(records)).toBeLessThan(
        await top(card.getByRole("group", { name: "Sending health of fresh.example" })),
      );
      expect(await top(records)).toBeLessThan(await top(card.getByText("Delivered by the default provider")));

      // Words, never the API's raw values.
      const text = (await card.textContent()) ?? "";
      for (const raw of ["not_started", "partially_verified", "temporary_failure"]) expect(text).not.toContain(raw);
      expect(await records.locator('td[data-label="Status"]').allTextContents()).toContain("not checked yet");

      // The hostname warning, said once, naming the records it concerns.
      const warnings = card.locator(".warning").filter({ hasText: "[server] hostname" });
      expect(await warnings.count()).toBe(1);
      expect(await warnings.textContent()).toStartWith("SPF, MX, Inbound: ");

      // Health: no verdict before 200 recipients ended.
      const health = card.getByRole("group", { name: "Sending health of fresh.example" });
      await health.getByText("not judged yet", { exact: true }).waitFor();
      expect(await health.textContent()).toContain("(0 of 200 recipients)");
      expect(await health.getByText("OK", { exact: true }).count()).toBe(0);
      await screenshot(page, `ui-domain-card-${width}`);
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);
});
