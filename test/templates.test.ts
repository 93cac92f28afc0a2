/**
 * Templates: Resend's template API driven by the official SDK (create, get by id and alias, list, update, publish,
 * duplicate, remove), drafts against published versions, Handlebars rendering (escaping, raw output, fallbacks,
 * missing and mistyped variables), MJML rendered to responsive HTML, validation at the template's own line and
 * column for both engines, and sending with a template through the SDK to a real SMTP server on loopback, the
 * look-up record naming the template. Finding 7: variables are strings and numbers only, rendering runs on the CPU
 * pool within a time budget and under the message size limit, and the event loop's stalls are measured meanwhile.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { Resend } from "resend";
import { CpuTaskOverrun, createCpuPool } from "../src/server/cpu-pool.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

let t: TestApp;
let smtp: SmtpDouble;
let resend: Resend;
let submissionPort: number;

beforeAll(async () => {
  smtp = await startSmtpDouble();
  t = await createTestApp({
    delivery: { default_provider: "smtp" },
    smarthost: { host: "127.0.0.1", port: smtp.port, security: "none" },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const listeners = await t.app.start();
  resend = new Resend(t.liveKey, { baseUrl: `http://127.0.0.1:${listeners.find((l) => l.name === "http")!.port}/v1` });
  submissionPort = listeners.find((l) => l.name === "submission")!.port;
});

afterAll(async () => {
  await t.close();
  await smtp.close();
});

const WELCOME = {
  name: "Welcome",
  alias: "welcome",
  subject: "Welcome, {{name}} & co",
  from: "Acme <hello@example.com>",
  html: "<p>Hello {{name}}, you have {{count}} credits.</p>{{{footer}}}",
  variables: [
    { key: "name", type: "string" as const, fallbackValue: "friend" },
    { key: "count", type: "number" as const },
  ],
};

describe("the template API through the Resend SDK", () => {
  test("create, get by id and alias, list, update makes a draft, publish, duplicate, remove", async () => {
    const created = await resend.templates.create(WELCOME);
    expect(created.error).toBeNull();
    const id = created.data!.id;
    const got = await resend.templates.get(id);
    expect(got.data).toMatchObject({
      object: "template",
      id,
      name: "Welcome",
      alias: "welcome",
      status: "draft",
      has_unpublished_versions: true,
      subject: WELCOME.subject,
      published_at: null,
    });
    expect(got.data!.variables).toMatchObject([
      { key: "name", type: "string", fallback_value: "friend" },
      { key: "count", type: "number", fallback_value: null },
    ]);
    expect((await resend.templates.get("welcome")).data!.id).toBe(id);

    expect((await resend.templates.publish("welcome")).data).toEqual({ object: "template", id });
    const published = (await resend.templates.get(id)).data!;
    expect(published).toMatchObject({ status: "published", has_unpublished_versions: false });
    expect(published.published_at).toBeString();

    expect((await resend.templates.update(id, { subject: "Hi {{name}}" })).error).toBeNull();
    expect((await resend.templates.get(id)).data).toMatchObject({
      subject: "Hi {{name}}",
      status: "published",
      has_unpublished_versions: true,
    });

    const copy = await resend.templates.duplicate(id);
    expect((await resend.templates.get(copy.data!.id)).data).toMatchObject({
      name: "Welcome (copy)",
      alias: null,
      status: "draft",
    });
    const listed = await resend.templates.list({ limit: 10 });
    expect(listed.data!.data.map((entry) => entry.id)).toEqual([copy.data!.id, id]);
    expect((await resend.templates.remove(copy.data!.id)).data).toEqual({
      object: "template",
      id: copy.data!.id,
      deleted: true,
    });
    expect((await resend.templates.get(copy.data!.id)).error).toMatchObject({ name: "not_found", statusCode: 404 });

    const taken = await resend.templates.create({ ...WELCOME, name: "Other" });
    expect(taken.error).toMatchObject({ name: "conflict", statusCode: 409 });
  });

  test("sending uses the published version, not the draft; the record and payload name the template", async () => {
    const sent = await resend.emails.send({
      to: "someone@dest.test",
      template: { id: "welcome", variables: { name: "<Ann>", count: 3, footer: "<hr>" } },
    } as never);
    expect(sent.error).toBeNull();
    await t.app.services.worker.runOnce();
    const raw = smtp.received.at(-1)!.raw.toString();
    // The draft's subject ("Hi …") is not published yet.
    expect(raw).toContain("Subject: Welcome, <Ann> & co");
    expect(raw).toContain("Hello &lt;Ann&gt;, you have 3 credits.");
    expect(raw).toContain("<hr>");
    const record = (await t.json("GET", `/v1/emails/${sent.data!.id}`)).body;
    expect(record.template_id).toBe((await resend.templates.get("welcome")).data!.id);

    const missing = await resend.emails.send({
      to: "someone@dest.test",
      template: { id: "welcome", variables: {} },
    } as never);
    expect(missing.error).toMatchObject({ name: "validation_error", statusCode: 400 });
    expect(missing.error!.message).toContain("count");
    const mistyped = await t.json("POST", "/v1/emails", {
      body: { to: "someone@dest.test", template: { id: "welcome", variables: { count: "3" } } },
    });
    expect(mistyped.body.details).toEqual([
      { path: "template.variables.count", message: "must be a number, got string" },
    ]);
    const overridden = await t.json("POST", "/v1/emails", {
      body: { to: "someone@dest.test", subject: "Own subject", template: { id: "welcome", variables: { count: 1 } } },
    });
    expect(overridden.status).toBe(200);
    expect((await t.json("GET", `/v1/emails/${overridden.body.id}`)).body).toMatchObject({
      subject: "Own subject",
      template_id: expect.any(String),
    });
  });

  test("{{unsubscribe_url}} passes through the template and is filled when the message is composed", async () => {
    const { data } = await resend.templates.create({
      name: "News",
      subject: "News",
      from: "news@example.com",
      html: '<p>Hi</p><a href="{{unsubscribe_url}}">Unsubscribe</a>',
    });
    await resend.templates.publish(data!.id);
    const sent = await t.json("POST", "/v1/emails", {
      body: { to: "reader@dest.test", unsubscribe: true, template: { id: data!.id } },
    });
    expect(sent.status).toBe(200);
    await t.app.services.worker.runOnce();
    const html = (await simpleParser(smtp.received.at(-1)!.raw)).html as string;
    expect(html).toMatch(/<a href="http:\/\/[^"]+">Unsubscribe<\/a>/);
    expect(html).not.toContain("{{unsubscribe_url}}");
  });

  test("a template never published, or unknown, cannot be sent (400 naming template.id)", async () => {
    const draft = await resend.templates.create({
      name: "Draft",
      html: "<p>x</p>",
      subject: "s",
      from: "hello@example.com",
    });
    const res = await t.json("POST", "/v1/emails", {
      body: { to: "someone@dest.test", template: { id: draft.data!.id } },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("no published version");
    const unknown = await t.json("POST", "/v1/emails", {
      body: { to: "someone@dest.test", template: { id: "no-such-template" } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([
      { path: "template.id", message: 'no template has the id or alias "no-such-template"' },
    ]);
  });
});

describe("rendering and validation", () => {
  test("render: escaped and raw output, fallbacks, text from the html", async () => {
    const id = (await resend.templates.get("welcome")).data!.id;
    const res = await t.json("POST", `/v1/templates/${id}/render`, {
      body: { variables: { count: 2, footer: "<b>bye</b>", name: "<script>x</script>" } },
    });
    expect(res.body).toEqual({
      subject: "Hi <script>x</script>",
      html: "<p>Hello &lt;script&gt;x&lt;/script&gt;, you have 2 credits.</p><b>bye</b>",
      text: "Hello <script>x</script>, you have 2 credits.\n\nbye",
    });
  });

  test.each([
    ["a parse error", "line one\nline two {{oops", { line: 2, column: 12 }],
    ["an unclosed block", "<p>\n  {{#if a}}\n  x\n  {{/each}}", { line: 2, column: 6 }],
    ["an unknown helper", "ok\n\n  {{shout name}}", { line: 3, column: 3 }],
    ["a partial", "{{> header}}", { line: 1, column: 1 }],
  ])("validate: %s is reported at its line and column", async (_name, html, at) => {
    const res = await t.json("POST", "/v1/templates/validate", { body: { engine: "handlebars", html } });
    expect(res.body.valid).toBe(false);
    expect(res.body.errors[0]).toMatchObject({ field: "html", ...at });
    const refused = await t.json("POST", "/v1/templates", { body: { name: "bad", html } });
    expect(refused.status).toBe(400);
  });

  test("validate: a good source is valid; scopes: reading templates needs templates:read, sending with one emails:send", async () => {
    expect(
      (
        await t.json("POST", "/v1/templates/validate", {
          body: { html: "<p>{{#each items}}{{this}}{{/each}}</p>", subject: "{{a}}" },
        })
      ).body,
    ).toEqual({ valid: true, errors: [] });
    const sender = await t.app.services.keys.create(t.operator, { name: "sender", scopes: ["emails:send"] });
    expect((await t.json("GET", "/v1/templates", { key: sender.key })).status).toBe(403);
    // A sending-only key sends with a template, but cannot read templates.
    expect(
      (
        await t.json("POST", "/v1/emails", {
          key: sender.key,
          body: { to: "a@dest.test", template: { id: "welcome", variables: { count: 1 } } },
        })
      ).status,
    ).toBe(200);
  });
});

const MJML_RECEIPT = `<mjml>
  <mj-body>
    <mj-section>
      <mj-column>
        <mj-text>Thanks, {{name}}!</mj-text>
        <mj-button href="{{url}}">See your receipt</mj-button>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

describe("MJML", () => {
  test("an MJML template renders to responsive HTML, then Handlebars (escaped) fills it", async () => {
    // The SDK sends no `engine`: a source whose root is <mjml> is MJML.
    const created = await resend.templates.create({
      name: "Receipt",
      alias: "receipt",
      subject: "Receipt for {{name}}",
      html: MJML_RECEIPT,
    });
    expect(created.error).toBeNull();
    expect((await resend.templates.get("receipt")).data).toMatchObject({ engine: "mjml" });
    const res = await t.json("POST", `/v1/templates/receipt/render`, {
      body: { variables: { name: "<Ann>", url: "https://example.com/r/1?a=1&b=2" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.subject).toBe("Receipt for <Ann>");
    expect(res.body.html).toStartWith("<!doctype html>");
    expect(res.body.html).toContain("@media only screen and (min-width:480px)");
    expect(res.body.html).toContain("Thanks, &lt;Ann&gt;!");
    expect(res.body.html).toContain('href="https://example.com/r/1?a&#x3D;1&amp;b&#x3D;2"');
    expect(res.body.text).toContain("Thanks, <Ann>!");
    expect(res.body.html).not.toContain("<mj-");
    // MJML's default font would link Google Fonts: nothing remote unless the template asks for it.
    expect(res.body.html).not.toContain("fonts.googleapis.com");
  });

  test("a published version keeps its engine when the draft changes engine", async () => {
    const { data } = await resend.templates.create({
      name: "Switch",
      html: "<mj-text>{{a}}</mj-text>",
      subject: "s",
      from: "hello@example.com",
    });
    await resend.templates.publish(data!.id);
    expect(
      (await t.json("PATCH", `/v1/templates/${data!.id}`, { body: { engine: "mjml", html: MJML_RECEIPT } })).status,
    ).toBe(200);
    expect((await resend.templates.get(data!.id)).data).toMatchObject({
      engine: "mjml",
      has_unpublished_versions: true,
    });
    const sent = await t.json("POST", "/v1/emails", {
      body: { to: "someone@dest.test", template: { id: data!.id, variables: { a: "x" } } },
    });
    expect(sent.status).toBe(200);
    await t.app.services.worker.runOnce();
    expect(smtp.received.at(-1)!.raw.toString()).toContain("<mj-text>x</mj-text>");
  });

  test.each([
    [
      "an unknown element",
      "<mjml>\n  <mj-body>\n    <mj-section><mj-column>\n      <mj-texte>hi</mj-texte>\n    </mj-column></mj-section>\n  </mj-body>\n</mjml>",
      { line: 4, column: 7 },
      "mj-texte",
    ],
    [
      "an illegal attribute",
      '<mjml>\n<mj-body><mj-section>\n<mj-column>  <mj-text colour="red">x</mj-text></mj-column>\n</mj-section></mj-body></mjml>',
      { line: 3, column: 14 },
      "colour",
    ],
    [
      "a Handlebars error inside MJML",
      "<mjml><mj-body><mj-section><mj-column>\n<mj-text>\n  {{#if a}}x{{/each}}</mj-text>\n</mj-column></mj-section></mj-body></mjml>",
      { line: 3, column: 6 },
      "each",
    ],
    ["a source that is not MJML", "<p>just html</p>", { line: 1, column: 1 }, "mjml"],
  ])("validate: %s is reported at its line and column", async (_name, html, at, word) => {
    const res = await t.json("POST", "/v1/templates/validate", { body: { engine: "mjml", html } });
    expect(res.body.valid).toBe(false);
    expect(res.body.errors[0]).toMatchObject({ field: "html", ...at });
    expect(res.body.errors[0].message).toContain(word);
    expect((await t.json("POST", "/v1/templates", { body: { name: "bad", engine: "mjml", html } })).status).toBe(400);
  });

  test("validate: a good MJML source is valid; an unknown engine is refused", async () => {
    expect(
      (await t.json("POST", "/v1/templates/validate", { body: { engine: "mjml", html: MJML_RECEIPT } })).body,
    ).toEqual({ valid: true, errors: [] });
    expect(
      (await t.json("POST", "/v1/templates/validate", { body: { engine: "liquid", html: "x" } })).body.details,
    ).toEqual([{ path: "engine", message: 'must be "handlebars" or "mjml"' }]);
  });
});

describe("Handlebars mistakes in plain words", () => {
  test.each([
    [
      "a block never closed",
      "<p>a</p>\n{{#each items}}\n<p>x</p>",
      "{{#each}} opened on line 2 is never closed: add {{/each}}",
    ],
    [
      "a block closed by another name",
      "{{#each items}}\n{{#if a}}x{{/each}}",
      "{{/each}} on line 2 closes {{#if}}, opened on line 2: close it with {{/if}} first",
    ],
    ["a mustache never closed", "<p>Hi</p>\n<p>{{name</p>", "{{ on line 2 is never closed with }}"],
    ["empty braces", "<p>{{}}</p>", "{{ }} with nothing inside: name a variable or a helper between the braces"],
  ])("validate: %s", async (_name, html, message) => {
    const res = await t.json("POST", "/v1/templates/validate", { body: { engine: "handlebars", html } });
    expect(res.body.valid).toBe(false);
    expect(res.body.errors[0].message).toBe(message);
    expect(res.body.errors[0].message).not.toContain("Expecting");
  });
});

describe("over SMTP", () => {
  const relay = () =>
    nodemailer.createTransport({
      host: "127.0.0.1",
      port: submissionPort,
      secure: false,
      requireTLS: true,
      auth: { user: "apikey", pass: t.liveKey },
      tls: { ca: readFileSync(join(t.dataDir, "tls", "smtp-cert.pem"), "utf8") },
    });
  const queuedId = (response: string) => /queued as ([0-9a-f-]{36})/.exec(response)?.[1];

  test("X-Mailroom-Template and X-Mailroom-Variables render the published version; the two fields never reach the recipient", async () => {
    const transport = relay();
    const info = await transport.sendMail({
      from: "Billing <billing@example.com>",
      to: "ann@dest.test",
      bcc: "audit@dest.test",
      headers: {
        "X-Mailroom-Template": "welcome",
        "X-Mailroom-Variables": JSON.stringify({ name: "Zoë <3", count: 7 }),
        "X-Entity-Ref-ID": "order-42",
      },
      attachments: [{ filename: "invoice.pdf", content: Buffer.from("%PDF-1.4 invoice") }],
    });
    transport.close();
    const id = queuedId(info.response)!;
    expect(id).toBeString();
    await t.app.services.worker.runOnce();
    const delivered = smtp.received.filter((message) => message.raw.toString().includes(`order-42`));
    expect(delivered.flatMap((message) => message.recipients).sort()).toEqual(["ann@dest.test", "audit@dest.test"]);
    const parsed = await simpleParser(delivered[0]!.raw);
    expect(parsed.subject).toBe("Welcome, Zoë <3 & co");
    expect(parsed.from!.value).toEqual([{ name: "Billing", address: "billing@example.com" }]);
    expect(parsed.html).toContain("Hello Zoë &lt;3, you have 7 credits.");
    expect(parsed.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([
      ["invoice.pdf", "%PDF-1.4 invoice"],
    ]);
    expect(parsed.headers.get("x-entity-ref-id")).toBe("order-42");
    expect(parsed.headers.has("x-mailroom-template")).toBe(false);
    expect(parsed.headers.has("x-mailroom-variables")).toBe(false);
    expect(parsed.headers.has("bcc")).toBe(false);
    expect((await t.json("GET", `/v1/emails/${id}`)).body).toMatchObject({
      source: "smtp",
      template_id: (await resend.templates.get("welcome")).data!.id,
      bcc: ["audit@dest.test"],
    });
  });

  test.each([
    [
      "a missing variable",
      { "X-Mailroom-Template": "welcome" },
      /^554 5\.6\.0 .*X-Mailroom-Variables\.count: is required/,
    ],
    [
      "variables that are not JSON",
      { "X-Mailroom-Template": "welcome", "X-Mailroom-Variables": "{count: 1}" },
      /^554 5\.6\.0 .*X-Mailroom-Variables: must be a JSON object/,
    ],
    [
      "an unknown template",
      { "X-Mailroom-Template": "nope", "X-Mailroom-Variables": "{}" },
      /^554 5\.6\.0 .*X-Mailroom-Template: no template has the id or alias "nope"/,
    ],
  ])("%s is refused after DATA with a permanent reply naming it", async (_name, headers, reply) => {
    const transport = relay();
    const error = await transport
      .sendMail({ from: "billing@example.com", to: "ann@dest.test", subject: "s", text: "x", headers })
      .catch((e: { response: string }) => e);
    transport.close();
    expect((error as { response: string }).response).toMatch(reply);
  });

  test("To and Cc must be among the envelope recipients", async () => {
    const transport = relay();
    const error = await transport
      .sendMail({
        envelope: { from: "billing@example.com", to: ["ann@dest.test"] },
        from: "billing@example.com",
        to: "ann@dest.test",
        cc: "eve@dest.test",
        headers: { "X-Mailroom-Template": "welcome", "X-Mailroom-Variables": '{"count":1}' },
      })
      .catch((e: { response: string }) => e);
    transport.close();
    expect((error as { response: string }).response).toMatch(
      /^554 5\.6\.0 .*eve@dest\.test is not among the envelope recipients/,
    );
  });
});

/**
 * The event loop's longest stall while `work` runs: how late a 10 ms timer fired at worst. A render on the event
 * loop shows as a stall of its whole length; one in the CPU pool does not show at all.
 */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let worst = 0;
  const tick = () => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 10);
    last = now;
  };
  const timer = setInterval(tick, 10);
  try {
    const result = await work();
    tick();
    return { result, stallMs: worst };
  } finally {
    clearInterval(timer);
  }
}

