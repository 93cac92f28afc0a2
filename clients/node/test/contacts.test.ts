/**
 * Contacts and what hangs off them against the server: contact properties, segments (and `audiences`, the same
 * resource), topics, contacts by id and by address with their segments and topic choices, Resend's older audience
 * forms, and a CSV import followed to its end.
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
/** Property keys start with a letter and hold letters, digits and underscores only. */
const propertyKey = () => unique("p").replaceAll("-", "_");

describe.skipIf(!live)("contacts", () => {
  test("contactProperties: create, get, list, update (the fallback), remove", async () => {
    const key = propertyKey();
    const created = ok(await mailroom.contactProperties.create({ key, type: "string", fallback_value: "friend" }));
    expect(created).toMatchObject({ object: "contact_property", key, type: "string", fallback_value: "friend" });
    expect(ok(await mailroom.contactProperties.get(created.id)).key).toBe(key);
    const listed = ok(await mailroom.contactProperties.list({ limit: 100 }));
    expect(listed.object).toBe("list");
    expect(listed.data.map((property) => property.id)).toContain(created.id);
    const updated = ok(await mailroom.contactProperties.update({ id: created.id, fallback_value: "reader" }));
    expect(updated.fallback_value).toBe("reader");
    expect(ok(await mailroom.contactProperties.remove(created.id))).toMatchObject({
      object: "contact_property",
      id: created.id,
      deleted: true,
    });
    expect((await mailroom.contactProperties.get(created.id)).error?.name).toBe("not_found");
  }, 30_000);

  test("segments and audiences: one resource; create, get, list, update, remove", async () => {
    expect(mailroom.audiences).toBe(mailroom.segments);
    const name = unique("segment");
    const created = ok(await mailroom.segments.create({ name }));
    expect(created).toMatchObject({ object: "segment", name });
    expect(ok(await mailroom.audiences.get(created.id)).name).toBe(name);
    expect(ok(await mailroom.segments.list({ limit: 100 })).data.map((segment) => segment.id)).toContain(created.id);
    expect(ok(await mailroom.segments.update(created.id, { name: `${name}-renamed` })).name).toBe(`${name}-renamed`);
    expect(ok(await mailroom.audiences.remove(created.id))).toMatchObject({
      object: "segment",
      id: created.id,
      deleted: true,
    });
    expect((await mailroom.segments.get(created.id)).error?.name).toBe("not_found");
  }, 30_000);

  test("topics: create, get, list, update, remove", async () => {
    const name = unique("topic");
    const created = ok(
      await mailroom.topics.create({
        name,
        description: "Product news",
        default_subscription: "opt_in",
        visibility: "private",
      }),
    );
    expect(created).toMatchObject({
      object: "topic",
      name,
      description: "Product news",
      default_subscription: "opt_in",
      visibility: "private",
    });
    expect(ok(await mailroom.topics.get(created.id)).name).toBe(name);
    expect(ok(await mailroom.topics.list({ limit: 100 })).data.map((topic) => topic.id)).toContain(created.id);
    const updated = ok(await mailroom.topics.update({ id: created.id, visibility: "public" }));
    expect(updated).toMatchObject({ visibility: "public", name, default_subscription: "opt_in" });
    expect(ok(await mailroom.topics.remove(created.id))).toMatchObject({ object: "topic", deleted: true });
    expect((await mailroom.topics.get(created.id)).error?.name).toBe("not_found");
  }, 30_000);

  test("contacts: by id and by address, with properties, segments and topic choices", async () => {
    const key = propertyKey();
    await mailroom.contactProperties.create({ key, type: "number", fallback_value: 0 });
    const segment = ok(await mailroom.segments.create({ name: unique("members") }));
    const other = ok(await mailroom.segments.create({ name: unique("others") }));
    const topic = ok(await mailroom.topics.create({ name: unique("news"), default_subscription: "opt_in" }));
    const email = address("a+contact");

    const created = ok(
      await mailroom.contacts.create({
        email,
        first_name: "Ada",
        properties: { [key]: 3 },
        segments: [{ id: segment.id }],
        topics: [{ id: topic.id, subscription: "opt_out" }],
      }),
    );
    expect(created).toMatchObject({ object: "contact", email, first_name: "Ada", last_name: null });

    const byId = ok(await mailroom.contacts.get(created.id));
    expect(byId.properties?.[key]).toEqual({ type: "number", value: 3 });
    expect(ok(await mailroom.contacts.get(email)).id).toBe(created.id);
    expect(ok(await mailroom.contacts.get({ email })).id).toBe(created.id);

    const members = ok(await mailroom.contacts.list({ segmentId: segment.id }));
    expect(members.data.map((contact) => contact.id)).toEqual([created.id]);
    expect(ok(await mailroom.segments.contacts(segment.id)).data.map((contact) => contact.id)).toEqual([created.id]);

    const updated = ok(await mailroom.contacts.update({ email, last_name: "Lovelace", properties: { [key]: null } }));
    expect(updated).toMatchObject({ id: created.id, first_name: "Ada", last_name: "Lovelace" });
    expect(ok(await mailroom.contacts.get({ id: created.id })).properties?.[key]).toEqual({ type: "number", value: 0 });

    // Its segments, by id and by address.
    const inSegments = ok(await mailroom.contacts.segments.list({ contactId: created.id }));
    expect(inSegments.data.map((s) => s.id)).toEqual([segment.id]);
    expect(ok(await mailroom.contacts.segments.add({ email, segmentId: other.id }))).toEqual({
      id: other.id,
      contact_id: created.id,
    });
    expect(ok(await mailroom.contacts.segments.list({ email })).data.map((s) => s.id)).toContain(other.id);
    expect(ok(await mailroom.contacts.segments.remove({ contactId: created.id, segmentId: other.id }))).toEqual({
      id: other.id,
      contact_id: created.id,
      deleted: true,
    });

    // Its topic choices.
    const choice = (page: { data: Array<{ id: string; subscription: string }> }) =>
      page.data.find((entry) => entry.id === topic.id)?.subscription;
    expect(choice(ok(await mailroom.contacts.topics.list({ id: created.id })))).toBe("opt_out");
    expect(
      ok(await mailroom.contacts.topics.update({ email, topics: [{ id: topic.id, subscription: "opt_in" }] })),
    ).toEqual({ id: created.id });
    expect(choice(ok(await mailroom.contacts.topics.list({ email, limit: 100 })))).toBe("opt_in");

    // Resend's older audience forms act within that segment.
    expect(ok(await mailroom.contacts.get({ email, audienceId: segment.id })).id).toBe(created.id);
    expect((await mailroom.contacts.get({ email, audienceId: other.id })).error?.name).toBe("not_found");
    const legacy = address("legacy");
    const joined = ok(await mailroom.contacts.create({ email: legacy, audienceId: segment.id }));
    expect(ok(await mailroom.contacts.list({ audienceId: segment.id })).data.map((c) => c.id)).toContain(joined.id);

    expect(ok(await mailroom.contacts.remove(email))).toEqual({
      object: "contact",
      id: created.id,
      contact: created.id,
      deleted: true,
    });
    expect((await mailroom.contacts.get(created.id)).error?.name).toBe("not_found");
    expect(ok(await mailroom.contacts.remove({ id: joined.id })).deleted).toBe(true);
  }, 60_000);

  test("sending with topic_id: a contact who left the topic is suppressed for it, and still gets mail without one", async () => {
    const topic = ok(await mailroom.topics.create({ name: unique("digest"), default_subscription: "opt_in" }));
    const email = address("left");
    ok(await mailroom.contacts.create({ email, topics: [{ id: topic.id, subscription: "opt_out" }] }));
    const from = env("MAILROOM_FROM");
    const withTopic = ok(
      await mailroom.emails.send({ from, to: email, subject: "Digest", html: "<p>d</p>", topic_id: topic.id }),
    );
    const withoutTopic = ok(await mailroom.emails.send({ from, to: email, subject: "Reset", html: "<p>r</p>" }));
    const sent = ok(await mailroom.emails.get(withTopic.id));
    expect(sent.topic_id).toBe(topic.id);
    expect(sent.recipients.map((recipient) => recipient.status)).toEqual(["suppressed"]);
    const other = await waitFor(async () => {
      const state = ok(await mailroom.emails.get(withoutTopic.id));
      return state.recipients[0]?.status === "sent" ? state : undefined;
    }, "the mail without a topic to reach the smarthost");
    expect(other.topic_id).toBeNull();
  }, 30_000);

  test("contacts: a call without the contact fails before any request", async () => {
    expect((await mailroom.contacts.get("")).error?.name).toBe("missing_required_field");
    expect((await mailroom.contacts.update({ id: "", first_name: "x" })).error?.name).toBe("missing_required_field");
    expect((await mailroom.contacts.segments.add({ email: "a@example.org", segmentId: "" })).error?.name).toBe(
      "missing_required_field",
    );
    expect((await mailroom.contacts.topics.list({ email: "" })).error?.name).toBe("missing_required_field");
  });

  test("contacts.imports: a CSV uploaded, followed to completed with its counts and the line that failed", async () => {
    const segment = ok(await mailroom.segments.create({ name: unique("imported") }));
    const [first, second] = [address("import"), address("import")];
    const csv = `Email,Given\n${first},Grace\nnot-an-address,Nobody\n${second},Alan\n`;
    const created = ok(
      await mailroom.contacts.imports.create({
        file: new TextEncoder().encode(csv),
        column_map: { email: "Email", first_name: "Given" },
        segments: [{ id: segment.id }],
      }),
    );
    expect(created.object).toBe("contact_import");
    const done = await waitFor(async () => {
      const state = ok(await mailroom.contacts.imports.get(created.id));
      return state.status === "completed" || state.status === "failed" ? state : undefined;
    }, "the import to finish");
    expect(done).toMatchObject({ status: "completed", counts: { total: 3, created: 2, failed: 1 } });
    expect(done.errors.map((error) => error.line)).toEqual([3]);
    expect(ok(await mailroom.contacts.get(first)).first_name).toBe("Grace");
    const members = ok(await mailroom.contacts.list({ segmentId: segment.id })).data.map((c) => c.email);
    expect(members.sort()).toEqual([first, second].sort());
    expect(ok(await mailroom.contacts.imports.list({ limit: 100 })).data.map((i) => i.id)).toContain(created.id);

    const rejected = await mailroom.contacts.imports.create({ file: "Email\nx@example.org\n", on_conflict: "skip" });
    expect(rejected.error).toBeNull();
    const missingFile = await mailroom.contacts.imports.create({ file: undefined as unknown as string });
    expect(missingFile.error?.name).toBe("missing_required_field");
  }, 60_000);
});
