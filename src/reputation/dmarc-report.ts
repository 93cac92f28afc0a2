/**
 * DMARC aggregate reports (RFC 7489 §7.2, Appendix C) as receivers mail them to a domain's `rua` address: telling
 * a report attachment from any other, expanding it (gzip or zip), reading its XML into rows, and summing rows per
 * sending address. Pure: bytes in, values out (`readDmarcMessage` finds a received message's report attachments; it
 * runs on the CPU pool's threads) — storing what they say belongs to dmarc.ts. Anyone can mail an `rua` address, so
 * every attachment is treated as hostile.
 *
 * Invariant: reading one attachment costs memory bounded by DMARC_LIMITS (plus a few MiB) and time linear in its
 * size, whatever its headers declare — input over `compressedBytes` is refused unread, expansion is abandoned as
 * soon as it passes `expandedBytes` or `ratio` × the input's size, and the XML is read with no DTD and no entity
 * expansion. What a report keeps is bounded too: at most `rows` rows, domain names no longer than a domain name can
 * be, free text (the reporter, the report id) cut at `textChars`. Anything over a cap or not a well-formed report is
 * a DmarcReportRefused, never a partial report. Rows come heaviest source first.
 */
import { isIP } from "node:net";
import { gunzipSync } from "node:zlib";
import { XMLParser } from "fast-xml-parser";
import { Unzip, UnzipInflate } from "fflate";
import { simpleParser } from "mailparser";
import type { DmarcRowData } from "../db/schema/index.ts";

/** One row of a report (stored as such). */
export type DmarcRow = DmarcRowData;

export interface DmarcReport {
  reporter: string;
  report_id: string;
  policy_domain: string;
  /** ISO 8601, UTC. */
  begin: string;
  end: string;
  rows: DmarcRow[];
}

/** An attachment that is not a report, or one over DMARC_LIMITS; `reason` is meant for a person reading a log. */
export class DmarcReportRefused extends Error {
  constructor(readonly reason: string) {
    super(`DMARC report refused: ${reason}`);
    this.name = "DmarcReportRefused";
  }
}

export const DMARC_LIMITS = {
  /** The attachment as received; a day of reports from the largest receivers is far below this. */
  compressedBytes: 10 * 1024 * 1024,
  /** The XML after expansion. */
  expandedBytes: 32 * 1024 * 1024,
  /** Report XML compresses about 20:1; deflate can reach 1032:1, which only a bomb does. */
  ratio: 200,
  /**
   * Records (rows) per report: a receiver writes one per source address and result, and the largest receivers'
   * daily reports (Google's, Microsoft's) hold at most a few thousand; more is refused before the XML is parsed.
   */
  rows: 10_000,
  /** A domain name (policy_domain, header_from) is at most 253 characters (RFC 1035 §2.3.4); longer is no report. */
  domainChars: 253,
  /** The reporter's name and the report's id, free text: kept to this many characters. */
  textChars: 200,
} as const;

const GZIP_TYPES = new Set(["application/gzip", "application/x-gzip"]);
const ZIP_TYPES = new Set(["application/zip", "application/x-zip-compressed", "application/x-zip"]);
const XML_TYPES = new Set(["text/xml", "application/xml"]);

/** Which attachment kind this is, by content type and file name; null when it is not a report attachment. */
export function dmarcAttachmentKind(contentType: string, filename: string | undefined): "xml" | "gzip" | "zip" | null {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (GZIP_TYPES.has(type)) return "gzip";
  if (ZIP_TYPES.has(type)) return "zip";
  if (XML_TYPES.has(type)) return "xml";
  // Senders that do not label the archive say what it is only in its name.
  if (type !== "application/octet-stream" && type !== "") return null;
  const name = filename?.trim().toLowerCase() ?? "";
  if (name.endsWith(".gz")) return "gzip";
  if (name.endsWith(".zip")) return "zip";
  if (name.endsWith(".xml")) return "xml";
  return null;
}

