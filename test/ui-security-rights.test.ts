/**
 * What the admin UI offers a person whose role stops short of something (docs/teams.md), in Chromium: a developer is not
 * offered to revoke a key with rights beyond their role's, and revokes one within it by keyboard alone (finding 11);
 * a viewer opening an email sees its record and is told why its content is not shown (finding 10).
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
import { asPerson, PASSWORD, setUpOwner } from "./helpers/people.ts";

const browserPeer = checkBrowser();
let t: TestApp;
let ui: UiSession;
let emailId: string;

beforeAll(async () => {
  t = await createTestApp();
  ui = await startUi(t, browserPeer.available);
  const owner = await setUpOwner(t);
  for (const role of ["developer", "viewer"] as const) {
    const made = await t.app.services.people.createUser({
      email: `${role}@example.com`,
      organizationId: t.organizationId,
      role,
    });
    await t.app.services.people.setPassword({ token: made.token, password: PASSWORD });
  }
  for (const body of [{ name: "owner's full access" }, { name: "sender", permission: "sending_access" }])
    expect((await asPerson(t, "POST", "/v1/api-keys", owner, { body })).status).toBe(201);
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const sent = await t.json("POST", "/v1/emails", {
    body: {
      from: "hi@example.com",
      to: "someone@dest.example",
      subject: "Reset your password",
      html: "<p>Your link: https://app.example.org/reset?token=s3cret</p>",
      attachments: [{ filename: "a.txt", content: Buffer.from("hello").toString("base64") }],
    },
  });
  emailId = sent.body.id;
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

const signInAs = (page: Page, email: string) => signInWithPassword(page, ui.base, email, PASSWORD);

const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const active = (globalThis as any).document.activeElement;
    return active?.getAttribute("aria-label") ?? active?.textContent ?? "";
  });

describe.skipIf(!browserPeer.available)("rights in chromium", () => {
  test("finding 11: at 1280 px a developer is not offered to revoke the owner's key, and revokes one within their role by keyboard", async () => {
    const { page, problems } = await ui.open(1280);
    await signInAs(page, "developer@example.com");
    await openSection(page, "API keys");
    const ownersRow = page.getByRole("row").filter({ hasText: "owner's full access" });
    await ownersRow.getByText("Beyond your rights").waitFor();
    expect(await ownersRow.getByRole("button").count()).toBe(0);
    await page.getByText("can be revoked only by someone who holds them all", { exact: false }).waitFor();
    await screenshot(page, "ui-keys-developer-1280");

    // By keyboard alone: from the section's link, Tab to the sending key's Revoke, Enter, then Enter on the
    // confirmation, which takes the focus where the button was.
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "API keys" }).focus();
    const seen: string[] = [];
    for (let i = 0; i < 60 && (await focusedLabel(page)) !== "Revoke sender"; i++) {
      await page.keyboard.press("Tab");
      seen.push(await focusedLabel(page));
    }
    expect(await focusedLabel(page)).toBe("Revoke sender");
    expect(seen).not.toContain("Revoke owner's full access");
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      () => (globalThis as any).document.activeElement?.textContent === "Confirm revoke sender",
    );
    await page.keyboard.press("Enter");
    await page.getByRole("row").filter({ hasText: "sender" }).waitFor({ state: "detached" });
    const left = (await t.json("GET", "/v1/api-keys?limit=100")).body.data.map((k: { name: string }) => k.name);
    expect(left).toContain("owner's full access");
    expect(left).not.toContain("sender");
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  test("finding 10: at 1280 px a viewer opening an email sees its record, no content, and why", async () => {
    const { page, problems } = await ui.open(1280);
    await signInAs(page, "viewer@example.com");
    await openSection(page, "Emails");
    await page.getByRole("link", { name: "Reset your password" }).click();
    await page.getByRole("heading", { name: "Reset your password" }).waitFor();
    await page.getByText("Viewers don't see message content", { exact: false }).waitFor();
    await page.getByRole("list", { name: "Event timeline" }).waitFor();
    await screenshot(page, "ui-email-viewer-1280");
    for (const name of ["HTML", "Text", "Headers"])
      expect(await page.getByRole("button", { name, exact: true }).count()).toBe(0);
    // The raw download stays in view, disabled, saying why (issue 49 item 5; ui-disabled-reasons.test.ts).
    const raw = page.getByRole("button", { name: "Download raw (.eml)", exact: true });
    expect(await raw.getAttribute("aria-disabled")).toBe("true");
    expect(await page.getByRole("heading", { name: "Attachments" }).count()).toBe(0);
    expect(await page.content()).not.toContain("s3cret");
    // Nothing was asked that the viewer is refused: no 403 behind the page.
    expect(problems).toEqual([]);
    expect(new URL(page.url()).hash).toBe(`#/emails/${emailId}`);
    await page.close();
  }, 30_000);
});
