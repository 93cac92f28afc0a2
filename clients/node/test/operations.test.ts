/**
 * The request log, usage, email metrics and the inbound routes against the server: a request found in the log with
 * its bodies and the key redacted, the organisation's usage, metrics as totals and by period, and routes created,
 * ordered, tested against an address, changed and removed.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Mailroom } from "@mailroom/node";
import { env, live, loadLibrary, ok, unique, waitFor, type Library } from "./support.ts";

let lib: Library;
let mailroom: Mailroom;
let apiKey: string;

beforeAll(async () => {
  lib = await loadLibrary();
  if (!live) return;
  apiKey = env("MAILROOM_API_KEY");
  mailroom = new lib.Mailroom(apiKey, { baseUrl: env("MAILROOM_BASE_URL") });
}, 120_000);

describe.skipIf(!live)("logs, usage, metrics", () => {
  test("logs: a request made is listed, filtered and read with its bodies, no secret in them", async () => {
    const name = unique("logged");
    const created = ok(await mailroom.segments.create({ name }));
    // The log is written off the request path, in batches: it shows up shortly after. Newest first, so this
    // request's entry is among the first POSTs to /segments.
    const full = await waitFor(async () => {
      const page = ok(await mailroom.logs.list({ method: "POST", status: 200, limit: 100 }));
      for (const item of page.data.filter((entry) => entry.endpoint === "/segments")) {
        expect(item).toMatchObject({ method: "POST", response_status: 200 });
        const log = ok(await mailroom.logs.get(item.id));
        if ((log.request_body as { name?: string } | null)?.name === name) return log;
      }
      return undefined;
    }, "the entry of this request");
    expect(full.user_agent).toStartWith("mailroom-node/");
    expect(full).toMatchObject({ object: "log", method: "POST", request_body: { name } });
    expect((full.response_body as { id: string }).id).toBe(created.id);
    expect(JSON.stringify(full)).not.toContain(apiKey);
    expect((await mailroom.logs.get("")).error?.name).toBe("missing_required_field");
    expect((await mailroom.logs.get("00000000-0000-4000-8000-000000000000")).error?.name).toBe("not_found");
  }, 60_000);

  test("usage.get: Resend's shape with the organisation's figures", async () => {
    const usage = ok(await mailroom.usage.get());
    expect(usage.object).toBe("usage");
    expect(typeof usage.emails.daily.sent).toBe("number");
    expect(typeof usage.emails.monthly.used).toBe("number");
    expect(usage.domains.used).toBeGreaterThanOrEqual(1);
    expect(typeof usage.rate_limit.limit).toBe("number");
  });

  test("emails.metrics: totals over a range, and one row per day with dimensions period", async () => {
    const totals = ok(await mailroom.emails.metrics({ metrics: ["sent", "delivered", "delivery_rate"] }));
    expect(totals).toMatchObject({ object: "metrics", granularity: "daily", dimensions: [] });
    expect(totals.metrics).toEqual(["sent", "delivered", "delivery_rate"]);
    expect(typeof totals.totals.sent).toBe("number");
    expect(totals.data).toBeUndefined();

    const end = new Date();
    const start = new Date(end.getTime() - 2 * 86_400_000);
    const daily = ok(
      await mailroom.emails.metrics({ start_date: start, end_date: end, dimensions: ["period"], metrics: ["sent"] }),
    );
    expect(daily.dimensions).toEqual(["period"]);
    expect(daily.data?.length).toBeGreaterThanOrEqual(2);
    expect(typeof daily.data?.[0]?.period).toBe("string");

    const refused = await mailroom.emails.metrics({ timezone: "Europe/Paris" });
    expect(refused.error?.name).toBe("validation_error");
  });
});

describe.skipIf(!live)("emails.receiving.routes", () => {
  test("create, list in order, get, move, test an address, remove", async () => {
    const label = unique("r");
    const first = ok(
      await mailroom.emails.receiving.routes.create({
        match: { recipient: `${label}-noreply@example.com` },
        action: "drop",
      }),
    );
    expect(first).toMatchObject({ object: "inbound_route", action: "drop", spam_threshold: null, forward_to: [] });
    expect(first.match).toEqual({ recipient: `${label}-noreply@example.com`, header: null });
    const second = ok(
      await mailroom.emails.receiving.routes.create({
        match: { recipient: `${label}-support@example.com`, header: { name: "X-Priority", contains: "1" } },
        action: "forward",
        forward_to: ["helpdesk@elsewhere.test"],
        spam_threshold: 8,
      }),
    );
    try {
      expect(second.position).toBe(first.position + 1);
      expect(ok(await mailroom.emails.receiving.routes.get(second.id)).forward_to).toEqual(["helpdesk@elsewhere.test"]);

      const listed = ok(await mailroom.emails.receiving.routes.list()).data.map((route) => route.id);
      expect(listed.indexOf(first.id)).toBeLessThan(listed.indexOf(second.id));

      const moved = ok(await mailroom.emails.receiving.routes.update({ id: second.id, position: first.position }));
      expect(moved.position).toBe(first.position);
      expect(ok(await mailroom.emails.receiving.routes.get(first.id)).position).toBe(first.position + 1);

      const dropped = ok(await mailroom.emails.receiving.routes.test({ recipient: `${label}-noreply@example.com` }));
      expect(dropped).toMatchObject({ object: "inbound_route_test", receiving: true, action: "drop" });
      expect(dropped.route?.id).toBe(first.id);
      const forwarded = ok(
        await mailroom.emails.receiving.routes.test({
          recipient: `${label}-support@example.com`,
          headers: { "X-Priority": "1 (Highest)" },
        }),
      );
      expect(forwarded.route?.id).toBe(second.id);
      expect(forwarded.action).toBe("forward");
      const unmatched = ok(await mailroom.emails.receiving.routes.test({ recipient: `${label}-other@example.com` }));
      expect(unmatched.action).toBe("store");

      const invalid = await mailroom.emails.receiving.routes.create({ action: "forward" });
      expect(invalid.error?.name).toBe("validation_error");
      expect((await mailroom.emails.receiving.routes.test({ recipient: "" })).error?.name).toBe(
        "missing_required_field",
      );
    } finally {
      for (const route of [first, second])
        expect(ok(await mailroom.emails.receiving.routes.remove(route.id))).toMatchObject({
          object: "inbound_route",
          id: route.id,
          deleted: true,
        });
    }
    expect((await mailroom.emails.receiving.routes.get(first.id)).error?.name).toBe("not_found");
  }, 60_000);
});
