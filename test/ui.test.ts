/**
 * The admin UI in a real browser (Debian's chromium via playwright-core) against the app listening on loopback:
 * the page's security headers, sign-in, an email sent through the API found in the list with its timeline, a key
 * created and revoked, a suppression removed, sign-out. Every run asserts no console error and no request that
 * leaves loopback, and keeps screenshots at 1280 and 390 px under test-output/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { createTestApp, tempDir, type TestApp } from "./helpers/app.ts";
import {
  BROWSER_START_MS,
  browserPeer as checkBrowser,
  screenshot,
  startUi,
  type UiSession,
  openSection,
} from "./helpers/browser.ts";
import { startMailroom } from "./helpers/process.ts";

const browserPeer = checkBrowser();

let t: TestApp;
let ui: UiSession;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  ui = await startUi(t, browserPeer.available);
  base = ui.base;
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
});

test("GET / serves the UI shell with a strict CSP, and its assets come from the server", async () => {
  const page = await fetch(`${base}/`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toStartWith("text/html");
  const csp = page.headers.get("content-security-policy")!;
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("img-src 'self' data:;");
  expect(csp).not.toMatch(/script-src[^;]*unsafe/);
  expect(page.headers.get("x-content-type-options")).toBe("nosniff");
  const html = await page.text();
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
  expect(html).not.toMatch(/https?:\/\//); // nothing from another origin
  const script = await fetch(`${base}/ui/app.js`);
  expect(script.status).toBe(200);
  expect(script.headers.get("content-type")).toStartWith("text/javascript");
  expect((await script.text()).length).toBeGreaterThan(1000);
  expect((await fetch(`${base}/ui/style.css`)).headers.get("content-type")).toStartWith("text/css");
});

test("the preview document reflects only the UI's own frame loads, sandboxed, and nothing larger than a body may be", async () => {
  const frame = { "sec-fetch-site": "same-origin", "sec-fetch-dest": "iframe" };
  const post = (headers: Record<string, string>, body = "html=%3Cp%3EHi%3C%2Fp%3E") =>
    fetch(`${base}/ui/preview`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body,
    });
  const own = await post(frame);
  expect(own.status).toBe(200);
  expect(await own.text()).toBe("<p>Hi</p>");
  const csp = own.headers.get("content-security-policy")!;
  expect(csp).toStartWith("sandbox;");
  expect(csp).not.toContain("script-src");
  expect(csp).toContain("default-src 'none'");
  expect(own.headers.get("referrer-policy")).toBe("no-referrer");
  // Another site's form (in a frame or as a page), this origin's page loaded as a whole page, and a request that
  // says nothing of where it comes from get nothing back.
  for (const headers of [
    { ...frame, "sec-fetch-site": "cross-site" },
    { ...frame, "sec-fetch-site": "same-site" },
    { ...frame, "sec-fetch-dest": "document" },
    {},
  ]) {
    const refused = await post(headers);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { name: string }).name).toBe("unauthorized");
  }
  const huge = await post(frame, `html=${"x".repeat(t.config.http.max_body_bytes + 1)}`);
  expect(huge.status).toBe(413);
});

test("the executable carries the same UI (the bundle is built into it, nothing is read from ui/ at run time)", async () => {
  const dataDir = tempDir("mailroom-ui-");
  const server = await startMailroom(
    { MAILROOM_DATA_DIR: dataDir, MAILROOM_HTTP_PORT: "0", MAILROOM_DNS_SERVERS: "127.0.0.1:1" },
    { binary: true },
  );
  try {
    const page = await fetch(`${server.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    // Compared by digest: on a mismatch, printing two 70 KB bundles helps no one.
    const digest = async (url: string) =>
      new Bun.CryptoHasher("sha256").update(await (await fetch(url)).text()).digest("hex");
    expect(await digest(`${server.baseUrl}/ui/app.js`)).toBe(await digest(`${base}/ui/app.js`));
  } finally {
    server.proc.kill("SIGKILL");
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 30_000);

/** Every list on the screen fits its width: on a phone a wide table stacks into labelled blocks, never scrolls. */
async function expectTablesFit(page: Parameters<UiSession["signIn"]>[0]) {
  const overflowing = await page
    .locator("table.list")
    .evaluateAll((tables) =>
      tables
        .filter((table) => table.scrollWidth > (table.parentElement?.clientWidth ?? table.scrollWidth) + 1)
        .map((table) => table.querySelector("th")?.textContent ?? "a table"),
    );
  expect(overflowing).toEqual([]);
}

