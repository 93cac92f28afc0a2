/**
 * The CPU pool under hostile work (the third security review's findings 3, 4 and 9, and its suspicion about MX
 * sessions): one unauthenticated message, one credential or one DMARC report must not hold the work every send
 * waits for. Each test sends the attack as the review did — over the real MX, the HTTP API, or straight to the pool
 * with the budgets the app gives it — and asserts its effect: the reply and how soon it came, the latency of a send
 * made meanwhile, what was stored.
 *
 * Bounds are generous (a loaded two-core machine shared with PostgreSQL): before the fixes the same inputs took
 * seconds (the MX answered a folded To: after 4 s and a send made meanwhile took 2.4–3.6 s; a tenant's check waited
 * behind every check queued before it), after them milliseconds.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { gzipSync } from "node:zlib";
import { SUMMARY_ROWS } from "../src/reputation/dmarc.ts";
import { DMARC_LIMITS } from "../src/reputation/dmarc-report.ts";
import type { ComposeRequest } from "../src/emails/compose.ts";
import { createCpuPool } from "../src/cpu/pool.ts";
import type { TemplateJob } from "../src/templates/render.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { smtpChat, type SmtpReply } from "./helpers/smtp-chat.ts";

const CPU_THREAD = new URL("../src/cpu/thread.ts", import.meta.url);
const MIB = 1024 * 1024;

/** Sixty variables, so a template looping over `@root` five deep works 60⁵ times unless stopped. */
const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`v${i}`, "x"]));
const LOOPING =
  "{{#each @root}}{{#each @root}}{{#each @root}}{{#each @root}}{{#each @root}}{{this}}{{/each}}{{/each}}{{/each}}{{/each}}{{/each}}";

const renderJob = (html: string): TemplateJob => ({
  kind: "render",
  versionId: `v-${html.length}`,
  content: { engine: "handlebars", subject: null, from: null, reply_to: null, html, text: null, variables: [] },
  values: many,
  maxBytes: 40 * MIB,
  withText: false,
});

const composeRequest = (): ComposeRequest => ({
  emailId: "0190a000-0000-7000-8000-000000000001",
  date: Date.now(),
  fields: {
    from: { name: "", address: "hi@example.com" },
    to: [{ name: "", address: "a@dest.test" }],
    cc: [],
    bcc: [],
    replyTo: [],
    subject: "Hi",
    html: "<p>Hello</p>",
    headers: [],
    attachments: [],
    tags: [],
  },
});

/** A message whose To: is folded over `lines` lines: what held mailauth for seconds (finding 3). */
function foldedTo(lines: number): Buffer {
  const to = ["To: a0@example.com,", ...Array.from({ length: lines }, (_, i) => ` a${i + 1}@example.com,`)];
  return Buffer.from(
    ["From: x@sender.test", ...to, " last@example.com", "Subject: folded", "", "body", ""].join("\r\n"),
  );
}

/** Opens an MX transaction for `rcpt` and answers the chat at DATA (354 read). */
async function mxTransaction(port: number, rcpt = "hello@example.com") {
  const chat = await smtpChat(port);
  expect((await chat.send("EHLO sender.test")).code).toBe(250);
  expect((await chat.send("MAIL FROM:<x@sender.test>")).code).toBe(250);
  expect((await chat.send(`RCPT TO:<${rcpt}>`)).code).toBe(250);
  expect((await chat.send("DATA")).code).toBe(354);
  return chat;
}

const sendBody = { from: "hi@example.com", to: "a@dest.test", subject: "Hi", html: "<p>Hi</p>" };

/** Sends through `POST /v1/emails` every 100 ms until `done` settles (at least once); answers the slowest, in ms. */
async function sendsWhile(t: TestApp, done: Promise<unknown>): Promise<number> {
  let settled = false;
  void done.finally(() => (settled = true));
  let slowest = 0;
  do {
    const started = performance.now();
    const answer = await t.json("POST", "/v1/emails", { body: sendBody });
    expect(answer.status).toBe(200);
    slowest = Math.max(slowest, performance.now() - started);
    await Bun.sleep(100);
  } while (!settled);
  return slowest;
}