/** Expands (gzip/zip) and parses; throws DmarcReportRefused for anything over the caps or not a report. */
export function readDmarcReport(bytes: Uint8Array, kind: "xml" | "gzip" | "zip"): DmarcReport {
  if (bytes.length > DMARC_LIMITS.compressedBytes) {
    throw new DmarcReportRefused(
      `the attachment is ${bytes.length} bytes, over the ${DMARC_LIMITS.compressedBytes}-byte limit`,
    );
  }
  const limit = Math.min(DMARC_LIMITS.expandedBytes, DMARC_LIMITS.ratio * bytes.length);
  // Receivers mislabel archives (a zip sent as application/gzip); the magic number is what the bytes really are.
  const magic = sniff(bytes);
  if (magic === "gzip") return parseReport(gunzipReport(bytes, limit));
  if (magic === "zip") return parseReport(unzipReport(bytes, limit));
  if (kind !== "xml") throw new DmarcReportRefused(`the attachment is labelled ${kind} but is not a ${kind} archive`);
  return parseReport(bytes);
}

/** What a message mailed to an `rua` address holds: the reports of its report attachments, and why others were refused. */
export interface DmarcMessage {
  reports: DmarcReport[];
  refused: string[];
}

/** Reports a message sent to an `rua` address carries (one per report attachment; RFC 7489 §7.2.1.1 sends one). */
export async function readDmarcMessage(raw: Uint8Array): Promise<DmarcMessage> {
  const parsed = await simpleParser(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  });
  const out: DmarcMessage = { reports: [], refused: [] };
  for (const attachment of parsed.attachments) {
    const kind = dmarcAttachmentKind(attachment.contentType, attachment.filename);
    if (!kind) continue;
    try {
      out.reports.push(readDmarcReport(attachment.content, kind));
    } catch (error) {
      if (!(error instanceof DmarcReportRefused)) throw error;
      out.refused.push(error.reason);
    }
  }
  if (!out.reports.length && !out.refused.length) out.refused.push("the message has no report attachment");
  return out;
}

function sniff(bytes: Uint8Array): "gzip" | "zip" | null {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return "gzip";
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return "zip";
  return null;
}

const expandedTooFar = (limit: number) =>
  new DmarcReportRefused(
    limit < DMARC_LIMITS.expandedBytes
      ? `the archive expands to more than ${DMARC_LIMITS.ratio} times its size`
      : `the archive expands to more than ${DMARC_LIMITS.expandedBytes} bytes`,
  );

function gunzipReport(bytes: Uint8Array, limit: number): Uint8Array {
  try {
    return gunzipSync(bytes, { maxOutputLength: limit });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw expandedTooFar(limit);
    throw new DmarcReportRefused("the attachment is not a readable gzip stream");
  }
}

/**
 * Input is fed to the inflater this many bytes at a time, so one step can produce at most about 1032 times as much
 * (deflate's ceiling): the count is checked between steps, and a bomb costs a few MiB past the cap, not its size.
 */
const ZIP_STEP = 4096;

/** The first `.xml` entry, expanded; the sizes the archive declares are never consulted. */
function unzipReport(bytes: Uint8Array, limit: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let expanded = 0;
  // Written by the callbacks below, which TypeScript does not follow; the assertion keeps it from narrowing.
  let state = "looking" as "looking" | "reading" | "done";
  let refusal: DmarcReportRefused | undefined;
  const unzip = new Unzip((entry) => {
    if (state !== "looking" || !isReportEntry(entry.name)) return;
    state = "reading";
    entry.ondata = (error, data, final) => {
      if (refusal || state === "done") return;
      if (error) {
        refusal = new DmarcReportRefused(`the zip entry cannot be expanded (${error.message})`);
        return;
      }
      expanded += data.length;
      if (expanded > limit) {
        refusal = expandedTooFar(limit);
        return;
      }
      chunks.push(data);
      if (final) state = "done";
    };
    entry.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let offset = 0; offset < bytes.length && state !== "done" && !refusal; offset += ZIP_STEP) {
      const end = Math.min(offset + ZIP_STEP, bytes.length);
      unzip.push(bytes.subarray(offset, end), end === bytes.length);
    }
  } catch {
    refusal ??= new DmarcReportRefused("the attachment is not a readable zip archive");
  }
  if (refusal) throw refusal;
  if (state === "looking") throw new DmarcReportRefused("the zip archive holds no .xml report");
  if (state === "reading") throw new DmarcReportRefused("the zip archive ends inside its .xml report");
  const xml = new Uint8Array(expanded);
  let at = 0;
  for (const chunk of chunks) {
    xml.set(chunk, at);
    at += chunk.length;
  }
  return xml;
}

