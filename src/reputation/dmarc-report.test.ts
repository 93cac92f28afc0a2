import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { constants, crc32, deflateRawSync, gunzipSync, gzipSync } from "node:zlib";
import { strToU8, unzipSync, Zip, ZipDeflate, type ZipInputFile, zipSync } from "fflate";
import { DMARC_LIMITS, type DmarcReport, DmarcReportRefused, readDmarcReport } from "./dmarc-report.ts";

const MiB = 1024 * 1024;
const fixture = (name: string) => readFileSync(new URL(`../../test/fixtures/dmarc/${name}`, import.meta.url));
const google = fixture("google.xml");
const microsoft = fixture("microsoft.xml");

const googleReport: DmarcReport = {
  reporter: "google.com",
  report_id: "13907285374216938447",
  policy_domain: "example.com",
  begin: "2024-06-01T00:00:00.000Z",
  end: "2024-06-01T23:59:59.000Z",
  rows: [
    {
      source_ip: "203.0.113.25",
      count: 412,
      disposition: "none",
      dkim: "pass",
      spf: "pass",
      header_from: "example.com",
    },
    {
      source_ip: "2001:db8:4860:4864::25",
      count: 37,
      disposition: "none",
      dkim: "pass",
      spf: "fail",
      header_from: "example.com",
    },
    { source_ip: "192.0.2.148", count: 6, disposition: "none", dkim: "pass", spf: "fail", header_from: "example.com" },
    {
      source_ip: "198.51.100.77",
      count: 3,
      disposition: "quarantine",
      dkim: "fail",
      spf: "fail",
      header_from: "example.com",
    },
  ],
};

const microsoftReport: DmarcReport = {
  reporter: "Enterprise Outlook",
  report_id: "f2b9c1d47a6e4e0fb3a85c7d9e1f2a60",
  policy_domain: "example.com",
  begin: "2024-05-31T00:00:00.000Z",
  end: "2024-06-01T00:00:00.000Z",
  rows: [
    {
      source_ip: "203.0.113.25",
      count: 128,
      disposition: "none",
      dkim: "pass",
      spf: "pass",
      header_from: "example.com",
    },
    // Heaviest first, whatever the order the report wrote them in.
    {
      source_ip: "198.51.100.77",
      count: 14,
      disposition: "quarantine",
      dkim: "fail",
      spf: "fail",
      header_from: "example.com",
    },
    { source_ip: "203.0.113.26", count: 2, disposition: "none", dkim: "fail", spf: "pass", header_from: "example.com" },
  ],
};

/** The refusal `read` throws; fails the test when it returns instead. */
function refusal(read: () => unknown): DmarcReportRefused {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(DmarcReportRefused);
    return error as DmarcReportRefused;
  }
  throw new Error("expected a DmarcReportRefused");
}

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** A zip as fflate's streaming writer makes it: sizes and CRC in a data descriptor after the entry, not before it. */
function streamedZip(name: string, content: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    parts.push(chunk);
  });
  const entry = new ZipDeflate(name, { level: 6 });
  zip.add(entry);
  entry.push(content, true);
  zip.end();
  return concat(parts);
}

/**
 * `mib` MiB of zeros as raw deflate, made by repeating one fully flushed megabyte and closing with an empty final
 * block: a 300 MiB bomb costs milliseconds and no 300 MiB buffer to build.
 */
function deflatedZeros(mib: number) {
  const zeros = new Uint8Array(MiB);
  const block = deflateRawSync(zeros, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const data = new Uint8Array(block.length * mib + 2);
  let crc = 0;
  for (let i = 0; i < mib; i++) {
    data.set(block, i * block.length);
    crc = crc32(zeros, crc);
  }
  data.set([0x03, 0x00], block.length * mib);
  return { data, crc, size: mib * MiB };
}

function gzipOf({ data, crc, size }: ReturnType<typeof deflatedZeros>): Uint8Array {
  const trailer = new Uint8Array(8);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, crc, true);
  view.setUint32(4, size % 2 ** 32, true);
  return concat([Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff), data, trailer]);
}

