/**
 * The organisation's settings against the server: what `get()` shows, a daily quota reached (one more message
 * accepted, the next refused with 429 `daily_quota_exceeded` and its Retry-After to the next UTC day), a key's own
 * quota, settings the server refuses, and the scopes a key needs. The other libraries' suites run against the same
 * server after this one: every setting changed here is put back whatever happens (the quota to none), and the quota
 * is set from the usage the server reports at that moment rather than from a count of our own.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Mailroom } from "@mailroom/node";
import { env, live, loadLibrary, ok, unique, type Library } from "./support.ts";

let lib: Library;
let baseUrl: string;
let mailroom: Mailroom;

beforeAll(async () => {
  lib = await loadLibrary();
  if (!live) return;
  baseUrl = env("MAILROOM_BASE_URL");
  mailroom = new lib.Mailroom(env("MAILROOM_API_KEY"), { baseUrl });
}, 120_000);

const send = (client: Mailroom) =>
  client.emails.send({
    from: env("MAILROOM_FROM"),
    to: [`${unique("quota")}@example.org`],
    subject: "Counted against the daily quota",
    html: "<p>Counted</p>",
  });

/** Seconds from now to the next 00:00 UTC, when a daily quota starts again. */
const secondsToNextUtcDay = () => {
  const now = new Date();
  return (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000;
};

describe.skipIf(!live)("organization", () => {
  test("get() shows the settings in force, today's usage, retention, storage and the pause", async () => {
    const organization = ok(await mailroom.organization.get());
    expect(organization).toMatchObject({
      object: "organization",
      id: expect.any(String),
      name: expect.any(String),
      paused: false,
    });
    expect(organization.rate_limit).toBeGreaterThanOrEqual(1);
    expect(organization.daily_quota === null || organization.daily_quota >= 1).toBe(true);
    expect(Number.isInteger(organization.usage_today)).toBe(true);
    expect(organization.usage_today).toBeGreaterThanOrEqual(0);
    expect(organization.retention.content_days).toBeGreaterThanOrEqual(1);
    expect(organization.retention.metadata_days).toBeGreaterThanOrEqual(1);
    // Null until the server's retention job has counted once; then counts and when they were made.
    if (organization.storage !== null) {
      expect(organization.storage.messages).toBeGreaterThanOrEqual(0);
      expect(organization.storage.content_bytes).toBeGreaterThanOrEqual(0);
      expect(Number.isNaN(Date.parse(organization.storage.measured_at))).toBe(false);
    }
    expect(Number.isNaN(Date.parse(organization.created_at))).toBe(false);
  });

  test("a daily quota of one more message: it is accepted, the next is daily_quota_exceeded until the next UTC day", async () => {
    try {
      // The server reserves a second's expected sends ahead and gives back what it did not use when the second
      // ends: past that, usage_today is exact.
      await Bun.sleep(1_100);
      const { usage_today } = ok(await mailroom.organization.get());
      const capped = ok(await mailroom.organization.update({ daily_quota: usage_today + 1 }));
      expect(capped.object).toBe("organization");
      expect(capped.daily_quota).toBe(usage_today + 1);

      const accepted = ok(await send(mailroom));
      // The record says whether retention removed the content: a message just sent still has it.
      expect(ok(await mailroom.emails.get(accepted.id)).content_removed_at).toBeNull();
      expect(ok(await mailroom.organization.get()).usage_today).toBe(usage_today + 1);

      const { data, error, headers } = await send(mailroom);
      const expectedWait = secondsToNextUtcDay();
      expect(data).toBeNull();
      expect(error).toBeInstanceOf(lib.MailroomError);
      expect(error?.name).toBe("daily_quota_exceeded");
      expect(error?.statusCode).toBe(429);
      expect(Number(headers?.["retry-after"])).toBe(error!.retryAfter!);
      expect(Math.abs(error!.retryAfter! - expectedWait)).toBeLessThanOrEqual(5);
      // A refused message is not counted.
      expect(ok(await mailroom.organization.get()).usage_today).toBe(usage_today + 1);

      const lifted = ok(await mailroom.organization.update({ daily_quota: null }));
      expect(lifted.daily_quota).toBeNull();
      ok(await send(mailroom));
    } finally {
      // Never leave a quota that would refuse the next suites' mail.
      ok(await mailroom.organization.update({ daily_quota: null }));
    }
  });

  test("a key's own daily quota, given at creation, refuses its second message of the day", async () => {
    const created = ok(await mailroom.apiKeys.create({ name: unique("capped"), daily_quota: 1 }));
    try {
      expect(created.daily_quota).toBe(1);
      expect(ok(await mailroom.apiKeys.list({ limit: 100 })).data.find((key) => key.id === created.id)).toMatchObject({
        daily_quota: 1,
      });
      const capped = new lib.Mailroom(created.token, { baseUrl });
      ok(await send(capped));
      const over = await send(capped);
      expect(over.error?.name).toBe("daily_quota_exceeded");
      expect(over.error?.statusCode).toBe(429);
      expect(over.error?.retryAfter).toBeGreaterThan(0);
      // The organisation's other keys are not held to it.
      ok(await send(mailroom));
    } finally {
      ok(await mailroom.apiKeys.remove(created.id));
    }
  });

  test("settings out of range or unknown are validation errors, and change nothing", async () => {
    const before = ok(await mailroom.organization.get());
    const zero = await mailroom.organization.update({ daily_quota: 0 });
    // Taken by mistake, a quota of 0 would refuse all the mail that follows: undo it before failing.
    if (!zero.error) ok(await mailroom.organization.update({ daily_quota: null }));
    expect(zero.data).toBeNull();
    expect(zero.error?.name).toBe("validation_error");
    expect(zero.error?.statusCode).toBe(400);
    expect(JSON.stringify(zero.error)).toContain("daily_quota");

    const retention = await mailroom.organization.update({ retention: { content_days: 0 } });
    expect(retention.error?.name).toBe("validation_error");
    expect(JSON.stringify(retention.error)).toContain("retention.content_days");

    // `paused` is shown but not set here (sending.pause does that): the server refuses it rather than ignore it.
    const unknown = await mailroom.organization.update({ paused: true } as never);
    expect(unknown.error?.name).toBe("validation_error");

    const after = ok(await mailroom.organization.get());
    expect({ ...after, usage_today: 0, storage: null }).toEqual({ ...before, usage_today: 0, storage: null });
  });

  test("a sending key may not read or change the organisation: insufficient_scope", async () => {
    const sending = new lib.Mailroom(env("MAILROOM_SENDING_KEY"), { baseUrl });
    const read = await sending.organization.get();
    expect(read.data).toBeNull();
    expect(read.error?.name).toBe("insufficient_scope");
    expect(read.error?.statusCode).toBe(403);
    const change = await sending.organization.update({ daily_quota: 1 });
    // Had the server taken it, the quota of one would refuse the next suites' mail: put it back before failing.
    if (!change.error) ok(await mailroom.organization.update({ daily_quota: null }));
    expect(change.error?.name).toBe("insufficient_scope");
  });
});
