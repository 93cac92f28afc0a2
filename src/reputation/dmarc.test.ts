/**
 * Which attachments of a message to an `rua` address are read as reports (by their type and name), and "who sends
 * as you" (docs/deliverability.md#dmarc-aggregate-reports): the DMARC reports' rows summed per source
 * address, with the share that passed aligned and whether the address is Mailroom's. The reports are Google's and
 * Microsoft's fixtures as dmarc-report.ts reads them (dmarc-report.test.ts checks that reading, field by field).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dmarcAttachmentKind, readDmarcReport } from "./dmarc-report.ts";
import { summarizeDmarc } from "./dmarc.ts";

const fixture = (name: string) => readFileSync(new URL(`../../test/fixtures/dmarc/${name}`, import.meta.url));
const googleReport = readDmarcReport(fixture("google.xml"), "xml");
const microsoftReport = readDmarcReport(fixture("microsoft.xml"), "xml");

describe("dmarcAttachmentKind", () => {
  test.each([
    ["application/gzip", "google.com!example.com!1717200000!1717286399.xml.gz", "gzip"],
    ["application/x-gzip", undefined, "gzip"],
    ['application/gzip; name="report.xml.gz"', undefined, "gzip"],
    ["application/zip", "google.com!example.com!1717200000!1717286399.zip", "zip"],
    ["application/x-zip-compressed", "report.zip", "zip"],
    ["APPLICATION/ZIP", undefined, "zip"],
    ["text/xml", "report.xml", "xml"],
    ["application/xml; charset=utf-8", undefined, "xml"],
    ["application/octet-stream", "enterprise.protection.outlook.com!example.com!1717113600!1717200000.xml.gz", "gzip"],
    ["application/octet-stream", "report.GZ", "gzip"],
    ["application/octet-stream", "yahoo.com!example.com!1717113600!1717200000.zip", "zip"],
    ["application/octet-stream", "report.xml", "xml"],
    ["application/octet-stream", "invoice.pdf", null],
    ["application/octet-stream", undefined, null],
    ["application/pdf", "report.xml.gz", null],
    ["text/plain", "report.xml", null],
    ["image/png", undefined, null],
  ] as const)("%s named %s is %s", (contentType, filename, kind) => {
    expect(dmarcAttachmentKind(contentType, filename)).toBe(kind);
  });
});

describe("summarizeDmarc", () => {
  test("sums messages per source over reports, with the share that passed, ours marked, largest first", () => {
    const ours = new Set(["203.0.113.25", "203.0.113.26", "2001:db8:4860:4864::25"]);
    const summary = summarizeDmarc([googleReport, microsoftReport], (ip) => ours.has(ip));
    expect(summary).toEqual([
      { source_ip: "203.0.113.25", messages: 540, aligned_pass_rate: 1, own: true },
      { source_ip: "2001:db8:4860:4864::25", messages: 37, aligned_pass_rate: 1, own: true },
      { source_ip: "198.51.100.77", messages: 17, aligned_pass_rate: 0, own: false },
      { source_ip: "192.0.2.148", messages: 6, aligned_pass_rate: 1, own: false },
      { source_ip: "203.0.113.26", messages: 2, aligned_pass_rate: 1, own: true },
    ]);
  });

  test("a partly failing source gets its share; a source of zero messages has a rate of 0", () => {
    const row = { disposition: "none", header_from: "example.com" } as const;
    const summary = summarizeDmarc(
      [
        { rows: [{ ...row, source_ip: "192.0.2.9", count: 3, dkim: "pass", spf: "fail" }] },
        { rows: [{ ...row, source_ip: "192.0.2.9", count: 1, dkim: "fail", spf: "fail" }] },
        { rows: [{ ...row, source_ip: "192.0.2.10", count: 0, dkim: "fail", spf: "fail" }] },
      ],
      () => false,
    );
    expect(summary).toEqual([
      { source_ip: "192.0.2.9", messages: 4, aligned_pass_rate: 0.75, own: false },
      { source_ip: "192.0.2.10", messages: 0, aligned_pass_rate: 0, own: false },
    ]);
  });

  test("isOwn is asked once per source, and no reports summarise to nothing", () => {
    const asked: string[] = [];
    summarizeDmarc([googleReport, googleReport], (ip) => (asked.push(ip), false));
    expect(asked.sort()).toEqual(googleReport.rows.map((row) => row.source_ip).sort());
    expect(summarizeDmarc([], () => true)).toEqual([]);
  });
});
