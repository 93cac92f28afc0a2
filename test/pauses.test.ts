/**
 * Sending pauses (issue 28, docs/operations.md) on the suite's engine: mail of a paused organisation, sending domain or
 * provider is accepted and waits as `held` — never attempted — across a restart and, on PostgreSQL, on a second
 * instance; on resume it goes out; a recipient released by hand goes at once; every pause and resume is an event.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { operatorActor } from "../src/access.ts";
import { createApp, type App } from "../src/server/app.ts";
import { silentLogger } from "../src/lib/logger.ts";
import type { DeliveryJob, DeliveryResult, Provider } from "../src/providers/types.ts";
import { tempDir, testConfig } from "./helpers/app.ts";
import { runCli } from "./helpers/process.ts";

/** Delivers everything, counting the attempts per recipient. */
const attempts = new Map<string, number>();
const provider: Provider = {
  name: "counting",
  async deliver(job: DeliveryJob): Promise<DeliveryResult> {
    attempts.set(job.recipient, (attempts.get(job.recipient) ?? 0) + 1);
    return { outcome: "delivered", response: "250 2.0.0 OK" };
  },
  async close() {},
};

const dataDir = tempDir();
const config = testConfig(dataDir);
let app: App;
let key: string;
let organizationId: string;

const start = () => createApp(config, { logger: silentLogger, liveProvider: provider });
const call = async (method: string, path: string, body?: unknown, token = key) => {
  const response = await app.http.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as any };
};
const send = async (from: string, to: string) => {
  const { status, body } = await call("POST", "/v1/emails", { from, to, subject: "Paused?", text: "Hi" });
  expect(status).toBe(200);
  return body.id as string;
};
const statusOf = async (emailId: string) =>
  (await app.services.store.db.query.deliveries.findFirst({ where: (d, { eq }) => eq(d.emailId, emailId) }))!.status;
const eventTypes = async () =>
  (
    await app.services.store.db.query.events.findMany({
      where: (e, { and, eq, like }) => and(eq(e.organizationId, organizationId), like(e.type, "sending.%")),
    })
  ).map((e) => e.type);

beforeAll(async () => {
  app = await start();
  organizationId = (await app.services.organizations.ensureDefault()).id;
  const operator = operatorActor(organizationId);
  key = (await app.services.keys.create(operator, { name: "ops", scopes: ["full_access"], mode: "live" })).key;
  for (const domain of ["paused.example", "open.example"])
    await app.services.domains.add(operator, domain, { verifiedOverride: true });
});

afterAll(async () => {
  await app?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a paused sending domain", () => {
  test("its mail is accepted and held, never attempted, across a restart (and on a second instance); other domains send", async () => {
    const paused = await call("POST", "/v1/sending/pause", {
      scope: "domain",
      name: "Paused.Example",
      reason: "bounce spike",
    });
    expect(paused.status).toBe(200);
    expect(paused.body.pauses).toEqual([
      expect.objectContaining({ scope: "domain", name: "paused.example", reason: "bounce spike" }),
    ]);
    const held = await send("ops@paused.example", "held-1@dest.test");
    const open = await send("ops@open.example", "open-1@dest.test");
    await app.services.worker.runOnce();
    expect(await statusOf(held)).toBe("held");
    expect(await statusOf(open)).toBe("delivered");
    expect(attempts.get("held-1@dest.test")).toBeUndefined();
    const { body: waiting } = await call("GET", "/v1/deliveries?status=held");
    expect(waiting.data).toEqual([
      expect.objectContaining({
        email_id: held,
        status: "held",
        last_response: "held: sending is paused for paused.example (bounce spike)",
      }),
    ]);

    // A restart: the pause is in the store, not in memory.
    await app.stop();
    app = await start();
    await app.services.worker.runOnce();
    expect(await statusOf(held)).toBe("held");

    if (config.store.url) {
      // A second instance on the same PostgreSQL holds it as well.
      const second = await start();
      try {
        const another = await send("ops@paused.example", "held-2@dest.test");
        await second.services.worker.runOnce();
        expect(await statusOf(another)).toBe("held");
      } finally {
        await second.stop();
      }
    }
    expect(attempts.get("held-1@dest.test")).toBeUndefined();
  });

  test("on resume what it held goes out, and both moves are events", async () => {
    const { status, body } = await call("POST", "/v1/sending/resume", { scope: "domain", name: "paused.example" });
    expect(status).toBe(200);
    expect(body.pauses).toEqual([]);
    expect(body.released).toBeGreaterThanOrEqual(1);
    await app.services.worker.runOnce();
    expect((await call("GET", "/v1/deliveries?status=held")).body.data).toEqual([]);
    expect(attempts.get("held-1@dest.test")).toBe(1);
    expect(await eventTypes()).toEqual(["sending.paused", "sending.resumed"]);
    // Resuming what is not paused says so.
    expect((await call("POST", "/v1/sending/resume", { scope: "domain", name: "paused.example" })).status).toBe(404);
  });
});