/** A one-entry zip written by fflate's streaming `Zip` around deflate data made elsewhere, declaring `declaredSize`. */
function zipOf(name: string, { data, crc }: ReturnType<typeof deflatedZeros>, declaredSize: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    parts.push(chunk);
  });
  const entry: ZipInputFile = { filename: name, compression: 8, crc, size: declaredSize };
  zip.add(entry);
  entry.ondata!(null, data, true);
  zip.end();
  return concat(parts);
}

/** Sets the uncompressed size a zipSync archive declares for its one entry, in the local header and the directory. */
function declareSize(archive: Uint8Array, size: number): Uint8Array {
  const patched = archive.slice();
  const view = new DataView(patched.buffer);
  expect(view.getUint32(0, true)).toBe(0x04034b50);
  view.setUint32(22, size, true);
  for (let at = 0; at < patched.length - 4; at++) {
    if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, size, true);
  }
  return patched;
}

const rss = () => {
  Bun.gc(true);
  return process.memoryUsage().rss;
};

describe("readDmarcReport: the formats receivers send", () => {
  test("Google's XML, with its 20-digit report_id kept exact and an IPv6 source", () => {
    expect(readDmarcReport(google, "xml")).toEqual(googleReport);
  });

  test("Outlook.com's XML, with namespaces, <version>, <fo> and envelope identifiers", () => {
    expect(readDmarcReport(microsoft, "xml")).toEqual(microsoftReport);
  });

  test("Google's zip, as zipSync writes it (sizes in the local header)", () => {
    const archive = zipSync({ "google.com!example.com!1717200000!1717286399.xml": google });
    expect(readDmarcReport(archive, "zip")).toEqual(googleReport);
  });

  test("a zip with a data descriptor (sizes after the entry) and one with a stored entry", () => {
    expect(readDmarcReport(streamedZip("report.xml", google), "zip")).toEqual(googleReport);
    const stored = zipSync({ "report.xml": [google, { level: 0 }] });
    expect(readDmarcReport(stored, "zip")).toEqual(googleReport);
  });

  test("Outlook's and Yahoo's .xml.gz", () => {
    expect(readDmarcReport(gzipSync(microsoft), "gzip")).toEqual(microsoftReport);
    expect(readDmarcReport(gzipSync(google, { level: 9 }), "gzip")).toEqual(googleReport);
  });

  test("the bytes' magic number wins over a wrong label", () => {
    expect(readDmarcReport(gzipSync(microsoft), "zip")).toEqual(microsoftReport);
    expect(readDmarcReport(zipSync({ "r.xml": google }), "gzip")).toEqual(googleReport);
    expect(readDmarcReport(gzipSync(microsoft), "xml")).toEqual(microsoftReport);
  });

  test("in a zip, the first .xml entry is the report; other files and macOS resource forks are passed over", () => {
    const archive = zipSync({
      "README.txt": strToU8("not a report"),
      "__MACOSX/._report.xml": Uint8Array.of(0, 5, 22, 7, 0, 2, 0, 0),
      "report.XML": microsoft,
      "second.xml": google,
    });
    expect(readDmarcReport(archive, "zip")).toEqual(microsoftReport);
  });

  test("a zip without an .xml entry is refused", () => {
    const archive = zipSync({ "report.txt": google, "dir/": new Uint8Array(0) });
    expect(refusal(() => readDmarcReport(archive, "zip")).reason).toContain("no .xml report");
  });

  test("the sizes a zip declares are not believed, either way", () => {
    const archive = zipSync({ "report.xml": google });
    expect(readDmarcReport(declareSize(archive, 1), "zip")).toEqual(googleReport);
    expect(readDmarcReport(declareSize(archive, 0x7ffffff0), "zip")).toEqual(googleReport);
  });

  test("&amp; and character references are decoded; a default namespace and prefixes do not matter", () => {
    const xml = google
      .toString()
      .replace("<org_name>google.com</org_name>", "<org_name>Smith &amp; Sons &#x2014; Mail&#46;</org_name>")
      .replace("<feedback>", '<dmarc:feedback xmlns:dmarc="urn:ietf:params:xml:ns:dmarc-2.0">')
      .replace("</feedback>", "</dmarc:feedback>")
      .replaceAll("<record>", "<dmarc:record>")
      .replaceAll("</record>", "</dmarc:record>");
    const report = readDmarcReport(strToU8(xml), "xml");
    expect(report.reporter).toBe("Smith & Sons — Mail.");
    expect(report.rows).toEqual(googleReport.rows);
  });

  test("one record is still a list of rows, and a report of none has no rows", () => {
    const one = google.toString().replace(/<record>[\s\S]*<\/record>/, (all) => all.split("</record>")[0]!);
    expect(readDmarcReport(strToU8(`${one}</record></feedback>`), "xml").rows).toEqual([googleReport.rows[0]!]);
    const none = google.toString().replace(/<record>[\s\S]*<\/record>/, "");
    expect(readDmarcReport(strToU8(none), "xml").rows).toEqual([]);
  });
});

