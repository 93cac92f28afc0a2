/**
 * The delivery queue, visible and steered (issue 28, docs/operations.md), on the suite's engine: the waiting recipients
 * with their attempts, next attempt and last reply; the summary; retry, cancel and release, one and in bulk — each
 * through the lifecycle, with its event, never touching a recipient that is final or being attempted now; the
 * email's own cancel reaching recipients on their way; the scopes that guard it all.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { DeliveryJob, DeliveryResult, Provider } from "../src/providers/types.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { runCli, runCommand, cleanEnv, mailroomCommand } from "./helpers/process.ts";

/**
 * A provider that defers every recipient whose local part starts with `defer` (451, next attempt an hour away),
 * delivers the rest, and delivers a deferred one once `letThrough` names it; `hold` keeps the next attempt at an
 * address in flight until released.
 */
function scriptedProvider() {
  const attempts = new Map<string, number>();
  const through = new Set<string>();
  const holds = new Map<string, { started: () => void; release: Promise<void> }>();
  const provider: Provider = {
    name: "scripted",
    async deliver(job: DeliveryJob): Promise<DeliveryResult> {
      attempts.set(job.recipient, (attempts.get(job.recipient) ?? 0) + 1);
      const hold = holds.get(job.recipient);
      if (hold) {
        hold.started();
        await hold.release;
      }
      if (job.recipient.startsWith("defer") && !through.has(job.recipient))
        return { outcome: "temporary", response: "451 4.7.1 greylisted, try later", retryAfterMs: 3_600_000 };
      return { outcome: "delivered", response: "250 2.0.0 OK" };
    },
    async close() {},
  };
  return {
    provider,
    attempts,
    letThrough: (address: string) => through.add(address),
    hold(address: string) {
      let release!: () => void;
      let started!: () => void;
      const begun = new Promise<void>((resolve) => (started = resolve));
      holds.set(address, { started, release: new Promise<void>((resolve) => (release = resolve)) });
      return {
        begun,
        release: () => {
          holds.delete(address);
          release();
        },
      };
    },
  };
}

let t: TestApp;
let scripted: ReturnType<typeof scriptedProvider>;

const send = async (to: string[]) => {
  const { status, body } = await t.json("POST", "/v1/emails", {
    body: { from: "ops@example.com", to, subject: "Queue", text: "Hello" },
  });
  expect(status).toBe(200);
  return body.id as string;
};
const deliveriesOf = async (query: string) => {
  const { status, body } = await t.json("GET", `/v1/deliveries${query}`);
  expect(status).toBe(200);
  return body.data as Array<Record<string, any>>;
};
const eventsOf = async (emailId: string) =>
  (await t.json("GET", `/v1/emails/${emailId}`)).body.events?.map((e: { type: string }) => e.type) ?? [];
const statusOf = async (deliveryId: string) =>
  (
    (await t.app.services.store.db.query.deliveries.findFirst({
      where: (d, { eq }) => eq(d.id, deliveryId),
    })) as { status: string }
  ).status;

beforeAll(async () => {
  scripted = scriptedProvider();
  t = await createTestApp({}, { liveProvider: scripted.provider });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
});
afterAll(() => t?.close());

