/**
 * Reputation guardrails (issue 30, docs/deliverability.md) on the suite's engine: a domain whose bounce rate crosses the
 * warning threshold warns (a `domain.updated` event with its health); crossing the pause threshold pauses it through
 * the pauses (docs/operations.md#pauses), its new mail is held and nothing is lost on resume; after a resume it is judged afresh; an organisation whose
 * domains are each too small to judge is judged as a whole; test addresses never count.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { operatorActor } from "../src/access.ts";
import { judge } from "../src/reputation/guardrails.ts";
import { silentLogger } from "../src/lib/logger.ts";
import type { DeliveryJob, DeliveryResult, Provider } from "../src/providers/types.ts";
import { createApp, type App } from "../src/server/app.ts";
import { tempDir, testConfig } from "./helpers/app.ts";

/** `bad…@` addresses do not exist; every other is delivered. Counts attempts per recipient. */
const attempts = new Map<string, number>();
const provider: Provider = {
  name: "judged",
  async deliver(job: DeliveryJob): Promise<DeliveryResult> {
    attempts.set(job.recipient, (attempts.get(job.recipient) ?? 0) + 1);
    return job.recipient.startsWith("bad")
      ? { outcome: "permanent", response: "550 5.1.1 <bad> user unknown", subType: "General" }
      : { outcome: "delivered", response: "250 2.0.0 OK" };
  },
  async close() {},
};

