/**
 * The audience's rules beyond the SDK's happy paths (docs/contacts.md), on either engine: organisations never see
 * each other's contacts, segments or topics; a test key is refused; imports fail whole when the file lacks its
 * address column, skip on conflict when asked, and resume after a crashed holder from where their counts stood;
 * and on SQLite, hand-written forms of the look-ups and searches read by index, never a scan (the statements the
 * services run for the scale target's reads are explained on both engines by test/contacts-scale.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { operatorActor } from "../src/access.ts";
import { engineOf } from "../src/db/dialect.ts";
import { tablesOf } from "../src/db/store.ts";
import { newId } from "../src/lib/ids.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Uploads `csv` as Resend's SDK does (multipart), then works the imports due. */
async function importCsv(csv: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append("file", new Blob([csv], { type: "text/csv" }), "contacts.csv");
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await t.app.http.handle(
    new Request("http://localhost/v1/contacts/imports", {
      method: "POST",
      headers: { authorization: `Bearer ${t.liveKey}` },
      body: form,
    }),
  );
  const created = (await response.json()) as { id: string };
  await t.app.services.contactImports.runPending();
  return (await t.json("GET", `/v1/contacts/imports/${created.id}`)).body;
}

describe("organisations", () => {
  test("one organisation's contacts, segments and topics are not another's", async () => {
    const other = newId();
    await t.app.services.writer.write(async (tx) => {
      await tx
        .insert(tablesOf(tx).organizations)
        .values({ id: other, name: "Other", createdAt: "2026-12-01T00:00:00Z" });
    });
    const them = operatorActor(other);
    const { contacts, segments, topics } = t.app.services;
    const theirs = await contacts.create(them, { email: "shared@example.com" });
    const segment = await segments.create(them, { name: "Theirs" });
    const topic = await topics.create(them, { name: "Theirs", default_subscription: "opt_in" });
    // The same address is a contact of each organisation, apart.
    const ours = await t.json("POST", "/v1/contacts", { body: { email: "shared@example.com" } });
    expect(ours.status).toBe(200);
    expect(ours.body.id).not.toBe(theirs.id);
    for (const path of [`/v1/contacts/${theirs.id}`, `/v1/segments/${segment.id}`, `/v1/topics/${topic.id}`])
      expect((await t.json("GET", path)).status).toBe(404);
    const joined = await t.json("POST", `/v1/contacts/${ours.body.id}/segments/${segment.id}`);
    expect(joined.status).toBe(404);
    const chose = await t.json("PATCH", "/v1/contacts/shared@example.com/topics", {
      body: [{ id: topic.id, subscription: "opt_out" }],
    });
    expect(chose.body).toMatchObject({ name: "validation_error", details: [{ path: "topics.0.id" }] });
    await expect(contacts.subscribedTo(t.organizationId, topic.id, ["shared@example.com"])).rejects.toMatchObject({
      name: "validation_error",
    });
  });

  test("a test key is a sandbox: the audience is live data", async () => {
    const answer = await t.json("GET", "/v1/contacts", { key: t.testKey });
    expect(answer.status).toBe(403);
    expect(answer.body.name).toBe("insufficient_scope");
  });
});