describe("the queue, visible", () => {
  test("a deferred recipient shows its attempts, next attempt and last reply; filters and the summary agree", async () => {
    const first = await send(["defer-a1@alpha.test", "defer-a2@alpha.test", "ok@alpha.test"]);
    const second = await send(["defer-b1@beta.test"]);
    await t.app.services.worker.runOnce();

    const waiting = await deliveriesOf("");
    const mine = waiting.filter((d) => d.email_id === first || d.email_id === second);
    expect(mine.map((d) => d.recipient).sort()).toEqual([
      "defer-a1@alpha.test",
      "defer-a2@alpha.test",
      "defer-b1@beta.test",
    ]);
    for (const delivery of mine) {
      expect(delivery).toMatchObject({
        object: "delivery",
        status: "deferred",
        attempts: 1,
        last_response: "451 4.7.1 greylisted, try later",
      });
      expect(Date.parse(delivery.next_attempt_at)).toBeGreaterThan(Date.now() + 30 * 60_000);
    }
    // Oldest first, as a queue is read.
    expect(mine.map((d) => d.email_id)).toEqual([first, first, second]);

    expect((await deliveriesOf("?domain=beta.test")).map((d) => d.recipient)).toEqual(["defer-b1@beta.test"]);
    expect((await deliveriesOf(`?email_id=${first}`)).length).toBe(2);
    expect((await deliveriesOf("?status=queued")).length).toBe(0);

    const { body: summary } = await t.json("GET", "/v1/deliveries/summary");
    expect(summary.object).toBe("queue_summary");
    expect(summary.by_status).toEqual({ queued: 0, deferred: 3, held: 0, sending: 0 });
    expect(summary.by_domain[0]).toMatchObject({ domain: "alpha.test", deferred: 2, queued: 0, held: 0 });
    expect(summary.by_domain[1]).toMatchObject({ domain: "beta.test", deferred: 1 });
    expect(summary.by_provider).toEqual([
      expect.objectContaining({ provider: "scripted", deferred: 3, oldest_at: expect.any(String) }),
    ]);
    expect(summary.oldest_waiting_at).toBe(summary.by_domain[0].oldest_at);
  });

  test("pages go oldest first with after, and back with before", async () => {
    const all = await deliveriesOf("");
    expect(all.length).toBeGreaterThanOrEqual(3);
    const { body: page } = await t.json("GET", "/v1/deliveries?limit=1");
    expect(page.has_more).toBe(true);
    const { body: next } = await t.json("GET", `/v1/deliveries?limit=1&after=${page.data[0].id}`);
    expect(next.data[0].id).toBe(all[1]!.id);
    const { body: back } = await t.json("GET", `/v1/deliveries?limit=1&before=${next.data[0].id}`);
    expect(back.data[0].id).toBe(all[0]!.id);
  });

  test("a bad filter is a 400 naming it", async () => {
    const { status, body } = await t.json("GET", "/v1/deliveries?status=delivered");
    expect(status).toBe(400);
    expect(body.details[0].path).toBe("status");
  });
});

