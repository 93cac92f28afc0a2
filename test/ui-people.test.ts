/**
 * People in the admin UI, in Chromium (issue 29): the setup link creates the owner by keyboard alone; sign-in with
 * email and password at 1280 and 390 px (a wrong password says so); sign-out ends the session; a person in two
 * organisations switches between them and sees each one's domains; a one-time link sets a new person's password.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { operatorActor } from "../src/access.ts";
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

const browserPeer = checkBrowser();
const PASSWORD = "a long enough passphrase";
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

/** Signs the owner in through the sign-in screen, as a person would. */
async function signInAsOwner(page: Page) {
  await signInWithPassword(page, ui.base, "owner@example.com", PASSWORD);
}

describe.skipIf(!browserPeer.available)("people in chromium", () => {
  test("the setup link creates the owner, by keyboard alone", async () => {
    const token = (await t.app.services.people.setupLink())!;
    const { page, problems } = await ui.open(1280);
    await page.goto(`${ui.base}/setup#${token}`);
    await page.getByRole("heading", { name: "Set up Mailroom" }).waitFor();
    expect(await page.locator(":focus").getAttribute("id")).toBe("setup-name");
    await page.keyboard.type("Olivia Owner");
    await page.keyboard.press("Tab");
    await page.keyboard.type("owner@example.com");
    await page.keyboard.press("Tab");
    await page.keyboard.type(PASSWORD);
    await screenshot(page, "ui-setup-1280");
    await page.keyboard.press("Enter");
    await page.locator("header.top").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    const [user] = await t.app.services.people.listUsers();
    expect(user).toMatchObject({ email: "owner@example.com", instance_admin: true });
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  for (const width of [1280, 390])
    test(`at ${width} px: sign-in with email and password; a wrong one says so; sign-out ends the session`, async () => {
      const { page, problems } = await ui.open(width);
      await page.goto(`${ui.base}/`);
      await page.getByLabel("Email").fill("owner@example.com");
      await page.getByLabel("Password").fill("not the password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").getByText("The email or password is not right.").waitFor();
      await screenshot(page, `ui-signin-${width}`);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.locator("header.top").waitFor();
      const cookies = await page.context().cookies();
      expect(cookies.find((c) => c.name === "mailroom_session")).toMatchObject({ httpOnly: true, sameSite: "Strict" });
      // Nothing the page's script can read holds the session.
      expect(await page.evaluate(() => (globalThis as any).document.cookie)).toBe("");
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("form", { name: "Sign in" }).waitFor();
      await page.reload();
      await page.getByRole("form", { name: "Sign in" }).waitFor();
      expect(problems).toEqual(["http 401 POST /v1/session"]);
      await page.close();
    }, 30_000);

  test("a person in two organisations switches between them", async () => {
    const owner = (await t.app.services.people.listUsers())[0]!;
    const actor = await t.app.services.people.authenticateSession(
      (await t.app.services.people.signIn({ email: owner.email, password: PASSWORD }, { ip: null, userAgent: null }))
        .token,
    );
    const other = await t.app.services.people.createOrganization(actor, "Agency client");
    await t.app.services.domains.add({ ...actor, organizationId: other.id }, "client.example", {});
    const { page, problems } = await ui.open(390);
    await page.goto(`${ui.base}/`);
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByLabel("Organisation").selectOption({ label: "Agency client" });
    await page.locator("header.top").waitFor();
    await openSection(page, "Domains");
    await page.getByText("client.example").first().waitFor();
    await screenshot(page, "ui-switcher-390");
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  for (const width of [1280, 390])
    test(`at ${width} px the audit log shows who did what; a person's name filters to their events, an action by keyboard`, async () => {
      const { page, problems } = await ui.open(width);
      await signInAsOwner(page);
      await openSection(page, "Audit log");
      await page.getByRole("cell", { name: "sign_in.succeeded" }).first().waitFor();
      await screenshot(page, `ui-audit-${width}`);
      await page.getByRole("button", { name: "Only events by owner@example.com" }).first().click();
      await page.getByRole("button", { name: "Everyone, not only owner@example.com" }).waitFor();
      await page.locator("tbody td[data-label=Who]").first().waitFor();
      const actors = await page.locator("tbody td[data-label=Who]").allTextContents();
      expect(new Set(actors)).toEqual(new Set(["owner@example.com"]));
      await page.getByLabel("Action").focus();
      await page.keyboard.type("user.set_up");
      await page.getByRole("cell", { name: "user.set_up" }).waitFor();
      expect(await page.locator("tbody tr").count()).toBe(1);
      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);

  for (const width of [1280, 390])
    test(`at ${width} px Members: an invitation made by keyboard, accepted by its link; a role changed and a member removed by mouse`, async () => {
      const { page, problems } = await ui.open(width);
      await signInAsOwner(page);
      await openSection(page, "Members");
      const invitee = `new-${width}@example.com`;
      await page.getByLabel("Email").focus();
      await page.keyboard.type(invitee);
      await page.keyboard.press("Enter");
      const url = (await page.getByTestId("invitation-url").textContent())!;
      expect(url).toContain("/invite#");
      await screenshot(page, `ui-members-invited-${width}`);

      const joining = await ui.open(width);
      await joining.page.goto(url);
      await joining.page.getByLabel("Your name").fill(`New ${width}`);
      await joining.page.getByLabel("Password (at least 12 characters)").fill(PASSWORD);
      await joining.page.getByRole("button", { name: "Join" }).click();
      await joining.page.locator("header.top").waitFor();
      expect(joining.problems).toEqual([]);
      await joining.page.close();

      await page.getByRole("button", { name: "Done" }).click();
      await page.reload();
      await page.getByLabel(`Role of ${invitee}`).selectOption("viewer");
      // Nothing is saved until confirmed; then the page says so (issue 49 item 10).
      expect((await t.app.services.members.list(t.operator)).data.find((m) => m.email === invitee)?.role).not.toBe(
        "viewer",
      );
      await page
        .getByRole("group", { name: "Confirm the role change" })
        .getByText(`Make ${invitee} a viewer?`)
        .waitFor();
      await page.getByRole("button", { name: "Change the role" }).click();
      await page.getByRole("status").getByText(`Saved: ${invitee} is now viewer.`).waitFor();
      await page.waitForFunction(
        (email) =>
          (globalThis as any).document.querySelector(`select[aria-label="Role of ${email}"]`)?.value === "viewer",
        invitee,
      );
      await page.getByRole("button", { name: `Remove ${invitee}` }).click();
      await page.getByRole("button", { name: `Remove ${invitee} from the organisation` }).click();
      // Gone once the server answered and the list was read again (the button itself leaves at the first click).
      await page.getByRole("cell", { name: invitee, exact: true }).waitFor({ state: "detached" });
      // Newest first: the removal, the role change, and before them the joining (then signed in).
      // The row leaves as the list is read again, which can be before the removal's audit entry commits: poll for it.
      const actions = async () =>
        (await t.json("GET", "/v1/audit-log?limit=20")).body.data.map((e: { action: string }) => e.action) as string[];
      let log = await actions();
      for (let i = 0; i < 50 && log[0] !== "member.removed"; i++) {
        await Bun.sleep(100);
        log = await actions();
      }
      expect(log.slice(0, 4)).toEqual([
        "member.removed",
        "member.role_changed",
        "sign_in.succeeded",
        "invitation.accepted",
      ]);
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);

  test("a one-time link sets a new person's password", async () => {
    const { token } = await t.app.services.people.createUser({
      email: "dev@example.com",
      organizationId: t.organizationId,
      role: "developer",
    });
    const { page, problems } = await ui.open(1280);
    await page.goto(`${ui.base}/password#${token}`);
    await page.getByLabel("New password (at least 12 characters)").fill(PASSWORD);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("status").getByText("Your password is set.").waitFor();
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Email").fill("dev@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.locator("header.top").waitFor();
    // A developer: no Organisation settings to change, but the screen to read them.
    await openSection(page, "Organisation");
    expect(await page.getByRole("button", { name: "Save settings" }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  for (const width of [1280, 390])
    test(`at ${width} px someone with an account joins another organisation signed in as it, by keyboard`, async () => {
      const second = await t.app.services.people.createOrganization(t.operator, `Second ${width}`);
      const made = await t.app.services.members.invite(
        operatorActor(second.id),
        { email: "dev@example.com", role: "viewer" },
        ui.base,
      );
      const { page, problems } = await ui.open(width);
      await page.goto(`${ui.base}/invite#${new URL(made.url).hash.slice(1)}`);
      await page.getByRole("heading", { name: `Join Second ${width}` }).waitFor();
      await page.getByRole("button", { name: "I have an account: sign in first" }).focus();
      await page.keyboard.press("Enter");
      await page.getByLabel("Email").waitFor();
      expect(await page.locator(":focus").getAttribute("type")).toBe("email");
      await page.keyboard.type("dev@example.com");
      await page.keyboard.press("Tab");
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press("Enter");
      const join = page.getByRole("button", { name: "Join as dev@example.com" });
      await join.waitFor();
      expect(await join.evaluate((button) => button === (globalThis as any).document.activeElement)).toBe(true);
      await screenshot(page, `ui-invite-signed-in-${width}`);
      await page.keyboard.press("Enter");
      await page.locator("header.top").waitFor();
      const members = await t.app.services.members.list(operatorActor(second.id));
      expect(members.data.map((m) => [m.email, m.role])).toEqual([["dev@example.com", "viewer"]]);
      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);
});
