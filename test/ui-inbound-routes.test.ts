/**
 * The admin UI's Inbound routes screen and the spam verdict on received mail, in Chromium (Debian's, through
 * playwright-core) against an app on loopback, on both store engines, at 1280 and 390 px: the empty state and its
 * first action; routes created through the form (forward, drop, a spam threshold) listed in order; one dragged to
 * the top and another moved from the keyboard (its handle takes the arrow keys, the focus stays with it), the
 * server's order checked each time; an address tested against them, the deciding route named with why, and an
 * address the MX does not take mail for said so; a route changed. Then a key that may only read routes finds every
 * control disabled with the reason on focus and hover. With Debian's rspamd on loopback a GTUBE message delivered
 * to the MX shows its verdict in the Inbound list and detail (skipped, saying why, without rspamd).
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
} from "./helpers/browser.ts";
import { rspamdPeer } from "./helpers/peers.ts";
import { type Rspamd, startRspamd } from "./helpers/rspamd.ts";
import { smtpChat } from "./helpers/smtp-chat.ts";

const browserPeer = checkBrowser();
const withRspamd = browserPeer.available && rspamdPeer().available;
const GTUBE = "XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X";

let t: TestApp;
let ui: UiSession;
let scorer: Rspamd | undefined;

beforeAll(async () => {
  if (withRspamd) scorer = await startRspamd();
  // A generous rspamd timeout: its first scans take seconds on a loaded machine (the 2 s default is tested elsewhere).
  t = await createTestApp({
    inbound: { messages_per_ip_per_minute: 1000, rspamd_url: scorer?.url ?? "", rspamd_timeout: "20s" },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true, receivingEnabled: true });
  ui = await startUi(t, browserPeer.available);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
  await scorer?.stop();
});

type Route = { id: string; position: number; action: string; match: { recipient: string | null } };
const serverOrder = async () =>
  ((await t.json("GET", "/v1/inbound/routes")).body.data as Route[]).map((r) => r.match.recipient);
const clear = async () => {
  for (const route of (await t.json("GET", "/v1/inbound/routes")).body.data as Route[])
    await t.json("DELETE", `/v1/inbound/routes/${route.id}`);
};

/** Fills the route form and adds the route; waits until it is listed. */
async function addRoute(
  page: Page,
  fields: { recipient: string; action: string; forwardTo?: string; threshold?: string },
) {
  const form = page.getByRole("form", { name: "New route" });
  await form.getByLabel("Recipient").fill(fields.recipient);
  await form.getByLabel("Action").selectOption(fields.action);
  if (fields.forwardTo) await form.getByLabel("Forward to").fill(fields.forwardTo);
  if (fields.threshold) await form.getByLabel("Spam threshold").fill(fields.threshold);
  await form.getByRole("button", { name: "Add route" }).click();
  await page.getByRole("list", { name: "Routes, in the order they are tried" }).getByText(fields.recipient).waitFor();
}

/** The focused element: its id, its accessible label, and the text its aria-describedby names. */
const focused = (page: Page) =>
  page.evaluate(() => {
    // The page's document: this file's types (no DOM) do not know it.
    const doc = (globalThis as any).document;
    const active = doc.activeElement;
    const described = active?.getAttribute("aria-describedby");
    return {
      id: active?.id as string | undefined,
      label: active?.getAttribute("aria-label") as string | null,
      reason: (described ? doc.getElementById(described)?.textContent : null) as string | null,
    };
  });

const listed = (page: Page) =>
  page
    .getByRole("list", { name: "Routes, in the order they are tried" })
    .getByRole("listitem")
    .evaluateAll((items) => items.map((item) => item.getAttribute("aria-label")));