describe("the queue, steered", () => {
  test("retry makes a deferred recipient due now: the next claim attempts it, its attempts still counted", async () => {
    const id = await send(["defer-retry@gamma.test"]);
    await t.app.services.worker.runOnce();
    const [delivery] = await deliveriesOf(`?email_id=${id}`);
    scripted.letThrough("defer-retry@gamma.test");

    const { status, body } = await t.json("POST", `/v1/deliveries/${delivery!.id}/retry`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ object: "delivery", status: "queued", attempts: 1 });
    await t.app.services.worker.runOnce();
    expect(await statusOf(delivery!.id)).toBe("delivered");
    expect(scripted.attempts.get("defer-retry@gamma.test")).toBe(2);
    expect(await eventsOf(id)).toEqual(
      expect.arrayContaining(["email.queued", "email.delivery_delayed", "email.delivered"]),
    );

    // Retrying what is not deferred changes nothing.
    const again = await t.json("POST", `/v1/deliveries/${delivery!.id}/retry`);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain("this one is delivered");
  });

  test("cancel stops one waiting recipient with its event; a final one is never changed", async () => {
    const id = await send(["defer-c1@delta.test", "done@delta.test"]);
    await t.app.services.worker.runOnce();
    const all = await t.app.services.store.db.query.deliveries.findMany({ where: (d, { eq }) => eq(d.emailId, id) });
    const waiting = all.find((d) => d.recipient === "defer-c1@delta.test")!;
    const delivered = all.find((d) => d.recipient === "done@delta.test")!;

    const { status, body } = await t.json("POST", `/v1/deliveries/${waiting.id}/cancel`);
    expect(status).toBe(200);
    expect(body.status).toBe("canceled");
    expect(await eventsOf(id)).toContain("email.canceled");

    const refused = await t.json("POST", `/v1/deliveries/${delivered.id}/cancel`);
    expect(refused.status).toBe(409);
    expect(await statusOf(delivered.id)).toBe("delivered");
  });

  test("release sends a held recipient now", async () => {
    const id = await send(["held@epsilon.test"]);
    const [delivery] = await t.app.services.store.db.query.deliveries.findMany({
      where: (d, { eq }) => eq(d.emailId, id),
    });
    // No pause exists yet to hold it: the lifecycle's own cause, as a pause will apply it.
    await t.app.services.writer.write((tx) => t.app.services.lifecycle.apply(tx, "held", { deliveryId: delivery!.id }));
    await t.app.services.worker.runOnce();
    expect(await statusOf(delivery!.id)).toBe("held");
    expect((await deliveriesOf("?status=held")).map((d) => d.id)).toEqual([delivery!.id]);

    const { status } = await t.json("POST", `/v1/deliveries/${delivery!.id}/release`);
    expect(status).toBe(200);
    await t.app.services.worker.runOnce();
    expect(await statusOf(delivery!.id)).toBe("delivered");
  });

  test("a recipient being attempted now is left to its attempt: 409, and its result is recorded", async () => {
    const id = await send(["defer-inflight@zeta.test"]);
    await t.app.services.worker.runOnce();
    const [delivery] = await deliveriesOf(`?email_id=${id}`);
    const held = scripted.hold("defer-inflight@zeta.test");
    await t.json("POST", `/v1/deliveries/${delivery!.id}/retry`);
    const running = t.app.services.worker.runOnce();
    await held.begun;

    expect((await deliveriesOf(`?email_id=${id}`))[0]!.status).toBe("sending");
    const refused = await t.json("POST", `/v1/deliveries/${delivery!.id}/cancel`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("being attempted now");
    const bulk = await t.json("POST", "/v1/deliveries/cancel", { body: { email_id: id } });
    expect(bulk.body).toEqual({ object: "bulk", matched: 1, changed: 0 });

    held.release();
    await running;
    expect(await statusOf(delivery!.id)).toBe("deferred");
  });

  test("bulk cancel by domain changes exactly the waiting recipients of that domain", async () => {
    const mixed = await send(["defer-x1@bulk.test", "defer-x2@bulk.test", "fine@bulk.test", "defer-y@other.test"]);
    await t.app.services.worker.runOnce();
    const before = await t.app.services.store.db.query.deliveries.findMany({
      where: (d, { eq }) => eq(d.emailId, mixed),
    });
    expect(before.map((d) => [d.recipient, d.status]).sort()).toEqual([
      ["defer-x1@bulk.test", "deferred"],
      ["defer-x2@bulk.test", "deferred"],
      ["defer-y@other.test", "deferred"],
      ["fine@bulk.test", "delivered"],
    ]);

    const { status, body } = await t.json("POST", "/v1/deliveries/cancel", { body: { domain: "BULK.test" } });
    expect(status).toBe(200);
    expect(body).toEqual({ object: "bulk", matched: 2, changed: 2 });
    const after = await t.app.services.store.db.query.deliveries.findMany({
      where: (d, { eq }) => eq(d.emailId, mixed),
    });
    expect(after.map((d) => [d.recipient, d.status]).sort()).toEqual([
      ["defer-x1@bulk.test", "canceled"],
      ["defer-x2@bulk.test", "canceled"],
      ["defer-y@other.test", "deferred"],
      ["fine@bulk.test", "delivered"],
    ]);
    const canceledEvents = (await eventsOf(mixed)).filter((type: string) => type === "email.canceled");
    expect(canceledEvents.length).toBe(2);
  });

  test("a bulk action needs a filter, and its body is checked", async () => {
    const none = await t.json("POST", "/v1/deliveries/retry", { body: {} });
    expect(none.status).toBe(400);
    const bad = await t.json("POST", "/v1/deliveries/retry", { body: { status: "delivered" } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe("status");
  });

  test("bulk retry by status makes every deferred recipient due", async () => {
    const { body } = await t.json("POST", "/v1/deliveries/retry", { body: { status: "deferred" } });
    expect(body.changed).toBe(body.matched);
    expect(body.changed).toBeGreaterThan(0);
    expect((await deliveriesOf("?status=deferred")).length).toBe(0);
  });
});

describe("an email's cancel reaches recipients on their way", () => {
  test("its waiting recipients stop; what was delivered stays; with nothing waiting it is 409", async () => {
    const id = await send(["defer-e1@eta.test", "ok-e2@eta.test"]);
    await t.app.services.worker.runOnce();
    const { status } = await t.json("POST", `/v1/emails/${id}/cancel`);
    expect(status).toBe(200);
    const rows = await t.app.services.store.db.query.deliveries.findMany({ where: (d, { eq }) => eq(d.emailId, id) });
    expect(rows.map((d) => [d.recipient, d.status]).sort()).toEqual([
      ["defer-e1@eta.test", "canceled"],
      ["ok-e2@eta.test", "delivered"],
    ]);
    const again = await t.json("POST", `/v1/emails/${id}/cancel`);
    expect(again.status).toBe(409);
  });
});

describe("who may see and steer the queue", () => {
  test("a sending key and a test key are refused; another organisation's delivery is not found", async () => {
    const sender = await t.app.services.keys.create(t.operator, {
      name: "sender",
      scopes: ["sending_access"],
      mode: "live",
    });
    expect((await t.json("GET", "/v1/deliveries", { key: sender.key })).status).toBe(403);
    expect((await t.json("GET", "/v1/deliveries/summary", { key: t.testKey })).status).toBe(403);
    const [any] = await deliveriesOf("");
    expect((await t.json("POST", `/v1/deliveries/${any?.id ?? "x"}/cancel`, { key: sender.key })).status).toBe(403);
    expect((await t.json("POST", "/v1/deliveries/00000000-0000-7000-8000-000000000000/cancel")).status).toBe(404);
  });
});

describe("the queue from the CLI", () => {
  /** The CLI on the test app's store, as the operator runs it beside the server. */
  const cliEnv = () => ({
    MAILROOM_DATA_DIR: t.dataDir,
    ...(t.config.store.url && { MAILROOM_STORE_URL: t.config.store.url }),
  });

  test("queue summary, list and a bulk cancel by domain, as JSON and for people", async () => {
    const id = await send(["defer-cli1@cli.test", "defer-cli2@cli.test"]);
    await t.app.services.worker.runOnce();

    const summary = JSON.parse(await runCli(["queue", "summary", "--json"], cliEnv()));
    expect(summary.by_domain).toEqual(
      expect.arrayContaining([expect.objectContaining({ domain: "cli.test", deferred: 2 })]),
    );
    const listed = JSON.parse(await runCli(["queue", "list", "--domain", "cli.test", "--json"], cliEnv()));
    expect(listed.map((d: { email_id: string }) => d.email_id)).toEqual([id, id]);
    expect(await runCli(["queue", "list", "--domain", "cli.test"], cliEnv())).toContain("451 4.7.1 greylisted");

    expect(await runCli(["queue", "cancel", "--domain", "cli.test"], cliEnv())).toContain(
      "cancel: 2 of 2 matching changed",
    );
    expect(JSON.parse(await runCli(["queue", "list", "--domain", "cli.test", "--json"], cliEnv()))).toEqual([]);
  });

  test("a bulk action without a filter, or an unknown status, is refused with the reason", async () => {
    const bare = await runCommand([...mailroomCommand(false), "queue", "retry"], {
      env: { ...cleanEnv(), ...cliEnv() },
    });
    expect(bare.code).not.toBe(0);
    expect(bare.stderr).toContain("a bulk action needs a filter");
    const wrong = await runCommand([...mailroomCommand(false), "queue", "list", "--status", "lost"], {
      env: { ...cleanEnv(), ...cliEnv() },
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("--status must be one of queued, deferred, held, sending");
  });
});
