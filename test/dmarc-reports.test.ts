/**
 * DMARC aggregate reports (issue 30, docs/deliverability.md) on the suite's engine: the suggested DMARC record names
 * `rua=mailto:dmarc@<return path>`; reports in large receivers' formats (Google's zip, Outlook's gzip, plain XML)
 * mailed to that address through the real inbound MX are stored once, listed and summed per source address, with
 * Mailroom's own addresses told apart by the domain's SPF; a zip bomb is refused at the end of data (554) and
 * nothing is stored; the address of an unverified domain refuses at RCPT.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { strToU8, Zip, ZipDeflate, zipSync } from "fflate";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { smtpChat } from "./helpers/smtp-chat.ts";

let t: TestApp;
let dns: DnsServer;
let mxPort: number;

const fixture = (name: string) => readFileSync(new URL(`./fixtures/dmarc/${name}`, import.meta.url), "utf8");
/**
 * A fixture about example.com, its period moved to yesterday (the summary reads the last days); the report id is
 * rewritten so one fixture can arrive twice.
 */
const report = (name: string, reportId?: string) => {
  const yesterday = Math.floor(Date.now() / 86_400_000 - 1) * 86_400;
  const xml = fixture(name)
    .replace(/<begin>\d+<\/begin>/, `<begin>${yesterday}</begin>`)
    .replace(/<end>\d+<\/end>/, `<end>${yesterday + 86_399}</end>`);
  return reportId ? xml.replace(/<report_id>[^<]*<\/report_id>/, `<report_id>${reportId}</report_id>`) : xml;
};

/** A report message as receivers send them: a short text part and the report as an attachment. */
function reportMessage(attachment: { filename: string; contentType: string; content: Uint8Array }) {
  const base64 = Buffer.from(attachment.content).toString("base64").replace(/.{76}/g, "$&\r\n");
  return [
    "From: noreply-dmarc-support@google.com",
    "To: dmarc@send.example.com",
    "Subject: Report domain: example.com Submitter: google.com Report-ID: 1",
    "Message-ID: <report-1@google.com>",
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="r"',
    "",
    "--r",
    "Content-Type: text/plain",
    "",
    "This is an aggregate report from google.com.",
    "--r",
    `Content-Type: ${attachment.contentType}; name="${attachment.filename}"`,
    `Content-Disposition: attachment; filename="${attachment.filename}"`,
    "Content-Transfer-Encoding: base64",
    "",
    base64,
    "--r--",
    "",
  ].join("\r\n");
}

async function deliver(message: string, to = "dmarc@send.example.com") {
  const chat = await smtpChat(mxPort);
  try {
    await chat.send("EHLO mail.google.test");
    expect((await chat.send("MAIL FROM:<>")).code).toBe(250);
    const rcpt = await chat.send(`RCPT TO:<${to}>`);
    if (rcpt.code !== 250) return { rcpt, data: undefined };
    expect((await chat.send("DATA")).code).toBe(354);
    chat.write(Buffer.from(`${message.replace(/(^|\n)\./g, "$1..")}\r\n.\r\n`, "latin1"));
    return { rcpt, data: await chat.next() };
  } finally {
    chat.close();
  }
}