describe.skipIf(!browserPeer.available)("the Inbound routes screen in chromium", () => {
  for (const width of [1280, 390]) {
    test(`at ${width} px: create, drag, move by keyboard, test an address, change`, async () => {
      await clear();
      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      await openSection(page, "Inbound routes");
      await page.getByRole("heading", { name: "Inbound routes", level: 1 }).waitFor();
      // The empty state says what routes are for, and its first action takes the keyboard to the form.
      const empty = page.getByRole("region", { name: "No inbound routes yet" });
      await empty.getByText("Without routes every message").waitFor();
      await empty.getByRole("button", { name: "Add your first route" }).click();
      expect((await focused(page)).id).toBe("route-recipient");
      await screenshot(page, `ui-inbound-routes-empty-${width}`);

      await addRoute(page, { recipient: "support@example.com", action: "forward", forwardTo: "desk@helpdesk.test" });
      // The second by keyboard alone: New route takes the focus to the form; the action chosen by typing; Enter adds.
      await page.getByRole("button", { name: "New route", exact: true }).focus();
      await page.keyboard.press("Enter");
      expect((await focused(page)).id).toBe("route-recipient");
      await page.keyboard.type("noreply@example.com");
      for (const _ of ["header name", "contains", "action"]) await page.keyboard.press("Tab");
      await page.keyboard.type("Drop");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      await page.getByRole("list", { name: "Routes, in the order they are tried" }).getByText("noreply@").waitFor();
      await addRoute(page, { recipient: "*@example.com", action: "store", threshold: "10" });
      expect(await listed(page)).toEqual([
        "Route 1: support@example.com",
        "Route 2: noreply@example.com",
        "Route 3: *@example.com",
      ]);
      await page.getByText("Store and forward to desk@helpdesk.test").waitFor();
      await page.getByText("refuses spam scored 10 or more").waitFor();

      // Dragged: the catch-all onto the first route takes position 1.
      const item = (label: string) => page.getByRole("listitem", { name: label, exact: true });
      await item("Route 3: *@example.com").dragTo(item("Route 1: support@example.com"));
      await item("Route 1: *@example.com").waitFor();
      expect(await serverOrder()).toEqual(["*@example.com", "support@example.com", "noreply@example.com"]);

      // By keyboard: noreply's handle, ArrowUp twice; the focus stays on it as it moves.
      const handle = page.getByRole("button", { name: /^Move route 3 \(noreply@example\.com\)/ });
      await handle.focus();
      await page.keyboard.press("ArrowUp");
      await item("Route 2: noreply@example.com").waitFor();
      await page.getByRole("status").filter({ hasText: "moved to position 2" }).waitFor();
      await page.keyboard.press("ArrowUp");
      await item("Route 1: noreply@example.com").waitFor();
      expect((await focused(page)).label).toStartWith("Move route 1 (noreply@example.com)");
      expect(await serverOrder()).toEqual(["noreply@example.com", "*@example.com", "support@example.com"]);
      // And the Move down button, pressed with Enter.
      await page.getByRole("button", { name: "Move route 1 down" }).focus();
      await page.keyboard.press("Enter");
      await item("Route 2: noreply@example.com").waitFor();
      expect(await serverOrder()).toEqual(["*@example.com", "noreply@example.com", "support@example.com"]);

      // Testing an address: the catch-all above support@ decides for it, and the screen says why.
      const tester = page.getByRole("form", { name: "Test an address" });
      await tester.getByLabel("Recipient").fill("support@example.com");
      await tester.getByRole("button", { name: "Test" }).click();
      const result = page.getByRole("status", { name: "Test result" });
      await result.getByText("Route 1 decides for support@example.com:").waitFor();
      expect(await result.textContent()).toContain("its recipient *@example.com covers every address of that domain");
      expect(await result.textContent()).toContain("refusing spam scored 10 or more");
      await item("Route 1: *@example.com").getByText("decides for the tested address").waitFor();
      await tester.getByLabel("Recipient").fill("someone@elsewhere.test");
      await tester.getByRole("button", { name: "Test" }).click();
      await result.getByText("No route matches someone@elsewhere.test").waitFor();
      await result.getByText("The MX does not take mail for elsewhere.test").waitFor();
      await screenshot(page, `ui-inbound-routes-${width}`);

      // Changing a route: the catch-all becomes a reject.
      await page.getByRole("button", { name: "Change route 1" }).click();
      const edit = page.getByRole("form", { name: "Change route 1" });
      await edit.getByLabel("Action").selectOption("reject");
      await edit.getByRole("button", { name: "Save route" }).click();
      await item("Route 1: *@example.com").getByText("Reject (550 5.7.1)").waitFor();
      expect(((await t.json("GET", "/v1/inbound/routes")).body.data as Route[])[0]!.action).toBe("reject");
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  test("a key that may only read routes finds each control disabled, with the reason on focus and hover", async () => {
    await clear();
    await t.json("POST", "/v1/inbound/routes", { body: { match: { recipient: "a@example.com" }, action: "drop" } });
    const reader = await t.app.services.keys.create(t.operator, { name: "reader", scopes: ["inbound:read"] });
    const { page, problems } = await ui.open(1280);
    await ui.signIn(page, reader.key);
    await openSection(page, "Inbound routes");
    await page.getByRole("listitem", { name: "Route 1: a@example.com" }).waitFor();
    expect(await page.getByRole("form", { name: "New route" }).count()).toBe(0);
    // No handle to drag: the position is shown as a number only.
    expect(await page.getByRole("button", { name: /^Move route 1 \(/ }).count()).toBe(0);
    const why = "This API key cannot change inbound routes: it lacks the domains:write scope.";
    for (const name of ["New route", "Move route 1 up", "Change route 1", "Remove route 1"]) {
      const button = page.getByRole("button", { name, exact: true });
      expect(await button.getAttribute("aria-disabled")).toBe("true");
      await button.hover();
      await page.getByRole("tooltip").filter({ hasText: why }).first().waitFor();
      await button.focus();
      expect((await focused(page)).reason).toBe(why);
      // Pressed anyway, from the keyboard and by a click past playwright's own check: nothing happens.
      await page.keyboard.press("Enter");
      await button.click({ force: true });
    }
    // Nothing happened: no confirmation offered, the route is still there.
    expect(await page.getByRole("button", { name: /Confirm remove/ }).count()).toBe(0);
    expect(await serverOrder()).toEqual(["a@example.com"]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe.skipIf(!withRspamd)("the spam verdict in the Inbound screen", () => {
  for (const width of [1280, 390]) {
    test(`at ${width} px: a GTUBE message shows rspamd's score, action and rules`, async () => {
      await clear();
      const mxPort = ui.listeners.find((l) => l.name === "mx")!.port;
      const subject = `Cheap watches ${width}`;
      const chat = await smtpChat(mxPort);
      try {
        await chat.send("EHLO mail.sender.test");
        await chat.send("MAIL FROM:<someone@sender.test>");
        expect((await chat.send("RCPT TO:<sales@example.com>")).code).toBe(250);
        expect((await chat.send("DATA")).code).toBe(354);
        expect(
          (
            await chat.data(
              `From: someone@sender.test\r\nTo: sales@example.com\r\nSubject: ${subject}\r\n\r\n${GTUBE}\r\n`,
            )
          ).code,
        ).toBe(250);
      } finally {
        chat.close();
      }
      const { page, problems } = await ui.open(width);
      await ui.signIn(page, t.liveKey);
      await openSection(page, "Inbound");
      const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: subject }) });
      await row.getByText("spam 15.0 · reject").waitFor();
      await row.getByRole("link", { name: subject }).click();
      await page.getByRole("heading", { name: "Spam" }).waitFor();
      await page.getByText("rspamd scored it 15.00, action").waitFor();
      await page.getByText("Rules that fired").click();
      await page.getByRole("table", { name: "Spam rules" }).getByRole("rowheader", { name: "GTUBE" }).waitFor();
      await screenshot(page, `ui-inbound-spam-${width}`);
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
