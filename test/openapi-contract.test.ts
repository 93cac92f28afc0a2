/**
 * The OpenAPI document is the contract (issue 42, docs/architecture.md#one-contract-per-route): every `/v1` and
 * `/functions/v1` operation documents its success answer with a schema (or a 204, or the media type of a file), every
 * list its paging (`limit`, `after`, `before`), and the failures it can give with the error body; and the answers the
 * server really gives to each read operation validate against the schemas it documents (ajv, JSON Schema 2020-12,
 * as OpenAPI 3.1 writes it).
 *
 * Every route is declared through its contract (http/contract.ts), so a route added without one has no documented
 * answer and fails here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { ORIGIN, setUpOwner } from "./helpers/people.ts";

const FILE = { filename: "a.txt", content: Buffer.from("hello").toString("base64") };
const RECEIVED = [
  "From: b@example.org",
  "To: in@in.example.com",
  "Subject: file",
  'Content-Type: multipart/mixed; boundary="b"',
  "",
  "--b",
  "Content-Type: text/plain",
  "",
  "hello",
  "--b",
  'Content-Type: text/plain; name="a.txt"',
  'Content-Disposition: attachment; filename="a.txt"',
  "",
  "hello",
  "--b--",
  "",
].join("\r\n");

interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

let t: TestApp;
let spec: Document;

beforeAll(async () => {
  t = await createTestApp();
  spec = (await t.json("GET", "/openapi.json", { key: null })).body;
});
afterAll(() => t?.close());

const operations = () =>
  Object.entries(spec.paths)
    .filter(([path]) => path.startsWith("/v1/") || path.startsWith("/functions/v1/"))
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        path,
        method,
        operation,
      })),
    );

/** The JSON schema of an operation's success answer, if it documents one. */
function successOf(operation: Operation): { status: string; schema?: unknown } | undefined {
  for (const [status, answer] of Object.entries(operation.responses ?? {})) {
    if (!/^[23]/.test(status)) continue;
    if (status === "204" || status.startsWith("3")) return { status };
    const content = Object.entries(answer.content ?? {});
    if (content.length) return { status, schema: content.find(([type]) => type.includes("json"))?.[1].schema };
  }
  return undefined;
}

const resolve = (schema: unknown): Record<string, unknown> => {
  const ref = (schema as { $ref?: string })?.$ref;
  return (ref ? spec.components.schemas[ref.split("/").pop()!] : schema) as Record<string, unknown>;
};
const isList = (schema: unknown) =>
  (resolve(schema)?.properties as Record<string, { const?: string }> | undefined)?.object?.const === "list";

