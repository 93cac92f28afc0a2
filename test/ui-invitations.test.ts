/**
 * Invitations as a team meets them (issue 49 item 4, docs/teams.md#invitations): made in the Members screen, mailed
 * by Mailroom as its own mail (as a password link is) with the copyable link kept for the inviter, and opened on a
 * page that names the organisation, the role and the address invited — at 1280 and 390 px, in Chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import {
  BROWSER_START_MS,
  browserPeer as checkBrowser,
  screenshot,
  startUi,
  type UiSession,
} from "./helpers/browser.ts";
import { asPerson, ORIGIN, PASSWORD, setUpOwner } from "./helpers/people.ts";

const browserPeer = checkBrowser();
let t: TestApp;
let ui: UiSession;
let owner: string;
let organizationName: string;

/** The raw MIME of the invitation mailed to `email`, read where the capture provider keeps sent messages. */
async function mailedInvitation(email: string): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const rows = await t.app.services.store.query<{ raw: unknown }>(
      sql`SELECT c.raw FROM email_contents c JOIN emails e ON e.id = c.email_id WHERE e.subject LIKE 'Join % on Mailroom'`,
    );
    const mime = rows
      .map((row) => Buffer.from(row.raw as Uint8Array).toString("utf8"))
      .find((text) => text.includes(`To: ${email}`));
    if (mime) return mime;
    await Bun.sleep(50);
  }
  throw new Error(`no invitation was mailed to ${email}`);
}

beforeAll(async () => {
  t = await createTestApp({ http: { public_url: ORIGIN } });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  owner = await setUpOwner(t);
  organizationName = (await asPerson(t, "GET", "/v1/organizations", owner)).body.data[0].name;
  ui = await startUi(t, browserPeer.available);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

describe("an invitation's preview", () => {
  test("names the organisation, the role and the address; a spent or unknown token is 401 with what to do", async () => {
    const made = await asPerson(t, "POST", "/v1/members/invitations", owner, {
      body: { email: "vera@example.com", role: "viewer" },
    });
    const token = new URL(made.body.url).hash.slice(1);
    const preview = await t.json("POST", "/v1/invitations/preview", { body: { token }, key: null });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      object: "invitation_preview",
      email: "vera@example.com",
      role: "viewer",
      organization: { name: organizationName },
      expires_at: made.body.expires_at,
    });
    const unknown = await t.json("POST", "/v1/invitations/preview", { body: { token: "x".repeat(43) }, key: null });
    expect([unknown.status, unknown.body.name]).toEqual([401, "unauthorized"]);
    expect(unknown.body.message).toContain("ask for a new one");
  });
});

describe.skipIf(!browserPeer.available)("invitations in chromium", () => {
  test("at 1280 px the owner invites by keyboard: mailed by Mailroom, the link still shown to copy", async () => {
    const { page, problems } = await ui.open(1280);
    await page.goto(`${ui.base}/`);
    await page.getByLabel("Email").fill("owner@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("Password").press("Enter");
    await page.locator("header.top").waitFor();
    await page.goto(`${ui.base}/#/members`);
    const form = page.getByRole("form", { name: "Invite someone" });
    await form.getByLabel("Email").fill("dev@example.com");
    await form.locator("select").selectOption("developer");
    await form.getByLabel("Email").press("Enter");
    await page.getByText("It is on its way to them by email.").waitFor();
    const link = await page.getByTestId("invitation-url").textContent();
    expect(link).toStartWith(`${ORIGIN}/invite#`);
    await page.getByRole("button", { name: "Copy the invitation link" }).waitFor();
    await screenshot(page, "ui-invitation-made-1280");
    // Quoted-printable soft breaks joined: the text a mail reader shows.
    const mail = (await mailedInvitation("dev@example.com")).replace(/=\r?\n/g, "");
    expect(mail).toContain(`invited you to join ${organizationName} on Mailroom as developer`);
    expect(mail).toContain(link!);
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  for (const width of [1280, 390])
    test(`at ${width} px the invitation page names the organisation, the role and the address`, async () => {
      const made = await asPerson(t, "POST", "/v1/members/invitations", owner, {
        body: { email: `new${width}@example.com`, role: "developer" },
      });
      const token = new URL(made.body.url).hash.slice(1);
      const { page, problems } = await ui.open(width);
      await page.goto(`${ui.base}/invite#${token}`);
      await page.getByRole("heading", { name: `Join ${organizationName}` }).waitFor();
      const summary = page.getByTestId("invitation-summary");
      expect(await summary.textContent()).toBe(
        `You are invited to join ${organizationName} as developer (mail, domains, templates, webhooks and keys). The invitation is for new${width}@example.com.`,
      );
      await screenshot(page, `ui-invitation-page-${width}`);
      // Fits the width: nothing scrolls sideways.
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      // Joined by keyboard, the preview and the join are the same invitation.
      await page.keyboard.type("New Person");
      await page.getByLabel("Password (at least 12 characters)").fill(PASSWORD);
      await page.getByLabel("Password (at least 12 characters)").press("Enter");
      await page.locator("header.top").waitFor();
      expect(problems).toEqual([]);

      // The link again, once used: the page says so instead of a form.
      const again = await ui.open(width);
      await again.page.context().clearCookies();
      await again.page.goto(`${ui.base}/invite#${token}`);
      await again.page.getByText("This invitation has been used or has expired; ask for a new one.").first().waitFor();
      expect(again.problems).toEqual(["http 401 POST /v1/invitations/preview"]);
      await again.page.close();
      await page.close();
    }, 30_000);
});
