/**
 * The preference page a recipient reaches from an unsubscribe link (docs/contacts-preferences.md#the-preference-page)
 * in a real browser (Debian's chromium via playwright-core) against the app on loopback: at 390 px it fits the width
 * and every control is reachable; by keyboard alone a reader leaves one topic and saves; at 1280 px the same page.
 * Showing the page changes nothing. No console error, no request off loopback, no script on the page; screenshots at
 * both widths under test-output/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { insertTopic } from "../src/contacts/audience-repo.ts";
import { newId } from "../src/lib/ids.ts";
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
const topics = { news: newId(), product: newId() };

beforeAll(async () => {
  t = await createTestApp();
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const at = new Date().toISOString();
  await t.app.services.writer.write(async (tx) => {
    for (const [id, name] of [
      [topics.news, "Newsletter"],
      [topics.product, "Product updates"],
    ] as const)
      await insertTopic(tx, {
        id,
        organizationId: t.organizationId,
        name,
        description: `Now and then: ${name.toLowerCase()} from Acme, with a description long enough to wrap on a phone`,
        defaultSubscription: "opt_in",
        visibility: "public",
        createdAt: at,
        updatedAt: at,
      });
  });
  ui = await startUi(t, browserPeer.available);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

/** A contact's own page link, as a broadcast would carry it (on the public URL: the domain has no tracking host). */
async function pageLink(email: string) {
  const contact = await t.app.services.contacts.create(t.operator, { email });
  const url = await t.app.services.preferences.contactPageUrl({
    organizationId: t.organizationId,
    contactId: contact.id,
    topicId: topics.news,
    fromDomain: "example.com",
  });
  return `${ui.base}${new URL(url).pathname}`;
}

const receives = async (topicId: string, email: string) =>
  (await t.app.services.contacts.subscribedTo(t.organizationId, topicId, [email])).has(email);

describe("the preference page", () => {
  test.skipIf(!browserPeer.available)(
    "at 390 px it fits and is saved by keyboard alone; showing it changed nothing",
    async () => {
      const link = await pageLink("phone@dest.test");
      const { page, problems } = await ui.open(390);
      await page.goto(link);
      await page.getByRole("heading", { name: "Email preferences", level: 1 }).waitFor();
      expect(await page.locator("script").count()).toBe(0);
      // One column: nothing wider than the screen, every control inside it.
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
      for (const name of ["Newsletter", "Product updates", "Unsubscribe from everything"]) {
        const box = await page.getByRole("checkbox", { name }).boundingBox();
        expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      }
      const save = await page.getByRole("button", { name: "Save preferences" }).boundingBox();
      expect(save!.x + save!.width).toBeLessThanOrEqual(390);
      expect(await page.getByRole("checkbox", { name: "Newsletter" }).isChecked()).toBe(true);
      await screenshot(page, "preferences-390");
      expect(await receives(topics.news, "phone@dest.test")).toBe(true);

      // Keyboard only: Tab to the newsletter, Space leaves it, Tab on to the button, Enter saves.
      await page.keyboard.press("Tab");
      expect(await page.evaluate("document.activeElement.id")).toBe(`t-${topics.news}`);
      await page.keyboard.press("Space");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      expect(await page.evaluate("document.activeElement.textContent")).toBe("Save preferences");
      await page.keyboard.press("Enter");
      await page.getByRole("status").filter({ hasText: "Your preferences are saved." }).waitFor();
      expect(await page.getByRole("checkbox", { name: "Newsletter" }).isChecked()).toBe(false);
      expect(await receives(topics.news, "phone@dest.test")).toBe(false);
      expect(await receives(topics.product, "phone@dest.test")).toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  test.skipIf(!browserPeer.available)("at 1280 px: unsubscribing from everything by mouse", async () => {
    const link = await pageLink("desk@dest.test");
    const { page, problems } = await ui.open(1280);
    await page.goto(link);
    await page.getByRole("checkbox", { name: "Unsubscribe from everything" }).check();
    await page.getByRole("button", { name: "Save preferences" }).click();
    await page.getByRole("status").waitFor();
    const everything = page.getByRole("checkbox", { name: "Unsubscribe from everything" });
    expect(await everything.isChecked()).toBe(true);
    expect(await everything.isDisabled()).toBe(true);
    await screenshot(page, "preferences-1280");
    expect(await receives(topics.news, "desk@dest.test")).toBe(false);
    expect(await receives(topics.product, "desk@dest.test")).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });
});
