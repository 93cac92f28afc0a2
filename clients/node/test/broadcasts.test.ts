/**
 * Broadcasts against the server: a draft created, read, listed, changed, duplicated and removed; sent to a segment of
 * two contacts, one of them out of the broadcast's topic, until every contact is reached; its recipients and clicked
 * links; a scheduled one cancelled back to draft; what a sent broadcast refuses.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Mailroom } from "@mailroom/node";
import { env, live, loadLibrary, ok, unique, waitFor, type Library } from "./support.ts";

let lib: Library;
let mailroom: Mailroom;

beforeAll(async () => {
  lib = await loadLibrary();
  if (!live) return;
  mailroom = new lib.Mailroom(env("MAILROOM_API_KEY"), { baseUrl: env("MAILROOM_BASE_URL") });
}, 120_000);

const address = (prefix: string) => `${unique(prefix)}@example.org`;

describe.skipIf(!live)("broadcasts", () => {
  test("a draft: create, get, list, update, duplicate, remove", async () => {
    const segment = ok(await mailroom.segments.create({ name: unique("readers") }));
    const name = unique("june");
    const created = ok(
      await mailroom.broadcasts.create({
        name,
        segment_id: segment.id,
        from: env("MAILROOM_FROM"),
        subject: "June",
        html: "<p>Hi {{{FIRST_NAME|there}}}</p>",
      }),
    );
    const draft = ok(await mailroom.broadcasts.get(created.id));
    expect(draft).toMatchObject({ object: "broadcast", name, status: "draft", segment_id: segment.id });
    expect(draft.counts).toMatchObject({ contacts_reached: 0, messages: 0, skipped: 0 });
    const listed = ok(await mailroom.broadcasts.list({ limit: 100 }));
    expect(listed.data.find((item) => item.id === created.id)?.status).toBe("draft");

    expect(ok(await mailroom.broadcasts.update(created.id, { subject: "June news" }))).toEqual({ id: created.id });
    expect(ok(await mailroom.broadcasts.get(created.id)).subject).toBe("June news");

    const copy = ok(await mailroom.broadcasts.duplicate(created.id));
    expect(copy.object).toBe("broadcast");
    expect(copy.id).not.toBe(created.id);
    expect(ok(await mailroom.broadcasts.get(copy.id))).toMatchObject({ status: "draft", subject: "June news" });
    for (const id of [copy.id, created.id])
      expect(ok(await mailroom.broadcasts.remove(id))).toEqual({ object: "broadcast", id, deleted: true });
    expect((await mailroom.broadcasts.get(created.id)).error?.name).toBe("not_found");
  }, 30_000);

  test("sent to a segment: one message per eligible contact, the topic's leaver skipped; recipients, links", async () => {
    const segment = ok(await mailroom.segments.create({ name: unique("audience") }));
    const topic = ok(await mailroom.topics.create({ name: unique("monthly"), default_subscription: "opt_in" }));
    const [ada, alan] = [address("ada"), address("alan")];
    ok(await mailroom.contacts.create({ email: ada, first_name: "Ada", segments: [{ id: segment.id }] }));
    ok(
      await mailroom.contacts.create({
        email: alan,
        segments: [{ id: segment.id }],
        topics: [{ id: topic.id, subscription: "opt_out" }],
      }),
    );
    const { id } = ok(
      await mailroom.broadcasts.create({
        segment_id: segment.id,
        topic_id: topic.id,
        from: env("MAILROOM_FROM"),
        subject: "Monthly",
        html: "<p>Hi {{{FIRST_NAME|there}}}</p>",
        send: true,
      }),
    );
    const sent = await waitFor(async () => {
      const state = ok(await mailroom.broadcasts.get(id));
      return state.status === "sent" ? state : undefined;
    }, "the broadcast to reach every contact");
    expect(sent.counts).toMatchObject({ contacts_reached: 2, messages: 1, skipped: 1 });

    const recipients = await waitFor(async () => {
      const page = ok(await mailroom.broadcasts.recipients(id, { type: "sent" }));
      return page.data.length > 0 ? page : undefined;
    }, "the message to be sent");
    expect(recipients.data.map((recipient) => recipient.email)).toEqual([ada]);
    const message = ok(await mailroom.emails.get(recipients.data[0]!.id));
    expect(message.topic_id).toBe(topic.id);
    expect(ok(await mailroom.broadcasts.recipients(id, { type: "sent", email: alan })).data).toEqual([]);
    expect(ok(await mailroom.broadcasts.clickedLinks(id))).toEqual({ object: "list", has_more: false, data: [] });

    // A sent broadcast is no draft any more.
    expect((await mailroom.broadcasts.update(id, { name: "x" })).error?.name).toBe("conflict");
    expect((await mailroom.broadcasts.remove(id)).error?.name).toBe("conflict");
    expect((await mailroom.broadcasts.recipients("", { type: "sent" })).error?.name).toBe("missing_required_field");
  }, 60_000);

  test("scheduled, then cancelled back to a draft; send with a Date schedules it again", async () => {
    const segment = ok(await mailroom.segments.create({ name: unique("later") }));
    const { id } = ok(
      await mailroom.broadcasts.create({
        segment_id: segment.id,
        from: env("MAILROOM_FROM"),
        subject: "Later",
        text: "Hi {{{EMAIL}}}",
        send: true,
        scheduled_at: "in 2 hours",
      }),
    );
    const queued = ok(await mailroom.broadcasts.get(id));
    expect(queued.status).toBe("queued");
    expect(Date.parse(queued.scheduled_at!)).toBeGreaterThan(Date.now() + 3_600_000);
    expect(ok(await mailroom.broadcasts.cancel(id))).toEqual({ object: "broadcast", id });
    expect(ok(await mailroom.broadcasts.get(id))).toMatchObject({ status: "draft", scheduled_at: null });

    const at = new Date(Date.now() + 86_400_000);
    expect(ok(await mailroom.broadcasts.send(id, { scheduled_at: at }))).toEqual({ id });
    const again = ok(await mailroom.broadcasts.get(id));
    expect(again.status).toBe("queued");
    expect(Math.abs(Date.parse(again.scheduled_at!) - at.getTime())).toBeLessThan(1_000);
    ok(await mailroom.broadcasts.cancel(id));
    ok(await mailroom.broadcasts.remove(id));
  }, 30_000);
});
