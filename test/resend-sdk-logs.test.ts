/**
 * The official Resend Node SDK, unchanged, against Mailroom on a real socket (docs/logs-and-mcp.md): `logs.list`,
 * `logs.get`, `usage.get` and `emails.metrics` answer in the shapes the SDK's types promise — and no log entry, read
 * through the SDK page by page, holds a secret the requests carried: the key the SDK sent, a key and a webhook signing
 * secret minted through the SDK, a password and a TOTP code sent to a person's routes, the attachment's content.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Resend } from "resend";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { ok } from "./helpers/resend-sdk.ts";

let t: TestApp;
let resend: Resend;
const ATTACHMENT = "attachment body 5be1";
const PASSWORD = "sdk-logs password 9c41 staple";
const TOTP_CODE = "730215";
let base: string;
let mintedToken: string;
let signingSecret: string;

beforeAll(async () => {
  t = await createTestApp({
    limits: { key_requests_per_minute: 100_000, org_requests_per_minute: 100_000 },
    webhooks: { allow_private_networks: true },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const http = (await t.app.start()).find((l) => l.name === "http")!;
  base = `http://127.0.0.1:${http.port}/v1`;
  resend = new Resend(t.liveKey, { baseUrl: base });
  ok(
    await resend.emails.send({
      from: "Acme <hi@example.com>",
      to: "reader@x.org",
      subject: "Logged",
      text: "Hi",
      attachments: [{ filename: "a.txt", content: Buffer.from(ATTACHMENT).toString("base64") }],
    }),
  );
  mintedToken = ok(await resend.apiKeys.create({ name: "minted" })).token;
  signingSecret = ok(
    await resend.webhooks.create({ endpoint: "http://127.0.0.1:1/hook", events: ["email.sent"] }),
  ).signing_secret;
  // A key cannot use a person's routes (403), but what it sent is recorded: without the password or the code.
  for (const [path, body] of [
    ["/me/password", { current_password: PASSWORD, password: PASSWORD }],
    ["/me/totp/confirm", { code: TOTP_CODE }],
  ] as const) {
    const refused = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.liveKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(refused.status).toBe(403);
  }
  await Bun.sleep(20);
  await t.app.services.requestLog.flush();
});
afterAll(() => t.close());

test("logs.list and logs.get: the SDK's request, its answer, secrets replaced", async () => {
  const list = ok(await resend.logs.list({ limit: 10 }));
  expect(list.object).toBe("list");
  const entry = list.data.find((item) => item.endpoint === "/emails" && item.method === "POST")!;
  expect(entry).toMatchObject({ response_status: 200 });
  expect(entry.user_agent).toStartWith("resend-node:");
  expect(typeof entry.created_at).toBe("string");
  const log = ok(await resend.logs.get(entry.id));
  expect(log).toMatchObject({
    object: "log",
    id: entry.id,
    endpoint: "/emails",
    method: "POST",
    request_body: { subject: "Logged", attachments: [{ filename: "a.txt", content: "[redacted]" }] },
    response_body: { message: "Email sent." },
  });
  const text = JSON.stringify(log);
  expect(text).not.toContain(t.liveKey);
  expect(text).not.toContain(Buffer.from(ATTACHMENT).toString("base64"));
});

test("no entry read through the SDK holds a secret: keys, signing secret, password, TOTP code, attachment", async () => {
  const entries: unknown[] = [];
  let after: string | undefined;
  for (;;) {
    const page = ok(await resend.logs.list({ limit: 100, ...(after && { after }) }));
    for (const item of page.data) entries.push(ok(await resend.logs.get(item.id)));
    if (!page.has_more) break;
    after = page.data.at(-1)!.id;
  }
  expect(entries.length).toBeGreaterThanOrEqual(5);
  const text = JSON.stringify(entries);
  expect(text).toContain("[redacted]");
  for (const secret of [
    t.liveKey,
    mintedToken,
    signingSecret,
    PASSWORD,
    TOTP_CODE,
    ATTACHMENT,
    Buffer.from(ATTACHMENT).toString("base64"),
  ])
    expect(text).not.toContain(secret);
});

test("usage.get: emails today and this month, domains, the rate limit", async () => {
  const usage = ok(await resend.usage.get());
  expect(usage).toMatchObject({
    object: "usage",
    emails: { daily: { used: 1, sent: 1, received: 0 }, monthly: { used: 1, sent: 1 } },
    domains: { used: 1 },
    rate_limit: { limit: 100_000, duration: "60s" },
  });
  expect(typeof usage.emails.daily.resets_at).toBe("string");
});

test("emails.metrics: totals, and rows by period with the SDK's own option names", async () => {
  const totals = ok(await resend.emails.metrics());
  expect(totals).toMatchObject({ object: "metrics", dimensions: [], granularity: "daily" });
  expect(totals.metrics).toContain("delivery_rate");
  expect(typeof totals.totals.sent).toBe("number");
  const byDay = ok(
    await resend.emails.metrics({
      dimensions: ["period"],
      granularity: "daily",
      metrics: ["delivered", "bounce_rate"],
    }),
  );
  expect(byDay.data?.length).toBeGreaterThanOrEqual(6);
  expect(Object.keys(byDay.data![0]!).sort()).toEqual(["bounce_rate", "delivered", "period"]);
});
