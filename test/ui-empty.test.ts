/**
 * A new installation's screens in Chromium: every list that has nothing yet says what it is for and offers its first
 * step (a link, or a button that puts the focus in the field that starts it), at 1280 and 390 px; the Emails screen
 * offers the simulator's test addresses.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SIMULATED_OUTCOMES, TEST_ADDRESSES, SIMULATOR_DOMAIN } from "../src/providers/simulator.ts";
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
  t = await createTestApp();
  ui = await startUi(t, browserPeer.available);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

/** Each section's empty state: its title, and its first step (the field a button focuses, or a link's target). */
const SECTIONS = [
  { section: "Domains", title: "No sending domain yet", field: "domain-name" },
  { section: "Emails", title: "No email yet", href: "/docs" },
  { section: "Templates", title: "No templates yet", field: "template-name" },
  { section: "Inbound", title: "Nothing received yet", href: "#/domains" },
  { section: "Webhooks", title: "No webhook endpoints yet", field: "endpoint-url" },
  { section: "Queue", title: "Nothing is waiting", href: "#/emails" },
  { section: "Suppressions", title: "No suppressed addresses", field: "suppress-address" },
  { section: "Contacts", title: "No contacts yet", field: "contact-email" },
  { section: "Segments", title: "No segments yet", field: "segment-name" },
  { section: "Topics", title: "No topics yet", field: "topic-name" },
  { section: "Properties", title: "No properties yet", field: "property-key" },
  { section: "Imports", title: "No imports yet", field: "import-file" },
];

describe.skipIf(!browserPeer.available)("empty screens in chromium", () => {
  for (const width of [1280, 390])
    test(`at ${width} px every empty list says what it is for and offers its first step`, async () => {
      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      for (const { section, title, field, href } of SECTIONS) {
        await openSection(page, section);
        const empty = page.getByRole("region", { name: title });
        await empty.getByRole("heading", { name: title }).waitFor();
        expect((await empty.textContent())!.length).toBeGreaterThan(title.length + 60);
        if (field) {
          await empty.getByRole("button").click();
          expect(await page.locator(":focus").getAttribute("id")).toBe(field);
        } else expect(await empty.getByRole("link").getAttribute("href")).toBe(href!);
        if (section === "Domains") {
          // The add form starts at the card's left edge, not in a corner.
          const [form, input] = await Promise.all([
            page.getByRole("form", { name: "Add a domain" }).boundingBox(),
            page.getByLabel("Domain name").boundingBox(),
          ]);
          expect(input!.x - form!.x).toBeLessThan(40);
          await screenshot(page, `ui-domains-empty-${width}`);
        }
      }
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);

  for (const width of [1280, 390])
    test(`at ${width} px the Emails screen offers the test addresses, opened by keyboard`, async () => {
      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      await openSection(page, "Emails");
      const summary = page.getByText("Test addresses: rehearse a bounce or a complaint");
      await summary.focus();
      await page.keyboard.press("Enter");
      const listed = await page.locator(".test-addresses li > code").allTextContents();
      expect(listed).toEqual(SIMULATED_OUTCOMES.map((outcome) => `${outcome}@${SIMULATOR_DOMAIN}`));
      // In the README's words: suppressed@ alone is refused, as any message whose every recipient is suppressed.
      expect(await page.locator(".test-addresses li .what").last().textContent()).toBe(
        TEST_ADDRESSES.suppressed.replaceAll("`", ""),
      );
      await page.getByRole("button", { name: `Copy bounced@${SIMULATOR_DOMAIN}` }).waitFor();
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      await screenshot(page, `ui-emails-test-addresses-${width}`);
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);
});
