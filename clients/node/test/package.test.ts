/** The package as published: both builds load, the manifest is what npm and bundlers read, versions agree. */
import { beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { loadLibrary, PACKAGE_DIR, type Library } from "./support.ts";

let lib: Library;
beforeAll(async () => {
  lib = await loadLibrary();
}, 120_000);

const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8"));

test("the ES module build exports the client, its errors and the verifier", () => {
  expect(typeof lib.Mailroom).toBe("function");
  expect(typeof lib.MailroomError).toBe("function");
  expect(typeof lib.Webhook).toBe("function");
  expect(typeof lib.WebhookVerificationError).toBe("function");
  expect(lib.VERSION).toBe(manifest.version);
  expect(lib.DEFAULT_USER_AGENT).toBe(`mailroom-node/${manifest.version}`);
  expect(lib.DEFAULT_BASE_URL).toBe("http://127.0.0.1:3000");
  expect(lib.DEFAULT_TIMEOUT_MS).toBe(30_000);
});

test("the CommonJS build loads with require() and works", () => {
  const require = createRequire(join(PACKAGE_DIR, "test", "package.test.ts"));
  const cjs = require("@mailroom/node") as Library;
  expect(require.resolve("@mailroom/node")).toBe(join(PACKAGE_DIR, "dist", "cjs", "index.js"));
  const client = new cjs.Mailroom("mr_test_key");
  for (const resource of [
    "emails",
    "batch",
    "domains",
    "apiKeys",
    "webhooks",
    "suppressions",
    "deliveries",
    "sending",
    "ipPools",
    "organization",
    "organizations",
    "members",
    "auditLog",
    "templates",
    "ai",
    "contacts",
    "contactProperties",
    "segments",
    "audiences",
    "topics",
    "broadcasts",
    "logs",
    "usage",
  ] as const) {
    expect(typeof client[resource]).toBe("object");
  }
  expect(typeof client.emails.receiving.list).toBe("function");
  expect(typeof client.contacts.imports.create).toBe("function");
  expect(typeof client.emails.metrics).toBe("function");
  expect(typeof client.emails.receiving.routes.test).toBe("function");
  expect(typeof client.contacts.segments.add).toBe("function");
  expect(typeof client.contacts.topics.update).toBe("function");
  expect(typeof client.deliveries.bulk.cancel).toBe("function");
  expect(typeof client.sending.pause).toBe("function");
  expect(typeof client.sending.health).toBe("function");
  expect(typeof client.domains.dmarcReports).toBe("function");
  expect(typeof client.domains.dmarcSummary).toBe("function");
  expect(typeof client.ipPools.list).toBe("function");
  expect(typeof client.organization.update).toBe("function");
  expect(typeof client.organizations.list).toBe("function");
  expect(typeof client.members.revokeInvitation).toBe("function");
  expect(typeof client.auditLog.list).toBe("function");
  const webhook = new cjs.Webhook(`whsec_${Buffer.from("k".repeat(24)).toString("base64")}`);
  const id = "msg_1";
  const now = new Date();
  const body = '{"type":"email.sent","created_at":"2026-01-01T00:00:00.000Z","data":{}}';
  const verified = webhook.verify(body, {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": webhook.sign(id, now, body),
  });
  expect(verified.type).toBe("email.sent");
  expect(new cjs.MailroomError({ name: "not_found", message: "x", statusCode: 404 })).toBeInstanceOf(Error);
});

test("the manifest: exports for import and require, types, optional React peers, no dependencies", () => {
  expect(manifest.name).toBe("@mailroom/node");
  expect(manifest.exports["."].import.default).toBe("./dist/esm/index.js");
  expect(manifest.exports["."].require.default).toBe("./dist/cjs/index.js");
  expect(manifest.types).toBe("./dist/types/index.d.ts");
  expect(manifest.dependencies).toBeUndefined();
  expect(manifest.peerDependencies).toEqual({ "@react-email/render": ">=1", react: ">=18" });
  expect(manifest.peerDependenciesMeta["@react-email/render"].optional).toBe(true);
  expect(manifest.peerDependenciesMeta.react.optional).toBe(true);
  const cjsMarker = JSON.parse(readFileSync(join(PACKAGE_DIR, "dist", "cjs", "package.json"), "utf8"));
  expect(cjsMarker.type).toBe("commonjs");
  expect(readFileSync(join(PACKAGE_DIR, "dist", "types", "index.d.ts"), "utf8")).toContain("Mailroom");
});

test("a client without a key is a programming error", () => {
  const saved = process.env.MAILROOM_API_KEY;
  delete process.env.MAILROOM_API_KEY;
  try {
    expect(() => new lib.Mailroom()).toThrow(/Missing API key/);
  } finally {
    if (saved !== undefined) process.env.MAILROOM_API_KEY = saved;
  }
});