describe("finding 3: one unauthenticated inbound message stalls all sending", () => {
  let t: TestApp;
  let mxPort: number;

  beforeAll(async () => {
    t = await createTestApp({
      limits: { key_requests_per_minute: 10_000, org_requests_per_minute: 10_000 },
      inbound: { bytes_per_ip_per_minute: 1024 * MIB, messages_per_ip_per_minute: 10_000 },
    });
    await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true, receivingEnabled: true });
    mxPort = (await t.app.start()).find((listener) => listener.name === "mx")!.port;
    // The threads and the modules they load start here, not while a latency is measured.
    expect((await t.json("POST", "/v1/emails", { body: sendBody })).status).toBe(200);
  }, 30_000);
  afterAll(() => t.close());

  test("finding 3: a To: header folded over 40,000 lines neither stalls the MX nor delays a send", async () => {
    const message = foldedTo(40_000);
    const chat = await mxTransaction(mxPort);
    try {
      const started = performance.now();
      const answered = chat.data(message).then((reply) => ({ reply, ms: performance.now() - started }));
      const slowestSend = await sendsWhile(t, answered);
      const { reply, ms } = await answered;
      console.log(
        `finding 3: ${message.length} bytes folded over 40,000 lines: MX answered "${reply.code} ${reply.text.slice(0, 40)}" in ${Math.round(ms)} ms; slowest send meanwhile ${Math.round(slowestSend)} ms`,
      );
      // RFC 3463 X.3.4 "message too big for system", with 552 as for a message over the size limit.
      expect(reply.code).toBe(552);
      expect(reply.text).toStartWith("5.3.4");
      expect(reply.text).toContain("header");
      expect(ms).toBeLessThan(2_000);
      expect(slowestSend).toBeLessThan(1_000);
    } finally {
      chat.close();
    }
    // Nothing of it was stored.
    expect((await t.json("GET", "/v1/emails/receiving?limit=1")).body.data).toHaveLength(0);
  }, 60_000);

  test("finding 3: a header block at the cap is still received (the cap refuses only what is over it)", async () => {
    const chat = await mxTransaction(mxPort);
    try {
      const reply = await chat.data(foldedTo(1_500));
      expect(reply.code).toBe(250);
    } finally {
      chat.close();
    }
    expect((await t.json("GET", "/v1/emails/receiving?limit=1")).body.data).toHaveLength(1);
  }, 30_000);

  test("finding 3: send-path work has a lane of its own: a composition does not wait behind untrusted work holding the pool", async () => {
    const pool = createCpuPool(CPU_THREAD, 1);
    try {
      // Warm both lanes' threads, so what is measured is waiting, not a thread's start.
      await pool.compose(composeRequest(), "org-b");
      await pool.template(renderJob("<p>{{v0}}</p>"), 5_000, { tenant: "org-a", forSend: false });
      // A template preview looping until its 5 s budget stops it: untrusted work holding its lane.
      const hostile = pool
        .template(renderJob(LOOPING), 5_000, { tenant: "org-a", forSend: false })
        .catch((error: unknown) => error);
      await Bun.sleep(200);
      const started = performance.now();
      await pool.compose(composeRequest(), "org-b");
      const composeMs = performance.now() - started;
      console.log(`finding 3: a composition while a preview held the other lane: ${Math.round(composeMs)} ms`);
      expect(composeMs).toBeLessThan(1_000);
      await hostile;
    } finally {
      pool.close();
    }
  }, 30_000);
});

