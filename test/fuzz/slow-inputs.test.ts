/**
 * The slow inputs of the second security review, each sent over a real socket while `/healthz` is asked every
 * 10 ms over another: the process must keep answering within 100 ms while it handles each one. One process runs
 * the HTTP API, the relay, the MX and the queue, so whatever holds the event loop holds every client at once.
 *
 * Each input is the shape that once held the loop (the review's findings 1, 5 and 7, and the large messages the
 * relay and the attachment routes parse), at the size that made it slow. The longest stall of the loop and the
 * slowest `/healthz` are printed for each.
 *
 * The CPU pool is guarded too (the third review's findings 3 and 4): a send's latency is measured while hostile
 * inbound mail and hostile template checks keep the pool's untrusted lane busy.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { largeMessage } from "../helpers/large-message.ts";
import { authPlain, smtpChat, type SmtpChat, type SmtpReply } from "../helpers/smtp-chat.ts";
import { watchEventLoop } from "./loop-watchdog.ts";

const MIB = 1024 * 1024;
/** The bound: `/healthz` answers within this while any one input is handled. */
const HEALTHZ_BOUND_MS = 100;
/**
 * The bound for the inputs that store tens of megabytes, on PostgreSQL: there the database server runs on this
 * machine's two cores beside the event loop and the CPU pool, writing the same tens of megabytes, and the loop waits
 * for a core. Measured over six whole-suite runs: 35-60 ms five times, 102 ms once (a clean-clone CI run).
 */
const LARGE_BODY_BOUND_MS = process.env.MAILROOM_TEST_STORE === "postgres" ? 150 : HEALTHZ_BOUND_MS;

let t: TestApp;
let ports: Record<string, number>;
let ca: string;

beforeAll(async () => {
  t = await createTestApp({
    limits: { key_requests_per_minute: 10_000, org_requests_per_minute: 10_000, template_render_timeout: "1s" },
    http: { max_body_bytes: 2 * MIB },
    inbound: { bytes_per_ip_per_minute: 100 * MIB },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true, receivingEnabled: true });
  ports = Object.fromEntries((await t.app.start()).map((listener) => [listener.name, listener.port]));
  ca = readFileSync(join(t.dataDir, "tls", "smtp-cert.pem"), "utf8");
  // Modules loaded on first use (composition, tracking, the threads) load here, not while an input is watched.
  const warmUp = await t.json("POST", "/v1/emails", {
    body: {
      from: "hi@example.com",
      to: "a@dest.test",
      subject: "Hi",
      html: '<a href="https://example.com/">x</a>',
      tracking: { clicks: true },
    },
  });
  expect(warmUp.status).toBe(200);
}, 30_000);

afterAll(() => t.close());

/**
 * Runs `work` while `/healthz` is asked every 10 ms over a socket from a thread of its own (healthz-prober.ts),
 * prints the slowest `/healthz` and the longest stall of this process's event loop, and fails when a `/healthz`
 * took `boundMs` or more.
 */
async function underWatch<T>(name: string, work: () => Promise<T>, boundMs = HEALTHZ_BOUND_MS): Promise<{ result: T }> {
  // The garbage of what ran before (bun test runs every file in one process) is collected now, not during the watch.
  Bun.gc(true);
  const prober = new Worker(new URL("./healthz-prober.ts", import.meta.url).href);
  const watchdog = watchEventLoop();
  prober.postMessage({ url: `http://127.0.0.1:${ports.http}/healthz`, everyMs: 10 });
  try {
    return { result: await work() };
  } finally {
    const longestStallMs = watchdog.stop();
    const report = new Promise<{ probes: number; slowestMs: number; failures: number }>(
      (resolve) => (prober.onmessage = (event) => resolve(event.data)),
    );
    prober.postMessage("stop");
    const { probes, slowestMs, failures } = await report;
    prober.terminate();
    console.log(
      `slow input "${name}": ${probes} /healthz answered, slowest ${Math.round(slowestMs)} ms; longest event-loop stall ${Math.round(longestStallMs)} ms`,
    );
    expect(failures).toBe(0);
    expect(probes).toBeGreaterThan(0);
    expect(slowestMs).toBeLessThan(boundMs);
  }
}

/**
 * Sends the message in 64 KiB writes, as a client elsewhere would arrive, and returns the reply to its final dot: the
 * client shares this process's event loop, and one write of megabytes would encrypt them all in one go, a stall of
 * the test's own making.
 */
async function sendInPieces(chat: SmtpChat, message: Buffer): Promise<SmtpReply> {
  const PIECE = 64 * 1024;
  for (let at = 0; at + PIECE < message.length; at += PIECE) {
    chat.write(message.subarray(at, at + PIECE));
    await Bun.sleep(0);
  }
  return chat.data(message.subarray(Math.floor((message.length - 1) / PIECE) * PIECE));
}

