/**
 * Captures every screen of the admin UI at 1280 and 390 px as JPEG files (quality 60, so the set stays a few MB in
 * git), with data in them, so a change to the shell or a screen can be looked at without clicking through it
 * (docs/architecture.md#admin-ui).
 *
 *   npx bun scripts/screenshots.ts [--out DIR]                  starts Mailroom from the sources on a throwaway data
 *                                                               directory, seeds it (below), makes its owner with the
 *                                                               setup link and signs in as them
 *   npx bun scripts/screenshots.ts --url URL --key KEY [--out DIR]   signs in to a running server with KEY, as is
 *
 * The seed, through the official Resend SDK as an application would: messages to the simulator's addresses (one
 * scheduled), a published template, contact properties, topics, segments, contacts, a CSV import, a draft broadcast,
 * a webhook endpoint, suppressions, an inbound route, and one message received over SMTP.
 *
 * The screens captured are those the navigation offers, read from the page itself (so a screen added to
 * ui/navigation.ts is captured without a change here), then a record's page of each list that has one, then the
 * person's account and, on a phone, the open menu. Files: DIR/<screen>-<width>.jpg (default DIR: docs/screenshots,
 * listed in its README.md, which this script writes). Chromium is Debian's (/usr/bin/chromium, or MAILROOM_CHROMIUM),
 * driven by playwright-core.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import nodemailer from "nodemailer";
import { chromium, type Page } from "playwright-core";
import { Resend } from "resend";

const ROOT = join(import.meta.dir, "..");
const { values } = parseArgs({
  options: { url: { type: "string" }, key: { type: "string" }, out: { type: "string" } },
});
const out = values.out ?? join(ROOT, "docs", "screenshots");
const WIDTHS = [1280, 390];
/** The tallest capture, in CSS pixels (a little over two screens of a laptop). */
const MAX_HEIGHT = 2000;
const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "screenshots only 7f3a" };

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

/** The SDK answers `{data, error}`: the data, or a throw with the server's words. */
function ok<T>(answer: { data: T | null; error: unknown }): T {
  if (answer.error) throw new Error(`the seed was refused: ${JSON.stringify(answer.error)}`);
  return answer.data as T;
}

