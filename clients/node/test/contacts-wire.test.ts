/**
 * Contacts, the request log, the metrics and broadcasts on the wire, against a scripted server of the test's own: addresses
 * encoded in paths, Resend's older audience paths, the import's multipart form, the metrics' lists joined with
 * commas and dates as ISO text, a broadcast's schedule and recipients' filters.
 */
import { afterEach, beforeAll, expect, test } from "bun:test";
import { json, scripted, stopServers } from "./scripted.ts";
import { loadLibrary, type Library } from "./support.ts";

let lib: Library;
beforeAll(async () => {
  lib = await loadLibrary();
}, 120_000);
afterEach(stopServers);

test("contacts: an address is one encoded path segment; audienceId uses Resend's older paths", async () => {
  const { seen, baseUrl } = scripted(json(200, { object: "contact", id: "c1" }));
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  await client.contacts.get("a+b@example.org");
  await client.contacts.get({ email: "a/b@example.org", audienceId: "s 1" });
  await client.contacts.update({ email: "a+b@example.org", first_name: null });
  await client.contacts.create({ email: "x@example.org", audienceId: "s1" });
  await client.contacts.remove({ id: "c1", audienceId: "s1" });
  await client.contacts.list({ audienceId: "s1", limit: 5 });
  await client.contacts.segments.add({ email: "a+b@example.org", segmentId: "s/2" });
  await client.contacts.topics.update({ id: "c1", topics: [{ id: "t1", subscription: "opt_out" }] });

  expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
    "GET /v1/contacts/a%2Bb%40example.org",
    "GET /v1/audiences/s%201/contacts/a%2Fb%40example.org",
    "PATCH /v1/contacts/a%2Bb%40example.org",
    "POST /v1/audiences/s1/contacts",
    "DELETE /v1/audiences/s1/contacts/c1",
    "GET /v1/contacts?limit=5&segment_id=s1",
    "POST /v1/contacts/a%2Bb%40example.org/segments/s%2F2",
    "PATCH /v1/contacts/c1/topics",
  ]);
  // The selector never reaches the body; a cleared name is sent as null.
  expect(JSON.parse(seen[2]!.body)).toEqual({ first_name: null });
  expect(JSON.parse(seen[3]!.body)).toEqual({ email: "x@example.org" });
  expect(JSON.parse(seen[7]!.body)).toEqual({ topics: [{ id: "t1", subscription: "opt_out" }] });
});

test("contacts.imports.create: multipart with the CSV as file and the options as JSON fields", async () => {
  const { seen, baseUrl } = scripted(json(200, { object: "contact_import", id: "i1" }));
  const client = new lib.Mailroom("mr_test_key", { baseUrl, maxRetries: 0 });
  const file = new File(["email\na@example.org\n"], "list.csv", { type: "text/csv" });
  await client.contacts.imports.create({
    file,
    column_map: { email: "email" },
    on_conflict: "skip",
    topics: [{ id: "t1", subscription: "opt_in" }],
  });
  const [request] = seen;
  expect(request!.headers["content-type"]).toStartWith("multipart/form-data; boundary=");
  const form = await new Response(request!.body, {
    headers: { "content-type": request!.headers["content-type"]! },
  }).formData();
  const uploaded = form.get("file") as File;
  expect(uploaded.name).toBe("list.csv");
  expect(await uploaded.text()).toBe("email\na@example.org\n");
  expect(JSON.parse(form.get("column_map") as string)).toEqual({ email: "email" });
  expect(form.get("on_conflict")).toBe("skip");
  expect(JSON.parse(form.get("topics") as string)).toEqual([{ id: "t1", subscription: "opt_in" }]);
  expect(form.has("segments")).toBe(false);
});

test("emails.metrics and logs.list: lists joined with commas, Dates as ISO text, filters in the query", async () => {
  const { seen, baseUrl } = scripted(json(200, { object: "list", has_more: false, data: [] }));
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  await client.emails.metrics({
    start_date: new Date("2026-01-02T03:04:05.000Z"),
    end_date: "2026-01-09",
    metrics: ["sent", "open_rate"],
    dimensions: ["period"],
    granularity: "weekly",
  });
  await client.logs.list({ status: 422, method: "POST", api_key_id: "k1", endpoint: "/emails" });
  await client.emails.receiving.routes.test({ recipient: "support@example.com", headers: { "X-A": "1" } });
  expect(seen.map(({ method, path }) => `${method} ${decodeURIComponent(path)}`)).toEqual([
    "GET /v1/emails/metrics?start_date=2026-01-02T03:04:05.000Z&end_date=2026-01-09&granularity=weekly&metrics=sent,open_rate&dimensions=period",
    "GET /v1/logs?status=422&method=POST&api_key_id=k1&endpoint=/emails",
    "POST /v1/inbound/routes/test",
  ]);
  expect(JSON.parse(seen[2]!.body)).toEqual({ recipient: "support@example.com", headers: { "X-A": "1" } });
});

test("broadcasts: a Date schedule as ISO text, a relative one as given, the recipients' filters in the query", async () => {
  const { seen, baseUrl } = scripted(json(200, { id: "b1" }));
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  const at = new Date("2026-03-04T05:06:07.000Z");
  await client.broadcasts.create({
    segment_id: "s1",
    from: "a@example.com",
    subject: "S",
    text: "t",
    send: true,
    scheduled_at: at,
  });
  await client.broadcasts.send("b/1", { scheduled_at: "in 2 hours" });
  await client.broadcasts.send("b1");
  await client.broadcasts.recipients("b1", {
    type: "bounced",
    bounce_type: "permanent",
    email: "a+b@example.org",
    limit: 5,
  });
  await client.broadcasts.clickedLinks("b1", { after: "20" });
  expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
    "POST /v1/broadcasts",
    "POST /v1/broadcasts/b%2F1/send",
    "POST /v1/broadcasts/b1/send",
    "GET /v1/broadcasts/b1/recipients?limit=5&type=bounced&email=a%2Bb%40example.org&bounce_type=permanent",
    "GET /v1/broadcasts/b1/clicked-links?after=20",
  ]);
  expect(JSON.parse(seen[0]!.body).scheduled_at).toBe("2026-03-04T05:06:07.000Z");
  expect(JSON.parse(seen[1]!.body)).toEqual({ scheduled_at: "in 2 hours" });
  expect(JSON.parse(seen[2]!.body)).toEqual({});
});