describe("finding 3: every pool task has a time budget", () => {
  let t: TestApp;
  let mxPort: number;
  let blackhole: UdpSocket;

  beforeAll(async () => {
    // A DNS server that never answers: mailauth's look-ups wait out the resolver's timeouts (10 s each).
    blackhole = createSocket("udp4");
    await new Promise<void>((resolve) => blackhole.bind(0, "127.0.0.1", resolve));
    t = await createTestApp({
      dns: { servers: [`127.0.0.1:${blackhole.address().port}`] },
      inbound: { auth_timeout: "1s" },
    });
    await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true, receivingEnabled: true });
    mxPort = (await t.app.start()).find((listener) => listener.name === "mx")!.port;
  }, 30_000);
  afterAll(async () => {
    await t.close();
    blackhole.close();
  });

  test("finding 3: a received message whose authentication overruns its budget is stored with temperror results, not lost", async () => {
    const chat = await mxTransaction(mxPort);
    let reply: SmtpReply;
    const started = performance.now();
    try {
      reply = await chat.data(
        ["From: friend@sender.test", "To: hello@example.com", "Subject: Hello", "", "Are you there?", ""].join("\r\n"),
      );
    } finally {
      chat.close();
    }
    const ms = performance.now() - started;
    console.log(
      `finding 3: authentication against a DNS server that never answers: ${reply.code} after ${Math.round(ms)} ms`,
    );
    expect(reply.code).toBe(250);
    expect(ms).toBeLessThan(6_000);
    const [summary] = (await t.json("GET", "/v1/emails/receiving?limit=1")).body.data;
    const stored = (await t.json("GET", `/v1/emails/receiving/${summary.id}`)).body;
    expect(stored.subject).toBe("Hello");
    // RFC 8601 §2.7: temperror, "a later retry may produce a more final result" — never a pass.
    expect(stored.authentication.spf.result).toBe("temperror");
    expect(stored.authentication.dmarc.result).toBe("temperror");
    expect(stored.authentication.header).toContain("temperror");
  }, 30_000);
});

describe("finding 4: any credential starves the pool", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ limits: { key_requests_per_minute: 10_000, org_requests_per_minute: 10_000 } });
  });
  afterAll(() => t.close());

  test("finding 4: template validation needs templates:write — a read-only key and a test key are refused 403", async () => {
    const source = { engine: "handlebars", html: "<p>{{name}}</p>" };
    const reader = await t.app.services.keys.create(t.operator, { name: "reader", scopes: ["templates:read"] });
    for (const key of [reader.key, t.testKey]) {
      const refused = await t.json("POST", "/v1/templates/validate", { key, body: source });
      expect([refused.status, refused.body.name]).toEqual([403, "insufficient_scope"]);
    }
    const writer = await t.app.services.keys.create(t.operator, { name: "writer", scopes: ["templates:write"] });
    const checked = await t.json("POST", "/v1/templates/validate", { key: writer.key, body: source });
    expect([checked.status, checked.body]).toEqual([200, { valid: true, errors: [] }]);
  });

  test("finding 4: a 1.3 MB MJML source to /v1/templates/validate is refused unread, 400 naming html", async () => {
    const section = "<mj-section><mj-column><mj-text>Hello {{name}}</mj-text></mj-column></mj-section>";
    const html = `<mjml><mj-body>${section.repeat(Math.ceil((1.3 * 1e6) / section.length))}</mj-body></mjml>`;
    const started = performance.now();
    const refused = await t.json("POST", "/v1/templates/validate", { body: { engine: "mjml", html } });
    const ms = performance.now() - started;
    console.log(`finding 4: ${html.length} characters of MJML to validate: ${refused.status} in ${Math.round(ms)} ms`);
    expect([refused.status, refused.body.name]).toEqual([400, "validation_error"]);
    expect(refused.body.details[0].path).toBe("html");
    expect(ms).toBeLessThan(1_000);
  }, 30_000);

  test("finding 4: the pool is shared fairly: one organisation's queued checks do not all run before another's", async () => {
    const pool = createCpuPool(CPU_THREAD, 1);
    try {
      await pool.template(renderJob("<p>{{v0}}</p>"), 5_000, { tenant: "org-a", forSend: false });
      // Organisation A queues six previews that each run to their 1 s budget; then B asks for one quick preview.
      const hostile = Array.from({ length: 6 }, () =>
        pool.template(renderJob(LOOPING), 1_000, { tenant: "org-a", forSend: false }).catch((error: unknown) => error),
      );
      await Bun.sleep(50);
      const started = performance.now();
      await pool.template(renderJob("<p>{{v1}}</p>"), 5_000, { tenant: "org-b", forSend: false });
      const waitedMs = performance.now() - started;
      console.log(`finding 4: B's preview behind A's six looping ones: ${Math.round(waitedMs)} ms`);
      // In rounds, B's turn comes after A's first (1 s and a thread's restart: 1.3–2.2 s measured on a loaded
      // machine), not after all six (7–8 s before).
      expect(waitedMs).toBeLessThan(4_000);
      await Promise.all(hostile);
    } finally {
      pool.close();
    }
  }, 30_000);
});

