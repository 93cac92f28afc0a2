/**
 * A CSV import of a few thousand lines over a real socket (docs/contacts.md#imports), on either engine: every bad
 * line is counted and the first hundred named with their line and why, the counts move while the import runs and
 * add up at its end, and every line that was accepted is a contact, in the import's segment and topic, with its
 * values: nothing accepted is lost, and a second line of an address updates the contact the first one made.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";

const LINES = 3_000;
let t: TestApp;
let base: string;
beforeAll(async () => {
  // The test reads the import's counts while it runs: more requests than the default limit of a minute.
  t = await createTestApp({ limits: { key_requests_per_minute: 100_000, org_requests_per_minute: 100_000 } });
  const http = (await t.app.start()).find((listener) => listener.name === "http")!;
  base = `http://127.0.0.1:${http.port}`;
});
afterAll(() => t.close());

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${t.liveKey}`,
      ...(body !== undefined && { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
};

/** Row `i` of the file (its line is i + 2: the header is line 1), and why it must fail, if it must. */
function row(i: number): { line: string; email?: string; failure?: RegExp } {
  const email = `person${i}@import.test`;
  if (i % 97 === 13) return { line: `not-an-address-${i},First${i},${i}`, failure: /address|email|@/i };
  if (i % 89 === 7) return { line: `${email},First${i},many`, failure: /plan must be a number/ };
  if (i === 1234) return { line: `${email},${"x".repeat(300)},1`, failure: /first_name is longer than 255/ };
  if (i === 1500) return { line: `,First${i},1`, failure: /no email address/ };
  // The last line repeats row 10's address: the contact row 10 made is updated, not made twice.
  if (i === LINES - 1) return { line: "Person10@Import.test,Again,42", email: "person10@import.test" };
  return { line: `${email},First${i},${i % 7}`, email };
}

test(`a ${LINES}-line import with bad lines: per-line errors, live counts, nothing accepted lost`, async () => {
  expect((await call("POST", "/v1/contact-properties", { key: "plan", type: "number" })).status).toBe(200);
  const segment = (await call("POST", "/v1/segments", { name: "Imported" })).body;
  const topic = (await call("POST", "/v1/topics", { name: "News", default_subscription: "opt_out" })).body;
  // An existing contact the file updates.
  await call("POST", "/v1/contacts", { email: "person20@import.test", first_name: "Before", last_name: "Kept" });

  const rows = Array.from({ length: LINES }, (_, i) => row(i));
  const csv = `email,first_name,plan_column\n${rows.map((r) => r.line).join("\n")}\n`;
  const form = new FormData();
  form.append("file", new Blob([csv], { type: "text/csv" }), "contacts.csv");
  form.append("column_map", JSON.stringify({ properties: { plan: { column: "plan_column" } } }));
  form.append("segments", JSON.stringify([{ id: segment.id }]));
  form.append("topics", JSON.stringify([{ id: topic.id, subscription: "opt_in" }]));
  const created = await fetch(`${base}/v1/contacts/imports`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.liveKey}` },
    body: form,
  });
  expect(created.status).toBe(200);
  const { id } = (await created.json()) as { id: string };

  // The runner works it in the background; its counts are read while it runs.
  const totals: number[] = [];
  let view: any;
  for (const started = Date.now(); Date.now() - started < 60_000; ) {
    const answer = await call("GET", `/v1/contacts/imports/${id}`);
    expect(answer.status).toBe(200);
    view = answer.body;
    totals.push(view.counts.total);
    if (view.status === "completed" || view.status === "failed") break;
    await Bun.sleep(20);
  }
  expect(view.status).toBe("completed");
  expect(totals.some((total) => total > 0 && total < LINES)).toBe(true);

  const failing = rows.flatMap((r, i) => (r.failure ? [{ line: i + 2, failure: r.failure }] : []));
  const accepted = new Set(rows.flatMap((r) => (r.email && !r.failure ? [r.email] : [])));
  expect(view.counts).toEqual({
    total: LINES,
    created: accepted.size - 1, // person20 existed
    updated: 2, // person20, and person10's second line
    skipped: 0,
    failed: failing.length,
  });
  expect(view.errors).toHaveLength(Math.min(100, failing.length));
  for (const [k, error] of (view.errors as Array<{ line: number; message: string }>).entries()) {
    expect(error.line).toBe(failing[k]!.line);
    expect(error.message).toMatch(failing[k]!.failure);
  }

  // Every accepted address is a contact of the segment, paged through by cursor.
  const members = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const page = (await call("GET", `/v1/segments/${segment.id}/contacts?limit=100${after ? `&after=${after}` : ""}`))
      .body;
    for (const contact of page.data) members.add(contact.email);
    if (!page.has_more) break;
    after = page.data.at(-1).id;
  }
  expect(members).toEqual(accepted);
  const again = (await call("GET", "/v1/contacts/person10@import.test")).body;
  expect(again).toMatchObject({ first_name: "Again", properties: { plan: { value: 42 } } });
  const updated = (await call("GET", "/v1/contacts/person20@import.test")).body;
  expect(updated).toMatchObject({ first_name: "First20", last_name: "Kept", properties: { plan: { value: 20 % 7 } } });
  const subscribed = await t.app.services.contacts.subscribedTo(t.organizationId, topic.id, [
    "person30@import.test",
    "person2999@import.test",
    "outsider@import.test",
  ]);
  expect([...subscribed].sort()).toEqual(["person30@import.test"]);
});