const openPage = (width: number) => ui.open(width);
const signIn = (page: Parameters<UiSession["signIn"]>[0], key: string) => ui.signIn(page, key);

describe.skipIf(!browserPeer.available)("admin UI in chromium", () => {
  for (const width of [1280, 390]) {
    test(`at ${width} px: sign in, find a sent email and its timeline, create and revoke a key, remove a suppression`, async () => {
      const subject = `UI check ${width}`;
      const sent = await t.json("POST", "/v1/emails", {
        body: {
          from: "ui@example.com",
          to: [`reader-${width}@example.net`],
          subject,
          html: `<style>p { background: url("https://images.example/bg.png") }</style><p class="x" style="color: rgb(1, 2, 3)">Hello <img src="https://images.example/x.png"></p>`,
          text: "Hello",
          reply_to: `answers-${width}@example.com`,
          tags: [{ name: "kind", value: "receipt" }],
          attachments: [{ filename: "receipt.txt", content: Buffer.from("Thanks!").toString("base64") }],
        },
      });
      expect(sent.status).toBe(200);
      const suppressed = `gone-${width}@example.net`;
      expect((await t.json("POST", "/v1/suppressions", { body: { email: suppressed } })).status).toBe(200);

      const { page, problems } = await openPage(width);
      await signIn(page, t.liveKey);
      // The key is in the tab's session only.
      expect(await page.evaluate(() => ({ session: sessionStorage.length, local: localStorage.length }))).toEqual({
        session: 1,
        local: 0,
      });

      // Emails: the list shows the message; its detail shows recipients and the timeline.
      await openSection(page, "Emails");
      await page.getByRole("link", { name: subject }).waitFor();
      await expectTablesFit(page);
      await page.getByRole("link", { name: subject }).click();
      await page.getByRole("heading", { name: subject }).waitFor();
      await expectTablesFit(page);
      // Everything the API knows of it: Reply-To, tags, attachments (downloadable), and its id a click from the
      // clipboard.
      await page.getByText(`answers-${width}@example.com`).waitFor();
      expect(await page.getByRole("list", { name: "Tags" }).textContent()).toBe("kind: receipt");
      const download = page.getByRole("link", { name: "Download receipt.txt" });
      await download.waitFor();
      expect(await (await fetch(new URL((await download.getAttribute("href"))!, base))).text()).toBe("Thanks!");
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
      await page.getByRole("button", { name: "Copy the email's id" }).click();
      expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(sent.body.id);
      await expect(page.getByRole("cell", { name: `reader-${width}@example.net` }).isVisible()).resolves.toBe(true);
      await page.getByRole("list", { name: "Event timeline" }).getByText("email.queued").first().waitFor();
      const frame = page.locator("iframe.preview");
      expect(await frame.getAttribute("sandbox")).toBe("");
      // The remote image is taken out before the preview renders (no request, no CSP violation).
      expect(await frame.getAttribute("srcdoc")).not.toMatch(/\ssrc="https:\/\/images\.example/);
      await page.getByText("2 remote resources (images, fonts, styles) not loaded", { exact: false }).waitFor();
      const hello = page.frameLocator("iframe.preview").getByText("Hello");
      await hello.waitFor({ timeout: 5000 });
      // The email's own styles apply in the preview (inline styles are allowed; remote loads are not).
      expect(await hello.evaluate((el) => (globalThis as any).getComputedStyle(el).color)).toBe("rgb(1, 2, 3)");
      await page.getByRole("button", { name: "Headers" }).click();
      await page.getByLabel("Headers").getByText(`Subject: ${subject}`).waitFor();
      await screenshot(page, `ui-email-${width}`);

      // API keys: create one, its token is shown once, then revoke it.
      await openSection(page, "API keys");
      const keyName = `ui-key-${width}`;
      await page.getByLabel("Name").fill(keyName);
      await page.getByLabel("Daily quota (optional)").fill("250");
      await page.getByRole("button", { name: "Create key" }).click();
      const token = (await page.getByTestId("new-token").textContent())!;
      expect(token.length).toBeGreaterThan(20);
      expect((await t.json("GET", "/v1/api-keys", { key: token })).status).toBe(200);
      await page.getByRole("button", { name: "Done" }).click();
      await page.getByRole("row").filter({ hasText: keyName }).getByText("250 a day").waitFor();
      await expectTablesFit(page);
      await page.getByRole("button", { name: `Revoke ${keyName}` }).click();
      await page.getByRole("button", { name: `Confirm revoke ${keyName}` }).click();
      // The row's button goes once the revocation is answered (a stacked cell's name also carries its label at 390 px).
      await page.getByRole("button", { name: `Revoke ${keyName}` }).waitFor({ state: "detached" });
      expect((await t.json("GET", "/v1/api-keys", { key: token })).status).toBe(401);
      await screenshot(page, `ui-keys-${width}`);

      // Suppressions: find the address and remove it.
      await openSection(page, "Suppressions");
      await page.getByLabel("Search addresses").fill(`gone-${width}`);
      await page.getByRole("button", { name: `Remove ${suppressed}` }).click();
      await page.getByRole("button", { name: `Remove ${suppressed}` }).waitFor({ state: "detached" });
      expect((await t.json("GET", `/v1/suppressions/${encodeURIComponent(suppressed)}`)).status).toBe(404);
      await screenshot(page, `ui-suppressions-${width}`);

      // Sign out forgets the key.
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("form", { name: "Sign in" }).waitFor();
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);
  }

  test("remote images load only when asked, from the sandboxed preview document, without telling the admin's address", async () => {
    const fetched: Array<{ path: string; referer: string | null }> = [];
    const images = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request) {
        fetched.push({ path: new URL(request.url).pathname, referer: request.headers.get("referer") });
        return new Response(Buffer.from("R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==", "base64"), {
          headers: { "content-type": "image/gif" },
        });
      },
    });
    try {
      const pixel = `http://127.0.0.1:${images.port}/pixel.gif`;
      const subject = "Remote images on request";
      const sent = await t.json("POST", "/v1/emails", {
        body: {
          from: "ui@example.com",
          to: ["images@example.net"],
          subject,
          html: `<p>Look <img alt="pixel" src="${pixel}"></p>`,
        },
      });
      const { page, problems } = await openPage(1280);
      await signIn(page, t.liveKey);
      await page.goto(`${base}/#/emails/${sent.body.id}`);
      await page.frameLocator("iframe.preview").getByText("Look").waitFor();
      expect(fetched).toEqual([]);
      await page.getByRole("button", { name: "Load remote images" }).click();
      await page.getByText("remote resources loaded, as you asked", { exact: false }).waitFor();
      const frame = page.frameLocator("iframe.preview");
      await frame.getByText("Look").waitFor();
      // The image really loads (its natural width is known), from the image host, with no Referer.
      await frame.getByAltText("pixel").evaluate(async (img: any) => {
        if (!img.complete) await new Promise((resolve) => img.addEventListener("load", resolve, { once: true }));
      });
      expect(await frame.getByAltText("pixel").evaluate((img: any) => img.naturalWidth)).toBe(1);
      expect(fetched).toEqual([{ path: "/pixel.gif", referer: null }]);
      expect(await page.locator("iframe.preview").getAttribute("sandbox")).toBe("");
      expect(problems).toEqual([`request off loopback: ${pixel}`]); // the one request the user asked for
      await page.close();
    } finally {
      images.stop(true);
    }
  }, 30_000);

  for (const width of [1280, 390])
    test(`at ${width} px a test key is told what it can do and how to get a live key; the keys it creates are test keys, and the form says so`, async () => {
      const { page, problems } = await openPage(width);
      await signIn(page, t.testKey);
      const banner = page.getByRole("note", { name: "Test key" });
      await banner.waitFor();
      expect(await banner.textContent()).toContain("never delivered");
      expect(await banner.textContent()).toContain("mailroom keys create --name admin --scope full_access");
      await openSection(page, "API keys");
      const form = page.getByRole("form", { name: "Create a key" });
      await form.getByRole("heading", { name: "Create a test key" }).waitFor();
      await form.getByLabel("Name").fill(`made by a test key ${width}`);
      await form.getByRole("button", { name: "Create key" }).click();
      expect(await page.getByTestId("new-token").textContent()).toStartWith("mr_test_");
      // Nothing overflows the phone's width: the banner's command wraps.
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      await screenshot(page, `ui-test-key-${width}`);
      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);

  test("a key that may only send sees no screen it cannot open, and no error page", async () => {
    const key = await t.json("POST", "/v1/api-keys", { body: { name: "sender", permission: "sending_access" } });
    const { page, problems } = await openPage(1280);
    await page.goto(`${base}/`);
    await page.getByRole("button", { name: "Use an API key instead" }).click();
    await page.getByLabel("API key").fill(key.body.token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("This key may only send").waitFor();
    expect(await page.getByRole("link", { name: "API keys" }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  test("keyboard alone signs in (the first field has the focus on arrival, and on switching to a key) and reaches the sections, with a visible focus ring", async () => {
    const { page, problems } = await openPage(390);
    await page.goto(`${base}/`);
    await page.getByLabel("Email").waitFor();
    expect(await page.locator(":focus").getAttribute("id")).toBe("email");
    // Password, Sign in, "Forgot your password?", the switch to a key
    for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
    expect(await page.locator(":focus").textContent()).toBe("Use an API key instead");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === "api-key");
    await page.keyboard.type(t.liveKey);
    await page.keyboard.press("Enter");
    // On a phone the sections are folded under one button: a short header, the menu a key press away.
    const menu = page.locator("header.top button.menu");
    await menu.waitFor();
    await screenshot(page, "ui-menu-closed-390");
    expect(await page.locator("header.top").evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(80);
    expect(await page.locator("#sections").isVisible()).toBe(false);
    // Sign out, then the menu (last in the header, so the next Tab enters the sections).
    for (let i = 0; i < 2; i++) await page.keyboard.press("Tab");
    expect(await page.locator(":focus").textContent()).toBe("Menu");
    await page.keyboard.press("Enter");
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    await screenshot(page, "ui-menu-open-390");
    for (let i = 0; i < 3; i++) await page.keyboard.press("Tab"); // Overview, Emails, Broadcasts
    const focused = page.locator(":focus");
    expect(await focused.textContent()).toBe("Broadcasts");
    // The root tsconfig has no DOM types: the page's getComputedStyle is reached through globalThis.
    expect(await focused.evaluate((el) => (globalThis as any).getComputedStyle(el).outlineStyle)).toBe("solid");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Broadcasts", exact: true }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  test("a wrong key is refused at sign-in with the server's message", async () => {
    const { page } = await openPage(390);
    await page.goto(`${base}/`);
    await page.getByRole("button", { name: "Use an API key instead" }).click();
    await page.getByLabel("API key").fill("re_not_a_key");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.close();
  }, 30_000);
});
