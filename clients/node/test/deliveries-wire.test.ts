/**
 * The delivery queue and sending pauses on the wire, against a scripted server of the test's own: list filters in the
 * query, actions on encoded ids, bulk filters in the body, an empty id refused before any request; the sending state
 * read, the pause's target and reason in the body.
 */
import { afterEach, beforeAll, expect, test } from "bun:test";
import { json, scripted, stopServers } from "./scripted.ts";
import { loadLibrary, type Library } from "./support.ts";

let lib: Library;
beforeAll(async () => {
  lib = await loadLibrary();
}, 120_000);
afterEach(stopServers);

test("the queue's wire: list filters in the query, actions on encoded ids, bulk filters in the body", async () => {
  const { seen, baseUrl } = scripted(json(200, { object: "bulk", matched: 0, changed: 0 }));
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  await client.deliveries.list({ status: "deferred", domain: "example.org", email_id: "e1", limit: 10, after: "d0" });
  await client.deliveries.summary();
  await client.deliveries.retry("d/1");
  await client.deliveries.cancel("d2");
  await client.deliveries.release("d3");
  await client.deliveries.bulk.retry({ status: "deferred", domain: "example.org" });
  await client.deliveries.bulk.cancel({ email_id: "e1" });
  await client.deliveries.bulk.release({ provider: "smtp" });

  expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
    "GET /v1/deliveries?limit=10&after=d0&status=deferred&domain=example.org&email_id=e1",
    "GET /v1/deliveries/summary",
    "POST /v1/deliveries/d%2F1/retry",
    "POST /v1/deliveries/d2/cancel",
    "POST /v1/deliveries/d3/release",
    "POST /v1/deliveries/retry",
    "POST /v1/deliveries/cancel",
    "POST /v1/deliveries/release",
  ]);
  expect(seen.slice(2, 5).map((request) => request.body)).toEqual(["", "", ""]);
  expect(seen.slice(5).map((request) => JSON.parse(request.body))).toEqual([
    { status: "deferred", domain: "example.org" },
    { email_id: "e1" },
    { provider: "smtp" },
  ]);
  expect(seen[5]!.headers["content-type"]).toBe("application/json");
  expect((await client.deliveries.cancel("")).error?.name).toBe("missing_required_field");
  expect(seen.length).toBe(8);
});

test("sending pauses' wire: the state read, the target and reason in the body", async () => {
  const { seen, baseUrl } = scripted(json(200, { object: "sending", pauses: [] }));
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  await client.sending.get();
  await client.sending.pause({ scope: "domain", name: "example.com", reason: "migrating DNS" });
  await client.sending.pause({ scope: "organization" });
  await client.sending.resume({ scope: "provider", name: "smtp" });

  expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
    "GET /v1/sending",
    "POST /v1/sending/pause",
    "POST /v1/sending/pause",
    "POST /v1/sending/resume",
  ]);
  expect(seen[0]!.body).toBe("");
  expect(seen.slice(1).map((request) => JSON.parse(request.body))).toEqual([
    { scope: "domain", name: "example.com", reason: "migrating DNS" },
    { scope: "organization" },
    { scope: "provider", name: "smtp" },
  ]);
  expect(seen[1]!.headers["content-type"]).toBe("application/json");
});
