/**
 * System mail is not the organisation's (issue 49, docs/teams.md#system-mail), on the suite's engine: an invited
 * teammate's invitation and their password reset are delivered to a real SMTP server (the smarthost) while the
 * organisation's daily quota is used up, yet neither is in GET /v1/emails (over HTTP and through the official Resend
 * SDK), nor in its filters, statistics, metrics or usage, and a webhook endpoint subscribed to every event receives
 * nothing of them while the organisation's own email, sent in the same test, reaches it. The operator finds each in
 * the log by its id; only an instance admin looks such a message up. An invitation Mailroom may not mail still stands. A client cannot make its own mail system mail: not with the old tag, a body field, a header, or
 * over the SMTP relay. The Emails screen, in Chromium at 1280 and 390 px, lists the organisation's email alone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import { Resend } from "resend";
import { EVENT_TYPES } from "../src/events/model.ts";
import { createLogger } from "../src/lib/logger.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import {
  BROWSER_START_MS,
  browserPeer as checkBrowser,
  openSection,
  screenshot,
  signInWithPassword,
  startUi,
  tabTo,
  type UiSession,
} from "./helpers/browser.ts";
import { asPerson, cookieOf, ORIGIN, PASSWORD, setUpOwner } from "./helpers/people.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.ts";

const browserPeer = checkBrowser();
const TEAMMATE = "teammate@dest.test";
const CUSTOMER = "customer@dest.test";
const ORG_SUBJECT = "Your order has shipped";

let t: TestApp;
let smtp: SmtpDouble;
let receiver: WebhookReceiver;
let ui: UiSession;
let owner: string;
let teammate: string;
let base: string;
let orgEmailId: string;
let systemIds: string[];
const logLines: string[] = [];

/** The ids of mail Mailroom sent for itself, from the store: no list of the organisation's names them. */
const systemMail = () =>
  t.app.services.store.query<{ id: string; system_mail: string; subject: string }>(
    sql`SELECT id, system_mail, subject FROM emails WHERE system_mail IS NOT NULL ORDER BY id`,
  );

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let tries = 0; tries < 200; tries++) {
    const value = await read();
    if (done(value)) return value;
    await Bun.sleep(50);
  }
  throw new Error(`waited in vain for ${what}`);
}

const listedIds = async (query = "") => {
  const page = await t.json("GET", `/v1/emails?limit=100${query}`);
  if (page.status !== 200) throw new Error(JSON.stringify(page.body));
  return (page.body.data as Array<{ id: string }>).map((e) => e.id);
};

beforeAll(async () => {
  smtp = await startSmtpDouble();
  receiver = await startWebhookReceiver();
  t = await createTestApp(
    {
      http: { public_url: ORIGIN },
      // The test polls the API.
      limits: { key_requests_per_minute: 100_000, org_requests_per_minute: 100_000 },
      webhooks: { allow_private_networks: true },
      delivery: { default_provider: "smtp" },
      smarthost: { host: "127.0.0.1", port: smtp.port, security: "none" },
    },
    { logger: createLogger("info", (line) => logLines.push(line)) },
  );
  ui = await startUi(t, browserPeer.available);
  base = ui.base;
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  owner = await setUpOwner(t);
  const hook = await t.json("POST", "/v1/webhooks", { body: { endpoint: receiver.url, events: [...EVENT_TYPES] } });
  expect(hook.status).toBe(200);
  receiver.secrets.push(hook.body.signing_secret);

  // The organisation's day is used up by its own email: one a day.
  expect((await t.json("PATCH", "/v1/organization", { body: { daily_quota: 1 } })).status).toBe(200);
  const sent = await t.json("POST", "/v1/emails", {
    body: { from: "shop@example.com", to: CUSTOMER, subject: ORG_SUBJECT, text: "On its way." },
  });
  expect(sent.status).toBe(200);
  orgEmailId = sent.body.id;
  const refused = await t.json("POST", "/v1/emails", {
    body: { from: "shop@example.com", to: CUSTOMER, subject: "A second", text: "Over the quota." },
  });
  expect([refused.status, refused.body.name]).toEqual([429, "daily_quota_exceeded"]);

  // The teammate is invited (the invitation is mailed all the same), joins, and asks for a new password.
  const invited = await asPerson(t, "POST", "/v1/members/invitations", owner, {
    body: { email: TEAMMATE, role: "developer" },
  });
  expect(invited.status).toBe(201);
  expect(invited.body).toMatchObject({ emailed: true, note: null });
  const joined = await t.json("POST", "/v1/invitations/accept", {
    body: { token: new URL(invited.body.url).hash.slice(1), name: "Teammate", password: PASSWORD },
    key: null,
  });
  expect(joined.status).toBe(200);
  teammate = cookieOf(joined.headers);
  expect((await t.json("POST", "/v1/password/reset", { body: { email: TEAMMATE }, key: null })).status).toBe(200);

  const system = await until("the password reset's record", systemMail, (rows) => rows.length === 2);
  expect(system.map((row) => row.system_mail).sort()).toEqual(["invitation", "password_link"]);
  systemIds = system.map((row) => row.id);
  await smtp.waitFor(3, 20_000);
}, BROWSER_START_MS);

