/**
 * Reading sent mail back and holding it: GET /v1/emails pages with cursors, newest first, filtered by tag,
 * recipient and status (a rare status through its own index); a scheduled message waits until its time (an
 * injected clock) and, like an immediate one still waiting, can be canceled once.
 */
import { describe, expect, test } from "bun:test";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { message, setUpApiTestApp } from "./helpers/http-api.ts";

let t: TestApp;

setUpApiTestApp((app) => (t = app));

describe("listing", () => {
  test("pages with cursors, newest first, and filters by tag, recipient and status", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.json("POST", "/v1/emails", {
        body: message({ to: `list${i}@x.org`, tags: [{ name: "batch", value: i % 2 ? "odd" : "even" }] }),
      });
      ids.push(res.body.id);
    }
    const page1 = await t.json("GET", "/v1/emails?limit=2&tag=batch");
    expect(page1.body.data.map((e: { id: string }) => e.id)).toEqual([ids[4], ids[3]]);
    expect(page1.body.has_more).toBe(true);
    const page2 = await t.json("GET", `/v1/emails?limit=2&tag=batch&after=${ids[3]}`);
    expect(page2.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    const back = await t.json("GET", `/v1/emails?limit=2&tag=batch&before=${ids[2]}`);
    expect(back.body.data.map((e: { id: string }) => e.id)).toEqual([ids[4], ids[3]]);
    const odd = await t.json("GET", "/v1/emails?tag=batch:odd");
    expect(odd.body.data.map((e: { id: string }) => e.id)).toEqual([ids[3], ids[1]]);
    const to = await t.json("GET", "/v1/emails?to=LIST2@x.org");
    expect(to.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2]]);
    const queued = (await t.json("GET", "/v1/emails?status=queued&limit=100")).body.data;
    expect(queued.every((e: { status: string }) => e.status === "queued")).toBe(true);
    expect(queued.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(ids));
    // A rare state is read through its own index on SQLite: the same answers, newest first, paged.
    const canceled: string[] = [];
    for (let i = 0; i < 2; i++) {
      const scheduled = await t.json("POST", "/v1/emails", {
        body: message({ to: `later${i}@x.org`, scheduled_at: new Date(Date.now() + 3_600_000).toISOString() }),
      });
      expect((await t.json("POST", `/v1/emails/${scheduled.body.id}/cancel`)).status).toBe(200);
      canceled.push(scheduled.body.id);
    }
    const newest = await t.json("GET", "/v1/emails?status=canceled&limit=1");
    expect(newest.body.data.map((e: { id: string; status: string }) => [e.id, e.status])).toEqual([
      [canceled[1], "canceled"],
    ]);
    expect(newest.body.has_more).toBe(true);
    const older = await t.json("GET", `/v1/emails?status=canceled&limit=1&after=${canceled[1]}`);
    expect(older.body.data.map((e: { id: string }) => e.id)).toEqual([canceled[0]]);
  });

  test.each([["limit=0"], ["limit=101"], ["after=xyz"], ["status=lost"]])("rejects %s", async (query) => {
    const res = await t.json("GET", `/v1/emails?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.name).toBe("validation_error");
  });
});

describe("scheduling", () => {
  test("a scheduled message waits, can be canceled once, and is never sent", async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const sent = await t.json("POST", "/v1/emails", { body: message({ scheduled_at: at }) });
    const record = await t.json("GET", `/v1/emails/${sent.body.id}`);
    expect(record.body).toMatchObject({ status: "scheduled", scheduled_at: at });
    await t.app.services.worker.runOnce();
    expect((await t.json("GET", `/v1/emails/${sent.body.id}`)).body.recipients[0].status).toBe("queued");
    const canceled = await t.json("POST", `/v1/emails/${sent.body.id}/cancel`);
    expect(canceled.body).toEqual({ object: "email", id: sent.body.id, status: "canceled" });
    const after = await t.json("GET", `/v1/emails/${sent.body.id}`);
    expect(after.body.status).toBe("canceled");
    expect(after.body.recipients).toEqual([
      expect.objectContaining({ status: "canceled", last_response: "canceled before sending" }),
    ]);
    expect(after.body.events.map((e: { type: string }) => e.type)).toEqual(["email.scheduled", "email.canceled"]);
    const again = await t.json("POST", `/v1/emails/${sent.body.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.name).toBe("conflict");
  });

  test("a scheduled message is not sent before its time, and is sent once the clock passes it", async () => {
    const clock = new ManualClock(Date.now());
    const own = await createTestApp({}, { clock });
    try {
      await own.app.services.domains.add(own.operator, "example.com", { verifiedOverride: true });
      const at = clock.now() + 3_600_000;
      const sent = await own.json("POST", "/v1/emails", {
        body: message({ scheduled_at: new Date(at).toISOString() }),
      });
      const status = async () => (await own.json("GET", `/v1/emails/${sent.body.id}`)).body.recipients[0].status;
      clock.set(at - 1);
      expect(await own.app.services.worker.runOnce()).toBe(0);
      expect(await status()).toBe("queued");
      clock.set(at);
      expect(await own.app.services.worker.runOnce()).toBe(1);
      expect(await status()).toBe("delivered");
    } finally {
      await own.close();
    }
  });

  test("an immediate message can be canceled while it waits, not once it was delivered (docs/operations.md)", async () => {
    // A key of its own: the file's key spends most of its 100 requests a minute in the other tests.
    const own = {
      key: (await t.app.services.keys.create(t.operator, { name: "cancel", scopes: ["full_access"] })).key,
    };
    const waiting = await t.json("POST", "/v1/emails", { body: message(), ...own });
    expect((await t.json("POST", `/v1/emails/${waiting.body.id}/cancel`, own)).status).toBe(200);
    expect((await t.json("GET", `/v1/emails/${waiting.body.id}`, own)).body.recipients[0].status).toBe("canceled");
    const delivered = await t.json("POST", "/v1/emails", { body: message(), ...own });
    await t.app.services.worker.runOnce();
    const refused = await t.json("POST", `/v1/emails/${delivered.body.id}/cancel`, own);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("No recipient of this email is still waiting");
  });
});
