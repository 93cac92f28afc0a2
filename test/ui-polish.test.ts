/**
 * The first hour's small things, in Chromium (issue 49 item 10, docs/events-and-webhooks.md): a webhook event's
 * attempts name the email (a link to it) and the recipient they are about; the sign-in page sends an invited person
 * to their link, not to a setup link; the header's Sign out never sits alone on a row at 390 px. At 1280 and 390 px.
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
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.ts";

const browserPeer = checkBrowser();
let t: TestApp;
let ui: UiSession;
let receiver: WebhookReceiver;
let emailId: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp({ webhooks: { allow_private_networks: true } });
  ui = await startUi(t, browserPeer.available);
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const hook = await t.json("POST", "/v1/webhooks", { body: { endpoint: receiver.url, events: ["email.delivered"] } });
  expect(hook.status).toBe(200);
  const sent = await t.json("POST", "/v1/emails", {
    body: { from: "hi@example.com", to: "ada@dest.example", subject: "Hello", text: "hi" },
  });
  emailId = sent.body.id;
  await receiver.waitFor(1, 20_000);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
  await receiver?.close();
});

describe.skipIf(!browserPeer.available)("polish in chromium", () => {
  for (const width of [1280, 390])
    test(`at ${width} px a webhook event's attempts name the email and the recipient`, async () => {
      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      await openSection(page, "Webhooks");
      const event = page.locator("ul.events li").filter({ hasText: "email.delivered" }).first();
      await event.getByRole("button", { name: "Attempts" }).click();
      const about = event.locator("p.about");
      await about.waitFor();
      expect(await about.textContent()).toBe(`About email ${emailId} to ada@dest.example`);
      expect(await about.getByRole("link").getAttribute("href")).toBe(`#/emails/${emailId}`);
      await screenshot(page, `ui-webhook-attempts-${width}`);
      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);

  test("at 390 px the sign-in page points an invited person to their link, and Sign out shares its row", async () => {
    const { page, problems } = await ui.open(390);
    await page.goto(`${ui.base}/`);
    await page.getByText("No account yet? Open the invitation link you were sent", { exact: false }).waitFor();
    expect(await page.getByText("New here?").count()).toBe(0);
    await ui.signIn(page, t.liveKey);
    const header = page.locator("header.top");
    const signOut = header.getByRole("button", { name: "Sign out" }).or(header.getByRole("link", { name: "Sign out" }));
    const brand = header.getByText("Mailroom", { exact: true }).first();
    const [a, b] = [(await signOut.first().boundingBox())!, (await brand.boundingBox())!];
    // The same row: their vertical spans overlap.
    expect(a.y < b.y + b.height && b.y < a.y + a.height).toBe(true);
    await screenshot(page, "ui-header-390");
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);
});