afterAll(async () => {
  await ui?.close();
  await t?.close();
  await receiver?.close();
  await smtp?.close();
});

describe("system mail", () => {
  test("is delivered to the teammate through the smarthost, from the organisation's domain, whatever its quota", async () => {
    const toTeammate = smtp.received.filter((m) => m.recipients.includes(TEAMMATE));
    for (const message of toTeammate)
      expect(message.raw.toString()).toMatch(/^From: Mailroom <no-reply@example\.com>\r$/m);
    const subjects = toTeammate.map((m) => /^Subject: (.*)\r$/m.exec(m.raw.toString())![1]).sort();
    expect(subjects).toEqual([expect.stringMatching(/^Join .* on Mailroom$/), "Set a new Mailroom password"]);
    expect(smtp.received.filter((m) => m.recipients.includes(CUSTOMER))).toHaveLength(1);
    // Delivered as any mail is: the smarthost took each (`sent`, docs/sending.md#message-and-recipient-statuses).
    const statuses = await until(
      "the system mail's deliveries",
      () =>
        t.app.services.store.query<{ status: string }>(
          sql`SELECT d.status FROM deliveries d JOIN emails e ON e.id = d.email_id WHERE e.system_mail IS NOT NULL`,
        ),
      (rows) => rows.length === 2 && rows.every((row) => row.status === "sent"),
    );
    expect(statuses).toHaveLength(2);
  });

  test("is in no list of the organisation's, over HTTP or through the Resend SDK, whatever the filter", async () => {
    expect(await listedIds()).toEqual([orgEmailId]);
    expect(await listedIds(`&to=${TEAMMATE}`)).toEqual([]);
    expect(await listedIds("&from=no-reply@example.com")).toEqual([]);
    await until(
      "the organisation's email sent",
      () => listedIds("&status=sent"),
      (ids) => ids.length > 0,
    );
    expect(await listedIds("&status=sent")).toEqual([orgEmailId]);
    // The teammate's own list, as a developer signed in, has no word of their mail either.
    const theirs = await asPerson(t, "GET", "/v1/emails?limit=100", teammate);
    expect(theirs.body.data.map((e: { id: string }) => e.id)).toEqual([orgEmailId]);

    const resend = new Resend(t.liveKey, { baseUrl: `${base}/v1` });
    const listed = await resend.emails.list({ limit: 100 });
    expect(listed.error).toBeNull();
    expect(listed.data!.data.map((e) => e.id)).toEqual([orgEmailId]);
    const got = await resend.emails.get(systemIds[0]!);
    expect(got.error?.name).toBe("not_found");
  });

  test("counts in no statistics, metrics or usage", async () => {
    await until(
      "the organisation's email counted sent",
      async () => (await t.json("GET", "/v1/emails/stats")).body.totals,
      (totals) => totals.sent === 1,
    );
    const stats = (await t.json("GET", "/v1/emails/stats")).body.totals;
    expect([stats.accepted, stats.sent]).toEqual([1, 1]);
    const metrics = (await t.json("GET", "/v1/emails/metrics?metrics=sent")).body.totals;
    expect(metrics).toEqual({ sent: 1 });
    const usage = (await t.json("GET", "/v1/usage")).body.emails;
    expect([usage.daily.used, usage.monthly.used]).toEqual([1, 1]);
  });

  test("fires no webhook, while the organisation's email does", async () => {
    await receiver.waitFor(1, 20_000);
    await until(
      "the organisation's email.sent webhook",
      async () => receiver.received.map((r) => `${r.payload.type} ${r.payload.data.email_id}`),
      (seen) => seen.includes(`email.sent ${orgEmailId}`),
    );
    expect(receiver.received.every((r) => r.verifiedWith.length === 1)).toBe(true);
    expect(receiver.received.filter((r) => systemIds.includes(r.payload.data?.email_id))).toEqual([]);
    // Nor is one waiting in the outbox: the fan-out wrote none for their events.
    const outbox = await t.app.services.store.query<{ n: number }>(
      sql`SELECT count(*) AS n FROM webhook_deliveries w JOIN events e ON e.id = w.event_id JOIN emails m ON m.id = e.email_id WHERE m.system_mail IS NOT NULL`,
    );
    expect(Number(outbox[0]!.n)).toBe(0);
    const events = await t.app.services.store.query<{ n: number }>(
      sql`SELECT count(*) AS n FROM events e JOIN emails m ON m.id = e.email_id WHERE m.system_mail IS NOT NULL AND e.type = 'email.sent'`,
    );
    expect(Number(events[0]!.n)).toBe(2);
  });

  test("is logged for the operator by its id and kind, never its address", async () => {
    const accepted = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "system mail accepted");
    expect(accepted.map((entry) => [entry.email_id, entry.kind]).sort()).toEqual(
      (await systemMail()).map((row) => [row.id, row.system_mail]).sort(),
    );
    expect(accepted.every((entry) => entry.organization_id === t.organizationId)).toBe(true);
    expect(JSON.stringify(accepted)).not.toContain(TEAMMATE);
  });

  test("is looked up by an instance admin alone, without its content", async () => {
    for (const id of systemIds) {
      const asKey = await t.json("GET", `/v1/emails/${id}`);
      expect([asKey.status, asKey.body.name]).toEqual([404, "not_found"]);
      const asTeammate = await asPerson(t, "GET", `/v1/emails/${id}`, teammate);
      expect(asTeammate.status).toBe(404);
      expect(asTeammate.body.message).toContain("only instance admins");
      const asAdmin = await asPerson(t, "GET", `/v1/emails/${id}`, owner);
      expect(asAdmin.status).toBe(200);
      expect(asAdmin.body).toMatchObject({ to: [TEAMMATE], tags: [], html: null, text: null });
      expect(asAdmin.body.recipients.map((r: { status: string }) => r.status)).toEqual(["sent"]);
      const raw = await asPerson(t, "GET", `/v1/emails/${id}/raw`, owner);
      expect([raw.status, raw.body.name]).toEqual([410, "gone"]);
    }
  });

  test("cannot be claimed by a client: not by the tag, a body field, a header or the SMTP relay", async () => {
    expect((await t.json("PATCH", "/v1/organization", { body: { daily_quota: null } })).status).toBe(200);
    const send = (extra: Record<string, unknown>) =>
      t.json("POST", "/v1/emails", {
        body: { from: "shop@example.com", to: CUSTOMER, subject: "Claimed", text: "x", ...extra },
      });
    const tagged = await send({ tags: [{ name: "mailroom:private", value: "password_link" }] });
    expect([tagged.status, tagged.body.name]).toEqual([400, "validation_error"]);
    const claimed: string[] = [];
    for (const extra of [
      { system_mail: "password_link" },
      { headers: { "X-Mailroom-System-Mail": "password_link" } },
    ]) {
      const answer = await send(extra);
      // Refused as an unknown field, or accepted as the organisation's own mail: never made system mail.
      if (answer.status === 200) claimed.push(answer.body.id);
      else expect(answer.body.name).toBe("validation_error");
    }
    const ca = readFileSync(join(t.dataDir, "tls", "smtp-cert.pem"), "utf8");
    const smtps = ui.listeners.find((l) => l.name === "smtps")!.port;
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: smtps,
      secure: true,
      auth: { user: "apikey", pass: t.liveKey },
      tls: { ca },
    });
    const relayed = await transport.sendMail({
      from: "shop@example.com",
      to: CUSTOMER,
      subject: "Claimed over SMTP",
      text: "x",
      headers: { "X-Mailroom-System-Mail": "password_link", "X-Mailroom-Private": "password_link" },
    });
    transport.close();
    claimed.push(/queued as ([0-9a-f-]{36})/.exec(relayed.response)![1]!);
    expect(claimed.length).toBeGreaterThanOrEqual(2);
    const listed = await listedIds();
    for (const id of claimed) expect(listed).toContain(id);
    expect((await systemMail()).map((row) => row.id)).toEqual(systemIds);
  });
});