describe("readDmarcReport: bombs and caps", () => {
  test("a 300 MiB zip bomb that declares 2 KiB is refused at the cap, without the expansion in memory", () => {
    const bomb = zipOf("google.com!example.com!1717200000!1717286399.xml", deflatedZeros(300), 2048);
    expect(bomb.length).toBeLessThan(DMARC_LIMITS.compressedBytes);
    const before = rss();
    const refused = refusal(() => readDmarcReport(bomb, "zip"));
    // The expansion would be 300 MiB; what the reader holds is the 32 MiB cap and a few steps' garbage.
    expect(rss() - before).toBeLessThan(160 * MiB);
    expect(refused.reason).toContain(`more than ${DMARC_LIMITS.expandedBytes} bytes`);
  });

  test("a 300 MiB gzip bomb is refused at the cap, without the expansion in memory", () => {
    const bomb = gzipOf(deflatedZeros(300));
    const before = rss();
    const refused = refusal(() => readDmarcReport(bomb, "gzip"));
    expect(rss() - before).toBeLessThan(160 * MiB);
    expect(refused.reason).toContain(`more than ${DMARC_LIMITS.expandedBytes} bytes`);
  });

  test("an expansion under the byte cap but past the ratio is refused", () => {
    const zeros = deflatedZeros(8);
    expect(refusal(() => readDmarcReport(gzipOf(zeros), "gzip")).reason).toContain("200 times its size");
    expect(refusal(() => readDmarcReport(zipOf("r.xml", zeros, zeros.size), "zip")).reason).toContain(
      "200 times its size",
    );
  });

  test("the bomb builders make archives that really expand (checked small)", () => {
    const zeros = deflatedZeros(2);
    expect(gunzipSync(gzipOf(zeros))).toEqual(Buffer.alloc(2 * MiB));
    expect(unzipSync(zipOf("r.xml", zeros, zeros.size))["r.xml"]).toEqual(new Uint8Array(2 * MiB));
  });

  test("input over compressedBytes is refused before it is read", () => {
    const large = new Uint8Array(DMARC_LIMITS.compressedBytes + 1);
    large.set([0x1f, 0x8b]);
    for (const kind of ["xml", "gzip", "zip"] as const) {
      expect(refusal(() => readDmarcReport(large, kind)).reason).toContain(
        `${DMARC_LIMITS.compressedBytes}-byte limit`,
      );
    }
  });

  test("more records than DMARC_LIMITS.rows is refused", () => {
    const records = "<record></record>".repeat(DMARC_LIMITS.rows + 1);
    const xml = google.toString().replace(/<record>[\s\S]*<\/record>/, records);
    expect(refusal(() => readDmarcReport(strToU8(xml), "xml")).reason).toContain(
      `more than ${DMARC_LIMITS.rows} records`,
    );
  });

  test("finding 9: a header_from or policy domain longer than a domain name is refused; free text is cut at textChars", () => {
    const long = "a".repeat(DMARC_LIMITS.domainChars + 1);
    const text = google.toString();
    const headerFrom = text.replace("<header_from>example.com</header_from>", `<header_from>${long}</header_from>`);
    expect(refusal(() => readDmarcReport(strToU8(headerFrom), "xml")).reason).toContain(
      "header_from is 254 characters",
    );
    const policy = text.replace("<domain>example.com</domain>", `<domain>${long}</domain>`);
    expect(refusal(() => readDmarcReport(strToU8(policy), "xml")).reason).toContain("<policy_published> domain");
    const wordy = text.replace("<org_name>google.com</org_name>", `<org_name>${"g".repeat(5_000)}</org_name>`);
    expect(readDmarcReport(strToU8(wordy), "xml").reporter).toHaveLength(DMARC_LIMITS.textChars);
  });

  test("a billion-laughs DTD is refused, unexpanded", () => {
    const lol = [
      '<?xml version="1.0"?>',
      "<!DOCTYPE feedback [",
      ' <!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`),
      "]>",
    ].join("\n");
    const xml = google
      .toString()
      .replace('<?xml version="1.0" encoding="UTF-8" ?>', lol)
      .replace("google.com<", "&lol9;<");
    const started = performance.now();
    expect(refusal(() => readDmarcReport(strToU8(xml), "xml")).reason).toContain("DTD");
    expect(refusal(() => readDmarcReport(gzipSync(xml), "gzip")).reason).toContain("DTD");
    expect(performance.now() - started).toBeLessThan(500);
  });

  test("an entity no DTD declares stays as written", () => {
    const xml = google.toString().replace("google.com<", "&lol9;&nbsp;<");
    expect(readDmarcReport(strToU8(xml), "xml").reporter).toBe("&lol9;&nbsp;");
  });
});