describe("finding 9: DMARC reports' fields and rows unbounded", () => {
  let t: TestApp;
  let mxPort: number;

  const row = (i: number, headerFrom = "example.com") =>
    `<record><row><source_ip>10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}</source_ip><count>${i + 1}</count><policy_evaluated><disposition>none</disposition><dkim>pass</dkim><spf>pass</spf></policy_evaluated></row><identifiers><header_from>${headerFrom}</header_from></identifiers></record>`;
  const reportXml = (id: string, rows: string[]) =>
    `<?xml version="1.0"?><feedback><report_metadata><org_name>google.com</org_name><report_id>${id}</report_id><date_range><begin>${Math.floor(Date.now() / 1000) - 86_400}</begin><end>${Math.floor(Date.now() / 1000)}</end></date_range></report_metadata><policy_published><domain>example.com</domain></policy_published>${rows.join("")}</feedback>`;
  /** As receivers send them: plain XML, or gzip (Outlook's) for the large one. */
  const reportMessage = (xml: string, gzip: boolean) => {
    const content = gzip ? gzipSync(xml) : Buffer.from(xml);
    const base64 = content.toString("base64").replace(/.{76}/g, "$&\r\n");
    return [
      "From: noreply-dmarc-support@google.com",
      "To: dmarc@send.example.com",
      "Subject: Report domain: example.com",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="r"',
      "",
      "--r",
      gzip ? 'Content-Type: application/gzip; name="report.xml.gz"' : 'Content-Type: text/xml; name="report.xml"',
      `Content-Disposition: attachment; filename="report.xml${gzip ? ".gz" : ""}"`,
      "Content-Transfer-Encoding: base64",
      "",
      base64,
      "--r--",
      "",
    ].join("\r\n");
  };
  const deliver = async (xml: string, gzip = false) => {
    const chat = await mxTransaction(mxPort, "dmarc@send.example.com");
    try {
      return await chat.data(reportMessage(xml, gzip));
    } finally {
      chat.close();
    }
  };
  const reports = async () => (await t.json("GET", "/v1/domains/example.com/dmarc?limit=100")).body;

  beforeAll(async () => {
    t = await createTestApp({
      limits: { key_requests_per_minute: 10_000, org_requests_per_minute: 10_000 },
      inbound: { bytes_per_ip_per_minute: 1024 * MIB, messages_per_ip_per_minute: 10_000 },
    });
    await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
    mxPort = (await t.app.start()).find((listener) => listener.name === "mx")!.port;
  }, 30_000);
  afterAll(() => t.close());

  test("finding 9: a report with a 9 MB header_from, or with 40,000 rows, is refused and nothing of it is stored", async () => {
    const huge = await deliver(reportXml("huge-field", [row(1, "a".repeat(9 * 1024 * 1024))]));
    expect(huge.code).toBe(554);
    expect(huge.text).toContain("header_from");
    const rows40k = await deliver(
      reportXml(
        "many-rows",
        Array.from({ length: 40_000 }, (_, i) => row(i)),
      ),
      true,
    );
    expect(rows40k.code).toBe(554);
    expect(rows40k.text).toContain("records");
    const listed = await reports();
    expect(listed.data).toHaveLength(0);
  }, 120_000);

  test("finding 9: the reports list pages with limit/after/before and caps each report's rows; the rows are read page by page", async () => {
    for (const [id, rows] of [
      ["r1", 3],
      ["r2", 250],
      ["r3", 5],
    ] as const)
      expect(
        (
          await deliver(
            reportXml(
              id,
              Array.from({ length: rows }, (_, i) => row(i)),
            ),
          )
        ).code,
      ).toBe(250);

    const all = await reports();
    expect(all.data.map((r: { report_id: string }) => r.report_id)).toEqual(["r3", "r2", "r1"]);
    const large = all.data[1];
    expect(large.row_count).toBe(250);
    expect(large.rows.length).toBeLessThanOrEqual(20);
    // The heaviest sources first.
    expect(large.rows[0].count).toBe(250);
    const body = JSON.stringify(all);
    expect(body.length).toBeLessThan(64 * 1024);

    // Pages of one report: after continues towards older, before goes back towards newer (docs/sending.md#resend-compatibility).
    const first = (await t.json("GET", "/v1/domains/example.com/dmarc?limit=1")).body;
    expect([first.has_more, first.data[0].report_id]).toEqual([true, "r3"]);
    const second = (await t.json("GET", `/v1/domains/example.com/dmarc?limit=1&after=${first.data[0].id}`)).body;
    expect(second.data[0].report_id).toBe("r2");
    const back = (await t.json("GET", `/v1/domains/example.com/dmarc?limit=1&before=${second.data[0].id}`)).body;
    expect(back.data[0].report_id).toBe("r3");

    // The rows of one report, page by page, in the same list shape.
    const seen: number[] = [];
    let after = "";
    for (let pages = 0; pages < 10; pages++) {
      const page = (
        await t.json("GET", `/v1/domains/example.com/dmarc/${large.id}/rows?limit=100${after && `&after=${after}`}`)
      ).body;
      expect(page.object).toBe("list");
      seen.push(...page.data.map((r: { count: number }) => r.count));
      if (!page.has_more) break;
      after = page.data.at(-1).id;
    }
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);
  }, 60_000);
  test("finding 9: reports past SUMMARY_ROWS rows are left out of the summary, newest kept", async () => {
    // Six reports of the most rows a report may have, as anyone may mail them (60,000 rows), about a domain of its own.
    await t.app.services.domains.add(t.operator, "example.net", { verifiedOverride: true });
    const pass = { count: 1, disposition: "none", dkim: "pass", spf: "pass", header_from: "example.net" } as const;
    const about = { reporter: "google.com", policy_domain: "example.net", begin: new Date(0).toISOString() };
    for (let i = 0; i < 6; i++) {
      const rows = Array.from({ length: DMARC_LIMITS.rows }, (_, r) => ({
        source_ip: `10.${i}.${r >> 8}.${r & 255}`,
        ...pass,
      }));
      const end = new Date(Date.now() - (i + 1) * 60_000).toISOString();
      await t.app.services.dmarcReports.store("example.net", [{ ...about, report_id: `big-${i}`, end, rows }]);
    }
    const started = performance.now();
    const summary = (await t.json("GET", "/v1/domains/example.net/dmarc/summary?days=7")).body;
    const ms = Math.round(performance.now() - started);
    console.log(`finding 9: the summary over six reports of ${DMARC_LIMITS.rows} rows: ${ms} ms`);
    expect(summary.reports).toBe(SUMMARY_ROWS / DMARC_LIMITS.rows);
    // The oldest report (10.5.x.x) is the one left out.
    const from = (prefix: string) =>
      summary.data.some((row: { source_ip: string }) => row.source_ip.startsWith(prefix));
    expect([from("10.0."), from("10.5.")]).toEqual([true, false]);
  }, 60_000);
});

