/**
 * Round trips of the other resources against the server: domains (with their deliverability settings, the sending
 * health, the DMARC reports and the IP pools), API keys, suppressions (one by one and in batches), templates (every
 * operation), received mail, and the AI endpoints.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Mailroom } from "@mailroom/node";
import { addressOf, env, live, loadLibrary, ok, unique, type Library } from "./support.ts";

let lib: Library;
let baseUrl: string;
let mailroom: Mailroom;

beforeAll(async () => {
  lib = await loadLibrary();
  if (!live) return;
  baseUrl = env("MAILROOM_BASE_URL");
  mailroom = new lib.Mailroom(env("MAILROOM_API_KEY"), { baseUrl });
}, 120_000);

describe.skipIf(!live)("resources", () => {
  test("domains: create (records to publish), get, list, update, verify, remove", async () => {
    const name = `${unique("d")}.example.net`;
    const created = ok(await mailroom.domains.create({ name }));
    expect(created.object).toBe("domain");
    expect(created.name).toBe(name);
    expect(created.records.map((record) => record.record)).toEqual(
      expect.arrayContaining(["DKIM", "SPF", "MX", "DMARC"]),
    );

    expect(ok(await mailroom.domains.get(created.id)).name).toBe(name);
    expect(ok(await mailroom.domains.get(name)).id).toBe(created.id);
    const listed = ok(await mailroom.domains.list({ limit: 100 }));
    expect(listed.object).toBe("list");
    expect(typeof listed.has_more).toBe("boolean");
    expect(listed.data.map((domain) => domain.id)).toContain(created.id);

    const updated = ok(await mailroom.domains.update({ id: created.id, open_tracking: true, click_tracking: true }));
    expect(updated.open_tracking).toBe(true);
    expect(updated.click_tracking).toBe(true);

    // No DNS answers on the test machine: the check runs and the domain stays unverified.
    const verified = ok(await mailroom.domains.verify(created.id));
    expect(verified.id).toBe(created.id);
    expect(verified.status).not.toBe("verified");

    const removed = ok(await mailroom.domains.remove(created.id));
    expect(removed).toMatchObject({ object: "domain", id: created.id, deleted: true });
    expect((await mailroom.domains.get(created.id)).error?.name).toBe("not_found");
  }, 60_000);

  test("domains: tracking host, TLS policy, Ed25519 DKIM and IP pool; sending health lists them ok; DMARC reports and summary; no IP pools", async () => {
    // A domain of this test's own: example.com, which every suite sends from, keeps its settings.
    const name = `${unique("dlv")}.example.net`;
    const created = ok(await mailroom.domains.create({ name }));
    try {
      expect(created).toMatchObject({
        tracking_subdomain: null,
        tls: "opportunistic",
        dkim: { ed25519: false },
        ip_pool: null,
      });
      expect(created.health).toMatchObject({ status: "ok", reason: null, bounce_rate: 0, complaint_rate: 0 });
      expect(typeof created.health.window).toBe("string");
      expect(created.records.map((record) => record.record)).not.toContain("Tracking");
      const rsaKeys = created.records.filter((record) => record.record === "DKIM").length;

      const updated = ok(
        await mailroom.domains.update({ id: created.id, tracking_subdomain: "links", tls: "enforced" }),
      );
      expect(updated).toMatchObject({ tracking_subdomain: "links", tls: "enforced", dkim: { ed25519: false } });
      const tracking = updated.records.find((record) => record.record === "Tracking");
      expect(tracking).toMatchObject({ type: "CNAME", name: `links.${name}`, ttl: "Auto" });
      expect(tracking!.value).toBeTruthy();
      expect(tracking!.warning).toBeUndefined();

      // What a call leaves out stays: the tracking host and the TLS policy survive the key's change.
      const signed = ok(await mailroom.domains.update({ id: created.id, dkim: { ed25519: true } }));
      expect(signed).toMatchObject({ tracking_subdomain: "links", tls: "enforced", dkim: { ed25519: true } });
      expect(signed.records.filter((record) => record.record === "DKIM").length).toBe(rsaKeys + 1);
      expect(ok(await mailroom.domains.get(name))).toMatchObject({
        tracking_subdomain: "links",
        tls: "enforced",
        dkim: { ed25519: true },
      });

      const overview = ok(await mailroom.sending.health());
      expect(overview.object).toBe("sending_health");
      expect(["ok", "warning", "paused"]).toContain(overview.health.status);
      expect(typeof overview.health.bounce_rate).toBe("number");
      expect(overview.domains.find((entry) => entry.id === created.id)).toMatchObject({
        name,
        health: { status: "ok", reason: null },
      });
      const sendingDomain = addressOf(env("MAILROOM_FROM")).split("@")[1]!.toLowerCase();
      expect(overview.domains.find((entry) => entry.name === sendingDomain)?.health.status).toBe("ok");

      // The verified sending domain: no report has arrived, so none is listed and the summary is empty.
      expect(ok(await mailroom.domains.dmarcSummary(sendingDomain, { days: 7 }))).toEqual({
        object: "dmarc_summary",
        domain: sendingDomain,
        days: 7,
        reports: 0,
        data: [],
      });
      expect(ok(await mailroom.domains.dmarcReports(sendingDomain, { limit: 10 }))).toEqual({
        object: "list",
        has_more: false,
        data: [],
      });
      expect(ok(await mailroom.domains.dmarcSummary(created.id)).days).toBe(7);
      const tooLong = await mailroom.domains.dmarcSummary(created.id, { days: 91 });
      expect(tooLong.error?.name).toBe("validation_error");
      expect(tooLong.error?.details.map((detail) => detail.path)).toEqual(["days"]);
      const elsewhere = `${unique("elsewhere")}.test`;
      expect((await mailroom.domains.dmarcReports(elsewhere)).error?.name).toBe("not_found");

      // The server configures no [ip_pools.<name>]: the list is empty, and a domain can name none of them.
      expect(ok(await mailroom.ipPools.list())).toEqual({ object: "list", has_more: false, data: [] });
      const unknownPool = await mailroom.domains.update({ id: created.id, ip_pool: "nowhere" });
      expect(unknownPool.error?.name).toBe("validation_error");
      expect(unknownPool.error?.details.map((detail) => detail.path)).toEqual(["ip_pool"]);
      expect(ok(await mailroom.domains.update({ id: created.id, ip_pool: null }))).toMatchObject({
        ip_pool: null,
        tracking_subdomain: "links",
        tls: "enforced",
      });

      const sendingKey = new lib.Mailroom(env("MAILROOM_SENDING_KEY"), { baseUrl });
      expect((await sendingKey.sending.health()).error?.name).toBe("insufficient_scope");
      expect((await sendingKey.ipPools.list()).error?.name).toBe("insufficient_scope");
      expect((await sendingKey.domains.dmarcSummary(sendingDomain)).error?.name).toBe("insufficient_scope");

      const undone = ok(
        await mailroom.domains.update({
          id: created.id,
          tracking_subdomain: null,
          tls: "opportunistic",
          dkim: { ed25519: false },
        }),
      );
      expect(undone).toMatchObject({ tracking_subdomain: null, tls: "opportunistic", dkim: { ed25519: false } });
      expect(undone.records.map((record) => record.record)).not.toContain("Tracking");
    } finally {
      await mailroom.domains.remove(created.id, { force: true });
    }
  }, 60_000);

  test("API keys: create answers 201 {id, token}; the token works; list, rename, remove revokes it", async () => {
    const name = unique("key");
    const created = await mailroom.apiKeys.create({ name, permission: "sending_access" });
    expect(created.error).toBeNull();
    const { id, token } = created.data!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(token).toStartWith("mr_live_");

    const withKey = new lib.Mailroom(token, { baseUrl });
    expect((await withKey.domains.list()).error?.name).toBe("insufficient_scope");

    const listed = ok(await mailroom.apiKeys.list({ limit: 100 }));
    expect(listed.object).toBe("list");
    expect(typeof listed.has_more).toBe("boolean");
    expect(listed.data.find((key) => key.id === id)?.name).toBe(name);

    ok(await mailroom.apiKeys.update(id, { name: `${name}-renamed` }));
    expect(ok(await mailroom.apiKeys.list({ limit: 100 })).data.find((key) => key.id === id)?.name).toBe(
      `${name}-renamed`,
    );

    const removed = ok(await mailroom.apiKeys.remove(id));
    expect(removed).toMatchObject({ object: "api_key", id, deleted: true });
    expect((await withKey.emails.list()).error?.name).toBe("unauthorized");
  });

  test("suppressions: add, get by id and by address, list, remove; batch add and remove", async () => {
    const email = `${unique("bounced")}+tag@example.org`;
    const added = ok(await mailroom.suppressions.add({ email, reason: "asked to stop" }));
    expect(added).toMatchObject({ object: "suppression", email, origin: "manual", reason: "asked to stop" });
    expect(added.id).toMatch(/^[0-9a-f-]{36}$/);

    expect(ok(await mailroom.suppressions.get(added.id)).email).toBe(email);
    expect(ok(await mailroom.suppressions.get(email)).id).toBe(added.id);
    const listed = ok(await mailroom.suppressions.list({ search: email.split("+")[0], origin: "manual" }));
    expect(listed.object).toBe("list");
    expect(listed.data.map((entry) => entry.id)).toEqual([added.id]);

    const removed = ok(await mailroom.suppressions.remove(email));
    expect(removed).toMatchObject({ object: "suppression", id: added.id, deleted: true });
    expect((await mailroom.suppressions.get(added.id)).error?.name).toBe("not_found");

    const many = [1, 2, 3].map((n) => `${unique(`batch${n}`)}@example.org`);
    const batchAdded = ok(await mailroom.suppressions.batch.add({ emails: many, reason: "imported" }));
    expect(batchAdded.data.map((entry) => entry.email).sort()).toEqual([...many].sort());
    const byEmail = ok(await mailroom.suppressions.batch.remove({ emails: [many[0]!] }));
    expect(byEmail.data).toEqual([expect.objectContaining({ email: many[0], deleted: true })]);
    const ids = batchAdded.data.filter((entry) => entry.email !== many[0]).map((entry) => entry.id);
    const byId = ok(await mailroom.suppressions.batch.remove({ ids }));
    expect(byId.data.every((entry) => entry.deleted)).toBe(true);
    for (const address of many) expect((await mailroom.suppressions.get(address)).error?.name).toBe("not_found");
  });

  test("templates: create, get by id and alias, list, update, render, validate, publish, duplicate, remove", async () => {
    const alias = unique("order-shipped");
    const created = await mailroom.templates.create({
      name: "Order shipped",
      alias,
      subject: "Order {{order}} shipped",
      html: "<p>Hi {{name}}, order {{order}} is on its way.</p>",
      variables: [
        { key: "order", type: "string" },
        { key: "name", type: "string", fallback_value: "there" },
      ],
    });
    const { id } = ok(created);
    const template = ok(await mailroom.templates.get(id));
    expect(template).toMatchObject({ object: "template", id, alias, status: "draft", engine: "handlebars" });
    expect(ok(await mailroom.templates.get(alias)).id).toBe(id);
    const listed = ok(await mailroom.templates.list({ limit: 100 }));
    expect(listed.object).toBe("list");
    expect(listed.data.map((item) => item.id)).toContain(id);

    ok(await mailroom.templates.update(alias, { html: "<p>Hello {{name}}, order {{order}} has shipped.</p>" }));
    const rendered = ok(await mailroom.templates.render(id, { variables: { order: "A-1001" } }));
    expect(rendered.subject).toBe("Order A-1001 shipped");
    expect(rendered.html).toContain("Hello there, order A-1001 has shipped.");
    expect(rendered.text).toContain("A-1001");
    const unfilled = await mailroom.templates.render(id, { variables: {} });
    expect(unfilled.error?.name).toBe("validation_error");

    const good = ok(await mailroom.templates.validate({ html: "<p>{{name}}</p>" }));
    expect(good).toEqual({ valid: true, errors: [] });
    const bad = ok(await mailroom.templates.validate({ html: "<p>\n{{#if x}}unclosed</p>" }));
    expect(bad.valid).toBe(false);
    expect(bad.errors[0]).toMatchObject({ field: "html", line: expect.any(Number), column: expect.any(Number) });

    ok(await mailroom.templates.publish(id));
    expect(ok(await mailroom.templates.get(id)).status).toBe("published");

    const copy = ok(await mailroom.templates.duplicate(id));
    expect(copy.id).not.toBe(id);
    const copied = ok(await mailroom.templates.get(copy.id));
    expect(copied.status).toBe("draft");
    expect(copied.html).toContain("has shipped");

    for (const templateId of [copy.id, id]) {
      expect(ok(await mailroom.templates.remove(templateId))).toMatchObject({
        object: "template",
        id: templateId,
        deleted: true,
      });
    }
    expect((await mailroom.templates.get(alias)).error?.name).toBe("not_found");
  });

  test("receiving: the received message is listed, fetched by id, with its raw source", async () => {
    const subject = env("MAILROOM_INBOUND_SUBJECT");
    const listed = ok(await mailroom.emails.receiving.list({ limit: 100 }));
    expect(listed.object).toBe("list");
    const summary = listed.data.find((email) => email.subject === subject);
    expect(summary).toBeDefined();

    const email = ok(await mailroom.emails.receiving.get(summary!.id));
    expect(email).toMatchObject({ object: "email", id: summary!.id, subject });
    expect(email.text).toContain("A reply for the libraries to find.");
    expect(email.raw.download_url).toStartWith("http");

    const attachments = ok(await mailroom.emails.receiving.attachments.list({ emailId: email.id }));
    expect(attachments).toMatchObject({ object: "list", data: [] });
    expect(ok(await mailroom.emails.receiving.raw(email.id))).toContain(`Subject: ${subject}`);
    expect((await mailroom.emails.receiving.get(crypto.randomUUID())).error?.name).toBe("not_found");
  });

  test("ai: status says no model is configured, and what to configure, in the words of the writer's 503", async () => {
    const status = ok(await mailroom.ai.status());
    expect(status).toEqual({
      object: "ai",
      model_configured: false,
      model: null,
      message: expect.stringContaining("[ai] base_url"),
    });
    const { error } = await mailroom.ai.write({ brief: "Tell {{first_name}} their trial ends in 3 days" });
    expect(error?.name).toBe("service_unavailable");
    expect(error?.message).toBe(status.message!);
  });

  test("ai: subject scoring works offline; writing without a model is 503 service_unavailable", async () => {
    const weak = ok(
      await mailroom.ai.subject({ subject: "FREE!!! OPEN NOW", html: "<p>Your March invoice is ready.</p>" }),
    );
    expect(weak.score).toBeGreaterThanOrEqual(0);
    expect(weak.score).toBeLessThanOrEqual(100);
    expect(weak.findings.length).toBeGreaterThan(0);
    expect(weak.findings[0]).toMatchObject({
      rule: expect.any(String),
      severity: expect.any(String),
      message: expect.any(String),
    });
    expect(Array.isArray(weak.suggestions)).toBe(true);
    const plain = ok(await mailroom.ai.subject({ subject: "Your March invoice is ready" }));
    expect(plain.score).toBeGreaterThan(weak.score);

    const { data, error } = await mailroom.ai.write({
      brief: "Tell {{first_name}} their trial ends in 3 days",
      tone: "friendly",
    });
    expect(data).toBeNull();
    expect(error?.name).toBe("service_unavailable");
    expect(error?.statusCode).toBe(503);
  });
});