/** Far under a second, with room for a loaded two-core CI machine (a render on the loop stalled it 6.6 s). */
const MAX_STALL_MS = 500;

describe("finding 7: template rendering cannot freeze the event loop", () => {
  // The finding's template: each item of `items` times every item times every item, all on the event loop.
  const NESTED_EACH =
    "{{#each items}}{{#each @root.items}}{{#each @root.items}}<b>{{this}}</b>{{/each}}{{/each}}{{/each}}";

  test("finding 7: a nested {{#each}} template sent with a 1.9 KB request is refused without stalling the event loop", async () => {
    const { data } = await resend.templates.create({
      name: "Nested each",
      subject: "s",
      from: "hello@example.com",
      html: NESTED_EACH,
    });
    await resend.templates.publish(data!.id);
    const items = Array.from({ length: 200 }, (_, i) => `item-${i}`);
    const send = { to: "someone@dest.test", template: { id: data!.id, variables: { items } } };
    expect(JSON.stringify(send).length).toBeGreaterThan(1900);

    const sent = await longestStall(() => t.json("POST", "/v1/emails", { body: send }));
    expect(sent.result.status).toBe(400);
    expect(sent.result.body).toMatchObject({
      name: "validation_error",
      details: [{ path: "template.variables.items", message: "must be a string or a number, got array" }],
    });
    expect(sent.stallMs).toBeLessThan(MAX_STALL_MS);

    const preview = await longestStall(() =>
      t.json("POST", `/v1/templates/${data!.id}/render`, { body: { variables: { items } } }),
    );
    expect(preview.result.status).toBe(400);
    expect(preview.result.body.details).toEqual([
      { path: "variables.items", message: "must be a string or a number, got array" },
    ]);
    expect(preview.stallMs).toBeLessThan(MAX_STALL_MS);
  });

  test("finding 7: variables are strings and finite numbers: objects, booleans and numbers past JSON's range are refused by name; null falls back", async () => {
    const { data } = await resend.templates.create({ ...WELCOME, name: "Typed", alias: "typed" });
    await resend.templates.publish(data!.id);
    const id = data!.id;
    const refused = await t.json("POST", `/v1/templates/${id}/render`, {
      body: `{"variables": {"count": 1, "user": {"name": "x"}, "vip": true, "huge": 1e999}}`,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { path: "variables.user", message: "must be a string or a number, got object" },
      { path: "variables.vip", message: "must be a string or a number, got boolean" },
      { path: "variables.huge", message: "must be a string or a number, got a number that is not finite" },
    ]);
    const sent = await t.json("POST", "/v1/emails", {
      body: { to: "someone@dest.test", template: { id, variables: { count: 1, tags: ["a"] } } },
    });
    expect(sent.body.details).toEqual([
      { path: "template.variables.tags", message: "must be a string or a number, got array" },
    ]);
    // Null is a value not given: the declared fallback applies, and a variable without one is required.
    const fallback = await t.json("POST", `/v1/templates/${id}/render`, {
      body: { variables: { count: 1, name: null, footer: null } },
    });
    expect(fallback.body.html).toBe("<p>Hello friend, you have 1 credits.</p>");
    const required = await t.json("POST", `/v1/templates/${id}/render`, { body: { variables: { count: null } } });
    expect(required.body.details).toEqual([
      { path: "variables.count", message: "is required (the template declares it without a fallback)" },
    ]);
  });
});