/** Fills a fresh organisation as a team's first week would; the ids of the records whose pages are captured. */
async function seed(url: string, key: string, mxPort: number | undefined, hookUrl: string) {
  const resend = new Resend(key, { baseUrl: `${url}/v1` });
  const from = "Acme <hello@example.com>";
  const sent: string[] = [];
  for (const [to, subject] of [
    ["delivered@simulator.mailroom.test", "Welcome aboard"],
    ["delivered+receipt@simulator.mailroom.test", "Your receipt #1042"],
    ["bounced@simulator.mailroom.test", "Reset your password"],
    ["complained@simulator.mailroom.test", "Weekly digest"],
    ["delayed@simulator.mailroom.test", "Your order has shipped"],
  ] as const)
    sent.push(
      ok(
        await resend.emails.send({
          from,
          to,
          subject,
          html: `<h1>${subject}</h1><p>Hello from Acme.</p>`,
          tags: [{ name: "kind", value: "transactional" }],
        }),
      ).id,
    );
  ok(
    await resend.emails.send({
      from,
      to: "delivered@simulator.mailroom.test",
      subject: "Your trial ends tomorrow",
      html: "<p>One day left.</p>",
      scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
    }),
  );
  const template = ok(
    await resend.templates.create({
      name: "Order shipped",
      alias: "order-shipped",
      subject: "Order {{order}} shipped",
      from,
      html: "<p>Your order {{order}} is on its way, {{name}}.</p>",
      variables: [
        { key: "order", type: "string", fallbackValue: "1042" },
        { key: "name", type: "string", fallbackValue: "there" },
      ],
    }),
  ).id;
  ok(await resend.templates.publish(template));
  ok(await resend.templates.create({ name: "Welcome", subject: "Welcome to Acme", from, html: "<p>Welcome!</p>" }));

  ok(await resend.contactProperties.create({ key: "plan", type: "string", fallbackValue: "free" }));
  ok(await resend.contactProperties.create({ key: "seats", type: "number" }));
  const newsletter = ok(
    await resend.topics.create({
      name: "Newsletter",
      description: "News, once a month",
      defaultSubscription: "opt_in",
    }),
  ).id;
  ok(await resend.topics.create({ name: "Product updates", defaultSubscription: "opt_out" }));
  const customers = ok(await resend.segments.create({ name: "Customers" })).id;
  ok(await resend.segments.create({ name: "Beta testers" }));
  let contact = "";
  for (const [email, firstName, lastName, plan, seats] of [
    ["grace@hopper.test", "Grace", "Hopper", "team", 12],
    ["alan@turing.test", "Alan", "Turing", "pro", 3],
    ["katherine@johnson.test", "Katherine", "Johnson", "free", 1],
    ["linus@example.org", "Linus", "", "pro", 2],
  ] as const)
    contact = ok(
      await resend.contacts.create({
        email,
        firstName,
        ...(lastName && { lastName }),
        properties: { plan, seats },
        segments: [{ id: customers }],
        topics: [{ id: newsletter, subscription: "opt_in" }],
      }),
    ).id;
  const csv = "Email,First,Plan\nmargaret@hamilton.test,Margaret,pro\nnot-an-address,Nobody,free\n";
  ok(
    await resend.contacts.imports.create({
      file: new Blob([csv], { type: "text/csv" }),
      columnMap: { email: "Email", firstName: "First", properties: { plan: { column: "Plan" } } },
      onConflict: "upsert",
      segments: [{ id: customers }],
    }),
  );
  const broadcast = ok(
    await resend.broadcasts.create({
      name: "March newsletter",
      segmentId: customers,
      topicId: newsletter,
      from,
      subject: "What we shipped in March, {{{FIRST_NAME|friend}}}",
      html: "<h1>March</h1><p>Hi {{{FIRST_NAME|there}}}, here is what we shipped.</p>",
    }),
  ).id;
  ok(await resend.webhooks.create({ endpoint: hookUrl, events: ["email.sent", "email.delivered", "email.bounced"] }));

  const api = async (method: string, path: string, body: unknown) => {
    const answer = await fetch(`${url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
    return answer.json() as Promise<Record<string, unknown>>;
  };
  await api("POST", "/suppressions", { email: "left-the-company@example.org", reason: "asked by phone" });
  const domain = ok(await resend.domains.list()).data.find((d) => d.name === "example.com")!;
  await api("PATCH", `/domains/${domain.id}`, { receiving: true });
  await api("POST", "/inbound/routes", {
    match: { recipient: "support@example.com" },
    action: "forward",
    forward_to: ["helpdesk@acme.test"],
  });
  await api("POST", "/inbound/routes", { match: { recipient: "noreply@example.com" }, action: "drop" });
  if (mxPort)
    await nodemailer.createTransport({ host: "127.0.0.1", port: mxPort, secure: false, ignoreTLS: true }).sendMail({
      envelope: { from: "customer@dest.test", to: ["support@example.com"] },
      raw: [
        "From: A Customer <customer@dest.test>",
        "To: support@example.com",
        "Subject: Re: Your order has shipped",
        "Message-ID: <screens-1@dest.test>",
        "Content-Type: text/plain; charset=utf-8",
        "",
        "Thanks! When will it arrive?",
        "",
      ].join("\r\n"),
    });
  // Let the delivery worker take the messages, so statuses and the overview's counts are past "queued".
  await Bun.sleep(3000);
  return { email: sent[0]!, contact, segment: customers, template, broadcast, domain: domain.id };
}

/** Starts `mailroom serve` on a fresh data directory, seeded; the URL, the setup token, the record ids, and a stop. */
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
    // The webhook endpoint is this script's receiver on loopback.
    MAILROOM_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "true",
  };
  await cli(["init"], env);
  await cli(["domains", "add", "example.com", "--verified"], env);
  const key = JSON.parse(
    await cli(["keys", "create", "--name", "Production app", "--scope", "full_access", "--json"], env),
  ).token as string;
  await cli(["keys", "create", "--name", "Staging", "--scope", "sending_access", "--json"], env);
  const proc = Bun.spawn([process.execPath, join(ROOT, "src", "main.ts"), "serve"], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "ignore",
  });
  // A webhook receiver that answers 200, so the endpoint's events show delivered attempts.
  const receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
  const stop = async () => {
    proc.kill();
    await proc.exited;
    receiver.stop(true);
    rmSync(dir, { recursive: true, force: true });
  };
  let seen = "";
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
    seen += decoder.decode(chunk);
    if (seen.includes("mailroom ready")) break;
  }
  const port = /http=[^\s]*:(\d+)/.exec(seen)?.[1];
  if (!port) {
    await stop();
    throw new Error(`mailroom did not say it was ready: ${seen}`);
  }
  const setup = /\/setup#(\S+)/.exec(seen)?.[1];
  const mx = /mx=[^\s]*:(\d+)/.exec(seen)?.[1];
  const url = `http://127.0.0.1:${port}`;
  try {
    const records = await seed(url, key, mx ? Number(mx) : undefined, `http://127.0.0.1:${receiver.port}/mailroom`);
    return { url, key, setup, records, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function signInWithKey(page: Page, url: string, key: string) {
  await page.goto(`${url}/`);
  await page.getByRole("button", { name: "Use an API key instead" }).click();
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator("header.top").waitFor();
}

/** The first owner, through the setup link the server printed: the shell as a person sees it (members, account). */
async function setUpOwner(page: Page, url: string, token: string) {
  await page.goto(`${url}/setup#${token}`);
  await page.getByLabel("Your name").fill(OWNER.name);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password (at least 12 characters)").fill(OWNER.password);
  await page.getByRole("button", { name: "Create my account" }).click();
  await page.locator("header.top").waitFor();
}

const server =
  values.url && values.key
    ? {
        url: values.url.replace(/\/$/, ""),
        key: values.key,
        setup: undefined,
        records: undefined,
        stop: async () => {},
      }
    : values.url
      ? (() => {
          throw new Error("--url needs --key: the key to sign in with");
        })()
      : await startServer();

mkdirSync(out, { recursive: true });
for (const old of readdirSync(out)) if (old.endsWith(".jpg")) rmSync(join(out, old));
const browser = await chromium.launch({
  executablePath: process.env.MAILROOM_CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update"],
});
const written: Array<{ screen: string; route: string; width: number; file: string }> = [];

/** Requests under way, per page: a hash route changes without a load, so the page's load states say nothing of it. */
const inFlight = new WeakMap<Page, number>();
function track(page: Page) {
  inFlight.set(page, 0);
  const change = (by: number) => inFlight.set(page, (inFlight.get(page) ?? 0) + by);
  page.on("request", () => change(1));
  page.on("requestfinished", () => change(-1));
  page.on("requestfailed", () => change(-1));
}

/** Until no request has been under way for `quietMs` (screens load their lists, then their previews, after the heading). */
async function settle(page: Page, quietMs = 700, maxMs = 10_000) {
  const deadline = Date.now() + maxMs;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if ((inFlight.get(page) ?? 0) > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await Bun.sleep(50);
  }
}

/** Opens `route`, waits for its heading and for the network to be quiet, and writes the whole page. */
async function capture(page: Page, screen: string, route: string, width: number) {
  await page.goto(`${server.url}/#/${route}`);
  await page.locator("main h1").first().waitFor();
  await settle(page);
  await shoot(page, screen, route, width);
}

async function shoot(page: Page, screen: string, route: string, width: number) {
  const file = join(out, `${screen}-${width}.jpg`);
  // The whole page, up to MAX_HEIGHT (a long list's first rows show what the screen is; the rest would only add
  // bytes), drawn in one viewport that tall: Chromium paints a sandboxed preview's frame only inside the viewport,
  // and the sidebar (100vh) then runs the page's height as it does on screen.
  const height = Math.min(Number(await page.evaluate("document.documentElement.scrollHeight")), MAX_HEIGHT);
  await page.setViewportSize({ width, height });
  await settle(page, 300);
  await page.screenshot({ path: file, type: "jpeg", quality: 60 });
  await page.setViewportSize({ width, height: 900 });
  written.push({ screen, route, width, file });
}

try {
  const context = await browser.newContext({ viewport: { width: WIDTHS[0]!, height: 900 } });
  const page = await context.newPage();
  track(page);
  if (server.setup) await setUpOwner(page, server.url, server.setup);
  else await signInWithKey(page, server.url, server.key);
  const records = server.records;
  const details = records
    ? [
        ["email", `emails/${records.email}`],
        ["domain", `domains/${records.domain}`],
        ["template", `templates/${records.template}`],
        ["broadcast", `broadcasts/${records.broadcast}`],
        ["contact", `contacts/${records.contact}`],
        ["segment", `segments/${records.segment}`],
        ["account", "account"],
      ]
    : [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${server.url}/#/overview`);
    await page.locator("main h1").first().waitFor();
    const areas = await page
      .locator("#sections a")
      .evaluateAll((links) => links.map((a) => (a.getAttribute("href") ?? "").replace(/^#\//, "")));
    for (const area of areas) await capture(page, area, area, width);
    for (const [screen, route] of details) await capture(page, screen!, route!, width);
    if (width < 600) {
      // On a phone the sections are behind the header's Menu button: the open menu is a screen of its own.
      await page.goto(`${server.url}/#/overview`);
      await page.locator("main h1").first().waitFor();
      await page.getByRole("button", { name: "Menu" }).click();
      await page.locator("#sections").waitFor();
      await shoot(page, "menu", "overview", width);
    }
  }
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}

// The index beside the images, when they are the repository's (docs/screenshots).
if (!values.out) {
  const screens = [...new Set(written.map((w) => w.screen))];
  const total = written.reduce((sum, w) => sum + statSync(w.file).size, 0);
  const rows = screens.map((screen) => {
    const route = written.find((w) => w.screen === screen)!.route.replace(/\/[0-9a-f-]{36}$/, "/ID");
    const cells = WIDTHS.map((width) => {
      const shot = written.find((w) => w.screen === screen && w.width === width);
      return shot ? `[${width} px](${screen}-${width}.jpg)` : "—";
    });
    return `| ${screen} | \`#/${route}\` | ${cells.join(" | ")} |`;
  });
  writeFileSync(
    join(out, "README.md"),
    [
      "# Screenshots of the admin UI",
      "",
      "Every screen of the admin UI at 1280 px (the sidebar) and 390 px (a phone, the sections behind the Menu button),",
      "signed in as the organisation's owner, on a server seeded with a week's worth of data: messages to the simulator's",
      "addresses, a template, contacts with properties, topics, segments, an import, a draft broadcast, a webhook, a",
      "suppression, an inbound route and a received message. Written by `npx bun scripts/screenshots.ts` (JPEG, quality",
      `60; ${written.length} images, ${(total / 1024 / 1024).toFixed(1)} MB); run it again after a change to a screen.`,
      "",
      `| screen | route | ${WIDTHS.map((w) => `${w} px`).join(" | ")} |`,
      `| --- | --- | ${WIDTHS.map(() => "---").join(" | ")} |`,
      ...rows,
      "",
    ].join("\n"),
  );
}
for (const { file } of written) console.log(relative(ROOT, file));
