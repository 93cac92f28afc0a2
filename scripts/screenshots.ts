/**
 * Captures every screen of the admin UI's navigation at 1280 and 390 px as PNG files, so a change to the shell or a
 * screen can be looked at (and listed in a note) without clicking through it (docs/architecture.md#admin-ui).
 *
 *   npx bun scripts/screenshots.ts [--out DIR]                  starts Mailroom from the sources on a throwaway data
 *                                                               directory, with a verified domain, a full_access key
 *                                                               and a message to a test address, and signs in with it
 *   npx bun scripts/screenshots.ts --url URL --key KEY [--out DIR]   signs in to a running server with KEY
 *
 * The screens captured are those the navigation offers the key, read from the page itself, so a screen added to
 * ui/navigation.ts is captured without a change here. Files: DIR/<area>-<width>.png (default DIR: test-output/screens).
 * Chromium is Debian's (/usr/bin/chromium, or MAILROOM_CHROMIUM), driven by playwright-core.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "playwright-core";

const ROOT = join(import.meta.dir, "..");
const { values } = parseArgs({
  options: { url: { type: "string" }, key: { type: "string" }, out: { type: "string" } },
});
const out = values.out ?? join(ROOT, "test-output", "screens");
const WIDTHS = [1280, 390];

/** Runs the CLI from the sources on `env`'s data directory; its stdout, or a throw with its stderr. */
async function cli(args: string[], env: Record<string, string>): Promise<string> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "src", "main.ts"), ...args], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`mailroom ${args.join(" ")} exited ${code}: ${stderr}`);
  return stdout;
}

/** Starts `mailroom serve` on a fresh data directory and waits for its ready line; the URL, a key, and a stop. */
async function startServer() {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-screens-"));
  const env = {
    MAILROOM_DATA_DIR: dir,
    MAILROOM_HTTP_PORT: "0",
    MAILROOM_SMTP_SUBMISSION_PORT: "0",
    MAILROOM_SMTP_SMTPS_PORT: "0",
    MAILROOM_INBOUND_PORT: "0",
    // No DNS leaves the machine: the domain below is verified by the operator's override.
    MAILROOM_DNS_SERVERS: "127.0.0.1:1",
  };
  const proc = Bun.spawn([process.execPath, join(ROOT, "src", "main.ts"), "serve"], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  let seen = "";
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
    seen += decoder.decode(chunk);
    if (seen.includes("mailroom ready")) break;
  }
  const port = /http=[^\s]*:(\d+)/.exec(seen)?.[1];
  if (!port) throw new Error(`mailroom did not say it was ready: ${seen}`);
  const url = `http://127.0.0.1:${port}`;
  // The CLI works on the store the server made (the first start creates it).
  await cli(["domains", "add", "example.com", "--verified"], env);
  const key = JSON.parse(
    await cli(["keys", "create", "--name", "screenshots", "--scope", "full_access", "--json"], env),
  ).token as string;
  // One message to a test address, so the lists and the overview have something to show.
  const sent = await fetch(`${url}/v1/emails`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      from: "Screens <hello@example.com>",
      to: "delivered@simulator.mailroom.test",
      subject: "Welcome aboard",
      html: "<p>Hello</p>",
    }),
  });
  if (!sent.ok) throw new Error(`the sample message was refused: ${sent.status} ${await sent.text()}`);
  return {
    url,
    key,
    stop: async () => {
      proc.kill();
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function signIn(page: Page, url: string, key: string) {
  await page.goto(`${url}/`);
  await page.getByRole("button", { name: "Use an API key instead" }).click();
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator("header.top").waitFor();
}

const server =
  values.url && values.key
    ? { url: values.url.replace(/\/$/, ""), key: values.key, stop: async () => {} }
    : values.url
      ? (() => {
          throw new Error("--url needs --key: the key to sign in with");
        })()
      : await startServer();

mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.MAILROOM_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update"],
});
const written: string[] = [];
try {
  for (const width of WIDTHS) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await signIn(page, server.url, server.key);
    const areas = await page
      .locator("#sections a")
      .evaluateAll((links) => links.map((a) => (a.getAttribute("href") ?? "").replace(/^#\//, "")));
    for (const area of areas) {
      await page.goto(`${server.url}/#/${area}`);
      await page.locator("main h1").first().waitFor();
      // Screens load their lists after the heading: wait until the network has been quiet for a moment.
      await page.waitForLoadState("networkidle");
      const file = join(out, `${area}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      written.push(file);
    }
    await page.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
for (const file of written) console.log(file);
