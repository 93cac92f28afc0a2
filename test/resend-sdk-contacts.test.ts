/**
 * The official Resend Node SDK, unchanged, against the built executable (docs/contacts.md): every operation of
 * contacts, contactProperties, contacts.imports, contacts.segments, contacts.topics, segments, audiences and topics,
 * as a user switching base URLs would, each answer checked for what the SDK's types promise; and the contact and
 * topic webhooks they cause, signed, at a real receiver.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Resend } from "resend";
import { copy, ok, type ResendRig, startResendRig, until, UUID } from "./helpers/resend-sdk.ts";

let rig: ResendRig | undefined;
let resend: Resend;
let sender: Resend;

beforeAll(async () => {
  rig = await startResendRig("resend-contacts", {
    env: { MAILROOM_WEBHOOKS_POLL_INTERVAL: "100ms" },
    keys: { sender: ["--scope", "sending_access"] },
  });
  resend = rig.resend;
  sender = rig.clients.sender!;
}, 30_000);

afterAll(() => rig?.close());

describe("the audience through the Resend SDK", () => {
  let webhookId = "";
  let segmentId = "";
  let topicIn = "";
  let topicOut = "";
  let contactId = "";

  test("webhooks for the contact and topic events", async () => {
    const created = ok(
      await resend.webhooks.create({
        endpoint: rig!.hooks.url,
        events: [
          "contact.created",
          "contact.updated",
          "contact.deleted",
          "contact.topics.updated",
          "topic.created",
          "topic.updated",
          "topic.deleted",
        ] as never,
      }),
    );
    webhookId = created.id;
    rig!.hooks.secrets.push(created.signing_secret);
    expect(webhookId).toEqual(UUID);
  });

  test("contactProperties: create, get, list, update, remove", async () => {
    const plan = ok(await resend.contactProperties.create({ key: "plan", type: "string", fallbackValue: "free" }));
    expect(copy(plan)).toMatchObject({ object: "contact_property", id: UUID });
    const seats = ok(await resend.contactProperties.create({ key: "seats", type: "number" }));
    expect(ok(await resend.contactProperties.get(plan.id))).toMatchObject({
      object: "contact_property",
      id: plan.id,
      key: "plan",
      type: "string",
      fallbackValue: "free",
      createdAt: expect.any(String),
    });
    const listed = ok(await resend.contactProperties.list({ limit: 10 }));
    expect(listed.data.map((p) => p.key)).toEqual(["seats", "plan"]);
    expect(listed.has_more).toBe(false);
    expect(ok(await resend.contactProperties.update({ id: plan.id, fallbackValue: "trial" }))).toMatchObject({
      object: "contact_property",
      id: plan.id,
    });
    expect(ok(await resend.contactProperties.get(plan.id)).fallbackValue).toBe("trial");
    const gone = ok(await resend.contactProperties.create({ key: "temporary", type: "string" }));
    expect(ok(await resend.contactProperties.remove(gone.id))).toMatchObject({
      object: "contact_property",
      id: gone.id,
      deleted: true,
    });
    const again = await resend.contactProperties.create({ key: "plan", type: "number" });
    expect(again.error).toMatchObject({ name: "conflict", statusCode: 409 });
    expect(seats.id).toEqual(UUID);
  });

  test("segments: create, get, list, update, remove; audiences is the same resource", async () => {
    const segment = ok(await resend.segments.create({ name: "Newsletter" }));
    expect(copy(segment)).toMatchObject({ object: "segment", id: UUID, name: "Newsletter" });
    segmentId = segment.id;
    expect(ok(await resend.segments.get(segmentId))).toMatchObject({
      object: "segment",
      id: segmentId,
      name: "Newsletter",
      created_at: expect.any(String),
    });
    expect(ok(await resend.segments.update(segmentId, { name: "Weekly" }))).toMatchObject({
      object: "segment",
      id: segmentId,
    });
    expect(ok(await resend.segments.get(segmentId)).name).toBe("Weekly");
    const audience = ok(await resend.audiences.create({ name: "Old style" }));
    expect(ok(await resend.audiences.get(audience.id))).toMatchObject({ id: audience.id, name: "Old style" });
    const listed = ok(await resend.audiences.list());
    expect(copy(listed)).toMatchObject({ object: "list", has_more: false });
    expect(listed.data.map((s) => s.id)).toEqual([audience.id, segmentId]);
    expect(ok(await resend.segments.list({ limit: 1 }))).toMatchObject({ has_more: true, data: [{ id: audience.id }] });
    expect(ok(await resend.audiences.remove(audience.id))).toMatchObject({
      object: "segment",
      id: audience.id,
      deleted: true,
    });
    expect((await resend.segments.get(audience.id)).error).toMatchObject({ name: "not_found" });
    // The raw older paths answer as segments do.
    const raw = await fetch(`${rig!.server.baseUrl}/v1/audiences/${segmentId}`, {
      headers: { authorization: `Bearer ${(resend as unknown as { key: string }).key}` },
    });
    expect(await raw.json()).toMatchObject({ object: "segment", id: segmentId, name: "Weekly" });
  });

  test("topics: create, get, list, update, remove", async () => {
    const weekly = ok(
      await resend.topics.create({ name: "Weekly digest", description: "Once a week", defaultSubscription: "opt_in" }),
    );
    expect(copy(weekly)).toMatchObject({ id: UUID });
    topicIn = weekly.id;
    topicOut = ok(await resend.topics.create({ name: "Product news", defaultSubscription: "opt_out" })).id;
    expect(ok(await resend.topics.get(topicIn))).toMatchObject({
      id: topicIn,
      name: "Weekly digest",
      description: "Once a week",
      default_subscription: "opt_in",
      created_at: expect.any(String),
    });
    expect(ok(await resend.topics.update({ id: topicIn, name: "Digest", description: "Weekly" }))).toMatchObject({
      id: topicIn,
    });
    expect(ok(await resend.topics.get(topicIn))).toMatchObject({ name: "Digest", description: "Weekly" });
    expect(ok(await resend.topics.list()).data.map((topic) => topic.id)).toEqual([topicOut, topicIn]);
    const gone = ok(await resend.topics.create({ name: "Gone", defaultSubscription: "opt_in" }));
    expect(ok(await resend.topics.remove(gone.id))).toMatchObject({ object: "topic", id: gone.id, deleted: true });
    expect((await resend.topics.get(gone.id)).error).toMatchObject({ name: "not_found" });
  });

  test("contacts: create, get by id and by address, list, update, remove", async () => {
    const created = ok(
      await resend.contacts.create({
        email: "Ann@Example.com",
        firstName: "Ann",
        lastName: "Lee",
        properties: { plan: "pro", seats: 3 },
        segments: [{ id: segmentId }],
        topics: [{ id: topicOut, subscription: "opt_in" }],
      }),
    );
    expect(copy(created)).toMatchObject({ object: "contact", id: UUID });
    contactId = created.id;
    const byId = ok(await resend.contacts.get(contactId));
    expect(copy(byId)).toMatchObject({
      object: "contact",
      id: contactId,
      email: "ann@example.com",
      first_name: "Ann",
      last_name: "Lee",
      unsubscribed: false,
      created_at: expect.any(String),
      properties: { plan: { type: "string", value: "pro" }, seats: { type: "number", value: 3 } },
    });
    expect(ok(await resend.contacts.get({ email: "ann@example.com" })).id).toBe(contactId);
    const dup = await resend.contacts.create({ email: "ann@EXAMPLE.com" });
    expect(dup.error).toMatchObject({ name: "conflict", statusCode: 409 });
    const unknown = await resend.contacts.create({ email: "bob@example.com", properties: { nope: "x" } });
    expect(unknown.error).toMatchObject({ name: "validation_error", statusCode: 400 });
    expect(unknown.error!.message).toContain("properties.nope");
    const bob = ok(await resend.contacts.create({ email: "bob@example.com" }));
    expect(ok(await resend.contacts.list()).data.map((c) => c.email)).toEqual(["bob@example.com", "ann@example.com"]);
    expect(ok(await resend.contacts.list({ segmentId })).data.map((c) => c.id)).toEqual([contactId]);
    expect(ok(await resend.contacts.list({ limit: 1 }))).toMatchObject({ has_more: true, data: [{ id: bob.id }] });
    expect(
      ok(await resend.contacts.update({ id: contactId, firstName: null, properties: { seats: 5 } })),
    ).toMatchObject({ object: "contact", id: contactId });
    expect(ok(await resend.contacts.get(contactId))).toMatchObject({
      first_name: null,
      last_name: "Lee",
      properties: { seats: { type: "number", value: 5 } },
    });
    const wrongType = await resend.contacts.update({ email: "ann@example.com", properties: { seats: "many" } });
    expect(wrongType.error).toMatchObject({ name: "validation_error" });
    expect(ok(await resend.contacts.update({ email: "bob@example.com", unsubscribed: true })).id).toBe(bob.id);
    expect(ok(await resend.contacts.remove({ email: "bob@example.com" }))).toMatchObject({
      object: "contact",
      contact: bob.id,
      deleted: true,
    });
    expect((await resend.contacts.get(bob.id)).error).toMatchObject({ name: "not_found", statusCode: 404 });
  });

  test("contacts.segments: list, add, remove", async () => {
    const other = ok(await resend.segments.create({ name: "VIP" }));
    expect(ok(await resend.contacts.segments.add({ contactId, segmentId: other.id }))).toMatchObject({ id: other.id });
    const listed = ok(await resend.contacts.segments.list({ email: "ann@example.com" }));
    expect(copy(listed)).toMatchObject({ object: "list", has_more: false });
    expect(listed.data.map((s) => s.name)).toEqual(["VIP", "Weekly"]);
    expect(ok(await resend.contacts.segments.remove({ email: "ann@example.com", segmentId: other.id }))).toMatchObject({
      id: other.id,
      deleted: true,
    });
    expect(ok(await resend.contacts.segments.list({ contactId })).data.map((s) => s.id)).toEqual([segmentId]);
    expect(ok(await resend.segments.get(other.id)).name).toBe("VIP");
  });

  test("contacts.topics: list with the effective subscription, update", async () => {
    const before = ok(await resend.contacts.topics.list({ id: contactId }));
    expect(copy(before)).toMatchObject({ object: "list", has_more: false });
    expect(before.data).toEqual([
      { id: topicOut, name: "Product news", description: null, subscription: "opt_in" },
      { id: topicIn, name: "Digest", description: "Weekly", subscription: "opt_in" },
    ]);
    expect(
      ok(
        await resend.contacts.topics.update({
          email: "ann@example.com",
          topics: [
            { id: topicIn, subscription: "opt_out" },
            { id: topicOut, subscription: "opt_out" },
          ],
        }),
      ),
    ).toMatchObject({ id: contactId });
    const after = ok(await resend.contacts.topics.list({ email: "ann@example.com" }));
    expect(after.data.map((topic) => topic.subscription)).toEqual(["opt_out", "opt_out"]);
  });

  test("contacts with an audienceId: the legacy audience forms", async () => {
    const legacy = ok(await resend.contacts.create({ audienceId: segmentId, email: "carol@example.com" }));
    expect(copy(legacy)).toMatchObject({ object: "contact", id: UUID });
    expect(ok(await resend.contacts.get({ audienceId: segmentId, email: "carol@example.com" })).id).toBe(legacy.id);
    expect(ok(await resend.contacts.list({ audienceId: segmentId })).data.map((c) => c.email)).toEqual([
      "carol@example.com",
      "ann@example.com",
    ]);
    expect(ok(await resend.contacts.update({ audienceId: segmentId, id: legacy.id, lastName: "Ng" })).id).toBe(
      legacy.id,
    );
    expect(ok(await resend.contacts.remove({ audienceId: segmentId, id: legacy.id }))).toMatchObject({
      deleted: true,
    });
    // Out of the audience, still a contact.
    expect((await resend.contacts.get({ audienceId: segmentId, id: legacy.id })).error).toMatchObject({
      name: "not_found",
    });
    expect(ok(await resend.contacts.get(legacy.id)).last_name).toBe("Ng");
  });

  test("contacts.imports: create, get until completed with counts and failed lines, list", async () => {
    const csv = [
      "Email,First,Plan,Seats",
      "dan@example.com,Dan,pro,2",
      "ANN@example.com,Annie,,",
      "not an address,X,,",
      "erin@example.com,Erin,free,lots",
      "",
    ].join("\n");
    const created = ok(
      await resend.contacts.imports.create({
        file: new Blob([csv], { type: "text/csv" }),
        columnMap: {
          email: "Email",
          firstName: "First",
          properties: { plan: { column: "Plan" }, seats: { column: "Seats", type: "number" } },
        },
        onConflict: "upsert",
        segments: [{ id: segmentId }],
        topics: [{ id: topicOut, subscription: "opt_in" }],
      }),
    );
    expect(copy(created)).toMatchObject({ object: "contact_import", id: UUID });
    const done = await until(
      async () => ok(await resend.contacts.imports.get(created.id)),
      (i) => i.status === "completed" || i.status === "failed",
    );
    expect(copy(done)).toMatchObject({
      object: "contact_import",
      id: created.id,
      status: "completed",
      completed_at: expect.any(String),
      counts: { total: 4, created: 1, updated: 1, skipped: 0, failed: 2 },
    });
    expect((done as unknown as { errors: Array<{ line: number }> }).errors.map((e) => e.line)).toEqual([4, 5]);
    expect(ok(await resend.contacts.get({ email: "dan@example.com" }))).toMatchObject({
      first_name: "Dan",
      properties: { plan: { value: "pro" }, seats: { value: 2 } },
    });
    expect(ok(await resend.contacts.get(contactId)).first_name).toBe("Annie");
    expect(ok(await resend.contacts.list({ segmentId })).data.map((c) => c.email)).toContain("dan@example.com");
    const listed = ok(await resend.contacts.imports.list({ status: "completed" }));
    expect(copy(listed)).toMatchObject({ object: "list", has_more: false, data: [{ id: created.id }] });
    expect(ok(await resend.contacts.imports.list({ status: "queued" })).data).toEqual([]);
  });

  test("the events arrived, signed, in Resend's types", async () => {
    const types = await until(
      async () => new Set(rig!.hooks.received.map((r) => r.payload.type)),
      (seen) => seen.has("topic.deleted") && seen.has("contact.topics.updated") && seen.has("contact.deleted"),
    );
    for (const type of [
      "contact.created",
      "contact.updated",
      "contact.deleted",
      "contact.topics.updated",
      "topic.created",
      "topic.updated",
      "topic.deleted",
    ])
      expect(types).toContain(type);
    const annCreated = rig!.hooks.received.find(
      (r) => r.payload.type === "contact.created" && r.payload.data.email === "ann@example.com",
    );
    expect(annCreated?.payload.data).toMatchObject({ id: contactId, segment_ids: [segmentId], unsubscribed: false });
    expect(annCreated?.verifiedWith).toEqual([0]);
    expect(ok(await resend.webhooks.remove(webhookId))).toMatchObject({ deleted: true });
  });

  test("a sending-only key reads and changes no contact", async () => {
    for (const answer of [
      await sender.contacts.list(),
      await sender.contacts.create({ email: "x@example.com" }),
      await sender.segments.list(),
      await sender.topics.list(),
      await sender.contactProperties.list(),
      await sender.contacts.imports.list(),
    ])
      expect(answer.error).toMatchObject({ name: "insufficient_scope", statusCode: 403 });
  });
});
