/**
 * Sending lanes (issue 44, docs/operations.md#sending-lanes) on the suite's engine: the worker claims transactional
 * recipients before broadcast ones however many are due first, and keeps slots for them while broadcasts fill the
 * rest; pausing the broadcast lane holds broadcasts while receipts flow, and its resume sends them; the queue's
 * summary counts per lane; the guardrails judge broadcasts apart, so a burned newsletter pauses the broadcast lane
 * and not the domain's receipts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { operatorActor, type Actor } from "../src/access.ts";
import type { Lane } from "../src/deliveries/model.ts";
import { silentLogger } from "../src/lib/logger.ts";
import type { DeliveryJob, DeliveryResult, Provider } from "../src/providers/types.ts";
import { createApp, type App } from "../src/server/app.ts";
import { tempDir, testConfig } from "./helpers/app.ts";

/** The order recipients were attempted in; `slow…@` recipients wait until `release()`; `bad…@` bounce. */
const attempted: string[] = [];
let gate = Promise.withResolvers<void>();
const release = () => {
  gate.resolve();
  gate = Promise.withResolvers<void>();
};
const provider: Provider = {
  name: "lanes",
  async deliver(job: DeliveryJob): Promise<DeliveryResult> {
    attempted.push(job.recipient);
    if (job.recipient.startsWith("slow")) await gate.promise;
    return job.recipient.startsWith("bad")
      ? { outcome: "permanent", response: "550 5.1.1 user unknown", subType: "General" }
      : { outcome: "delivered", response: "250 2.0.0 OK" };
  },
  async close() {},
};

const dataDir = tempDir();
const CONCURRENCY = 8;
const config = testConfig(dataDir, {
  delivery: { concurrency: CONCURRENCY, per_destination_concurrency: 4, poll_interval: "50ms" },
  guardrails: { min_recipients: 20 },
});
let app: App;
let key: string;
let actor: Actor;

const call = async (method: string, path: string, body?: unknown) => {
  const response = await app.http.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as any };
};

/** One message to `to` in `lane`, through the one funnel (the fan-out is the only caller that names a lane). */
const send = async (lane: Lane, to: string, from = "news@lanes.example") =>
  (
    await app.services.emails.submit(
      {
        kind: "fields",
        source: "api",
        lane,
        fields: {
          from: { name: "", address: from },
          to: [{ name: "", address: to }],
          cc: [],
          bcc: [],
          replyTo: [],
          subject: `${lane} mail`,
          html: null,
          text: "Hi",
          headers: [],
          attachments: [],
          tags: [],
        },
      },
      actor,
    )
  ).id;
const statusOf = async (emailId: string) =>
  (await app.services.store.db.query.deliveries.findFirst({ where: (d, { eq }) => eq(d.emailId, emailId) }))!.status;
const drain = async () => {
  while ((await app.services.worker.runOnce()) > 0);
};
const until = async (what: () => boolean | Promise<boolean>, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await Bun.sleep(10);
  }
};

beforeAll(async () => {
  app = await createApp(config, { logger: silentLogger, liveProvider: provider });
  const organizationId = (await app.services.organizations.ensureDefault()).id;
  actor = operatorActor(organizationId);
  key = (await app.services.keys.create(actor, { name: "ops", scopes: ["full_access"], mode: "live" })).key;
  await app.services.domains.add(actor, "lanes.example", { verifiedOverride: true });
});

