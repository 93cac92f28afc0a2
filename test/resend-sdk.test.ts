/**
 * The official Resend Node SDK, unchanged, against the built executable (docs/sending.md#resend-compatibility): every SDK operation Mailroom
 * has, driven as a user switching base URLs would — emails (send with attachments and tags, get, list, reschedule,
 * cancel, batch strict and permissive), domains, API keys, webhooks with their events, attempts, replays and secret
 * rotation, and suppressions with the batch calls. Each answer is checked for the fields the SDK's types promise.
 * Templates and receiving have their own SDK tests (e2e-templates, resend-receiving).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Resend } from "resend";
import { copy, ok, until, type ResendRig, startResendRig } from "./helpers/resend-sdk.ts";

let rig: ResendRig | undefined;
let resend: Resend;

beforeAll(async () => {
  rig = await startResendRig("resend-sdk", {
    env: { MAILROOM_DELIVERY_POLL_INTERVAL: "100ms", MAILROOM_WEBHOOKS_POLL_INTERVAL: "100ms" },
    domains: ["example.com"],
  });
  resend = rig.resend;
}, 30_000);

afterAll(() => rig?.close());

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe("emails", () => {
  test("send with attachments and tags, get until sent, list", async () => {
    const sent = ok(
      await resend.emails.send({
        from: "Acme <hello@example.com>",
        to: "reader@dest.test",
        subject: "Receipt",
        html: "<p>Thanks</p>",
        attachments: [{ filename: "receipt.txt", content: Buffer.from("total: 42").toString("base64") }],
        tags: [{ name: "kind", value: "receipt" }],
      }),
    );
    const email = await until(
      async () => ok(await resend.emails.get(sent.id)),
      (e) => e.last_event === "sent",
    );
    expect(email).toMatchObject({
      object: "email",
      id: sent.id,
      subject: "Receipt",
      to: ["reader@dest.test"],
      last_event: "sent",
    });
    const attachments = ok(await resend.emails.attachments.list({ emailId: sent.id }));
    expect(attachments).toMatchObject({ object: "list", has_more: false });
    const [attachment] = attachments.data;
    expect(copy(attachment)).toMatchObject({
      id: expect.any(String),
      filename: "receipt.txt",
      content_type: "text/plain",
      size: 9,
      download_url: expect.any(String),
    });
    expect(ok(await resend.emails.attachments.get({ emailId: sent.id, id: attachment!.id }))).toMatchObject({
      object: "attachment",
      id: attachment!.id,
    });
    // The download link needs no key; a link altered to another attachment path does not work.
    const download = await fetch(attachment!.download_url);
    expect(await download.text()).toBe("total: 42");
    expect(download.headers.get("content-disposition")).toContain('filename="receipt.txt"');
    expect((await fetch(attachment!.download_url.replace(attachment!.id, crypto.randomUUID()))).status).toBe(401);
    const listed = ok(await resend.emails.list({ limit: 5 }));
    expect(listed).toMatchObject({ object: "list", has_more: expect.any(Boolean) });
    expect(listed.data.some((e) => e.id === sent.id)).toBe(true);
  });

  test("a scheduled email is rescheduled, then canceled", async () => {
    const sent = ok(
      await resend.emails.send({
        from: "hello@example.com",
        to: "later@dest.test",
        subject: "Later",
        html: "<p>Later</p>",
        scheduledAt: inAnHour(),
      }),
    );
    const later = new Date(Date.now() + 7_200_000).toISOString();
    expect(ok(await resend.emails.update({ id: sent.id, scheduledAt: later }))).toMatchObject({
      object: "email",
      id: sent.id,
    });
    expect(ok(await resend.emails.get(sent.id)).scheduled_at).toBe(later);
    expect(ok(await resend.emails.cancel(sent.id))).toMatchObject({ object: "email", id: sent.id });
    expect(ok(await resend.emails.get(sent.id)).last_event).toBe("canceled");
  });

  test("batch: strict sends all; permissive sends the valid ones and names the others by index", async () => {
    const strict = ok(
      await resend.batch.send([
        { from: "hello@example.com", to: "one@dest.test", subject: "One", html: "<p>1</p>" },
        { from: "hello@example.com", to: "two@dest.test", subject: "Two", html: "<p>2</p>" },
      ]),
    );
    expect(strict.data).toHaveLength(2);
    const refused = await resend.batch.send([
      { from: "hello@example.com", to: "three@dest.test", subject: "Three", html: "<p>3</p>" },
      { from: "hello@example.com", to: "not an address", subject: "Bad", html: "<p>x</p>" },
    ]);
    expect(refused.error).toMatchObject({ name: "validation_error", statusCode: 400 });
    const permissive = ok(
      await resend.batch.send(
        [
          { from: "hello@example.com", to: "four@dest.test", subject: "Four", html: "<p>4</p>" },
          { from: "hello@example.com", to: "not an address", subject: "Bad", html: "<p>x</p>" },
        ],
        { batchValidation: "permissive" },
      ),
    ) as { data: Array<{ id: string }>; errors: Array<{ index: number; message: string }> };
    expect(permissive.data).toHaveLength(1);
    expect(permissive.errors).toEqual([{ index: 1, message: expect.stringContaining("to") }]);
  });
});

test("domains: create, get, list, update, verify, remove", async () => {
  const created = ok(await resend.domains.create({ name: "sdk.example" }));
  expect(copy(created)).toMatchObject({ object: "domain", name: "sdk.example", records: expect.any(Array) });
  expect(ok(await resend.domains.get(created.id))).toMatchObject({ id: created.id, name: "sdk.example" });
  const listed = ok(await resend.domains.list());
  expect(listed).toMatchObject({ object: "list", has_more: false });
  expect(listed.data.map((d) => d.name)).toContain("sdk.example");
  expect(ok(await resend.domains.update({ id: created.id, openTracking: true, clickTracking: true }))).toMatchObject({
    object: "domain",
    id: created.id,
  });
  expect(ok(await resend.domains.verify(created.id))).toMatchObject({ object: "domain", id: created.id });
  expect(ok(await resend.domains.remove(created.id))).toMatchObject({
    object: "domain",
    id: created.id,
    deleted: true,
  });
});

test("api keys: create with permission and domain, list, update, remove", async () => {
  const domain = ok(await resend.domains.get("example.com"));
  const created = ok(
    await resend.apiKeys.create({ name: "sending-only", permission: "sending_access", domain_id: domain.id }),
  );
  expect(copy(created)).toMatchObject({ id: expect.any(String), token: expect.stringMatching(/^mr_live_/) });
  const plain = ok(await resend.apiKeys.create({ name: "plain" }));
  expect(plain.token).toMatch(/^mr_live_/);
  // The new key sends from its domain only, and cannot read.
  const sender = new Resend(created.token, { baseUrl: `${rig!.server.baseUrl}/v1` });
  expect(
    (await sender.emails.send({ from: "hello@example.com", to: "x@dest.test", subject: "Hi", html: "<p>Hi</p>" }))
      .error,
  ).toBeNull();
  expect((await sender.domains.list()).error).toMatchObject({ name: "insufficient_scope", statusCode: 403 });
  expect(ok(await resend.apiKeys.update(created.id, { name: "renamed" }))).toMatchObject({
    object: "api_key",
    id: created.id,
  });
  const listed = ok(await resend.apiKeys.list());
  expect(listed).toMatchObject({ object: "list", has_more: false });
  expect(listed.data.find((k) => k.id === created.id)?.name).toBe("renamed");
  expect(ok(await resend.apiKeys.remove(created.id))).toEqual({ object: "api_key", id: created.id, deleted: true });
  expect(ok(await resend.apiKeys.list()).data.some((k) => k.id === created.id)).toBe(false);
  ok(await resend.apiKeys.remove(plain.id));
});

test("webhooks: create, get, list, update, events with attempts, replay, rotate, remove", async () => {
  const created = ok(await resend.webhooks.create({ endpoint: rig!.hooks.url, events: ["email.sent"] }));
  expect(copy(created)).toMatchObject({
    object: "webhook",
    id: expect.any(String),
    signing_secret: expect.stringMatching(/^whsec_/),
  });
  rig!.hooks.secrets.push(created.signing_secret);
  expect(ok(await resend.webhooks.get(created.id))).toMatchObject({
    object: "webhook",
    id: created.id,
    endpoint: rig!.hooks.url,
    status: "enabled",
    events: ["email.sent"],
  });
  expect(ok(await resend.webhooks.list()).data.map((w) => w.id)).toContain(created.id);

  const sent = ok(
    await resend.emails.send({
      from: "hello@example.com",
      to: "hooked@dest.test",
      subject: "Hooked",
      html: "<p>Hi</p>",
      tags: [{ name: "plan", value: "pro" }],
    }),
  );
  // Mail of the tests before may still be going out and raise email.sent here too: the event is the one for `sent`.
  const eventFor = async () => {
    for (const listed of ok(await resend.webhooks.events.list({ webhookId: created.id })).data.filter(
      (e) => e.status === "success",
    )) {
      const detail = ok(await resend.webhooks.events.get({ webhookId: created.id, eventId: listed.id }));
      if ((detail.payload as { data: { email_id: string } }).data.email_id === sent.id)
        return { event: listed, detail };
    }
    return undefined;
  };
  const found = await until(eventFor, (match) => match !== undefined);
  expect(found).toBeDefined();
  const { event, detail } = found!;
  expect(copy(event)).toMatchObject({ id: expect.any(String), type: "email.sent", created_at: expect.any(String) });
  expect(copy(detail)).toMatchObject({
    object: "webhook_event",
    id: event.id,
    status: "success",
    next_attempt_at: null,
  });
  expect(detail.payload).toMatchObject({ type: "email.sent", data: { email_id: sent.id, tags: { plan: "pro" } } });
  const attempts = ok(await resend.webhooks.events.attempts.list({ webhookId: created.id, eventId: event.id }));
  expect(attempts.data[0]).toMatchObject({
    id: expect.any(String),
    http_status_code: 204,
    sent_at: expect.any(String),
  });
  expect(rig!.hooks.received.find((r) => r.payload.data.email_id === sent.id)?.verifiedWith).toEqual([0]);

  expect(ok(await resend.webhooks.events.replay({ webhookId: created.id, eventId: event.id }))).toMatchObject({
    object: "webhook_event",
    id: event.id,
  });
  const rotated = ok(await resend.webhooks.rotateSigningSecret(created.id));
  expect(copy(rotated)).toMatchObject({
    object: "webhook",
    id: created.id,
    signing_secret: expect.stringMatching(/^whsec_/),
  });
  expect(rotated.signing_secret).not.toBe(created.signing_secret);
  expect(ok(await resend.webhooks.update(created.id, { status: "disabled" }))).toMatchObject({ id: created.id });
  expect(ok(await resend.webhooks.remove(created.id))).toMatchObject({
    object: "webhook",
    id: created.id,
    deleted: true,
  });
}, 30_000);

test("suppressions: add, get by id and address, list, remove, batch add and remove", async () => {
  const added = ok(await resend.suppressions.add({ email: "Gone@Dest.test" }));
  expect(copy(added)).toMatchObject({ object: "suppression", id: expect.any(String) });
  expect(ok(await resend.suppressions.get(added.id))).toMatchObject({
    object: "suppression",
    id: added.id,
    email: "gone@dest.test",
    origin: "manual",
  });
  expect(ok(await resend.suppressions.get("gone@dest.test")).id).toBe(added.id);
  const listed = ok(await resend.suppressions.list({ limit: 10 }));
  expect(listed).toMatchObject({ object: "list", has_more: false });
  expect(listed.data.map((s) => s.id)).toContain(added.id);
  expect(ok(await resend.suppressions.remove(added.id))).toMatchObject({
    object: "suppression",
    id: added.id,
    deleted: true,
  });

  const batch = ok(await resend.suppressions.batch.add({ emails: ["a@dest.test", "b@dest.test"] }));
  expect(batch.data).toEqual([
    expect.objectContaining({ object: "suppression", id: expect.any(String) }),
    expect.objectContaining({ object: "suppression" }),
  ]);
  const removedByEmail = ok(await resend.suppressions.batch.remove({ emails: ["a@dest.test", "never@dest.test"] }));
  expect(removedByEmail.data.map((r) => r.deleted)).toEqual([true, false]);
  const removedById = ok(await resend.suppressions.batch.remove({ ids: [batch.data[1]!.id] }));
  expect(removedById.data).toEqual([expect.objectContaining({ id: batch.data[1]!.id, deleted: true })]);
});
