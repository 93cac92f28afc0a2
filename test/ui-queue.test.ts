/**
 * The Queue screen in Chromium (issue 28): the summary by status, domain and provider with the oldest, the waiting
 * recipients with their last reply, and actions confirmed in words that say how many recipients they change — a
 * whole domain canceled with the mouse, one recipient retried by keyboard alone — at 1280 and 390 px. And the pause
 * controls: all sending on the overview (by keyboard), a domain on its card (by mouse).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { DeliveryJob, DeliveryResult, Provider } from "../src/providers/types.ts";
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

/** Defers every recipient (451, next attempt in an hour) but those `through` names, which it delivers. */
const through = new Set<string>();
const deferring: Provider = {
  name: "greylisting",
  async deliver(job: DeliveryJob): Promise<DeliveryResult> {
    if (through.has(job.recipient)) return { outcome: "delivered", response: "250 2.0.0 OK" };
    return { outcome: "temporary", response: "451 4.7.1 greylisted, come back later", retryAfterMs: 3_600_000 };
  },
  async close() {},
};

beforeAll(async () => {
  t = await createTestApp({}, { liveProvider: deferring });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  ui = await startUi(t, browserPeer.available);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

/** Sends one message per recipient and lets the worker defer them all. */
async function deferred(recipients: string[]) {
  for (const to of recipients) {
    const { status } = await t.json("POST", "/v1/emails", {
      body: { from: "ops@example.com", to, subject: "Waiting", text: "Hello" },
    });
    expect(status).toBe(200);
  }
  await t.app.services.worker.runOnce();
}

const statuses = async (domain: string) =>
  (await t.app.services.store.db.query.deliveries.findMany({ where: (d, { eq }) => eq(d.destination, domain) }))
    .map((d) => d.status)
    .sort();

describe.skipIf(!browserPeer.available)("the Queue screen in chromium", () => {
  for (const width of [1280, 390])
    test(`at ${width} px: the summary and the list; a domain canceled after a confirmation naming its count; one recipient retried by keyboard`, async () => {
      const slow = `slow-${width}.test`;
      const busy = `busy-${width}.test`;
      await deferred([`a@${slow}`, `b@${slow}`, `c@${slow}`, `x@${busy}`]);
      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      await openSection(page, "Queue");

      await page.getByRole("heading", { name: "By destination domain" }).waitFor();
      expect((await page.locator("dl.figures").textContent())!.replace(/\s+/g, "")).toContain("Deferred4");
      const row = page.getByRole("row").filter({ hasText: slow }).first();
      await row.waitFor();
      expect(await row.textContent()).toContain("3");
      // Why it waits, in one look: the last reply beside each recipient, and the provider that gave it.
      await page.getByRole("cell", { name: "451 4.7.1 greylisted, come back later" }).first().waitFor();
      await page.getByRole("row").filter({ hasText: "greylisting" }).first().waitFor();
      await screenshot(page, `ui-queue-${width}`);

      // A whole domain, by mouse: the confirmation says how many recipients it changes.
      await row.getByRole("button", { name: `Cancel every waiting recipient of ${slow}` }).click();
      const confirm = page.getByRole("button", { name: "Cancel 3 recipients" });
      await confirm.waitFor();
      await screenshot(page, `ui-queue-confirm-${width}`);
      await confirm.click();
      await page.getByRole("row").filter({ hasText: slow }).first().waitFor({ state: "detached" });
      expect(await statuses(slow)).toEqual(["canceled", "canceled", "canceled"]);
      expect(await statuses(busy)).toEqual(["deferred"]);

      // One recipient, by keyboard alone: the confirmation takes the focus, Enter carries it out.
      through.add(`x@${busy}`);
      await page.getByRole("button", { name: `Retry x@${busy} now` }).focus();
      await page.keyboard.press("Enter");
      // The confirmation renders on the next frame, and takes the focus then.
      await page.waitForFunction(
        () => (globalThis as any).document.activeElement?.textContent === "Retry now 1 recipient",
      );
      await page.keyboard.press("Enter");
      await page.getByRole("button", { name: `Retry x@${busy} now` }).waitFor({ state: "detached" });
      // Due at once: the running worker takes it (runOnce waits for that attempt if it already began).
      await t.app.services.worker.runOnce();
      expect(await statuses(busy)).toEqual(["delivered"]);

      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);
});

const pausesNow = async () =>
  (await t.app.services.store.db.query.sendingPauses.findMany()).map((p) => [p.scope, p.name, p.reason]);

describe.skipIf(!browserPeer.available)("pause controls in chromium", () => {
  for (const width of [1280, 390])
    test(`at ${width} px: all sending paused and resumed from the overview by keyboard; a domain from its card`, async () => {
      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      await openSection(page, "Overview");
      await page.getByRole("button", { name: "Pause all sending" }).focus();
      await page.keyboard.press("Enter");
      // The confirmation takes the focus in its reason field; Tab reaches the button that says what it does.
      await page.waitForFunction(() => (globalThis as any).document.activeElement?.tagName === "INPUT");
      await page.keyboard.type("provider incident");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe(
        "Pause all sending: hold its mail",
      );
      await page.keyboard.press("Enter");
      await page.getByText("Sending paused since").waitFor();
      expect(await pausesNow()).toEqual([["organization", "", "provider incident"]]);
      await screenshot(page, `ui-overview-paused-${width}`);
      await page.getByRole("button", { name: "Resume all sending" }).click();
      await page.getByRole("button", { name: "Resume all sending: send what it held" }).click();
      await page.getByRole("button", { name: "Pause all sending" }).waitFor();
      expect(await pausesNow()).toEqual([]);

      await openSection(page, "Domains");
      const card = page.getByRole("article").filter({ hasText: "example.com" });
      await card.getByRole("button", { name: "Pause sending from example.com" }).click();
      await card.getByRole("button", { name: "Pause sending from example.com: hold its mail" }).click();
      await card.getByText("Sending paused since").waitFor();
      expect(await pausesNow()).toEqual([["domain", "example.com", null]]);
      await screenshot(page, `ui-domain-paused-${width}`);
      await card.getByRole("button", { name: "Resume sending from example.com" }).click();
      await card.getByRole("button", { name: "Resume sending from example.com: send what it held" }).click();
      await card.getByRole("button", { name: "Pause sending from example.com" }).waitFor();
      expect(await pausesNow()).toEqual([]);

      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);
});