test("finding 1: 360 KB of `<a` without `>` with clicks tracked", async () => {
  const { result } = await underWatch("tracked html of unterminated <a", () =>
    t.json("POST", "/v1/emails", {
      body: {
        from: "hi@example.com",
        to: "a@dest.test",
        subject: "Links",
        html: "<a ".repeat(120_000),
        tracking: { clicks: true, opens: true },
      },
    }),
  );
  expect(result.status).toBe(200);
}, 60_000);

test("finding 7: a nested {{#each}} template with arrays, and a template that loops over its own variables", async () => {
  const nested = (
    await t.json("POST", "/v1/templates", {
      body: {
        name: "nested",
        html: "{{#each a}}{{#each ../a}}{{#each ../../a}}{{#each ../../../a}}x{{/each}}{{/each}}{{/each}}{{/each}}",
      },
    })
  ).body.id;
  await t.json("POST", `/v1/templates/${nested}/publish`);
  const items = Array.from({ length: 150 }, (_, i) => String(i));
  const arrays = await underWatch("template variables as arrays", () =>
    t.json("POST", "/v1/emails", {
      body: {
        from: "hi@example.com",
        to: "a@dest.test",
        subject: "Each",
        template: { id: nested, variables: { a: items } },
      },
    }),
  );
  expect(arrays.result.status).toBe(400);

  const variables = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`v${i}`, "x".repeat(20)]));
  const looping = (
    await t.json("POST", "/v1/templates", {
      body: {
        name: "looping",
        html: "{{#each @root}}{{#each @root}}{{#each @root}}{{#each @root}}{{#each @root}}{{this}}{{/each}}{{/each}}{{/each}}{{/each}}{{/each}}",
      },
    })
  ).body.id;
  await t.json("POST", `/v1/templates/${looping}/publish`);
  const loop = await underWatch("a template looping over its own variables", () =>
    t.json("POST", `/v1/templates/${looping}/render`, { body: { variables } }),
  );
  expect([400, 413]).toContain(loop.result.status);
}, 60_000);

test("finding 5: a 24 MiB message received over the MX", async () => {
  // Made, and turned into bytes, before the watch: the test's own work on the loop is not the server's.
  const message = Buffer.concat([
    largeMessage(24 * MIB, ["From: friend@sender.test", "To: hello@example.com", "Subject: Pictures"]),
    Buffer.from("\r\n.\r\n"),
  ]);
  const chat = await smtpChat(ports.mx!);
  try {
    const { result } = await underWatch(
      "24 MiB to the inbound MX",
      async () => {
        expect((await chat.send("EHLO sender.test")).code).toBe(250);
        expect((await chat.send("MAIL FROM:<friend@sender.test>")).code).toBe(250);
        expect((await chat.send("RCPT TO:<hello@example.com>")).code).toBe(250);
        expect((await chat.send("DATA")).code).toBe(354);
        return sendInPieces(chat, message);
      },
      LARGE_BODY_BOUND_MS,
    );
    expect(result.code).toBe(250);
  } finally {
    chat.close();
  }
  const received = (await t.json("GET", "/v1/emails/receiving?limit=1")).body.data[0];
  const { result: attachments } = await underWatch(
    "the received message's attachments",
    () => t.json("GET", `/v1/emails/receiving/${received.id}/attachments`),
    LARGE_BODY_BOUND_MS,
  );
  expect(attachments.status).toBe(200);
}, 120_000);

test("a 30 MB message relayed over SMTP, then its attachments listed", async () => {
  const message = Buffer.concat([
    largeMessage(30 * MIB, ["From: hi@example.com", "To: a@dest.test", "Subject: Pictures"]),
    Buffer.from("\r\n.\r\n"),
  ]);
  const chat = await smtpChat(ports.smtps!, { tls: true, ca });
  let id = "";
  try {
    const { result } = await underWatch(
      "30 MB through the relay",
      async () => {
        expect((await chat.send("EHLO client.test")).code).toBe(250);
        expect((await chat.send(authPlain("apikey", t.liveKey))).code).toBe(235);
        expect((await chat.send("MAIL FROM:<hi@example.com>")).code).toBe(250);
        expect((await chat.send("RCPT TO:<a@dest.test>")).code).toBe(250);
        expect((await chat.send("DATA")).code).toBe(354);
        return sendInPieces(chat, message);
      },
      LARGE_BODY_BOUND_MS,
    );
    expect(result.code).toBe(250);
    id = /queued as ([0-9a-f-]{36})/.exec(result.text)![1]!;
  } finally {
    chat.close();
  }
  const { result: attachments } = await underWatch(
    "the relayed message's attachments",
    () => t.json("GET", `/v1/emails/${id}/attachments`),
    LARGE_BODY_BOUND_MS,
  );
  expect(attachments.status).toBe(200);
}, 120_000);