const dataDir = tempDir();
// The suite sends one message per request, more than a key's default 100 a minute.
const config = testConfig(dataDir, {
  guardrails: { min_recipients: 20 },
  limits: { key_requests_per_minute: 1000 },
});
let app: App;
let key: string;
let organizationId: string;

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
/** One message per recipient, then the worker until nothing is due. */
const sendEach = async (from: string, recipients: string[]) => {
  const ids: string[] = [];
  for (const to of recipients) {
    const { status, body } = await call("POST", "/v1/emails", { from, to, subject: "Judged", text: "Hi" });
    expect(status).toBe(200);
    ids.push(body.id);
  }
  while ((await app.services.worker.runOnce()) > 0);
  return ids;
};
const addresses = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}-${i}@dest.test`);
const health = async (domain: string) => (await call("GET", `/v1/domains/${domain}`)).body.health;
const eventsOf = async (type: string) =>
  app.services.store.db.query.events.findMany({
    where: (e, { and, eq }) => and(eq(e.organizationId, organizationId), eq(e.type, type)),
    orderBy: (e, { asc }) => asc(e.id),
  });

beforeAll(async () => {
  app = await createApp(config, { logger: silentLogger, liveProvider: provider });
  organizationId = (await app.services.organizations.ensureDefault()).id;
  const operator = operatorActor(organizationId);
  key = (await app.services.keys.create(operator, { name: "ops", scopes: ["full_access"], mode: "live" })).key;
  for (const domain of [
    "risky.example",
    "clean.example",
    "a.example",
    "b.example",
    "c.example",
    "rehearsal.example",
    "manual.example",
  ])
    await app.services.domains.add(operator, domain, { verifiedOverride: true });
});

afterAll(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("judging counts", () => {
  const settings = {
    windowMs: 86_400_000,
    minRecipients: 200,
    bounceRateWarn: 0.04,
    complaintRateWarn: 0.001,
    bounceRatePause: 0.08,
    complaintRatePause: 0.003,
  };
  test.each([
    [{ ended: 199, bounced: 100, complained: 50 }, "ok", null],
    [{ ended: 1000, bounced: 39, complained: 0 }, "ok", null],
    [{ ended: 1000, bounced: 40, complained: 0 }, "warning", "bounce rate 4.0 % over 24 h"],
    [{ ended: 1000, bounced: 91, complained: 0 }, "pause", "bounce rate 9.1 % over 24 h"],
    [{ ended: 1000, bounced: 0, complained: 1 }, "warning", "complaint rate 0.1 % over 24 h"],
    [{ ended: 1000, bounced: 50, complained: 3 }, "pause", "complaint rate 0.3 % over 24 h"],
  ] as const)("%j is %s", (counts, status, reason) => {
    const verdict = judge(counts, settings);
    expect(verdict.status).toBe(status);
    expect(verdict.reason).toBe(reason);
  });
});

describe("a sending domain's bounce rate", () => {
  test("over the warning threshold: a warning on the domain and a domain.updated event with its health", async () => {
    await sendEach("ops@risky.example", [...addresses("good", 19), ...addresses("bad", 1)]);
    await app.services.guardrails.evaluate();
    expect(await health("risky.example")).toEqual(
      expect.objectContaining({
        status: "warning",
        bounce_rate: 0.05,
        complaint_rate: 0,
        recipients: 20,
        window: "24h",
        reason: "bounce rate 5.0 % over 24 h",
      }),
    );
    const updates = (await eventsOf("domain.updated")).filter((e) => e.data.name === "risky.example");
    expect(updates.at(-1)!.data.health).toEqual(expect.objectContaining({ status: "warning" }));
    // The same verdict again is not a new event.
    await app.services.guardrails.evaluate();
    expect((await eventsOf("domain.updated")).filter((e) => e.data.name === "risky.example")).toHaveLength(
      updates.length,
    );
  });

  test("over the pause threshold: the domain is paused by the system, its new mail held; other domains send", async () => {
    await sendEach("ops@risky.example", addresses("bad-more", 4));
    await app.services.guardrails.evaluate();
    expect(await health("risky.example")).toEqual(
      expect.objectContaining({ status: "paused", recipients: 24, reason: "bounce rate 20.8 % over 24 h" }),
    );
    const paused = await eventsOf("sending.paused");
    expect(paused.map((e) => e.data)).toEqual([
      { scope: "domain", name: "risky.example", reason: "guardrail: bounce rate 20.8 % over 24 h" },
    ]);
    const audit = (await call("GET", "/v1/audit-log?action=sending.paused")).body.data;
    expect(audit[0]).toEqual(
      expect.objectContaining({ actor: expect.objectContaining({ type: "system" }), target: expect.anything() }),
    );

    const [held] = await sendEach("ops@risky.example", ["held-after-pause@dest.test"]);
    const [open] = await sendEach("ops@clean.example", ["clean-1@dest.test"]);
    const status = async (emailId: string) =>
      (await app.services.store.db.query.deliveries.findFirst({ where: (d, { eq }) => eq(d.emailId, emailId) }))!
        .status;
    expect(await status(held!)).toBe("held");
    expect(await status(open!)).toBe("delivered");
    expect(attempts.get("held-after-pause@dest.test")).toBeUndefined();
    expect((await health("clean.example")).status).toBe("ok");

    // Still paused at the next look, without a second pause event.
    await app.services.guardrails.evaluate();
    expect((await health("risky.example")).status).toBe("paused");
    expect(await eventsOf("sending.paused")).toHaveLength(1);

    const overview = (await call("GET", "/v1/sending/health")).body;
    expect(overview.domains).toContainEqual(
      expect.objectContaining({ name: "risky.example", health: expect.objectContaining({ status: "paused" }) }),
    );
    const metrics = await (await app.http.handle(new Request("http://localhost/metrics"))).text();
    expect(metrics).toContain(`mailroom_sending_health{organization="${organizationId}",domain="risky.example"} 2`);
  });

  test("a person resumes it: what it held goes out, nothing lost, and it is judged afresh from then on", async () => {
    const resumed = await call("POST", "/v1/sending/resume", { scope: "domain", name: "risky.example" });
    expect(resumed.status).toBe(200);
    expect(resumed.body.released).toBe(1);
    await app.services.worker.runOnce();
    expect(attempts.get("held-after-pause@dest.test")).toBe(1);
    expect((await call("GET", "/v1/deliveries?status=held")).body.data).toEqual([]);

    expect(await health("risky.example")).toEqual(expect.objectContaining({ status: "ok", recipients: 0 }));
    await app.services.guardrails.evaluate();
    // The bounces that paused it are before the resume: they do not pause it again. The message it held, delivered
    // after the resume, counts.
    expect(await health("risky.example")).toEqual(expect.objectContaining({ status: "ok", recipients: 1 }));
    expect(await eventsOf("sending.paused")).toHaveLength(1);
    await sendEach("ops@risky.example", addresses("after-resume", 3));
    await app.services.guardrails.evaluate();
    expect(await health("risky.example")).toEqual(expect.objectContaining({ status: "ok", recipients: 4 }));
  });
});

describe("the organisation as a whole", () => {
  test("domains each too small to judge are judged together: the organisation is paused", async () => {
    for (const domain of ["a.example", "b.example", "c.example"])
      await sendEach(`ops@${domain}`, [...addresses(`good-${domain}`, 5), ...addresses(`bad-${domain}`, 2)]);
    await app.services.guardrails.evaluate();
    for (const domain of ["a.example", "b.example", "c.example"]) expect((await health(domain)).status).toBe("ok");
    const overview = (await call("GET", "/v1/sending/health")).body;
    expect(overview.health).toEqual(expect.objectContaining({ status: "paused" }));
    expect(overview.health.reason).toMatch(/^bounce rate \d+\.\d % over 24 h$/);
    const state = (await call("GET", "/v1/sending")).body;
    expect(state.pauses).toContainEqual(
      expect.objectContaining({
        scope: "organization",
        paused_by: "system",
        reason: expect.stringMatching(/^guardrail: bounce rate/),
      }),
    );
    expect((await call("POST", "/v1/sending/resume", { scope: "organization" })).status).toBe(200);
  });
});

describe("a person's own pause", () => {
  test("is not the guardrail's: it does not hold the health at paused once lifted, and the guardrail judges again", async () => {
    await sendEach("ops@manual.example", [...addresses("m-good", 18), ...addresses("bad-m", 4)]);
    expect((await call("POST", "/v1/sending/pause", { scope: "domain", name: "manual.example" })).status).toBe(200);
    const pausesBefore = (await eventsOf("sending.paused")).length;
    await app.services.guardrails.evaluate();
    // Already paused by the person: the guardrail adds no pause of its own.
    expect((await eventsOf("sending.paused")).length).toBe(pausesBefore);
    expect((await health("manual.example")).status).toBe("paused");
    expect((await call("POST", "/v1/sending/resume", { scope: "domain", name: "manual.example" })).status).toBe(200);
    // The rates are still over the threshold: now the guardrail pauses it, as its own.
    await app.services.guardrails.evaluate();
    const state = (await call("GET", "/v1/sending")).body;
    expect(state.pauses).toContainEqual(
      expect.objectContaining({ scope: "domain", name: "manual.example", paused_by: "system" }),
    );
    expect((await call("POST", "/v1/sending/resume", { scope: "domain", name: "manual.example" })).status).toBe(200);
    await app.services.guardrails.evaluate();
    expect((await health("manual.example")).status).toBe("ok");
  });
});

describe("what never counts", () => {
  test("test addresses: a rehearsed bounce does not raise the rate", async () => {
    const bounced = Array.from({ length: 25 }, (_, i) => `bounced+${i}@simulator.mailroom.test`);
    await sendEach("ops@rehearsal.example", bounced);
    await app.services.guardrails.evaluate();
    expect(await health("rehearsal.example")).toEqual(
      expect.objectContaining({ status: "ok", recipients: 0, bounce_rate: 0 }),
    );
  });
});