describe("readDmarcReport: what is not a report", () => {
  const junk = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 251);

  test.each([
    ["random bytes", junk, "xml"],
    ["random bytes labelled gzip", junk, "gzip"],
    ["random bytes labelled zip", junk, "zip"],
    ["an empty attachment", new Uint8Array(0), "xml"],
    ["plain text", strToU8("Your DMARC report is attached."), "xml"],
    ["HTML", strToU8("<html><body><p>Report</p></body></html>"), "xml"],
    ["unbalanced XML", strToU8("<<<<feedback"), "xml"],
    ["a truncated gzip", gzipSync(google).subarray(0, 200), "gzip"],
    ["a gzip with a bad CRC", gzipSync(google).map((byte, i, all) => (i === all.length - 6 ? byte ^ 1 : byte)), "gzip"],
    ["a truncated zip", zipSync({ "report.xml": google }).subarray(0, 300), "zip"],
    ["a zip whose entry is not deflate", zipSync({ "report.xml": google }).map((b, i) => (i === 8 ? 99 : b)), "zip"],
    ["a gzip of junk", gzipSync(junk), "gzip"],
    ["a zip of junk", zipSync({ "report.xml": junk }), "zip"],
  ] as const)("%s is refused", (_name, bytes, kind) => {
    refusal(() => readDmarcReport(bytes, kind));
  });

  const record = (row: string, identifiers = "<header_from>example.com</header_from>") =>
    `<record><row>${row}</row><identifiers>${identifiers}</identifiers></record>`;
  const evaluated = (disposition: string, dkim: string, spf: string) =>
    `<policy_evaluated><disposition>${disposition}</disposition><dkim>${dkim}</dkim><spf>${spf}</spf></policy_evaluated>`;
  const withRecord = (xml: string) => strToU8(google.toString().replace(/<record>[\s\S]*<\/record>/, xml));
  const good = evaluated("none", "pass", "pass");

  test.each([
    ["an address that is no IP", record(`<source_ip>203.0.113.256</source_ip><count>1</count>${good}`), "source_ip"],
    ["a host name as address", record(`<source_ip>mail.example.com</source_ip><count>1</count>${good}`), "source_ip"],
    ["a negative count", record(`<source_ip>192.0.2.1</source_ip><count>-3</count>${good}`), "count"],
    ["a fractional count", record(`<source_ip>192.0.2.1</source_ip><count>2.5</count>${good}`), "count"],
    ["a hex count", record(`<source_ip>192.0.2.1</source_ip><count>0x10</count>${good}`), "count"],
    [
      "a disposition outside RFC 7489",
      record(`<source_ip>192.0.2.1</source_ip><count>1</count>${evaluated("discard", "pass", "pass")}`),
      "disposition",
    ],
    [
      "softfail in policy_evaluated",
      record(`<source_ip>192.0.2.1</source_ip><count>1</count>${evaluated("none", "pass", "softfail")}`),
      "spf",
    ],
    [
      "temperror in policy_evaluated",
      record(`<source_ip>192.0.2.1</source_ip><count>1</count>${evaluated("none", "temperror", "pass")}`),
      "dkim",
    ],
    ["no policy_evaluated", record("<source_ip>192.0.2.1</source_ip><count>1</count>"), "policy_evaluated"],
    ["no source_ip", record(`<count>1</count>${good}`), "source_ip"],
    [
      "no header_from",
      record(`<source_ip>192.0.2.1</source_ip><count>1</count>${good}`, "<envelope_to>outlook.com</envelope_to>"),
      "<identifiers> has no <header_from>",
    ],
    [
      "two source_ip",
      record(`<source_ip>192.0.2.1</source_ip><source_ip>192.0.2.2</source_ip><count>1</count>${good}`),
      "more than one",
    ],
    ["an empty record", "<record/>", "record 1"],
  ])("a record with %s is refused, saying why", (_name, xml, said) => {
    expect(refusal(() => readDmarcReport(withRecord(xml), "xml")).reason).toContain(said);
  });

  test("the second record's problem is named as the second record's", () => {
    const xml = `${record(`<source_ip>192.0.2.1</source_ip><count>1</count>${good}`)}${record(`<source_ip>x</source_ip><count>1</count>${good}`)}`;
    expect(refusal(() => readDmarcReport(withRecord(xml), "xml")).reason).toBe(
      'record 2: source_ip "x" is not an IP address',
    );
  });

  test("upper-case values are read as their lower-case selves", () => {
    const xml = record(`<source_ip>2001:DB8::1</source_ip><count>7</count>${evaluated("Reject", "FAIL", "Pass")}`);
    expect(readDmarcReport(withRecord(xml), "xml").rows).toEqual([
      {
        source_ip: "2001:db8::1",
        count: 7,
        disposition: "reject",
        dkim: "fail",
        spf: "pass",
        header_from: "example.com",
      },
    ]);
  });

  test.each([
    ["org_name", "<org_name>google.com</org_name>", "", "org_name"],
    ["report_id", "<report_id>13907285374216938447</report_id>", "", "report_id"],
    ["an empty report_id", "<report_id>13907285374216938447</report_id>", "<report_id></report_id>", "empty"],
    ["date_range", /<date_range>[\s\S]*<\/date_range>/, "", "date_range"],
    ["a Unix begin", "<begin>1717200000</begin>", "<begin>2024-06-01</begin>", "Unix time"],
    ["policy_published", /<policy_published>[\s\S]*<\/policy_published>/, "", "policy_published"],
    ["report_metadata", /<report_metadata>[\s\S]*<\/report_metadata>/, "", "report_metadata"],
    ["feedback", /<feedback>[\s\S]*<\/feedback>/, "<report/>", "no <feedback>"],
  ] as const)("a report without %s is refused, saying why", (_name, find, replacement, said) => {
    const xml = google.toString().replace(find, replacement);
    expect(refusal(() => readDmarcReport(strToU8(xml), "xml")).reason).toContain(said);
  });
});
