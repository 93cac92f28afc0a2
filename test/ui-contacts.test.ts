/**
 * The audience's screens in Chromium (docs/contacts.md): Contacts, Segments, Topics, Properties and Imports, at
 * 1280 and 390 px and by keyboard alone — a contact created, a topic left and joined again, a CSV with one bad line
 * imported with its counts and that line's error — and what a viewer is offered: the same controls, disabled, with
 * the reason on focus. Each effect is checked through the API, not only on the page; no console error, no refusal
 * the test did not cause, no request off loopback; screenshots under test-output/. The tests run in order and build
 * on each other, as a person setting up an audience would (the contact the first one makes is used after).
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
  focusedLabel,
  tabTo,
} from "./helpers/browser.ts";
import { PASSWORD, setUpOwner } from "./helpers/people.ts";

const browserPeer = checkBrowser();
let t: TestApp;
let ui: UiSession;
let newsletter: string;

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
  newsletter = (await t.app.services.topics.create(t.operator, { name: "Newsletter", default_subscription: "opt_in" }))
    .id;
  const sent = await t.json("POST", "/v1/emails", {
    body: { from: "hi@example.com", to: "ann@dest.test", subject: "Welcome aboard", text: "Hello" },
  });
  expect(sent.status).toBe(200);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

const signInAs = (page: Page, email: string) => signInWithPassword(page, ui.base, email, PASSWORD);

/** Waits until the focus is on `name` (a form that opens moves it there on its own). */
async function focusReaches(page: Page, name: string) {
  for (let i = 0; i < 50 && (await focusedLabel(page)) !== name; i++) await Bun.sleep(50);
  expect(await focusedLabel(page)).toBe(name);
}

/** Takes the keyboard to a section's link in the navigation (through the Menu button on a phone) and follows it. */
async function enterSection(page: Page, label: string) {
  const menu = page.locator("header.top button.menu");
  if (await menu.isVisible()) {
    await menu.focus();
    await page.keyboard.press("Enter");
  }
  const link = page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: label, exact: true });
  await link.focus();
  await page.keyboard.press("Enter");
}

const topicsOf = async (contact: string) =>
  (await t.json("GET", `/v1/contacts/${encodeURIComponent(contact)}/topics`)).body.data as Array<{
    id: string;
    subscription: string;
  }>;

