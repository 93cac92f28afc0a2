/**
 * The official Resend Node SDK, unchanged, against the built executable (docs/broadcasts.md): every operation of
 * `broadcasts` — create (a draft, and sent at once), get, list, update, send with scheduledAt, cancel, duplicate,
 * remove, recipients by event type, clickedLinks — each answer checked for what the SDK's types promise; the
 * messages reach a smarthost double personalised, each with its own signed one-click unsubscribe; and a webhook of
 * a broadcast's message carries its broadcast_id.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Resend } from "resend";
import { ok, type ResendRig, startResendRig, until, UUID } from "./helpers/resend-sdk.ts";

let rig: ResendRig | undefined;
let resend: Resend;

beforeAll(async () => {
  rig = await startResendRig("resend-broadcasts", {
    env: { MAILROOM_WEBHOOKS_POLL_INTERVAL: "100ms", MAILROOM_DELIVERY_POLL_INTERVAL: "100ms" },
    domains: ["news.example"],
  });
  resend = rig.resend;
}, 30_000);

afterAll(() => rig?.close());

describe("broadcasts through the Resend SDK", () => {
  let segmentId = "";
  let topicId = "";
  let draftId = "";
  let sentId = "";

  test("an audience to send to", async () => {
    const webhook = ok(await resend.webhooks.create({ endpoint: rig!.hooks.url, events: ["email.sent"] }));
    rig!.hooks.secrets.push(webhook.signing_secret);
    segmentId = ok(await resend.segments.create({ name: "Readers" })).id;
    topicId = ok(await resend.topics.create({ name: "News", defaultSubscription: "opt_in" })).id;
    for (const [email, firstName] of [
      ["ada@readers.test", "Ada"],
      ["bob@readers.test", undefined],
    ] as const)
      ok(await resend.contacts.create({ email, firstName, segments: [{ id: segmentId }] }));
    ok(await resend.contacts.create({ email: "gone@readers.test", unsubscribed: true, segments: [{ id: segmentId }] }));
  });

  test("create a draft, get it, list it, update it", async () => {
    const created = ok(
      await resend.broadcasts.create({
        name: "Draft",
        segmentId,
        from: "Acme <news@news.example>",
        subject: "Hello {{{FIRST_NAME|friend}}}",
        html: "<p>Hi {{{FIRST_NAME|there}}}</p>",
        replyTo: "support@news.example",
        previewText: "News inside",
        topicId,
      }),
    );
    expect(created).toEqual({ id: UUID });
    draftId = created.id;
    const got = ok(await resend.broadcasts.get(draftId));
    expect(got).toMatchObject({
      object: "broadcast",
      id: draftId,
      name: "Draft",
      segment_id: segmentId,
      audience_id: segmentId,
      from: "Acme <news@news.example>",
      subject: "Hello {{{FIRST_NAME|friend}}}",
      reply_to: ["support@news.example"],
      preview_text: "News inside",
      status: "draft",
      scheduled_at: null,
      sent_at: null,
      topic_id: topicId,
      html: "<p>Hi {{{FIRST_NAME|there}}}</p>",
      text: null,
    });
    expect(got.created_at).toEqual(expect.any(String));
    const listed = ok(await resend.broadcasts.list({ limit: 10 }));
    expect(listed.object).toBe("list");
    expect(listed.data[0]).toMatchObject({ id: draftId, name: "Draft", segment_id: segmentId, status: "draft" });
    expect(
      ok(await resend.broadcasts.update(draftId, { name: "November", text: "Hi {{{FIRST_NAME|there}}}" })),
    ).toEqual({
      id: draftId,
    });
    expect(ok(await resend.broadcasts.get(draftId))).toMatchObject({
      name: "November",
      text: "Hi {{{FIRST_NAME|there}}}",
    });
  });

  test("send with scheduledAt, cancel back to a draft, duplicate, remove", async () => {
    expect(ok(await resend.broadcasts.send(draftId, { scheduledAt: "in 1 hour" }))).toEqual({ id: draftId });
    const scheduled = ok(await resend.broadcasts.get(draftId));
    expect(scheduled.status).toBe("queued");
    expect(Date.parse(scheduled.scheduled_at!)).toBeGreaterThan(Date.now() + 3_000_000);
    expect(ok(await resend.broadcasts.cancel(draftId))).toEqual({ object: "broadcast", id: draftId });
    expect(ok(await resend.broadcasts.get(draftId))).toMatchObject({ status: "draft", scheduled_at: null });
    const copy = ok(await resend.broadcasts.duplicate(draftId));
    expect(copy).toEqual({ object: "broadcast", id: UUID });
    expect(ok(await resend.broadcasts.get(copy.id))).toMatchObject({
      name: "November",
      status: "draft",
      topic_id: topicId,
    });
    expect(ok(await resend.broadcasts.remove(copy.id))).toEqual({ object: "broadcast", id: copy.id, deleted: true });
    const gone = await resend.broadcasts.get(copy.id);
    expect(gone.error).toMatchObject({ name: "not_found" });
  });

  test("sent: one personalised message per contact, each with its own signed one-click unsubscribe", async () => {
    const created = ok(
      await resend.broadcasts.create({
        name: "Now",
        segmentId,
        from: "Acme <news@news.example>",
        subject: "Hello {{{FIRST_NAME|friend}}}",
        html: '<p>Hi {{{FIRST_NAME|there}}}</p><a href="{{{RESEND_UNSUBSCRIBE_URL}}}">Leave</a>',
        send: true,
      }),
    );
    sentId = created.id;
    const sent = await until(
      async () => ok(await resend.broadcasts.get(sentId)),
      (b) => b.status === "sent",
    );
    expect(sent.status).toBe("sent");
    expect(sent.sent_at).toEqual(expect.any(String));
    await rig!.smtp.waitFor(2);
    const copies = rig!.smtp.received.filter((m) => m.raw.toString().includes("Hello "));
    expect(copies.map((m) => m.recipients[0]).sort()).toEqual(["ada@readers.test", "bob@readers.test"]);
    const ada = copies.find((m) => m.recipients[0] === "ada@readers.test")!.raw.toString("latin1");
    const bob = copies.find((m) => m.recipients[0] === "bob@readers.test")!.raw.toString("latin1");
    expect(ada).toContain("Subject: Hello Ada");
    expect(bob).toContain("Subject: Hello friend");
    for (const raw of [ada, bob]) {
      expect(raw).toMatch(/^List-Unsubscribe: <https?:\/\/[^>]+\/u\/[a-z0-9]+>,/m);
      expect(raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
      expect(/DKIM-Signature:[\s\S]*?h=([^;]+);/i.exec(raw)?.[1]?.toLowerCase()).toContain("list-unsubscribe");
    }
    const tokenOf = (raw: string) => /\/u\/([a-z0-9]+)>/.exec(raw)?.[1];
    expect(tokenOf(ada)).not.toBe(tokenOf(bob));
  });

  test("recipients by event type, clicked links, and broadcast_id in the webhooks", async () => {
    // Through a smarthost a message is `sent` (the relay took it; docs/sending.md#message-and-recipient-statuses).
    const delivered = await until(
      async () => ok(await resend.broadcasts.recipients(sentId, { type: "sent" })),
      (list) => list.data.length === 2,
    );
    expect(delivered.object).toBe("list");
    expect(delivered.data.map((r) => r.email).sort()).toEqual(["ada@readers.test", "bob@readers.test"]);
    for (const recipient of delivered.data) expect(recipient).toMatchObject({ id: UUID, contact_id: UUID });
    const one = ok(await resend.broadcasts.recipients(sentId, { type: "sent", email: "ada@readers.test" }));
    expect(one.data.map((r) => r.email)).toEqual(["ada@readers.test"]);
    expect(ok(await resend.broadcasts.recipients(sentId, { type: "bounced" })).data).toEqual([]);
    const links = ok(await resend.broadcasts.clickedLinks(sentId));
    expect(links).toMatchObject({ object: "list", has_more: false, data: [] });
    const counted = ok(await resend.broadcasts.get(sentId)) as unknown as {
      counts: { by_status: Record<string, number> };
    };
    expect(counted.counts.by_status.sent).toBe(2);
    expect(ok(await resend.broadcasts.recipients(sentId, { type: "delivered" })).data).toEqual([]);
    const events = await until(
      async () => rig!.hooks.received.filter((hook) => hook.payload.data?.broadcast_id === sentId),
      (found) => found.length >= 2,
    );
    expect(events.map((hook) => hook.payload.type)).toEqual(["email.sent", "email.sent"]);
    for (const hook of events) expect(hook.verifiedWith).toEqual([0]);
  });

  test("only a draft changes: a sent broadcast is a conflict", async () => {
    const refused = await resend.broadcasts.update(sentId, { name: "late" });
    expect(refused.error).toMatchObject({ name: "conflict" });
    expect((await resend.broadcasts.remove(sentId)).error).toMatchObject({ name: "conflict" });
  });
});