describe("an invitation Mailroom may not mail", () => {
  test("stands, with its link, and the inviter is told why it was not emailed", async () => {
    expect((await t.json("POST", "/v1/suppressions", { body: { email: "gone@dest.test" } })).status).toBe(200);
    const invited = await asPerson(t, "POST", "/v1/members/invitations", owner, {
      body: { email: "gone@dest.test", role: "viewer" },
    });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ emailed: false, url: expect.stringContaining("/invite#") });
    expect(invited.body.note).toStartWith("Not emailed: Every recipient is on the suppression list");
    expect((await systemMail()).map((row) => row.id)).toEqual(systemIds);
  });
});

describe.skipIf(!browserPeer.available)("the Emails screen in chromium", () => {
  for (const width of [1280, 390])
    test(`at ${width} px lists the organisation's email, not the teammate's invitation or password reset`, async () => {
      const { page, problems } = await ui.open(width);
      await signInWithPassword(page, ui.base, "owner@example.com", PASSWORD);
      await page.getByRole("heading", { name: "Overview" }).waitFor();
      await openSection(page, "Emails");
      await page.getByRole("link", { name: ORG_SUBJECT }).first().waitFor();
      const rows = await page.getByRole("table").getByRole("link").allTextContents();
      expect(rows.some((text) => /Mailroom password|^Join /.test(text))).toBe(false);
      expect(await page.getByText("Set a new Mailroom password").count()).toBe(0);
      await page
        .getByText("Mailroom's own mail about people's accounts (invitations, password links) is not listed.")
        .waitFor();
      await screenshot(page, `ui-system-mail-${width}`);
      // By keyboard: filtered by the teammate's address, the list has nothing of theirs.
      await tabTo(page, "To", { exact: true });
      await page.keyboard.type(TEAMMATE);
      await page.keyboard.press("Enter");
      await page.getByText("No emails match.").waitFor();
      expect(await page.getByRole("link", { name: ORG_SUBJECT }).count()).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    }, 30_000);
});