describe("finding 7: a hostile template is stopped at its time budget and at the message size limit", () => {
  let limited: TestApp;
  const BUDGET_MS = 1000;
  const MAX_MESSAGE_BYTES = 1024 * 1024;

  beforeAll(async () => {
    limited = await createTestApp({
      limits: { max_message_bytes: MAX_MESSAGE_BYTES, template_render_timeout: `${BUDGET_MS}ms` },
    });
    await limited.app.services.domains.add(limited.operator, "example.com", { verifiedOverride: true });
  });
  afterAll(() => limited.close());

  const published = async (html: string) => {
    const created = await limited.json("POST", "/v1/templates", {
      body: { name: "Hostile", subject: "s", from: "hello@example.com", html },
    });
    expect(created.status).toBe(200);
    await limited.json("POST", `/v1/templates/${created.body.id}/publish`);
    return created.body.id as string;
  };
  // Sixty one-letter variables: legal values, and a template that loops over them five deep loops over 60⁵ times.
  const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`v${i}`, "x"]));

  test("finding 7: a template that loops over its own variables works off the event loop and is stopped at its time budget", async () => {
    const id = await published(
      "{{#each @root}}{{#each @root}}{{#each @root}}{{#each @root}}{{#each @root}}{{/each}}{{/each}}{{/each}}{{/each}}{{/each}}",
    );
    for (const [path, request] of [
      [
        "template.variables",
        () =>
          limited.json("POST", "/v1/emails", { body: { to: "someone@dest.test", template: { id, variables: many } } }),
      ],
      ["variables", () => limited.json("POST", `/v1/templates/${id}/render`, { body: { variables: many } })],
    ] as const) {
      const started = performance.now();
      const { result, stallMs } = await longestStall(request);
      expect(result.status).toBe(400);
      expect(result.body.details).toEqual([
        {
          path,
          message: `rendering the template with these variables took longer than ${BUDGET_MS} ms and was stopped`,
        },
      ]);
      expect(performance.now() - started).toBeGreaterThanOrEqual(BUDGET_MS);
      expect(stallMs).toBeLessThan(MAX_STALL_MS);
    }
    // The stopped thread was replaced: the next render works.
    const next = await published("<p>{{v0}}</p>");
    expect((await limited.json("POST", `/v1/templates/${next}/render`, { body: { variables: many } })).body.html).toBe(
      "<p>x</p>",
    );
  }, 30_000);

  test("finding 7: a job past its time budget ends its thread alone; the jobs queued behind it run on the replacement", async () => {
    const pool = createCpuPool(new URL("../src/server/cpu-thread.ts", import.meta.url), 1);
    const job = (versionId: string, html: string) => ({
      kind: "render" as const,
      versionId,
      content: {
        engine: "handlebars" as const,
        subject: null,
        from: null,
        reply_to: null,
        html,
        text: null,
        variables: [],
      },
      values: many,
      maxBytes: MAX_MESSAGE_BYTES,
      withText: false,
    });
    const work = { tenant: "one", forSend: true };
    try {
      const hostile = pool.template(
        job(
          "hostile",
          "{{#each @root}}{{#each @root}}{{#each @root}}{{#each @root}}{{#each @root}}{{/each}}{{/each}}{{/each}}{{/each}}{{/each}}",
        ),
        300,
        work,
      );
      const queued = [
        pool.template(job("queued", "<p>{{v1}}</p>"), 300, work),
        pool.template(job("queued", "<p>{{v1}}</p>"), 300, work),
      ];
      await expect(hostile).rejects.toBeInstanceOf(CpuTaskOverrun);
      for (const rendered of await Promise.all(queued))
        expect(rendered).toEqual({ kind: "rendered", subject: null, html: "<p>x</p>", text: null });
    } finally {
      pool.close();
    }
  });

  test("finding 7: a render larger than the message size limit is refused with 413 as its output passes the limit", async () => {
    // Escaped: each `{{@root.big}}` copies 10 KB of `<` into 40 KB of `&lt;`, over 60³ times (over 8.6 GB) unless
    // stopped.
    const escaped = await published(
      "{{#each @root}}{{#each @root}}{{#each @root}}{{@root.big}}{{/each}}{{/each}}{{/each}}",
    );
    const variables = { ...many, big: "<".repeat(10_000) };
    const { result, stallMs } = await longestStall(() =>
      limited.json("POST", "/v1/emails", { body: { to: "someone@dest.test", template: { id: escaped, variables } } }),
    );
    expect(result.status).toBe(413);
    expect(result.body).toMatchObject({
      name: "payload_too_large",
      details: [
        {
          path: "template.variables",
          message: `the rendered template would be larger than the message size limit of ${MAX_MESSAGE_BYTES} bytes`,
        },
      ],
    });
    expect(stallMs).toBeLessThan(MAX_STALL_MS);

    // Raw output written over and over, outside any loop; and a value longer than any message may be.
    const raw = await published("{{{big}}}".repeat(200));
    const preview = await limited.json("POST", `/v1/templates/${raw}/render`, { body: { variables } });
    expect(preview.status).toBe(413);
    expect(preview.body.details).toEqual([
      {
        path: "variables",
        message: `the rendered template would be larger than the message size limit of ${MAX_MESSAGE_BYTES} bytes`,
      },
    ]);
    const long = await limited.json("POST", `/v1/templates/${raw}/render`, {
      body: { variables: { big: "x".repeat(MAX_MESSAGE_BYTES + 1) } },
    });
    expect(long.status).toBe(413);
    expect(long.body.details).toEqual([
      { path: "variables.big", message: `must be at most ${MAX_MESSAGE_BYTES} characters` },
    ]);
    // Under the limit, the same template renders.
    expect(
      (await limited.json("POST", `/v1/templates/${raw}/render`, { body: { variables: { big: "ok" } } })).body.html,
    ).toBe("ok".repeat(200));
  });
});