describe("other pauses", () => {
  test("an organisation pause holds every domain's mail; a recipient released by hand goes at once", async () => {
    await call("POST", "/v1/sending/pause", { scope: "organization" });
    const first = await send("ops@open.example", "org-1@dest.test");
    const second = await send("ops@paused.example", "org-2@dest.test");
    await app.services.worker.runOnce();
    expect([await statusOf(first), await statusOf(second)]).toEqual(["held", "held"]);

    const [delivery] = (await call("GET", `/v1/deliveries?email_id=${first}`)).body.data;
    expect((await call("POST", `/v1/deliveries/${delivery.id}/release`)).status).toBe(200);
    await app.services.worker.runOnce();
    expect(await statusOf(first)).toBe("delivered");
    expect(await statusOf(second)).toBe("held");

    const resumed = await call("POST", "/v1/sending/resume", { scope: "organization" });
    expect(resumed.body.released).toBe(1);
    await app.services.worker.runOnce();
    expect(await statusOf(second)).toBe("delivered");
  });

  test("a provider pause holds the mail of domains whose every provider is paused", async () => {
    // No domain names providers here: their mail goes through the default one.
    const provider = config.delivery.default_provider;
    expect((await call("POST", "/v1/sending/pause", { scope: "provider", name: provider })).status).toBe(200);
    const id = await send("ops@open.example", "provider-1@dest.test");
    await app.services.worker.runOnce();
    expect(await statusOf(id)).toBe("held");
    const resumed = await call("POST", "/v1/sending/resume", { scope: "provider", name: provider });
    expect(resumed.body.released).toBe(1);
    await app.services.worker.runOnce();
    expect(await statusOf(id)).toBe("delivered");
  });

  test("what a pause names is checked, and pausing needs deliveries:write", async () => {
    const unknownProvider = await call("POST", "/v1/sending/pause", { scope: "provider", name: "nowhere" });
    expect(unknownProvider.status).toBe(400);
    expect(unknownProvider.body.details[0].path).toBe("name");
    expect((await call("POST", "/v1/sending/pause", { scope: "domain", name: "not-mine.example" })).status).toBe(404);
    expect((await call("POST", "/v1/sending/pause", { scope: "organization", name: "x" })).status).toBe(400);
    expect((await call("POST", "/v1/sending/pause", { scope: "planet" })).status).toBe(400);
    const sender = await app.services.keys.create(operatorActor(organizationId), {
      name: "sender",
      scopes: ["sending_access"],
      mode: "live",
    });
    expect((await call("POST", "/v1/sending/pause", { scope: "organization" }, sender.key)).status).toBe(403);
    expect((await call("GET", "/v1/sending", undefined, sender.key)).status).toBe(403);
    expect((await call("GET", "/v1/sending")).body).toEqual({ object: "sending", pauses: [] });
  });
});

describe("pauses from the CLI", () => {
  test("mailroom pause --domain and resume, as the operator runs them beside the server", async () => {
    const env = { MAILROOM_DATA_DIR: dataDir, ...(config.store.url && { MAILROOM_STORE_URL: config.store.url }) };
    expect(await runCli(["pause", "--domain", "open.example", "--reason", "maintenance"], env)).toContain(
      "sending paused for domain open.example",
    );
    const stored = () => app.services.store.db.query.sendingPauses.findMany();
    expect((await stored()).map((p) => [p.scope, p.name, p.reason, p.pausedBy])).toEqual([
      ["domain", "open.example", "maintenance", "operator"],
    ]);
    expect(await runCli(["resume", "--domain", "open.example"], env)).toContain(
      "sending resumed for domain open.example",
    );
    expect(await stored()).toEqual([]);
  });
});