afterAll(async () => {
  release();
  await app?.services.worker.stop();
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("claim order", () => {
  test("a transactional recipient queued after 30 broadcast ones is in the first claim", async () => {
    attempted.length = 0;
    for (let i = 0; i < 30; i++) await send("broadcast", `reader-${i}@d${i % 10}.test`);
    const receipt = await send("transactional", "buyer@two.test");
    await app.services.worker.runOnce();
    expect(attempted[0]).toBe("buyer@two.test");
    // The broadcast lane leaves one slot of the eight to transactional mail.
    expect(attempted.length).toBe(CONCURRENCY);
    expect(await statusOf(receipt)).toBe("delivered");
    await drain();
    expect(attempted.length).toBe(31);
  });

  test("while slow broadcasts fill every slot they may, a receipt to the same destination starts at once", async () => {
    attempted.length = 0;
    for (let i = 0; i < 20; i++) await send("broadcast", `slow-${i}@slow.test`);
    app.services.worker.start();
    try {
      // Four to one destination at most, and one of them kept for transactional mail: three broadcasts in flight.
      await until(() => attempted.length >= 3);
      await Bun.sleep(100);
      expect(attempted).toHaveLength(3);
      const receipt = await send("transactional", "buyer@slow.test");
      app.services.worker.wake();
      await until(async () => (await statusOf(receipt)) === "delivered");
      expect(attempted.filter((r) => r.startsWith("slow"))).toHaveLength(3);
    } finally {
      while (attempted.filter((r) => r.startsWith("slow")).length < 20 || app.services.worker.inFlight > 0) {
        release();
        await Bun.sleep(5);
      }
      await app.services.worker.stop();
    }
  });
});

describe("pausing the broadcast lane", () => {
  test("holds broadcasts while receipts flow; the summary counts per lane; resume sends them", async () => {
    const paused = await call("POST", "/v1/sending/pause", { scope: "lane", name: "broadcast", reason: "review" });
    expect(paused.status).toBe(200);
    expect(paused.body.pauses).toEqual([
      expect.objectContaining({ scope: "lane", name: "broadcast", reason: "review" }),
    ]);
    const newsletter = await send("broadcast", "reader@three.test");
    const receipt = await send("transactional", "buyer@three.test");
    await drain();
    expect(await statusOf(receipt)).toBe("delivered");
    expect(await statusOf(newsletter)).toBe("held");

    const summary = await call("GET", "/v1/deliveries/summary");
    expect(summary.body.by_lane).toEqual([
      expect.objectContaining({ lane: "transactional", queued: 0, held: 0 }),
      expect.objectContaining({ lane: "broadcast", queued: 0, held: 1 }),
    ]);

    const resumed = await call("POST", "/v1/sending/resume", { scope: "lane", name: "broadcast" });
    expect(resumed.status).toBe(200);
    expect(resumed.body.released).toBe(1);
    await drain();
    expect(await statusOf(newsletter)).toBe("delivered");
  });

  test("a lane pause names a lane", async () => {
    const refused = await call("POST", "/v1/sending/pause", { scope: "lane", name: "marketing" });
    expect(refused.status).toBe(400);
    expect(refused.body.name).toBe("validation_error");
    expect(JSON.stringify(refused.body)).toContain("transactional, broadcast");
    expect((await call("POST", "/v1/sending/resume", { scope: "lane", name: "broadcast" })).status).toBe(404);
  });
});

describe("guardrails", () => {
  test("a burned newsletter pauses the broadcast lane, not the domain: receipts still go", async () => {
    for (let i = 0; i < 20; i++) await send("broadcast", `${i < 10 ? "bad" : "good"}-${i}@four.test`);
    for (let i = 0; i < 20; i++) await send("transactional", `customer-${i}@four.test`);
    await drain();
    await app.services.guardrails.evaluate();
    const state = await call("GET", "/v1/sending");
    expect(state.body.pauses).toEqual([
      expect.objectContaining({
        scope: "lane",
        name: "broadcast",
        reason: expect.stringMatching(/^guardrail: bounce rate [\d.]+ % over 24 h in broadcasts$/),
        paused_by: "system",
      }),
    ]);
    expect((await call("GET", "/v1/domains/lanes.example")).body.health.status).toBe("ok");
    const receipt = await send("transactional", "late@four.test");
    const newsletter = await send("broadcast", "late-reader@four.test");
    await drain();
    expect(await statusOf(receipt)).toBe("delivered");
    expect(await statusOf(newsletter)).toBe("held");
    // A person's resume restarts the lane's window: the rates that paused it do not pause it again.
    expect((await call("POST", "/v1/sending/resume", { scope: "lane", name: "broadcast" })).status).toBe(200);
    await app.services.guardrails.evaluate();
    expect((await call("GET", "/v1/sending")).body.pauses).toEqual([]);
  });
});
