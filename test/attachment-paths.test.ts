/**
 * Attachments given by `path` (docs/sending.md) over real sockets: fetched at acceptance through the public-address
 * guard, redirects followed only through it, and cut off at the message size limit as the bytes arrive — a URL
 * that streams without end costs the limit at most, and the message is refused with nothing stored.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startFloodServer } from "./helpers/flood-server.ts";

const LIMIT = 1024 * 1024;
let files: ReturnType<typeof Bun.serve>;
let t: TestApp;
const served: string[] = [];

beforeAll(async () => {
  files = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      served.push(path);
      if (path === "/terms.txt") return new Response("Terms: none.", { headers: { "content-type": "text/plain" } });
      if (path === "/moved") return new Response(null, { status: 302, headers: { location: "/terms.txt" } });
      if (path === "/loop") return new Response(null, { status: 302, headers: { location: "/loop" } });
      if (path === "/600k.bin") return new Response(new Uint8Array(600 * 1024));
      return new Response("not here", { status: 404 });
    },
  });
  t = await createTestApp({ webhooks: { allow_private_networks: true }, limits: { max_message_bytes: LIMIT } });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
});

afterAll(async () => {
  await t.close();
  files.stop(true);
});

const send = (attachments: unknown[], app = t) =>
  app.json("POST", "/v1/emails", {
    body: { from: "hi@example.com", to: "someone@dest.test", subject: "Your terms", text: "Attached.", attachments },
  });
const fileUrl = (path: string) => `http://127.0.0.1:${files.port}${path}`;
const storedEmails = async () => (await t.json("GET", "/v1/emails?limit=100")).body.data.length as number;

test("finding 6: an attachment URL that streams without end is refused at the message size limit, not read whole", async () => {
  // 64 MiB stands for "without end": read whole, every byte would cross before any size check.
  const flood = await startFloodServer({ totalBytes: 64 * 1024 * 1024, contentType: "application/octet-stream" });
  try {
    const before = await storedEmails();
    const res = await send([{ filename: "endless.bin", path: `http://127.0.0.1:${flood.port}/endless.bin` }]);
    expect(res.status).toBe(413);
    expect(res.body.name).toBe("payload_too_large");
    expect(await flood.responseOver()).toBeLessThan(16 * 1024 * 1024);
    expect(await storedEmails()).toBe(before);
  } finally {
    await flood.close();
  }
});

test("an attachment given by path is fetched at acceptance and sent as if given by content, a redirect followed", async () => {
  const res = await send([
    { filename: "terms.txt", path: fileUrl("/terms.txt") },
    { filename: "inline.txt", content: Buffer.from("inline").toString("base64") },
    { filename: "moved.txt", path: fileUrl("/moved"), content_type: "text/plain" },
  ]);
  expect(res.status).toBe(200);
  const listed = (await t.json("GET", `/v1/emails/${res.body.id}/attachments`)).body.data;
  expect(listed.map((a: { filename: string; size: number }) => [a.filename, a.size])).toEqual([
    ["terms.txt", 12],
    ["inline.txt", 6],
    ["moved.txt", 12],
  ]);
  const raw = await (await t.request("GET", `/v1/emails/${res.body.id}/raw`)).text();
  expect(raw).toContain(Buffer.from("Terms: none.").toString("base64"));
});

test("a batch's downloads together are held to one message's limit: a small JSON batch cannot make the server hold a hundred messages' worth", async () => {
  const message = (n: number) => ({
    from: "hi@example.com",
    to: `r${n}@dest.test`,
    subject: "Report",
    text: "Attached.",
    attachments: [{ filename: "report.bin", path: fileUrl("/600k.bin") }],
  });
  expect((await send([{ filename: "report.bin", path: fileUrl("/600k.bin") }])).status).toBe(200);
  const before = await storedEmails();
  const res = await t.json("POST", "/v1/emails/batch", { body: [message(1), message(2)] });
  expect(res.status).toBe(413);
  expect(res.body.name).toBe("payload_too_large");
  expect(await storedEmails()).toBe(before);
});

test.each([
  ["a URL that answers 404", "/missing.pdf", "could not be fetched: it answered 404"],
  ["a URL that redirects without end", "/loop", "could not be fetched: it redirected more than 3 times"],
])("%s refuses the message 400, naming the attachment", async (_what, path, says) => {
  const res = await send([
    { filename: "a.txt", content: "aGk=" },
    { filename: "b.pdf", path: fileUrl(path) },
  ]);
  expect(res.status).toBe(400);
  expect(res.body.details).toEqual([{ path: "attachments.1.path", message: says }]);
});

test("without allow_private_networks, a path on a loopback address is refused and nothing is fetched", async () => {
  const closed = await createTestApp();
  try {
    await closed.app.services.domains.add(closed.operator, "example.com", { verifiedOverride: true });
    served.length = 0;
    const res = await send([{ filename: "terms.txt", path: `https://127.0.0.1:${files.port}/terms.txt` }], closed);
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe("attachments.0.path");
    expect(res.body.details[0].message).toContain("attachment URLs must be public");
    expect(served).toEqual([]);
  } finally {
    await closed.close();
  }
});
