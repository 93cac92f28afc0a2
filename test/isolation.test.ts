/**
 * Tenant isolation (issue 29, docs/teams.md) on the suite's engine, between two organisations made the supported way:
 * the first by the setup, the second by its owner through POST /v1/organizations, each with a key minted through the
 * API. Every resource one makes is not found by the other on every route that names it, and absent from its lists;
 * both may add and verify the same domain name, but only one receives mail for it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { asPerson, setUpOwner } from "./helpers/people.ts";

let t: TestApp;
/** Organisation A's keys (full access, live and test) and B's, each minted by the owner in that organisation. */
let keyA: string;
let testKeyA: string;
let keyB: string;
const made: Record<string, string> = {};

const as = (key: string) => ({
  call: (method: string, path: string, body?: unknown) => t.json(method, path, { body, key }),
});

beforeAll(async () => {
  t = await createTestApp({ webhooks: { allow_private_networks: true } });
  const owner = await setUpOwner(t);
  const second = await asPerson(t, "POST", "/v1/organizations", owner, { body: { name: "B" } });
  const mint = async (organization: string, mode: "live" | "test") =>
    (
      await asPerson(t, "POST", "/v1/api-keys", owner, {
        body: { name: `full ${mode}`, permission: "full_access", mode },
        organization,
      })
    ).body.token as string;
  keyA = await mint(t.organizationId, "live");
  testKeyA = await mint(t.organizationId, "test");
  keyB = await mint(second.body.id, "live");

  // What organisation A makes, through the API with its own keys (its mail in test mode: no verified domain needed).
  const a = as(keyA);
  made.domain = (await a.call("POST", "/v1/domains", { name: "shared.example" })).body.id;
  made.email = (
    await as(testKeyA).call("POST", "/v1/emails", {
      from: "a@shared.example",
      to: "someone@dest.example",
      subject: "A's",
      html: "<p>A</p>",
      scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
    })
  ).body.id;
  made.template = (await a.call("POST", "/v1/templates", { name: "A's template", html: "<p>{{x}}</p>" })).body.id;
  made.webhook = (
    await a.call("POST", "/v1/webhooks", { endpoint: "http://127.0.0.1:9/a", events: ["email.sent"] })
  ).body.id;
  made.key = (await a.call("POST", "/v1/api-keys", { name: "A's other key", mode: "test" })).body.id;
  made.delivery = (await a.call("GET", `/v1/deliveries?email_id=${made.email}`)).body.data[0]?.id;
});
afterAll(() => t?.close());

describe("two organisations made through the API", () => {
  test("B's key finds none of A's resources on any route that names one", async () => {
    const routes: Array<[string, string, unknown?]> = [
      ["GET", `/v1/domains/${made.domain}`],
      ["PATCH", `/v1/domains/${made.domain}`, { open_tracking: true }],
      ["POST", `/v1/domains/${made.domain}/verify`],
      ["POST", `/v1/domains/${made.domain}/dkim/rotate`],
      ["DELETE", `/v1/domains/${made.domain}`],
      ["GET", `/v1/emails/${made.email}`],
      ["GET", `/v1/emails/${made.email}/raw`],
      ["GET", `/v1/emails/${made.email}/attachments`],
      ["PATCH", `/v1/emails/${made.email}`, { scheduled_at: new Date(Date.now() + 2 * 86_400_000).toISOString() }],
      ["POST", `/v1/emails/${made.email}/cancel`],
      ["GET", `/v1/templates/${made.template}`],
      ["PATCH", `/v1/templates/${made.template}`, { name: "B's now" }],
      ["POST", `/v1/templates/${made.template}/publish`],
      ["POST", `/v1/templates/${made.template}/duplicate`],
      ["DELETE", `/v1/templates/${made.template}`],
      ["GET", `/v1/webhooks/${made.webhook}`],
      ["PATCH", `/v1/webhooks/${made.webhook}`, { description: "B's now" }],
      ["POST", `/v1/webhooks/${made.webhook}/signing-secret/rotate`],
      ["GET", `/v1/webhooks/${made.webhook}/deliveries`],
      ["DELETE", `/v1/webhooks/${made.webhook}`],
      ["PATCH", `/v1/api-keys/${made.key}`, { name: "B's now" }],
      ["DELETE", `/v1/api-keys/${made.key}`],
      ["POST", `/v1/deliveries/${made.delivery}/cancel`],
    ];
    const answers = [];
    for (const [method, path, body] of routes) {
      const { status } = await as(keyB).call(method, path, body);
      answers.push(`${method} ${path.replace(/[0-9a-f-]{36}/g, ":id")} ${status}`);
    }
    expect(answers).toEqual(routes.map(([method, path]) => `${method} ${path.replace(/[0-9a-f-]{36}/g, ":id")} 404`));
    // And A still has every one of them, unchanged.
    expect((await as(keyA).call("GET", `/v1/templates/${made.template}`)).body.name).toBe("A's template");
    expect((await as(keyA).call("GET", `/v1/emails/${made.email}`)).body.status).toBe("scheduled");
  });

  test("B's lists, statistics, queue, pauses, members, audit log and settings hold nothing of A's", async () => {
    const b = as(keyB);
    const ids = async (path: string) =>
      ((await b.call("GET", path)).body.data as Array<{ id: string }>).map((item) => item.id);
    expect(await ids("/v1/domains")).toEqual([]);
    expect(await ids("/v1/emails")).toEqual([]);
    expect(await ids("/v1/templates")).toEqual([]);
    expect(await ids("/v1/webhooks")).toEqual([]);
    expect(await ids("/v1/deliveries")).toEqual([]);
    expect((await ids("/v1/api-keys")).includes(made.key!)).toBe(false);
    expect((await b.call("GET", "/v1/emails/stats")).body.totals.accepted).toBe(0);
    expect((await b.call("GET", "/v1/deliveries/summary")).body.oldest_waiting_at).toBeNull();
    const audit = (await b.call("GET", "/v1/audit-log?limit=100")).body.data as Array<{
      target: { id: string } | null;
    }>;
    expect(audit.some((e) => Object.values(made).includes(e.target?.id ?? ""))).toBe(false);
    expect((await b.call("GET", "/v1/organization")).body.name).toBe("B");
    expect((await b.call("GET", "/v1/members")).body.data.map((m: { email: string }) => m.email)).toEqual([
      "owner@example.com",
    ]);
  });

  test("both may add the same domain name; only one receives mail for it", async () => {
    const added = await as(keyB).call("POST", "/v1/domains", { name: "shared.example" });
    expect(added.status).toBe(200);
    expect((await as(keyB).call("POST", "/v1/domains", { name: "Shared.Example." })).status).toBe(409);
    expect((await as(keyA).call("PATCH", `/v1/domains/${made.domain}`, { receiving: true })).status).toBe(200);
    const refused = await as(keyB).call("PATCH", `/v1/domains/${added.body.id}`, { receiving: true });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("already received by another organisation");
  });
});