beforeAll(async () => {
  dns = await startDnsServer();
  // The domain's SPF at its return path, as Mailroom suggests it: this server's address.
  dns.set("send.example.com", "TXT", ["v=spf1 ip4:203.0.113.25 ~all"]);
  t = await createTestApp({
    dns: { servers: dns.servers },
    server: { hostname: "mx.mailroom.test", public_ips: ["2001:db8:4860:4864::25"] },
    inbound: { max_message_bytes: 4 * 1024 * 1024, messages_per_ip_per_minute: 1000 },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  await t.app.services.domains.add(t.operator, "unproven.example");
  const listeners = await t.app.start();
  mxPort = listeners.find((l) => l.name === "mx")!.port;
});

afterAll(async () => {
  await t.close();
  await dns.close();
});

describe("the suggested record", () => {
  test("names the return path's dmarc mailbox as rua", async () => {
    const view = (await t.json("GET", "/v1/domains/example.com")).body;
    expect(view.records.find((r: { record: string }) => r.record === "DMARC").value).toBe(
      "v=DMARC1; p=none; rua=mailto:dmarc@send.example.com; adkim=r; aspf=r",
    );
  });
});

describe("reports through the inbound MX", () => {
  test("Google's zip, Outlook's gzip and plain XML are stored once each and listed, newest first", async () => {
    const zip = zipSync({ "google.com!example.com!1795996800!1796083199.xml": strToU8(report("google.xml")) });
    const google = await deliver(
      reportMessage({
        filename: "google.com!example.com!1795996800!1796083199.zip",
        contentType: "application/zip",
        content: zip,
      }),
    );
    expect(google.data!.code).toBe(250);
    const outlook = await deliver(
      reportMessage({
        filename: "enterprise.protection.outlook.com!example.com!1795996800!1796083200.xml.gz",
        contentType: "application/gzip",
        content: gzipSync(report("microsoft.xml")),
      }),
    );
    expect(outlook.data!.code).toBe(250);
    const plain = await deliver(
      reportMessage({
        filename: "report.xml",
        contentType: "text/xml",
        content: Buffer.from(report("google.xml", "plain-1")),
      }),
    );
    expect(plain.data!.code).toBe(250);
    // A receiver resending a report adds nothing.
    expect(
      (await deliver(reportMessage({ filename: "r.zip", contentType: "application/zip", content: zip }))).data!.code,
    ).toBe(250);

    const list = (await t.json("GET", "/v1/domains/example.com/dmarc")).body;
    expect(list.object).toBe("list");
    expect(list.data).toHaveLength(3);
    const reporters = list.data.map((r: { reporter: string }) => r.reporter).sort();
    expect(reporters).toEqual(["Enterprise Outlook", "google.com", "google.com"]);
    const fromGoogle = list.data.find(
      (r: { report_id: string; reporter: string }) => r.report_id !== "plain-1" && r.reporter === "google.com",
    );
    expect(fromGoogle.rows.length).toBeGreaterThan(0);
    for (const row of fromGoogle.rows)
      expect(row).toEqual({
        source_ip: expect.any(String),
        count: expect.any(Number),
        disposition: expect.stringMatching(/^(none|quarantine|reject)$/),
        dkim: expect.stringMatching(/^(pass|fail)$/),
        spf: expect.stringMatching(/^(pass|fail)$/),
        header_from: expect.any(String),
      });
    // Another organisation's key sees nothing of it (the domain is not theirs).
    expect((await t.json("GET", "/v1/domains/example.com/dmarc", { key: "" })).status).toBe(401);
  });

  test("the summary: per source address, messages, aligned share, and whether it is one of Mailroom's", async () => {
    const summary = (await t.json("GET", "/v1/domains/example.com/dmarc/summary?days=90")).body;
    expect(summary).toMatchObject({ object: "dmarc_summary", domain: "example.com", days: 90, reports: 3 });
    // One by [server] public_ips, one by the domain's SPF at its return path (a smarthost's address, say).
    for (const ip of ["2001:db8:4860:4864::25", "203.0.113.25"])
      expect(summary.data.find((row: { source_ip: string }) => row.source_ip === ip)).toMatchObject({ own: true });
    const strangers = summary.data.filter((row: { own: boolean }) => !row.own);
    expect(strangers.length).toBeGreaterThan(0);
    for (const row of summary.data) {
      expect(row.aligned_pass_rate).toBeGreaterThanOrEqual(0);
      expect(row.aligned_pass_rate).toBeLessThanOrEqual(1);
    }
    // Sorted by volume.
    const volumes = summary.data.map((row: { messages: number }) => row.messages);
    expect(volumes).toEqual([...volumes].sort((a: number, b: number) => b - a));
    const refused = await t.json("GET", "/v1/domains/example.com/dmarc/summary?days=0");
    expect([refused.status, refused.body.name]).toEqual([400, "validation_error"]);
  });

  test("a zip bomb is refused at the end of data and stores nothing", async () => {
    // 64 MiB of zeros deflate to about 64 KiB: far over the expansion caps.
    const chunks: Uint8Array[] = [];
    const archive = new Zip((error, chunk) => {
      if (error) throw error;
      chunks.push(chunk);
    });
    const entry = new ZipDeflate("report.xml", { level: 9 });
    archive.add(entry);
    const zeros = new Uint8Array(1024 * 1024);
    for (let i = 0; i < 64; i++) entry.push(zeros, i === 63);
    archive.end();
    const bomb = Buffer.concat(chunks);
    const { data } = await deliver(
      reportMessage({ filename: "bomb.zip", contentType: "application/zip", content: bomb }),
    );
    expect(data!.code).toBe(554);
    expect(data!.text).toContain("DMARC report refused");
    expect((await t.json("GET", "/v1/domains/example.com/dmarc")).body.data).toHaveLength(3);
  });

  test("a report about another domain is not stored under this one", async () => {
    const other = report("google.xml", "other-1").replaceAll(
      "<domain>example.com</domain>",
      "<domain>victim.test</domain>",
    );
    const { data } = await deliver(
      reportMessage({ filename: "r.xml", contentType: "text/xml", content: Buffer.from(other) }),
    );
    expect(data!.code).toBe(250);
    expect((await t.json("GET", "/v1/domains/example.com/dmarc")).body.data).toHaveLength(3);
  });

  test("the address of a domain not verified is refused at RCPT", async () => {
    const { rcpt } = await deliver("Subject: x\r\n\r\nx", "dmarc@send.unproven.example");
    expect(rcpt.code).toBeGreaterThanOrEqual(500);
  });
});
