/**
 * What every request meets, whatever the area: unknown routes and methods in the error shape, a request id on every
 * answer, the OpenAPI document and its docs page served from local assets, metrics that move as mail is accepted and
 * sent, readiness that follows the app's start and stop, and unknown errors answered as 500 with nothing internal.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { message, setUpApiTestApp } from "./helpers/http-api.ts";

let t: TestApp;

setUpApiTestApp((app) => (t = app));

describe("routing", () => {
  test("an unknown route is 404 not_found in the error shape", async () => {
    const res = await t.json("GET", "/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "Not Found", name: "not_found", statusCode: 404 });
  });

  test("a known route with another method is 405 with Allow", async () => {
    const res = await t.json("PUT", "/v1/emails");
    expect(res.status).toBe(405);
    expect(res.body.name).toBe("method_not_allowed");
    expect(res.headers.get("allow")).toContain("POST");
  });

  test("every response carries a request id", async () => {
    expect((await t.request("GET", "/healthz")).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect((await t.request("GET", "/v1/nope")).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("the OpenAPI document describes both forms and the docs page loads only local assets", async () => {
    const spec = await t.json("GET", "/openapi.json", { key: null });
    expect(Object.keys(spec.body.paths)).toEqual(
      expect.arrayContaining([
        "/v1/emails",
        "/functions/v1/send-email",
        "/v1/emails/{id}",
        "/functions/v1/send-email/{id}",
      ]),
    );
    // The docs list the areas in the declared order, sending first; every operation is under one of them.
    const areas = (spec.body.tags as Array<{ name: string }>).map((tag) => tag.name);
    expect(areas[0]).toBe("Emails");
    expect(areas.at(-1)).toBe("Operations");
    const untagged = Object.entries(spec.body.paths as Record<string, Record<string, { tags?: string[] }>>).flatMap(
      ([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => !operation.tags?.length || !operation.tags.every((tag) => areas.includes(tag)))
          .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(untagged).toEqual([]);
    const page = await (await t.request("GET", "/docs", { key: null })).text();
    expect(page).not.toMatch(/https?:\/\//);
    const bundle = await t.request("GET", "/docs/assets/swagger-ui-bundle.js", { key: null });
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});

describe("operations", () => {
  test("metrics count requests, accepted emails and queue depth as they change", async () => {
    const own = await createTestApp();
    try {
      await own.app.services.domains.add(own.operator, "example.com", { verifiedOverride: true });
      const scrape = async () => {
        const text = await (await own.request("GET", "/metrics", { key: null })).text();
        const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
        return {
          // A counter has no line before its first increment.
          accepted: value(/^mailroom_emails_accepted_total (\d+)$/m) || 0,
          due: value(/^mailroom_queue_due\{lane="transactional"\} (\d+)$/m),
          sends: value(/^mailroom_http_requests_total\{[^}]*route="\/v1\/emails"[^}]*status="200"[^}]*\} (\d+)$/m) || 0,
        };
      };
      const before = await scrape();
      expect(before.accepted).toBe(0);
      expect(before.due).toBe(0);
      for (let i = 0; i < 2; i++) expect((await own.json("POST", "/v1/emails", { body: message() })).status).toBe(200);
      // Requests are counted once their answer has gone out, a moment after the client has it.
      let queued = await scrape();
      for (let i = 0; i < 50 && queued.sends < before.sends + 2; i++) queued = (await Bun.sleep(10), await scrape());
      expect(queued.accepted).toBe(2);
      expect(queued.due).toBe(2);
      expect(queued.sends).toBe(before.sends + 2);
      await own.app.services.worker.runOnce();
      expect((await scrape()).due).toBe(0);
    } finally {
      await own.close();
    }
  });

  test("readyz is 503 until the app is started, 200 while it runs, and 503 again once it stops", async () => {
    const own = await createTestApp();
    try {
      expect((await own.request("GET", "/readyz", { key: null })).status).toBe(503);
      expect((await own.request("GET", "/healthz", { key: null })).status).toBe(200);
      await own.app.start();
      expect((await own.request("GET", "/readyz", { key: null })).status).toBe(200);
      await own.app.stop();
      expect((await own.request("GET", "/readyz", { key: null })).status).toBe(503);
    } finally {
      await own.close();
    }
  });
});

describe("unknown errors", () => {
  test("become 500 internal_error with a request id and nothing internal", async () => {
    const broken = await createTestApp();
    await broken.app.services.store.close();
    const res = await broken.json("GET", "/v1/emails");
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ name: "internal_error", statusCode: 500, request_id: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/database|sqlite|closed/i);
  });
});