describe.skipIf(!browserPeer.available)("contacts in chromium", () => {
  test("at 1280 px, by keyboard alone: a contact is created, leaves a topic and joins it again; its messages show", async () => {
    const { page, problems } = await ui.open(1280);
    await signInAs(page, "owner@example.com");
    await enterSection(page, "Contacts");
    await page.getByRole("region", { name: "No contacts yet" }).waitFor();
    await screenshot(page, "ui-contacts-empty-1280");
    await tabTo(page, "Add a contact");
    await page.keyboard.press("Enter");
    expect(await focusedLabel(page)).toBe("Address");
    await page.keyboard.type("Ann@Dest.test");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Ann");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Lee");
    await page.keyboard.press("Enter");
    const link = page.getByRole("link", { name: "ann@dest.test" });
    await link.waitFor();
    const made = (await t.json("GET", "/v1/contacts/ann@dest.test")).body;
    expect(made).toMatchObject({ first_name: "Ann", last_name: "Lee", unsubscribed: false });

    await tabTo(page, "ann@dest.test");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "ann@dest.test", level: 1 }).waitFor();
    await page.getByRole("link", { name: "Welcome aboard" }).waitFor();
    await tabTo(page, "Unsubscribe from Newsletter");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Subscribe to Newsletter" }).waitFor();
    const row = page.getByRole("row").filter({ hasText: "Newsletter" });
    expect(await row.locator(".status").textContent()).toBe("Unsubscribed");
    expect((await topicsOf(made.id)).find((x) => x.id === newsletter)?.subscription).toBe("opt_out");
    await screenshot(page, "ui-contact-1280");
    await page.getByRole("button", { name: "Subscribe to Newsletter" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Unsubscribe from Newsletter" }).waitFor();
    expect(await row.locator(".status").textContent()).toBe("Subscribed");
    expect((await topicsOf(made.id)).find((x) => x.id === newsletter)?.subscription).toBe("opt_in");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("at 390 px the list and a contact fit the width; a search finds by name", async () => {
    await t.json("POST", "/v1/contacts", { body: { email: "bob@dest.test", first_name: "Robert" } });
    const { page, problems } = await ui.open(390);
    await signInAs(page, "owner@example.com");
    await openSection(page, "Contacts");
    await page.getByLabel("Search by address or name").fill("rob");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByRole("link", { name: "ann@dest.test" }).waitFor({ state: "detached" });
    await page.getByRole("link", { name: "bob@dest.test" }).click();
    await page.getByRole("heading", { name: "bob@dest.test", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Unsubscribe from Newsletter" }).waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await screenshot(page, "ui-contact-390");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("a viewer is offered the controls disabled, with the reason on focus", async () => {
    const { page, problems } = await ui.open(1280);
    await signInAs(page, "viewer@example.com");
    await enterSection(page, "Contacts");
    await page.getByRole("link", { name: "ann@dest.test" }).waitFor();
    const add = page.getByRole("button", { name: "Add contact" });
    expect(await add.getAttribute("aria-disabled")).toBe("true");
    await add.focus();
    const why = page.getByRole("tooltip");
    await why.waitFor();
    expect(await why.textContent()).toContain("Your role (viewer) cannot add contacts");
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: "ann@dest.test" }).click();
    const leave = page.getByRole("button", { name: "Unsubscribe from Newsletter" });
    await leave.focus();
    await leave.press("Enter");
    expect((await topicsOf("ann@dest.test")).find((x) => x.id === newsletter)?.subscription).toBe("opt_in");
    await screenshot(page, "ui-contact-viewer-1280");
    // Nothing was asked that the viewer is refused: no 403 behind the page.
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("at 1280 px a segment is created, a contact joins it from its page and shows among its members", async () => {
    const { page, problems } = await ui.open(1280);
    await signInAs(page, "owner@example.com");
    await enterSection(page, "Segments");
    await page.getByRole("region", { name: "No segments yet" }).waitFor();
    await page.getByRole("region", { name: "No segments yet" }).getByRole("button").press("Enter");
    await page.keyboard.type("Customers");
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: "Customers" }).waitFor();
    await enterSection(page, "Contacts");
    await page.getByRole("link", { name: "ann@dest.test" }).click();
    await page.getByRole("button", { name: "Add to segment" }).click();
    await page.getByRole("button", { name: "Take out of Customers" }).waitFor();
    await page.getByRole("region", { name: "Segments" }).getByRole("link", { name: "Customers" }).click();
    await page.getByRole("heading", { name: "Customers", level: 1 }).waitFor();
    await page.getByRole("link", { name: "ann@dest.test" }).waitFor();
    await screenshot(page, "ui-segment-1280");
    const segments = (await t.json("GET", "/v1/contacts/ann@dest.test/segments")).body.data;
    expect(segments.map((s: { name: string }) => s.name)).toEqual(["Customers"]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("at 1280 px, by keyboard alone: a private opt-out topic is created, then made public", async () => {
    const { page, problems } = await ui.open(1280);
    await signInAs(page, "owner@example.com");
    await enterSection(page, "Topics");
    await page
      .getByRole("link", { name: "Newsletter" })
      .or(page.getByText("Newsletter", { exact: true }))
      .waitFor();
    await tabTo(page, "Name");
    await page.keyboard.type("Product news");
    await page.keyboard.press("Tab");
    await page.keyboard.type("What we shipped");
    await page.keyboard.press("Tab");
    expect(await focusedLabel(page)).toStartWith("Who receives it");
    await page.keyboard.press("End");
    await page.keyboard.press("Tab");
    await page.keyboard.press("End");
    await page.keyboard.press("Tab");
    expect(await focusedLabel(page)).toBe("Create topic");
    await page.keyboard.press("Enter");
    const row = page.getByRole("row").filter({ hasText: "Product news" });
    await row.waitFor();
    expect(await row.locator(".status").textContent()).toBe("Private");
    const listed = (await t.json("GET", "/v1/topics")).body.data as Array<Record<string, unknown>>;
    expect(listed.find((x) => x.name === "Product news")).toMatchObject({
      description: "What we shipped",
      default_subscription: "opt_out",
      visibility: "private",
    });
    await tabTo(page, "Edit Product news");
    await page.keyboard.press("Enter");
    await focusReaches(page, "Name");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await focusedLabel(page)).toStartWith("Visibility");
    await page.keyboard.press("Home");
    await page.keyboard.press("Tab");
    expect(await focusedLabel(page)).toBe("Save");
    await page.keyboard.press("Enter");
    await focusReaches(page, "Edit Product news");
    // The editor closes on the answer and the list is read again after it: wait for the new row.
    await row.locator(".status", { hasText: /^Public$/ }).waitFor({ timeout: 5_000 });
    const edited = (await t.json("GET", "/v1/topics")).body.data as Array<Record<string, unknown>>;
    expect(edited.find((x) => x.name === "Product news")).toMatchObject({
      visibility: "public",
      default_subscription: "opt_out",
    });
    await screenshot(page, "ui-topics-1280");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("at 390 px properties are created and one deleted; a contact's value is set from its page", async () => {
    const { page, problems } = await ui.open(390);
    await signInAs(page, "owner@example.com");
    await openSection(page, "Properties");
    await page.getByRole("region", { name: "No properties yet" }).waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    for (const [key, type, fallback] of [
      ["plan", "Text", "free"],
      ["seats", "Number", "1"],
    ] as const) {
      await page.getByLabel("Key").fill(key);
      await page.getByLabel("Type").selectOption({ label: type });
      await page.getByLabel("Fallback (optional)").fill(fallback);
      await page.getByRole("button", { name: "Create property" }).click();
      await page.getByRole("button", { name: `Delete ${key}` }).waitFor();
    }
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete seats" }).click();
    await page.getByRole("button", { name: "Delete seats" }).waitFor({ state: "detached" });
    const properties = (await t.json("GET", "/v1/contact-properties")).body.data;
    expect(properties.map((p: Record<string, unknown>) => [p.key, p.type, p.fallback_value])).toEqual([
      ["plan", "string", "free"],
    ]);
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await screenshot(page, "ui-properties-390");
    await openSection(page, "Contacts");
    await page.getByRole("link", { name: "ann@dest.test" }).click();
    await page.getByLabel("Value (empty clears it)").fill("pro");
    await page.getByRole("button", { name: "Set", exact: true }).click();
    await page.getByRole("region", { name: "Properties" }).locator("dd", { hasText: /^pro/ }).waitFor();
    expect((await t.json("GET", "/v1/contacts/ann@dest.test")).body.properties.plan).toEqual({
      type: "string",
      value: "pro",
    });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  for (const width of [1280, 390])
    test(`at ${width} px, by keyboard alone: a CSV with one bad line is imported, with its counts and that line's error`, async () => {
      const { page, problems } = await ui.open(width);
      await signInAs(page, "owner@example.com");
      // The property list answers a second late (the real answer, held back): a file chosen before it arrives still
      // gets its property columns chosen once it does — they were left unchosen, seen in a whole-suite run.
      await page.route("**/v1/contact-properties*", async (route) => {
        await Bun.sleep(1_000);
        await route.continue();
      });
      await enterSection(page, "Imports");
      const first = width === 1280;
      if (first) await page.getByRole("region", { name: "No imports yet" }).waitFor();
      const csv = `email,first_name,last_name,plan\nw${width}a@dest.test,Cara,Diaz,pro\nnot-an-address,Bad,Line,free\nw${width}b@dest.test,Dan,,\n`;
      // Asked for before the keyboard gets there: Playwright intercepts the file dialog only once it is listening.
      const choosing = page.waitForEvent("filechooser");
      await tabTo(page, "CSV file");
      await page.keyboard.press("Space");
      const chooser = await choosing;
      await chooser.setFiles({ name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      // The header was read: each column is offered for the field of its name (and the property plan).
      await page.getByLabel("Property plan").waitFor();
      // The columns are chosen once the header and the property list are both in: poll for up to 5 s.
      const settled = async (label: string, wanted: string) => {
        for (let i = 0; i < 50 && (await page.getByLabel(label).inputValue()) !== wanted; i++) await Bun.sleep(100);
        return page.getByLabel(label).inputValue();
      };
      expect(await settled("First name column", "first_name")).toBe("first_name");
      expect(await settled("Property plan", "plan")).toBe("plan");
      const imports = page.getByRole("table", { name: "Imports" }).getByRole("row").filter({ hasText: " read: " });
      const before = await imports.count();
      await tabTo(page, "Import", { exact: true });
      await page.keyboard.press("Enter");
      // Newest first: once listed, the import just made is the first row that has counts.
      await imports.nth(before).waitFor();
      const row = imports.first();
      await row.getByText("Completed").waitFor({ timeout: 20_000 });
      expect(await row.textContent()).toContain("3 read: 2 created, 0 updated, 0 skipped, 1 failed");
      // The import just made shows its failed line by itself.
      const failed = page.getByRole("region", { name: /Lines that failed/ });
      await failed.getByText(/^Line 3: /).waitFor();
      await screenshot(page, `ui-imports-${width}`);
      if (width === 390) expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
      const made = (await t.json("GET", `/v1/contacts/w${width}a@dest.test`)).body;
      expect(made).toMatchObject({ first_name: "Cara", last_name: "Diaz", properties: { plan: { value: "pro" } } });
      const listed = (await t.json("GET", "/v1/contacts/imports")).body.data;
      expect(listed[0]).toMatchObject({
        status: "completed",
        counts: { total: 3, created: 2, failed: 1 },
        errors: [{ line: 3 }],
      });
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);

  test("at 390 px every audience screen, with what the tests above made, fits the width", async () => {
    const { page, problems } = await ui.open(390);
    await signInAs(page, "owner@example.com");
    for (const [section, ready] of [
      ["Contacts", "ann@dest.test"],
      ["Segments", "Customers"],
      ["Topics", "Product news"],
      ["Properties", "plan"],
      ["Imports", "Completed"],
    ] as const) {
      await openSection(page, section);
      await page.getByRole("heading", { name: section, level: 1 }).waitFor();
      await page.getByRole("main").getByText(ready, { exact: true }).first().waitFor();
      await screenshot(page, `ui-audience-${section.toLowerCase()}-390`);
      expect([section, await page.evaluate("document.documentElement.scrollWidth")]).toEqual([section, 390]);
    }
    await openSection(page, "Segments");
    await page.getByRole("link", { name: "Customers" }).click();
    await page.getByRole("link", { name: "ann@dest.test" }).waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBe(390);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