/** macOS's archiver adds `__MACOSX/._name.xml` resource forks beside the real file; they are not XML. */
function isReportEntry(name: string): boolean {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return base.toLowerCase().endsWith(".xml") && !base.startsWith("._") && !name.startsWith("__MACOSX/");
}

type XmlNode = Record<string, unknown>;

function parseReport(bytes: Uint8Array): DmarcReport {
  const text = new TextDecoder().decode(bytes);
  // No report has a DTD; refusing one outright means no parser setting stands between a billion laughs and memory.
  if (/<!DOCTYPE/i.test(text)) throw new DmarcReportRefused("the XML declares a DTD (<!DOCTYPE>), which no report has");
  // Counted before parsing so an oversized report is turned away before its object tree is built.
  if (countRecords(text) > DMARC_LIMITS.rows) {
    throw new DmarcReportRefused(`the report has more than ${DMARC_LIMITS.rows} records`);
  }
  const parser = new XMLParser({
    ignoreAttributes: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    removeNSPrefix: true,
    // Values stay strings: a 20-digit report_id would lose digits as a number, and counts are checked as written.
    parseTagValue: false,
    trimValues: true,
    processEntities: false,
    htmlEntities: false,
    maxNestedTags: 16,
    // No callback here reads the path; building it as a string for every element costs a third of the parse.
    jPath: false,
    isArray: (name, _path, _leaf, isAttribute) => name === "record" && !isAttribute,
  });
  let document: unknown;
  try {
    document = parser.parse(text);
  } catch {
    throw new DmarcReportRefused("the attachment is not well-formed XML");
  }
  if (!isNode(document) || document.feedback === undefined) {
    throw new DmarcReportRefused("the XML is not a DMARC aggregate report (it has no <feedback> element)");
  }
  const feedback = element(document, "feedback", "the report");
  const metadata = element(feedback, "report_metadata", "the report");
  const dates = element(metadata, "date_range", "<report_metadata>");
  const published = element(feedback, "policy_published", "the report");
  const records = feedback.record === undefined ? [] : (feedback.record as unknown[]);
  if (records.length > DMARC_LIMITS.rows) {
    throw new DmarcReportRefused(`the report has more than ${DMARC_LIMITS.rows} records`);
  }
  return {
    reporter: leaf(metadata, "org_name", "<report_metadata>").slice(0, DMARC_LIMITS.textChars),
    report_id: leaf(metadata, "report_id", "<report_metadata>").slice(0, DMARC_LIMITS.textChars),
    policy_domain: domainName(leaf(published, "domain", "<policy_published>"), "<policy_published> domain"),
    begin: unixTime(leaf(dates, "begin", "<date_range>"), "begin"),
    end: unixTime(leaf(dates, "end", "<date_range>"), "end"),
    // Heaviest first, so a list that shows a report's first rows shows who sent the most.
    rows: records.map((record, index) => readRow(record, `record ${index + 1}`)).sort((a, b) => b.count - a.count),
  };
}