describe("suspicion: MX sessions with no total time limit", () => {
  let t: TestApp;
  let mxPort: number;

  beforeAll(async () => {
    t = await createTestApp({ inbound: { max_session_time: "2s" } });
    await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true, receivingEnabled: true });
    mxPort = (await t.app.start()).find((listener) => listener.name === "mx")!.port;
  }, 30_000);
  afterAll(() => t.close());

  test("suspicion: a client trickling a message byte by byte is cut off at [inbound] max_session_time with 421, and nothing is stored", async () => {
    const chat = await mxTransaction(mxPort);
    let closed = false;
    void chat.closed().then(() => (closed = true));
    const goodbye = chat.next().catch(() => null);
    const started = performance.now();
    // A byte every 200 ms: well inside the idle timeout (5 minutes), which each byte resets.
    const header = "From: friend@sender.test\r\nTo: hello@example.com\r\nSubject: slow\r\n\r\n";
    for (let at = 0; !closed && performance.now() - started < 8_000; at++) {
      chat.write(header[at % header.length]!);
      await Bun.sleep(200);
    }
    const reply = await goodbye;
    console.log(
      `suspicion: the trickling session ended after ${Math.round(performance.now() - started)} ms: ${reply?.code} ${reply?.text}`,
    );
    expect(closed).toBe(true);
    expect(reply?.code).toBe(421);
    expect(performance.now() - started).toBeLessThan(6_000);
    expect((await t.json("GET", "/v1/emails/receiving?limit=1")).body.data).toHaveLength(0);
  }, 30_000);
});