describe("contacts", () => {
  test.each([
    ["an address that does not parse", { email: "nobody" }, "email"],
    ["a name too long", { email: "long@example.com", first_name: "x".repeat(300) }, "first_name"],
    ["an unknown field", { email: "extra@example.com", nickname: "x" }, "nickname"],
  ])("refuses %s, naming the field", async (_, body, path) => {
    const answer = await t.json("POST", "/v1/contacts", { body });
    expect(answer.status).toBe(400);
    expect(answer.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  test("a topic's default subscription cannot change; an unsubscribed contact is out of every topic", async () => {
    const topic = (await t.json("POST", "/v1/topics", { body: { name: "T", default_subscription: "opt_in" } })).body;
    const change = await t.json("PATCH", `/v1/topics/${topic.id}`, { body: { default_subscription: "opt_out" } });
    expect(change.status).toBe(400);
    await t.json("POST", "/v1/contacts", { body: { email: "gone@example.com", unsubscribed: true } });
    const listed = await t.json("GET", "/v1/contacts/gone@example.com/topics");
    expect(listed.body.data.find((row: { id: string }) => row.id === topic.id).subscription).toBe("opt_out");
  });
});

describe("a segment's size (docs/contacts.md#tables)", () => {
  test("counts the segment's contacts now, unsubscribed ones included; another organisation's segment is not found", async () => {
    const segment = (await t.json("POST", "/v1/segments", { body: { name: "Counted" } })).body;
    expect((await t.json("GET", `/v1/segments/${segment.id}/count`)).body).toEqual({
      object: "segment_count",
      segment_id: segment.id,
      contacts: 0,
    });
    for (const [email, extra] of [
      ["c1@count.test", {}],
      ["c2@count.test", { unsubscribed: true }],
      ["c3@count.test", {}],
    ] as const)
      await t.json("POST", "/v1/contacts", { body: { email, segments: [{ id: segment.id }], ...extra } });
    await t.json("POST", "/v1/contacts", { body: { email: "outside@count.test" } });
    await t.json("DELETE", `/v1/contacts/c3@count.test/segments/${segment.id}`);
    expect((await t.json("GET", `/v1/segments/${segment.id}/count`)).body.contacts).toBe(2);
    const other = newId();
    await t.app.services.writer.write(async (tx) => {
      await tx.insert(tablesOf(tx).organizations).values({ id: other, name: "O2", createdAt: "2026-12-01T00:00:00Z" });
    });
    const theirs = await t.app.services.segments.create(operatorActor(other), { name: "Theirs" });
    expect((await t.json("GET", `/v1/segments/${theirs.id}/count`)).status).toBe(404);
  });
});

describe("search (docs/contacts.md#search)", () => {
  test("finds by the start of an address, by a name, by a fragment of an address; refuses a cursor", async () => {
    const org = newId();
    await t.app.services.writer.write(async (tx) => {
      await tx
        .insert(tablesOf(tx).organizations)
        .values({ id: org, name: "Search", createdAt: "2026-12-01T00:00:00Z" });
    });
    const actor = operatorActor(org);
    for (const [email, first_name, last_name] of [
      ["ann.lee@north.test", "Ann", "Lee"],
      ["anna@south.test", "Anna", null],
      ["bob@north.test", "Bob", "Annesley"],
      ["carl@east.test", "Carl", "Smith"],
    ] as const)
      await t.app.services.contacts.create(actor, { email, first_name, last_name });
    const found = async (search: string, limit = 20) => {
      const page = await t.app.services.contacts.list(actor, { limit, search });
      return { emails: page.data.map((c) => c.email), more: page.has_more };
    };
    // The address's start first (in address order), then names and fragments, newest first.
    expect(await found("ANN")).toEqual({
      emails: ["ann.lee@north.test", "anna@south.test", "bob@north.test"],
      more: false,
    });
    expect(await found("ann lee")).toEqual({ emails: ["ann.lee@north.test"], more: false });
    expect(await found("north.test")).toEqual({ emails: ["bob@north.test", "ann.lee@north.test"], more: false });
    expect(await found("smith")).toEqual({ emails: ["carl@east.test"], more: false });
    expect(await found("100%")).toEqual({ emails: [], more: false });
    expect(await found("ann", 2)).toEqual({ emails: ["ann.lee@north.test", "anna@south.test"], more: true });
    const cursor = await t.json("GET", `/v1/contacts?search=ann&after=${newId()}`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.details.map((d: { path: string }) => d.path)).toEqual(["search"]);
  });
});

describe("search's window (docs/contacts.md#search)", () => {
  test("names are found among the newest 10,000 across its slices, and an older contact by its address", async () => {
    const org = newId();
    const at = "2026-12-01T00:00:00Z";
    await t.app.services.writer.write(async (tx) => {
      await tx.insert(tablesOf(tx).organizations).values({ id: org, name: "Window", createdAt: at });
    });
    // Oldest first (ids grow with time): Zelda just outside the window, Yara in its fourth slice of 2,000.
    const names = Array.from({ length: 10_050 }, (_, i) => (i === 40 ? "Zelda" : i === 4_000 ? "Yara" : "Someone"));
    for (let from = 0; from < names.length; from += 500)
      await t.app.services.writer.write(async (tx) => {
        await tx.insert(tablesOf(tx).contacts).values(
          names.slice(from, from + 500).map((firstName, k) => ({
            id: newId(),
            organizationId: org,
            email: `p${from + k}@window.test`,
            firstName,
            lastName: null,
            unsubscribed: false,
            properties: {},
            createdAt: at,
            updatedAt: at,
          })),
        );
      });
    const actor = operatorActor(org);
    const found = async (search: string) =>
      (await t.app.services.contacts.list(actor, { limit: 20, search })).data.map((c) => c.email);
    expect(await found("yara")).toEqual(["p4000@window.test"]);
    expect(await found("zelda")).toEqual([]);
    expect(await found("p40@")).toEqual(["p40@window.test"]);
  }, 60_000);
});

describe("imports", () => {
  test("a file without its address column fails whole, saying why", async () => {
    const done = await importCsv("name,city\nAnn,Oslo\n");
    expect(done).toMatchObject({ status: "failed", error: expect.stringContaining('"email"') });
  });

  test("on_conflict skip leaves existing contacts as they were", async () => {
    await t.json("POST", "/v1/contacts", { body: { email: "kept@example.com", first_name: "Kept" } });
    const done = await importCsv("email,first_name\nkept@example.com,Changed\nnew-one@example.com,New\n", {
      on_conflict: "skip",
    });
    expect(done).toMatchObject({ status: "completed", counts: { total: 2, created: 1, skipped: 1, failed: 0 } });
    expect((await t.json("GET", "/v1/contacts/kept@example.com")).body.first_name).toBe("Kept");
  });

  test("an import whose holder crashed resumes after the records its counts hold", async () => {
    const id = newId();
    const path = join(t.dataDir, `resume-${id}.csv`);
    writeFileSync(path, "email\nfirst@resume.test\nsecond@resume.test\nthird@resume.test\nfourth@resume.test\n");
    const at = new Date().toISOString();
    await t.app.services.writer.write(async (tx) => {
      await tx.insert(tablesOf(tx).contactImports).values({
        id,
        organizationId: t.organizationId,
        status: "in_progress",
        onConflict: "upsert",
        columnMap: {},
        segments: [],
        topics: [],
        filePath: path,
        fileBytes: 80,
        total: 2,
        created: 2,
        updated: 0,
        skipped: 0,
        failed: 0,
        errors: [],
        error: null,
        leaseUntil: Date.now() - 1,
        createdAt: at,
        updatedAt: at,
        completedAt: null,
      });
    });
    await t.app.services.contactImports.runPending();
    const done = (await t.json("GET", `/v1/contacts/imports/${id}`)).body;
    expect(done).toMatchObject({ status: "completed", counts: { total: 4, created: 4 } });
    expect((await t.json("GET", "/v1/contacts/first@resume.test")).status).toBe(404);
    expect((await t.json("GET", "/v1/contacts/third@resume.test")).status).toBe(200);
  });

  test("an upload that is not multipart is refused", async () => {
    const answer = await t.json("POST", "/v1/contacts/imports", { body: { file: "email\na@b.c" } });
    expect(answer.status).toBe(400);
  });
});

describe("the scale target's look-ups read by index (SQLite's plan)", () => {
  test.each([
    ["a contact by address", "SELECT * FROM contacts WHERE organization_id = 'o' AND email = 'a@b.c'"],
    ["a page of contacts", "SELECT * FROM contacts WHERE organization_id = 'o' AND id < 'x' ORDER BY id DESC LIMIT 21"],
    [
      "a page of a segment's contacts",
      "SELECT c.* FROM contact_segments s JOIN contacts c ON c.id = s.contact_id WHERE s.segment_id = 's' AND c.organization_id = 'o' ORDER BY s.contact_id DESC LIMIT 21",
    ],
    [
      "a search by the start of an address",
      "SELECT * FROM contacts WHERE organization_id = 'o' AND email >= 'ann' AND email < 'ano' AND substr(email, 1, 3) = 'ann' ORDER BY email LIMIT 21",
    ],
    [
      "a search among the newest contacts",
      "SELECT * FROM contacts WHERE organization_id = 'o' AND id >= coalesce((SELECT c.id FROM contacts c WHERE c.organization_id = 'o' ORDER BY c.id DESC LIMIT 1 OFFSET 9999), '') AND (first_name LIKE 'ann%' OR last_name LIKE 'ann%' OR email LIKE '%ann%') ORDER BY id DESC LIMIT 21",
    ],
    [
      "a topic check",
      "SELECT c.email, ct.subscription FROM contacts c LEFT JOIN contact_topics ct ON ct.contact_id = c.id AND ct.topic_id = 't' WHERE c.organization_id = 'o' AND c.email IN (SELECT value FROM json_each('[\"a@b.c\"]'))",
    ],
  ])("%s", async (_, query) => {
    const db = t.app.services.store.db;
    if (engineOf(db) !== "sqlite") return;
    const sqlite = (t.app.services.store as unknown as { sqlite: import("bun:sqlite").Database }).sqlite;
    const plan = (sqlite.query(`EXPLAIN QUERY PLAN ${query}`).all() as Array<{ detail: string }>).map((r) => r.detail);
    expect(plan.filter((step) => /^SCAN (contacts|contact_segments|contact_topics)\b/.test(step))).toEqual([]);
    expect(plan.join(" ")).toMatch(/USING (COVERING )?INDEX|USING PRIMARY KEY/);
  });
});
