/**
 * Templates through Resend's template API, driven by the official SDK: create, get by id and alias, list, update,
 * publish, duplicate, remove; drafts against published versions when sending; Handlebars rendering (escaping, raw
 * output, fallbacks, missing and mistyped variables) and validation at the template's own line and column, its
 * mistakes told in plain words. The tests run in order on one app: the later ones render and send the Welcome
 * template the first one creates, publishes and leaves with a draft. MJML, sending over SMTP and the limits on
 * rendering have files of their own (templates-*.test.ts).
 */
import { describe, expect, test } from "bun:test";
import { simpleParser } from "mailparser";
import type { Resend } from "resend";
import type { TestApp } from "./helpers/app.ts";
import type { SmtpDouble } from "./helpers/smtp-double.ts";
import { setUpTemplateApp, WELCOME } from "./helpers/templates.ts";

let t: TestApp;
let smtp: SmtpDouble;
let resend: Resend;

setUpTemplateApp((app) => ({ t, smtp, resend } = app));

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
