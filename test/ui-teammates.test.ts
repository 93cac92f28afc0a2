/**
 * The first hour of an owner with two teammates, in Chromium (issue 49, docs/teams.md#invitations): a teammate removed
 * from the organisation their tab works in is told so on reload, leaves it and is offered their other organisations
 * (or told they have none left), never told about an API key.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import {
  BROWSER_START_MS,
  browserPeer as checkBrowser,
  screenshot,
  startUi,
  type UiSession,
  signInWithPassword,
} from "./helpers/browser.ts";
import { asPerson, cookieOf, PASSWORD, setUpOwner } from "./helpers/people.ts";

const browserPeer = checkBrowser();
let t: TestApp;
let ui: UiSession;
let owner: string;
let firstName: string;

const tokenOf = (url: string) => new URL(url).hash.slice(1);

/** Invites `email` into `organization` (the first one when not given) as `role`; the invitation's token. */
async function invite(email: string, role: string, organization?: string) {
  const made = await asPerson(t, "POST", "/v1/members/invitations", owner, { body: { email, role }, organization });
  expect(made.status).toBe(201);
  return tokenOf(made.body.url);
}

/** A new person joined by an invitation to the first organisation; answers their id. */
async function join(email: string, role = "developer") {
  const joined = await t.json("POST", "/v1/invitations/accept", {
    body: { token: await invite(email, role), name: email.split("@")[0], password: PASSWORD },
    key: null,
  });
  expect(joined.status).toBe(200);
  return { id: joined.body.user.id as string, cookie: cookieOf(joined.headers) };
}

async function removeFromFirst(id: string) {
  expect((await asPerson(t, "DELETE", `/v1/members/${id}`, owner)).status).toBe(200);
}

const signInAs = (page: import("playwright-core").Page, email: string) =>
  signInWithPassword(page, ui.base, email, PASSWORD);

beforeAll(async () => {
  t = await createTestApp();
  owner = await setUpOwner(t);
  firstName = (await asPerson(t, "GET", "/v1/organizations", owner)).body.data[0].name;
  ui = await startUi(t, browserPeer.available);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

describe.skipIf(!browserPeer.available)("a removed teammate in chromium", () => {
  test("at 1280 px, with another organisation: told they left this one, working in the other, offered the rest", async () => {
    const dana = await join("dana@example.com");
    // Dana also belongs to two more organisations.
    const others: string[] = [];
    for (const name of ["Beta", "Gamma"]) {
      const made = await asPerson(t, "POST", "/v1/organizations", owner, { body: { name } });
      others.push(made.body.id);
      const token = await invite("dana@example.com", "viewer", made.body.id);
      const accepted = await asPerson(t, "POST", "/v1/invitations/accept", dana.cookie, { body: { token } });
      expect(accepted.status).toBe(200);
    }
    const { page, problems } = await ui.open(1280);
    await signInAs(page, "dana@example.com");
    await page.getByLabel("Organisation").selectOption({ label: firstName });
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Domains" }).waitFor();
    // On her own account's page, which asks nothing of the organisation while the owner removes her.
    await page.getByRole("link", { name: "Account" }).click();
    await page.getByRole("heading", { name: "Your account" }).waitFor();

    await removeFromFirst(dana.id);
    await page.reload();
    const notice = page.getByRole("region", { name: "No longer a member" });
    await notice.getByText(`You are no longer a member of ${firstName}.`).waitFor();
    await notice.getByText("You are now working in Beta (viewer).").waitFor();
    await screenshot(page, "ui-removed-member-1280");
    expect(await page.getByText("This key may only send").count()).toBe(0);
    expect(await page.getByLabel("Organisation").locator("option").allTextContents()).toEqual(["Beta", "Gamma"]);
    // The screens are Beta's, as a viewer: its sections, and no refusal beyond the one that told the tab it had left.
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Domains" }).waitFor();
    expect(problems).toEqual(["http 403 GET /v1/api-keys/current"]);

    // Another organisation is a button away, and the notice is said once.
    await notice.getByRole("button", { name: "Open Gamma" }).click();
    await page.getByLabel("Organisation").waitFor();
    expect(await page.getByLabel("Organisation").inputValue()).toBe(others[1]!);
    expect(await page.getByRole("region", { name: "No longer a member" }).count()).toBe(0);
    await page.close();
  }, 30_000);

  test("at 390 px, with no organisation left: told so, and what to do; sign-out is offered", async () => {
    const sam = await join("sam@example.com", "viewer");
    const { page, problems } = await ui.open(390);
    await signInAs(page, "sam@example.com");
    await page.getByRole("heading", { name: "Overview" }).waitFor();

    await removeFromFirst(sam.id);
    await page.reload();
    const notice = page.getByRole("region", { name: "No longer a member" });
    await notice.getByText(`You are no longer a member of ${firstName}.`).waitFor();
    await notice.getByText("you belong to no other organisation here", { exact: false }).waitFor();
    await screenshot(page, "ui-removed-member-390");
    expect(await page.getByText("This key may only send").count()).toBe(0);
    expect(await page.locator("header.top button.menu").count()).toBe(0);
    await notice.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Email").waitFor();
    expect(problems).toEqual([]);

    // Signed in again later, with no organisation: why the screens are empty, not a word about keys.
    await signInAs(page, "sam@example.com");
    await page.getByRole("heading", { name: "You are not a member of any organisation" }).waitFor();
    expect(await page.getByText("This key may only send").count()).toBe(0);
    await page.close();
  }, 30_000);
});