test("the CPU pool: sends keep their latency while a hostile inbound message and hostile template checks run", async () => {
  // The third review's finding 3: a To: folded over 40,000 lines (mailauth took 4 s over it, on the thread every
  // send's composition used); and a message whose header is just within the caps, with a body of megabytes.
  const folded = ["To: a0@example.com,", ...Array.from({ length: 40_000 }, (_, i) => ` a${i + 1}@example.com,`)];
  const atTheCaps = [
    "To: hello@example.com,",
    ...Array.from({ length: 1_900 }, (_, i) => ` ${"x".repeat(100)}${i}@example.com,`),
    " last@example.com",
  ];
  // Made, with their final dot, before anything is measured: the client shares this process's event loop.
  const hostileMail = [
    Buffer.from(
      ["From: x@sender.test", ...folded, " last@example.com", "Subject: folded", "", "body", ""].join("\r\n"),
    ),
    largeMessage(8 * MIB, ["From: x@sender.test", ...atTheCaps, "Subject: wide"]),
  ].map((message) => Buffer.concat([message, Buffer.from("\r\n.\r\n")]));
  // Finding 4: checks of 512 KiB of MJML (the largest a source may be), each worth seconds of MJML, in two loops.
  const section = "<mj-section><mj-column><mj-text>Hello {{name}}</mj-text></mj-column></mj-section>";
  const mjml = `<mjml><mj-body>${section.repeat(Math.floor((512 * 1024 - 40) / section.length))}</mj-body></mjml>`;
  let hostile = true;
  const checks = [0, 1].map(async () => {
    let count = 0;
    while (hostile) {
      const answer = await t.json("POST", "/v1/templates/validate", { body: { engine: "mjml", html: mjml } });
      expect([200, 400]).toContain(answer.status);
      count++;
    }
    return count;
  });
  const inbound = hostileMail.map(async (message) => {
    const chat = await smtpChat(ports.mx!);
    try {
      expect((await chat.send("EHLO sender.test")).code).toBe(250);
      expect((await chat.send("MAIL FROM:<x@sender.test>")).code).toBe(250);
      expect((await chat.send("RCPT TO:<hello@example.com>")).code).toBe(250);
      expect((await chat.send("DATA")).code).toBe(354);
      return (await sendInPieces(chat, message)).code;
    } finally {
      chat.close();
    }
  });
  // Sends every 100 ms for 4 s, while all that runs; one still unanswered after 10 s ends the wait (it has failed).
  const latencies: number[] = [];
  const until = performance.now() + 4_000;
  while (performance.now() < until) {
    const started = performance.now();
    const sent = await Promise.race([
      t.json("POST", "/v1/emails", {
        body: { from: "hi@example.com", to: "a@dest.test", subject: "Hi", html: "<p>Hi</p>" },
      }),
      Bun.sleep(10_000).then(() => null),
    ]);
    latencies.push(performance.now() - started);
    if (!sent) break;
    expect(sent.status).toBe(200);
    await Bun.sleep(100);
  }
  hostile = false;
  const replies = await Promise.all(inbound.map((reply) => Promise.race([reply, Bun.sleep(30_000).then(() => 0)])));
  const checked = (await Promise.all(checks)).reduce((sum, count) => sum + count, 0);
  latencies.sort((a, b) => a - b);
  const slowest = latencies.at(-1)!;
  console.log(
    `CPU pool: ${latencies.length} sends beside ${checked} MJML checks and inbound replies ${replies.join(", ")}: median ${Math.round(latencies[latencies.length >> 1]!)} ms, slowest ${Math.round(slowest)} ms`,
  );
  // The folded header is refused at the end of its data; the one within the caps is received.
  expect(replies).toEqual([552, 250]);
  // A guard, not a benchmark: before the send path had a lane of its own, sends here waited past the 10 s cut-off
  // (every stopped check took the queued composition down with its thread, to be queued again). Measured since:
  // 0.2–0.4 s at worst on SQLite, 0.9 s on PostgreSQL on a two-core machine running browser tests beside.
  expect(slowest).toBeLessThan(3_000);
}, 120_000);

test("the subject scorer with html at its 512 KiB limit", async () => {
  const html = `<div>${"<p><a href=x>Buy now!!! FREE</a> ".repeat(14_500)}`;
  const { result } = await underWatch("subject score of 512 KiB of html", () =>
    t.json("POST", "/v1/ai/subject", { body: { subject: "FREE!!! Act now", html } }),
  );
  expect(result.status).toBe(200);
}, 60_000);