describe("the OpenAPI document", () => {
  test("documents every operation's success answer, every list's paging and the failures, with the error body", () => {
    const problems: string[] = [];
    // Not a test that cannot fail: the document holds the API's hundred-odd operations.
    expect(operations().length).toBeGreaterThan(100);
    for (const { key, operation } of operations()) {
      const success = successOf(operation);
      const failures = Object.keys(operation.responses ?? {}).filter((status) => /^[45]/.test(status));
      for (const status of failures) {
        const schema = operation.responses?.[status]?.content?.["application/json"]?.schema as { $ref?: string };
        if (schema?.$ref !== "#/components/schemas/Error")
          problems.push(`${key} answers ${status} without the Error body`);
      }
      if (!success) {
        problems.push(`${key} documents no success answer`);
        continue;
      }
      const names = new Set((operation.parameters ?? []).map((parameter) => parameter.name));
      if (isList(success.schema))
        for (const name of ["limit", "after", "before"])
          if (!names.has(name)) problems.push(`${key} lists without documenting ${name}`);
      if (!failures.length) problems.push(`${key} documents no failure`);
    }
    expect(problems).toEqual([]);
  });

  test("real answers of the documented read operations validate against their schemas", async () => {
    await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
    await t.json("POST", "/v1/suppressions", { body: { email: "gone@example.org", reason: "asked" } });
    // A recipient waiting in the queue (no worker runs here), and the organisation's sending paused.
    await t.json("POST", "/v1/emails", {
      body: { from: "a@example.com", to: "b@example.org", subject: "s", text: "t" },
    });
    await t.json("POST", "/v1/sending/pause", { body: { scope: "organization", reason: "checked" } });
    // A webhook (a public address literal: no DNS, and the dispatcher does not run here) with a test event.
    const hook = await t.json("POST", "/v1/webhooks", {
      body: { endpoint: "https://93.184.215.14/hooks", events: ["email.sent"] },
    });
    await t.json("POST", `/v1/webhooks/${hook.body.id}/test`);
    // A template with a variable, so its {id} read is checked.
    await t.json("POST", "/v1/templates", {
      body: { name: "welcome", html: "<p>Hi {{name}}</p>", variables: [{ key: "name", type: "string" }] },
    });
    // Mail sent and mail received, each with an attachment, so their {id} and attachment reads are checked.
    await t.json("POST", "/v1/emails", {
      body: { from: "a@example.com", to: "c@example.org", subject: "f", text: "t", attachments: [FILE] },
    });
    await t.app.services.domains.add(t.operator, "in.example.com", { verifiedOverride: true, receivingEnabled: true });
    await t.app.services.inbound.receive(Buffer.from(RECEIVED), { from: "b@example.org", to: ["in@in.example.com"] });
    // A DMARC report about the domain the reads below take first (the newest), so its rows are checked too.
    const domain = (await t.json("GET", "/v1/domains")).body.data[0].name;
    const now = new Date().toISOString();
    const row = { source_ip: "192.0.2.1", count: 3, disposition: "none", dkim: "pass", spf: "fail" } as const;
    await t.app.services.dmarcReports.store(domain, [
      {
        reporter: "google.com",
        report_id: "r1",
        policy_domain: domain,
        begin: now,
        end: now,
        rows: [{ ...row, header_from: domain }],
      },
    ]);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: "mailroom", components: spec.components });
    // Read as a signed-in owner (who reads what a person reads), and with a key where only a key may read.
    const cookie = await setUpOwner(t);
    const read = async (path: string) => {
      const asPerson = await t.json("GET", path, { key: null, headers: { cookie, origin: ORIGIN } });
      return asPerson.status === 403 ? t.json("GET", path) : asPerson;
    };
    const checked: string[] = [];
    const idsOf = new Map<string, string>();
    const reads = operations()
      .filter(({ method }) => method === "get")
      .sort((a, b) => a.path.length - b.path.length);
    for (const { key, path, operation } of reads) {
      // A path parameter is the first id of the list the path continues (…/{id} after the list at …).
      let concrete = path;
      for (const match of path.matchAll(/\{(\w+)\}/g)) {
        const list = concrete.slice(0, concrete.indexOf(match[0]) - 1);
        const id = idsOf.get(list);
        if (!id) break;
        concrete = concrete.replace(match[0], id);
      }
      if (concrete.includes("{")) continue;
      const success = successOf(operation)!;
      // A redirect is a browser's navigation (single sign-on), not an answer to read.
      if (success.status.startsWith("3")) continue;
      // A file (a raw message, an attachment's bytes) is read for its status; its media type is the document's.
      if (!success.schema) {
        expect([key, (await t.request("GET", concrete)).status]).toEqual([key, Number(success.status)]);
        checked.push(key);
        continue;
      }
      const answer = await read(concrete);
      expect([key, answer.status]).toEqual([key, Number(success.status)]);
      if (!success.schema) continue;
      const schema = JSON.parse(JSON.stringify(success.schema).replaceAll('"#/components/', '"mailroom#/components/'));
      const valid = ajv.validate(schema, answer.body);
      expect([key, valid ? [] : ajv.errors]).toEqual([key, []]);
      const first = (answer.body as { data?: Array<{ id?: string }> }).data?.[0]?.id;
      if (first) idsOf.set(concrete, first);
      checked.push(key);
    }
    // Not a test that cannot fail: the suppression list and its entry, at least, were read and checked.
    expect(checked).toEqual(
      expect.arrayContaining([
        "GET /v1/suppressions",
        "GET /v1/suppressions/{id}",
        "GET /v1/me",
        "GET /v1/members",
        "GET /v1/domains/{id}",
        "GET /v1/api-keys",
        "GET /v1/deliveries",
        "GET /v1/sending",
        "GET /v1/organization",
        "GET /v1/audit-log",
        "GET /v1/webhooks/{id}/events/{event_id}",
        "GET /v1/ai",
        "GET /v1/templates/{id}",
        "GET /v1/sending/health",
        "GET /v1/domains/{id}/dmarc/{report_id}/rows",
        "GET /v1/domains/{id}/dmarc/summary",
      ]),
    );
    // Sent and received mail: a record, an attachment, the statistics and the files were read and checked.
    expect(checked).toEqual(
      expect.arrayContaining([
        "GET /v1/emails/{id}",
        "GET /v1/emails/stats",
        "GET /v1/emails/{id}/attachments/{attachment_id}",
        "GET /v1/emails/{id}/attachments/{attachment_id}/content",
        "GET /v1/emails/receiving/{id}",
        "GET /v1/emails/receiving/{id}/attachments/{attachment_id}",
        "GET /v1/emails/receiving/{id}/raw",
      ]),
    );
  }, 30_000);
});