function readRow(record: unknown, where: string): DmarcRow {
  if (!isNode(record)) throw new DmarcReportRefused(`${where} is empty`);
  const row = element(record, "row", where);
  const evaluated = element(row, "policy_evaluated", `${where} <row>`);
  const source_ip = leaf(row, "source_ip", `${where} <row>`).toLowerCase();
  if (isIP(source_ip) === 0)
    throw new DmarcReportRefused(`${where}: source_ip "${clip(source_ip)}" is not an IP address`);
  const written = leaf(row, "count", `${where} <row>`);
  const count = /^\d{1,15}$/.test(written) ? Number(written) : Number.NaN;
  if (!Number.isSafeInteger(count)) {
    throw new DmarcReportRefused(`${where}: count "${clip(written)}" is not a non-negative whole number`);
  }
  return {
    source_ip,
    count,
    disposition: oneOf(evaluated, "disposition", ["none", "quarantine", "reject"], where),
    dkim: oneOf(evaluated, "dkim", ["pass", "fail"], where),
    spf: oneOf(evaluated, "spf", ["pass", "fail"], where),
    header_from: domainName(
      leaf(element(record, "identifiers", where), "header_from", `${where} <identifiers>`),
      `${where}: header_from`,
    ),
  };
}

/** A domain name as a report writes it, lower-cased; refused when longer than any domain name can be. */
function domainName(value: string, what: string): string {
  if (value.length > DMARC_LIMITS.domainChars)
    throw new DmarcReportRefused(`${what} is ${value.length} characters, longer than a domain name can be`);
  return value.toLowerCase();
}

function countRecords(text: string): number {
  const opening = /<(?:[A-Za-z_][\w.-]*:)?record[\s/>]/g;
  let count = 0;
  while (opening.test(text) && count <= DMARC_LIMITS.rows) count++;
  return count;
}

const isNode = (value: unknown): value is XmlNode =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function element(parent: XmlNode, name: string, where: string): XmlNode {
  const value = parent[name];
  if (value === undefined) throw new DmarcReportRefused(`${where} has no <${name}>`);
  if (Array.isArray(value)) throw new DmarcReportRefused(`${where} has more than one <${name}>`);
  if (!isNode(value)) throw new DmarcReportRefused(`<${name}> in ${where} is empty`);
  return value;
}

function leaf(parent: XmlNode, name: string, where: string): string {
  const value = parent[name];
  if (value === undefined) throw new DmarcReportRefused(`${where} has no <${name}>`);
  if (Array.isArray(value)) throw new DmarcReportRefused(`${where} has more than one <${name}>`);
  if (typeof value !== "string") throw new DmarcReportRefused(`<${name}> in ${where} holds elements, not text`);
  const text = decodeEntities(value);
  if (text === "") throw new DmarcReportRefused(`<${name}> in ${where} is empty`);
  return text;
}

/** RFC 7489 Appendix C allows only these in policy_evaluated; anything else means the report is not one we understand. */
function oneOf<T extends string>(parent: XmlNode, name: string, allowed: readonly T[], where: string): T {
  const value = leaf(parent, name, `${where} <policy_evaluated>`).toLowerCase();
  if (!(allowed as readonly string[]).includes(value)) {
    throw new DmarcReportRefused(`${where}: ${name} "${clip(value)}" is not one of ${allowed.join(", ")}`);
  }
  return value as T;
}

function unixTime(written: string, name: string): string {
  // Twelve digits reach the year 33658, inside what Date can hold.
  if (!/^\d{1,12}$/.test(written)) throw new DmarcReportRefused(`<${name}> "${clip(written)}" is not a Unix time`);
  return new Date(Number(written) * 1000).toISOString();
}

const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/**
 * The parser leaves every reference as written (entity processing is off); only XML's five predefined entities
 * and character references are decoded here, in one pass, so nothing a document declares is ever expanded.
 */
function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(?:#x([0-9a-fA-F]{1,6})|#(\d{1,7})|(lt|gt|amp|quot|apos));/g, (whole, hex, decimal, name) => {
    if (name !== undefined) return PREDEFINED[name] ?? whole;
    const point = hex !== undefined ? Number.parseInt(hex, 16) : Number(decimal);
    const valid = point > 0 && point <= 0x10ffff && (point < 0xd800 || point > 0xdfff);
    return valid ? String.fromCodePoint(point) : whole;
  });
}

/** Values quoted in a refusal come from the sender; a bounded slice is enough to recognise them. */
const clip = (value: string) => (value.length > 64 ? `${value.slice(0, 64)}…` : value);
