/**
 * The topic rules other areas ask of the audience (docs/contacts.md#topic-rules): who receives mail sent with a
 * topic, a recorded choice, and unsubscribing from everything — each with its `contact.*` event.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { insertTopic } from "../src/contacts/audience-repo.ts";
import { tablesOf } from "../src/db/store.ts";
import { newId } from "../src/lib/ids.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";

let t: TestApp;
const topic = { optIn: newId(), optOut: newId() };

beforeAll(async () => {
  t = await createTestApp();
  const at = new Date().toISOString();
  await t.app.services.writer.write(async (tx) => {
    for (const [id, defaultSubscription] of [
      [topic.optIn, "opt_in"],
      [topic.optOut, "opt_out"],
    ] as const)
      await insertTopic(tx, {
        id,
        organizationId: t.organizationId,
        name: defaultSubscription,
        description: null,
        defaultSubscription,
        visibility: "public",
        createdAt: at,
        updatedAt: at,
      });
  });
  const { contacts } = t.app.services;
  await contacts.create(t.operator, { email: "plain@example.com" });
  await contacts.create(t.operator, { email: "Everything.Off@Example.com", unsubscribed: true });
  await contacts.create(t.operator, {
    email: "chose@example.com",
    topics: [
      { id: topic.optIn, subscription: "opt_out" },
      { id: topic.optOut, subscription: "opt_in" },
    ],
  });
});
afterAll(() => t.close());

const everyone = ["plain@example.com", "everything.off@example.com", "chose@example.com", "stranger@example.com"];

describe("subscribedTo", () => {
  test.each([
    ["an opt_in topic", "optIn", ["plain@example.com", "stranger@example.com"]],
    ["an opt_out topic", "optOut", ["chose@example.com"]],
  ] as const)("%s: defaults, own choices, unsubscribed contacts and non-contacts", async (_, which, receive) => {
    const got = await t.app.services.contacts.subscribedTo(t.organizationId, topic[which], everyone);
    expect([...got].sort()).toEqual([...receive].sort());
  });

  test("compares addresses without case, as the suppression list does", async () => {
    const got = await t.app.services.contacts.subscribedTo(t.organizationId, topic.optIn, ["PLAIN@example.COM"]);
    expect([...got]).toEqual(["plain@example.com"]);
  });

  test("a topic the organisation does not have is a validation error naming topic_id", async () => {
    await expect(t.app.services.contacts.subscribedTo(t.organizationId, newId(), everyone)).rejects.toMatchObject({
      name: "validation_error",
      details: [{ path: "topic_id" }],
    });
  });
});

describe("the send path's topic cache", () => {
  test("a topic deleted through the API is refused at the next send, not after the cache's age", async () => {
    const { topics, contacts } = t.app.services;
    const made = await topics.create(t.operator, { name: "Short-lived", default_subscription: "opt_in" });
    expect([...(await contacts.subscribedTo(t.organizationId, made.id, ["plain@example.com"]))]).toEqual([
      "plain@example.com",
    ]);
    await topics.remove(t.operator, made.id);
    await expect(contacts.subscribedTo(t.organizationId, made.id, ["plain@example.com"])).rejects.toMatchObject({
      name: "validation_error",
      details: [{ path: "topic_id" }],
    });
  });
});

describe("setTopicSubscription and unsubscribeEverywhere", () => {
  const eventsOf = async (type: string) => {
    const { events } = tablesOf(t.app.services.store.db);
    return t.app.services.store.db
      .select()
      .from(events)
      .where(and(eq(events.organizationId, t.organizationId), eq(events.type, type)));
  };

  test("a stranger who leaves a topic becomes a contact who no longer receives it", async () => {
    const { contacts } = t.app.services;
    const change = await contacts.setTopicSubscription(t.organizationId, "Leaver@Example.com", topic.optIn, "opt_out");
    expect(change.created).toBe(true);
    expect(await contacts.subscribedTo(t.organizationId, topic.optIn, ["leaver@example.com"])).toEqual(new Set());
    const updated = await eventsOf("contact.topics.updated");
    expect(updated.map((event) => event.data)).toContainEqual({
      id: change.contactId,
      email: "leaver@example.com",
      topics: [{ id: topic.optIn, subscription: "opt_out" }],
    });
    expect((await eventsOf("contact.created")).some((event) => event.data.id === change.contactId)).toBe(true);
    // Opting back in: the same contact, no second one.
    const again = await contacts.setTopicSubscription(t.organizationId, "leaver@example.com", topic.optIn, "opt_in");
    expect(again).toEqual({ contactId: change.contactId, created: false });
    expect(await contacts.subscribedTo(t.organizationId, topic.optIn, ["leaver@example.com"])).toEqual(
      new Set(["leaver@example.com"]),
    );
  });

  test("unsubscribing from everything takes a contact out of every topic, its own opt-ins too", async () => {
    const { contacts } = t.app.services;
    const before = await contacts.subscribedTo(t.organizationId, topic.optOut, ["chose@example.com"]);
    expect(before.size).toBe(1);
    const change = await contacts.unsubscribeEverywhere(t.organizationId, "chose@example.com");
    expect(change.created).toBe(false);
    for (const id of [topic.optIn, topic.optOut])
      expect(await contacts.subscribedTo(t.organizationId, id, ["chose@example.com"])).toEqual(new Set());
    const updated = await eventsOf("contact.updated");
    expect(updated.some((event) => event.data.id === change.contactId && event.data.unsubscribed === true)).toBe(true);
  });
});
