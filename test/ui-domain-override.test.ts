/**
 * The operator override in the admin UI (issue 49 item 3, docs/domains.md#verifying-without-public-dns): an instance
 * admin marks a domain verified without DNS, labelled an override wherever it shows, and lifts it; an organisation's
 * owner who is not an instance admin, and an API key, may not. In Chromium at 1280 and 390 px.
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
import { asPerson, PASSWORD, setUpOwner, signIn } from "./helpers/people.ts";

const browserPeer = checkBrowser();
let t: TestApp;
let ui: UiSession;
let admin: string;
let owner: string;

const domainId = async (name: string) =>
  (await t.json("GET", `/v1/domains/${name}`)).body as { id: string; status: string; verified_override: boolean };

beforeAll(async () => {
  t = await createTestApp();
  ui = await startUi(t, browserPeer.available);
  admin = await setUpOwner(t, "admin@example.com");
  const made = await t.app.services.people.createUser({
    email: "owner@example.com",
    organizationId: t.organizationId,
    role: "owner",
  });
  await t.app.services.people.setPassword({ token: made.token, password: PASSWORD });
  owner = await signIn(t, "owner@example.com");
  for (const name of ["lab.test", "bench1280.test", "bench390.test"])
    expect((await t.json("POST", "/v1/domains", { body: { name } })).status).toBe(200);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

describe("POST /v1/domains/:id/override", () => {
  test("an instance admin sets and lifts it, audited; an owner who is not one, and an API key, are refused", async () => {
    const { id } = await domainId("lab.test");
    const byKey = await t.json("POST", `/v1/domains/${id}/override`, { body: { verified: true } });
    expect([byKey.status, byKey.body.name]).toEqual([403, "insufficient_scope"]);
    const byOwner = await asPerson(t, "POST", `/v1/domains/${id}/override`, owner, { body: { verified: true } });
    expect([byOwner.status, byOwner.body.message]).toEqual([
      403,
      "Only an instance admin (or the operator: mailroom domains add NAME --verified) may mark a domain verified without DNS.",
    ]);

    const set = await asPerson(t, "POST", `/v1/domains/${id}/override`, admin, { body: { verified: true } });
    expect([set.status, set.body.status, set.body.verified_override]).toEqual([200, "verified", true]);
    const audit = await asPerson(t, "GET", "/v1/audit-log?action=domain.updated", admin);
    expect(audit.body.data[0]).toMatchObject({
      target: { type: "domain", name: "lab.test" },
      changes: { verified_override: { from: false, to: true } },
    });

    const lifted = await asPerson(t, "POST", `/v1/domains/${id}/override`, admin, { body: { verified: false } });
    expect([lifted.status, lifted.body.status, lifted.body.verified_override]).toEqual([200, "pending", false]);
  });
});

const signInAs = (page: Page, email: string) => signInWithPassword(page, ui.base, email, PASSWORD);

describe.skipIf(!browserPeer.available)("the override in chromium", () => {
  for (const width of [1280, 390])
    test(`at ${width} px an instance admin overrides by keyboard, labelled as such; an owner sees the label, not the control`, async () => {
      const name = `bench${width}.test`;
      const { page, problems } = await ui.open(width);
      await signInAs(page, "admin@example.com");
      await openSection(page, "Domains");
      const card = page.getByRole("article", { name });
      const summary = card.getByText("Operator override (instance admins)");
      await summary.focus();
      await page.keyboard.press("Enter");
      await card.getByText("Receivers still look them up in their own DNS.", { exact: false }).waitFor();
      await screenshot(page, `ui-domain-override-offer-${width}`);
      await card.getByRole("button", { name: "Mark verified without DNS (override)" }).focus();
      await page.keyboard.press("Enter");
      await card.getByRole("heading", { name: `${name} verified` }).waitFor();
      await card.getByText("operator override", { exact: true }).waitFor();
      await screenshot(page, `ui-domain-override-set-${width}`);
      expect((await domainId(name)).verified_override).toBe(true);
      expect(problems).toEqual([]);

      // The organisation's other owner sees the label, and nothing to set or lift.
      const other = await ui.open(width);
      await signInAs(other.page, "owner@example.com");
      await openSection(other.page, "Domains");
      const seen = other.page.getByRole("article", { name });
      await seen.getByText("operator override", { exact: true }).waitFor();
      expect(await seen.getByRole("button", { name: /override/i }).count()).toBe(0);
      expect(await other.page.getByText("Operator override (instance admins)").count()).toBe(0);
      expect(other.problems).toEqual([]);
      await other.page.close();

      // The admin lifts it: DNS decides again.
      await card.getByRole("button", { name: "Lift the override: let DNS decide" }).click();
      await card.getByRole("heading", { name: `${name} waiting for DNS` }).waitFor();
      expect((await domainId(name)).verified_override).toBe(false);
      await page.close();
    }, 45_000);
});
