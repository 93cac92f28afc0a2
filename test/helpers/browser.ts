/**
 * The admin UI's browser tests share this: Debian's chromium launched through playwright-core (never a downloaded
 * browser), pages that record every console error, page error and request leaving the server under test, sign-in,
 * and the directory where screenshots are kept as CI artefacts.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import type { Listener } from "../../src/server/app.ts";
import type { TestApp } from "./app.ts";
import { CHROMIUM_PATH, chromiumPeer } from "./peers.ts";

export const SCREENSHOTS = join(import.meta.dir, "..", "..", "test-output");

/** Checked once per test file: skipped with the reason on a machine without chromium, a failure under CI=true. */
export const browserPeer = chromiumPeer;

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update"],
  });
}

/**
 * A page whose `problems` collect console errors, page errors, any request not to `base` (the server) and every
 * answer of 400 or more as `http STATUS METHOD PATH` — so a test names the refusals it caused on purpose.
 */
export async function openPage(browser: Browser, base: string, width: number) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const problems: string[] = [];
  page.on("console", (msg) => {
    // Chromium also logs each answer of 400 or more; those are recorded, with their request, from the response.
    if (
      msg.type() === "error" &&
      !msg.text().startsWith("Failed to load resource: the server responded with a status of")
    )
      problems.push(`console: ${msg.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400)
      problems.push(`http ${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("request", (request) => {
    const url = new URL(request.url());
    // blob: is a download and about:srcdoc a sandboxed preview: neither leaves the machine.
    if (url.protocol === "blob:" || url.protocol === "about:" || url.protocol === "data:") return;
    if (url.origin !== base) problems.push(`request off loopback: ${request.url()}`);
  });
  return { page, problems };
}

/** Signs in with an API key, as someone without an account would: the sign-in screen offers email first. */
export async function signIn(page: Page, base: string, key: string) {
  await page.goto(`${base}/`);
  await page.getByRole("button", { name: "Use an API key instead" }).click();
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator("header.top").waitFor();
}

/** Signs in as a person with their email and password, as the sign-in screen first offers. */
export async function signInWithPassword(page: Page, base: string, email: string, password: string) {
  await page.goto(`${base}/`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator("header.top").waitFor();
}

/** The focused element's accessible label (aria-label, its label's text, or its own text). */
export const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    // The page's document: the test files' types (no DOM) do not know it.
    const active = (globalThis as any).document.activeElement;
    if (!active) return "";
    const label = active.getAttribute("aria-label") ?? active.labels?.[0]?.textContent ?? active.textContent ?? "";
    return String(label).trim();
  });

/**
 * Presses Tab until the focus is on `name` (its start, or all of it when `exact`), as a keyboard user would; fails
 * after `limit` presses, naming what it passed.
 */
export async function tabTo(page: Page, name: string, { exact = false, limit = 80 } = {}) {
  const seen: string[] = [];
  for (let i = 0; i < limit; i++) {
    const now = await focusedLabel(page);
    if (exact ? now === name : now.startsWith(name)) return;
    seen.push(now);
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${name}; it passed ${JSON.stringify(seen)}`);
}

/**
 * Goes to a section of the admin UI as a person would: on a phone through the menu button (the sections are folded
 * away below 600 px), else by its link in the navigation.
 */
export async function openSection(page: Page, label: string) {
  const menu = page.locator("header.top button.menu");
  if (await menu.isVisible()) await menu.click();
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: label, exact: true }).click();
}

/** The budget of a suite's beforeAll that launches Chromium: a hook is held to bun's 5 s default, not bunfig's timeout. */
export const BROWSER_START_MS = 60_000;

export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

/** A test app listening on loopback and the browser that drives it, with pages and sign-in bound to its URL. */
export interface UiSession {
  base: string;
  listeners: Listener[];
  browser: Browser;
  open(width: number): ReturnType<typeof openPage>;
  signIn(page: Page, key: string): Promise<void>;
  /** Closes the browser if this session launched it (the app is the caller's to close). */
  close(): Promise<void>;
}

/**
 * Starts `t`'s listeners and, when chromium is here (`withBrowser`), launches it — or drives `shared`, a browser
 * another session launched: what a UI test file needs in its beforeAll.
 */
export async function startUi(t: TestApp, withBrowser: boolean, shared?: Browser): Promise<UiSession> {
  const listeners = await t.app.start();
  const base = `http://127.0.0.1:${listeners.find((l) => l.name === "http")!.port}`;
  const browser = shared ?? (withBrowser ? await launchBrowser() : (undefined as unknown as Browser));
  return {
    base,
    listeners,
    browser,
    open: (width) => openPage(browser, base, width),
    signIn: (page, key) => signIn(page, base, key),
    close: async () => {
      if (!shared) await browser?.close();
    },
  };
}
