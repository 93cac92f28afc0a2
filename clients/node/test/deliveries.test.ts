/**
 * The delivery queue against the server, on a message scheduled an hour ahead (its recipients wait, queued, for the
 * whole test): list by message, summary, retry and release refused for a queued delivery, cancel one by id and the
 * rest in bulk, a bulk action without a filter, unknown ids, and the scopes a key needs.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Mailroom } from "@mailroom/node";
import { env, live, loadLibrary, ok, unique, type Library } from "./support.ts";

const HOUR = 3600_000;

let lib: Library;
let baseUrl: string;
let mailroom: Mailroom;

beforeAll(async () => {
  lib = await loadLibrary();
  if (!live) return;
  baseUrl = env("MAILROOM_BASE_URL");
  mailroom = new lib.Mailroom(env("MAILROOM_API_KEY"), { baseUrl });
}, 120_000);

describe.skipIf(!live)("deliveries", () => {
  test("a scheduled message's recipients: listed queued, summarised, canceled one by id and the rest in bulk", async () => {
    const at = new Date(Date.now() + HOUR);
    const to = [`${unique("queue-a")}@example.org`, `${unique("queue-b")}@example.org`];
    const { id: emailId } = ok(
      await mailroom.emails.send({
        from: env("MAILROOM_FROM"),
        to,
        subject: "Queued for later",
        html: "<p>Later</p>",
        scheduled_at: at,
      }),
    );

    const listed = ok(await mailroom.deliveries.list({ email_id: emailId }));
    expect(listed.object).toBe("list");
    expect(listed.has_more).toBe(false);
    expect(listed.data.map((delivery) => delivery.recipient).sort()).toEqual([...to].sort());
    for (const delivery of listed.data) {
      expect(delivery).toMatchObject({
        object: "delivery",
        email_id: emailId,
        status: "queued",
        provider: null,
        attempts: 0,
        last_response: null,
      });
      expect(delivery.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(delivery.next_attempt_at!)).toBe(Date.parse(at.toISOString()));
    }
    const queued = ok(await mailroom.deliveries.list({ email_id: emailId, status: "queued", limit: 1 }));
    expect(queued.data).toEqual([listed.data[0]!]);
    expect(queued.has_more).toBe(true);
    expect(ok(await mailroom.deliveries.list({ email_id: emailId, status: "deferred" })).data).toEqual([]);

    const summary = ok(await mailroom.deliveries.summary());
    expect(summary.object).toBe("queue_summary");
    expect(summary.by_status.queued).toBeGreaterThanOrEqual(2);
    expect(summary.by_domain.find((row) => row.domain === "example.org")?.queued).toBeGreaterThanOrEqual(2);
    // Not attempted yet: counted under no provider.
    expect(summary.by_provider.find((row) => row.provider === null)?.queued).toBeGreaterThanOrEqual(2);
    expect(typeof summary.oldest_waiting_at).toBe("string");

    const [first, second] = listed.data;
    const retried = await mailroom.deliveries.retry(first!.id);
    expect(retried.data).toBeNull();
    expect(retried.error?.name).toBe("conflict");
    expect(retried.error?.statusCode).toBe(409);
    expect((await mailroom.deliveries.release(first!.id)).error?.name).toBe("conflict");

    const canceled = ok(await mailroom.deliveries.cancel(first!.id));
    expect(canceled).toMatchObject({
      object: "delivery",
      id: first!.id,
      recipient: first!.recipient,
      status: "canceled",
    });
    expect((await mailroom.deliveries.cancel(first!.id)).error?.name).toBe("conflict");

    const bulk = ok(await mailroom.deliveries.bulk.cancel({ email_id: emailId }));
    expect(bulk).toEqual({ object: "bulk", matched: 1, changed: 1 });
    expect(ok(await mailroom.deliveries.list({ email_id: emailId })).data).toEqual([]);
    expect(ok(await mailroom.deliveries.bulk.retry({ email_id: emailId }))).toEqual({
      object: "bulk",
      matched: 0,
      changed: 0,
    });
    const recipients = ok(await mailroom.emails.get(emailId)).recipients;
    expect(recipients.map((recipient) => [recipient.email, recipient.status]).sort()).toEqual(
      [first!.recipient, second!.recipient].sort().map((email) => [email, "canceled"]),
    );
  });

  test("a bulk action without a filter is a validation error; an unknown delivery is not found", async () => {
    for (const { error } of [
      await mailroom.deliveries.bulk.cancel({}),
      await mailroom.deliveries.bulk.retry({}),
      await mailroom.deliveries.bulk.release({}),
    ]) {
      expect(error?.name).toBe("validation_error");
      expect(error?.statusCode).toBe(400);
    }
    const unknown = crypto.randomUUID();
    for (const { error } of [
      await mailroom.deliveries.retry(unknown),
      await mailroom.deliveries.cancel(unknown),
      await mailroom.deliveries.release(unknown),
    ])
      expect(error?.name).toBe("not_found");
  });

  test("a sending key may not see or steer the queue: insufficient_scope", async () => {
    const sending = new lib.Mailroom(env("MAILROOM_SENDING_KEY"), { baseUrl });
    const listed = await sending.deliveries.list();
    expect(listed.data).toBeNull();
    expect(listed.error?.name).toBe("insufficient_scope");
    expect(listed.error?.statusCode).toBe(403);
    expect((await sending.deliveries.summary()).error?.name).toBe("insufficient_scope");
    expect((await sending.deliveries.bulk.cancel({ status: "held" })).error?.name).toBe("insufficient_scope");
  });
});
