/**
 * A fresh start reaches a delivered message in the admin UI, as its owner, without reading code (issue 29): the
 * built executable started in an empty directory prints a one-time "First user" link; Chromium opens it and sets up
 * the owner; a message sent with the test key the same start printed, to the simulator's delivered address, is seen
 * delivered on the Emails screen — at 1280 and 390 px. Nothing but what the start printed is used.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import type { Browser } from "playwright-core";
import { tempDir } from "./helpers/app.ts";
import {
  BROWSER_START_MS,
  browserPeer as checkBrowser,
  launchBrowser,
  openPage,
  openSection,
  screenshot,
} from "./helpers/browser.ts";
import { startMailroom, type MailroomProcess } from "./helpers/process.ts";

const browserPeer = checkBrowser();
const PASSWORD = "the owner's long passphrase";
let dir: string;
let server: MailroomProcess;
let browser: Browser;

beforeAll(async () => {
  dir = tempDir("mailroom-first-run-ui-");
  server = await startMailroom(
    { MAILROOM_HTTP_PORT: "0", MAILROOM_DNS_SERVERS: "127.0.0.1:1" },
    { binary: true, cwd: dir, args: [] },
  );
  if (browserPeer.available) browser = await launchBrowser();
}, BROWSER_START_MS);

afterAll(async () => {
  await browser?.close();
  server?.proc.kill("SIGTERM");
  await server?.exited;
  rmSync(dir, { recursive: true, force: true });
});

const printed = (pattern: RegExp) => {
  const match = pattern.exec(server.stdout());
  expect(match, `${pattern} in:\n${server.stdout()}`).not.toBeNull();
  return match![1]!;
};

describe.skipIf(!browserPeer.available)("a first run in chromium", () => {
  test("the printed link makes the owner, who finds the message they sent delivered, at 1280 and 390 px", async () => {
    const setupLink = printed(/^First user: (\S+)/m);
    const testKey = printed(/^ {2}(mr_test_[0-9A-Za-z]{32})$/m);
    const { page, problems } = await openPage(browser, server.baseUrl, 1280);
    await page.goto(setupLink);
    await page.getByLabel("Your name").fill("Olivia Owner");
    await page.getByLabel("Email").fill("owner@example.com");
    await page.getByLabel("Password (at least 12 characters)").fill(PASSWORD);
    await page.getByRole("button", { name: "Create my account" }).click();
    await page.locator("header.top").waitFor();

    // What the README's first curl does, with the printed key.
    const sent = await fetch(`${server.baseUrl}/v1/emails`, {
      method: "POST",
      headers: { authorization: `Bearer ${testKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        from: "Acme <hello@example.com>",
        to: "delivered@simulator.mailroom.test",
        subject: "My first message",
        html: "<p>It works.</p>",
      }),
    });
    expect(sent.status).toBe(200);

    await openSection(page, "Emails");
    const row = page.getByRole("row").filter({ hasText: "My first message" });
    await row.waitFor();
    // The simulator settles it within seconds; the screen polls.
    await row.getByText("delivered", { exact: true }).waitFor({ timeout: 15_000 });
    await screenshot(page, "ui-first-run-1280");
    expect(problems).toEqual([]);
    await page.close();

    // The owner signs in again on a phone with the password they chose, and finds it there too.
    const phone = await openPage(browser, server.baseUrl, 390);
    await phone.page.goto(`${server.baseUrl}/`);
    await phone.page.getByLabel("Email").fill("owner@example.com");
    await phone.page.getByLabel("Password").fill(PASSWORD);
    await phone.page.getByRole("button", { name: "Sign in" }).click();
    await phone.page.locator("header.top").waitFor();
    await openSection(phone.page, "Emails");
    await phone.page.getByText("My first message").first().waitFor();
    await screenshot(phone.page, "ui-first-run-390");
    expect(phone.problems).toEqual([]);
    await phone.page.close();
  }, 60_000);
});
