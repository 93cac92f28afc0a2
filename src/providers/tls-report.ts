/**
 * SMTP TLS Reporting (RFC 8460), the sending side: reading a recipient domain's `_smtp._tls` record, and turning a
 * day's counted STARTTLS outcomes for that domain into the aggregate report, its gzip file and the email that carries
 * it. Pure: callers look the record up, count the outcomes, and send or POST the result.
 *
 * - Record (§3): only TXT records starting `v=TLSRPTv1;` count, and exactly one must remain; the `rua` URIs are
 *   mailto: and https: ones, any other scheme is skipped.
 * - Report (§4.4): one entry in `policies` per applied policy, success and failure counts summed into its summary
 *   and equal failures merged into one failure-details entry.
 * Invariant: every report built here validates against §4.4 — domain names are A-labels, counts are non-negative
 * integers, and a failure without the sending IP or the receiving MX host name is refused rather than reported
 * half-filled (the RFC requires both).
 */
import { isIP } from "node:net";
import { domainToASCII } from "node:url";
import { gzipSync } from "node:zlib";

export type TlsResultType =
  | "starttls-not-supported"
  | "certificate-host-mismatch"
  | "certificate-expired"
  | "certificate-not-trusted"
  | "validation-failure"
  | "tlsa-invalid"
  | "dnssec-invalid"
  | "dane-required"
  | "sts-policy-fetch-error"
  | "sts-policy-invalid"
  | "sts-webpki-invalid";

/** One counted outcome bucket for a policy domain over the period. */
export interface TlsOutcomeCount {
  policyDomain: string;
  policyType: "sts" | "tlsa" | "no-policy-found";
  /** The MTA-STS policy text when policyType is sts */
  policyString?: string[];
  mxHost?: string;
  result: "success" | TlsResultType;
  sendingMtaIp?: string;
  receivingMxHostname?: string;
  receivingIp?: string;
  count: number;
  failureReasonCode?: string;
}

export interface TlsRptRecord {
  rua: Array<{ kind: "mailto"; address: string } | { kind: "https"; url: string }>;
}

export interface TlsFailureDetail {
  "result-type": TlsResultType;
  "sending-mta-ip": string;
  "receiving-mx-hostname": string;
  "receiving-ip"?: string;
  "failed-session-count": number;
  "failure-reason-code"?: string;
}

export interface TlsPolicyResult {
  policy: {
    "policy-type": "sts" | "tlsa" | "no-policy-found";
    "policy-string"?: string[];
    "policy-domain": string;
    "mx-host"?: string;
  };
  summary: { "total-successful-session-count": number; "total-failure-session-count": number };
  "failure-details": TlsFailureDetail[];
}

/** The report in RFC 8460 §4.4's own field names, ready for JSON.stringify. */
export interface TlsReport {
  "organization-name": string;
  "date-range": { "start-datetime": string; "end-datetime": string };
  "contact-info": string;
  "report-id": string;
  policies: TlsPolicyResult[];
}

export interface TlsReportMail {
  subject: string;
  headers: Record<string, string>;
  text: string;
  attachment: { filename: string; contentType: "application/tlsrpt+gzip"; content: Buffer };
  /**
   * The root Content-Type §5.3 asks for. MailComposer cannot be told it: given text and one attachment it builds
   * multipart/mixed, and a Content-Type in `headers` is added as a second header instead of replacing it. The caller
   * compiles the message and then replaces the root's type, which keeps the boundary:
   * `const root = new MailComposer({ ...mail, attachments: [attachment] }).compile();
   *  root.setHeader("Content-Type", rootContentType);`
   */
  rootContentType: string;
}

const RECORD_START = /^v=TLSRPTv1[ \t]*;/;
const FIELD_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
/** §5.1: unique-id = 1*(ALPHA / DIGIT). */
const UNIQUE_ID = /^[A-Za-z0-9]+$/;

/** Parses the TXT strings at `_smtp._tls.<domain>` (RFC 8460 §3): exactly one record starting `v=TLSRPTv1`; rua is a comma-separated list of mailto:/https: URIs; returns null when there is no valid record. */
export function parseTlsRptRecord(txt: string[][]): TlsRptRecord | null {
  // §3: a record split into several strings is read as their concatenation, without spaces.
  const records = txt.map((strings) => strings.join("")).filter((record) => RECORD_START.test(record));
  if (records.length !== 1) return null;
  const rua: TlsRptRecord["rua"] = [];
  let sawRua = false;
  for (const field of records[0]!.split(";").slice(1)) {
    const trimmed = field.replace(/^[ \t]+|[ \t]+$/g, "");
    if (trimmed === "") continue;
    const eq = trimmed.indexOf("=");
    if (eq <= 0) return null;
    const name = trimmed.slice(0, eq);
    if (!FIELD_NAME.test(name)) return null;
    // Unknown fields are ignored (§3), so a later version's additions do not cost the domain its reports.
    if (name !== "rua") continue;
    sawRua = true;
    for (const uri of trimmed.slice(eq + 1).split(",")) {
      const destination = parseRuaUri(uri.replace(/^[ \t]+|[ \t]+$/g, ""));
      if (destination) rua.push(destination);
    }
  }
  return sawRua && rua.length > 0 ? { rua } : null;
}

function parseRuaUri(uri: string): TlsRptRecord["rua"][number] | null {
  if (/^mailto:/i.test(uri)) {
    // RFC 6068: hfields after "?" are not part of the address; commas and "!" arrive percent-encoded (§3).
    let address: string;
    try {
      address = decodeURIComponent(uri.slice("mailto:".length).split("?")[0]!);
    } catch {
      return null;
    }
    return /^[^@\s]+@[^@\s]+$/.test(address) ? { kind: "mailto", address } : null;
  }
  if (/^https:/i.test(uri)) {
    try {
      const url = new URL(uri);
      return url.protocol === "https:" && url.hostname !== "" ? { kind: "https", url: url.href } : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** Builds the report object for one policy domain and period (RFC 8460 §4.3/4.4): organization-name, date-range {start-datetime, end-datetime} (RFC 3339 UTC), contact-info, report-id, policies[] each with policy {policy-type, policy-string?, policy-domain, mx-host?}, summary {total-successful-session-count, total-failure-session-count}, failure-details[] {result-type, sending-mta-ip, receiving-mx-hostname, receiving-ip?, failed-session-count, failure-reason-code?}. Groups the counts by (policyType, policyString, mxHost). */
export function buildTlsReport(input: {
  organizationName: string;
  contactInfo: string;
  reportId: string;
  start: Date;
  end: Date;
  policyDomain: string;
  counts: TlsOutcomeCount[];
}): TlsReport {
  if (!(input.start.getTime() < input.end.getTime()))
    throw new RangeError("the report period must end after it starts");
  if (input.reportId === "") throw new RangeError("a report needs a report-id");
  const policyDomain = aLabels(input.policyDomain);
  const policies = new Map<string, { result: TlsPolicyResult; failures: Map<string, TlsFailureDetail> }>();

  // Counts for other domains are left out, so a caller can pass the whole day's tally to each domain's report.
  for (const count of input.counts.filter((c) => aLabels(c.policyDomain) === policyDomain)) {
    if (!Number.isSafeInteger(count.count) || count.count < 0) {
      throw new RangeError(`count ${count.count} is not a non-negative integer`);
    }
    // With no policy found nothing was applied, so there is no policy text and no MX pattern to report (§4.4).
    const applied = count.policyType !== "no-policy-found";
    const policyString = applied ? count.policyString : undefined;
    const mxHost = applied && count.mxHost !== undefined ? aLabels(count.mxHost) : undefined;
    const policyKey = JSON.stringify([count.policyType, policyString ?? null, mxHost ?? null]);
    let entry = policies.get(policyKey);
    if (!entry) {
      entry = {
        result: {
          policy: {
            "policy-type": count.policyType,
            ...(policyString !== undefined && { "policy-string": [...policyString] }),
            "policy-domain": policyDomain,
            ...(mxHost !== undefined && { "mx-host": mxHost }),
          },
          summary: { "total-successful-session-count": 0, "total-failure-session-count": 0 },
          "failure-details": [],
        },
        failures: new Map(),
      };
      policies.set(policyKey, entry);
    }
    const summary = entry.result.summary;
    if (count.result === "success") {
      summary["total-successful-session-count"] += count.count;
      continue;
    }
    summary["total-failure-session-count"] += count.count;
    const detail = failureDetail(count, count.result);
    const failureKey = JSON.stringify([
      detail["result-type"],
      detail["sending-mta-ip"],
      detail["receiving-mx-hostname"],
      detail["receiving-ip"] ?? null,
      detail["failure-reason-code"] ?? null,
    ]);
    const same = entry.failures.get(failureKey);
    if (same) {
      same["failed-session-count"] += count.count;
    } else {
      entry.failures.set(failureKey, detail);
      entry.result["failure-details"].push(detail);
    }
  }

  return {
    "organization-name": input.organizationName,
    "date-range": { "start-datetime": rfc3339(input.start), "end-datetime": rfc3339(input.end) },
    "contact-info": input.contactInfo,
    "report-id": input.reportId,
    policies: [...policies.values()].map((entry) => entry.result),
  };
}

function failureDetail(count: TlsOutcomeCount, result: TlsResultType): TlsFailureDetail {
  if (count.sendingMtaIp === undefined || isIP(count.sendingMtaIp) === 0) {
    throw new RangeError(`a ${result} failure needs the sending MTA's IP address`);
  }
  if (count.receivingMxHostname === undefined || count.receivingMxHostname === "") {
    throw new RangeError(`a ${result} failure needs the receiving MX host name`);
  }
  // "" is no address: a session that never connected (a bogus TLSA answer, DANE's dnssec-invalid) has none to name.
  const receivingIp = count.receivingIp || undefined;
  if (receivingIp !== undefined && isIP(receivingIp) === 0) {
    throw new RangeError(`receiving IP ${receivingIp} is not an IP address`);
  }
  return {
    "result-type": result,
    "sending-mta-ip": count.sendingMtaIp,
    "receiving-mx-hostname": aLabels(count.receivingMxHostname),
    ...(receivingIp !== undefined && { "receiving-ip": receivingIp }),
    "failed-session-count": count.count,
    ...(count.failureReasonCode !== undefined && { "failure-reason-code": count.failureReasonCode }),
  };
}

/** §4.4: domain names in a report are A-labels, never U-labels; an MX pattern may start with `*.`. */
function aLabels(name: string): string {
  const trimmed = name.replace(/\.$/, "");
  const wildcard = trimmed.startsWith("*.");
  const ascii = domainToASCII(wildcard ? trimmed.slice(2) : trimmed);
  if (ascii === "") throw new RangeError(`${JSON.stringify(name)} is not a domain name`);
  return wildcard ? `*.${ascii}` : ascii;
}

/** RFC 3339 in UTC; whole seconds are written without a fraction, as the RFC's example report does. */
function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.000Z$/, "Z");
}

/** gzip of the JSON and the file name RFC 8460 §5.1 gives: `<sender>!<policy-domain>!<begin-timestamp>!<end-timestamp>!<unique-id>.json.gz` (timestamps in seconds). */
export function packTlsReport(
  report: object,
  sender: string,
  policyDomain: string,
  start: Date,
  end: Date,
  uniqueId: string,
): { filename: string; gzip: Uint8Array } {
  if (!UNIQUE_ID.test(uniqueId))
    throw new RangeError(`unique-id ${JSON.stringify(uniqueId)} is not letters and digits`);
  const filename = [
    aLabels(sender),
    aLabels(policyDomain),
    Math.floor(start.getTime() / 1000),
    Math.floor(end.getTime() / 1000),
    uniqueId,
  ].join("!");
  return { filename: `${filename}.json.gz`, gzip: gzipSync(JSON.stringify(report)) };
}

/**
 * The email form (RFC 8460 §5.3): the parts a caller hands to nodemailer. The caller still has to DKIM-sign the
 * message with a key whose record says `s=tlsrpt` or includes it (§3: receivers ignore unsigned reports), include the
 * two TLS-Report headers in the signature, and send it without enforcing MTA-STS or DANE (§5.3).
 */
export function tlsReportMail(input: {
  report: TlsReport;
  policyDomain: string;
  /** The domain of the report's contact-info address (§5.3: TLS-Report-Submitter MUST match it). */
  sender: string;
  packed: { filename: string; gzip: Uint8Array };
}): TlsReportMail {
  const { report } = input;
  const policyDomain = aLabels(input.policyDomain);
  const sender = aLabels(input.sender);
  const contact = report["contact-info"];
  const contactDomain = contact.slice(contact.lastIndexOf("@") + 1);
  if (!contact.includes("@") || aLabels(contactDomain) !== sender) {
    throw new RangeError(`submitter ${sender} is not the domain of contact-info ${contact}`);
  }
  // §5.3's Subject carries the Report-ID as a message id (`<id-left@id-right>`), which a bare report-id is not.
  const reportId = report["report-id"];
  const messageId = /^[^<>@\s]+@[^<>@\s]+$/.test(reportId) ? reportId : `${reportId}@${sender}`;
  let successes = 0;
  let failures = 0;
  for (const policy of report.policies) {
    successes += policy.summary["total-successful-session-count"];
    failures += policy.summary["total-failure-session-count"];
  }
  const range = report["date-range"];
  return {
    subject: `Report Domain: ${policyDomain} Submitter: ${sender} Report-ID: <${messageId}>`,
    headers: { "TLS-Report-Domain": policyDomain, "TLS-Report-Submitter": sender },
    text:
      `This is an aggregate TLS report from ${sender} for ${policyDomain}, ` +
      `covering ${range["start-datetime"]} to ${range["end-datetime"]}: ` +
      `${successes} successful and ${failures} failed TLS sessions.\n`,
    attachment: {
      filename: input.packed.filename,
      contentType: "application/tlsrpt+gzip",
      content: Buffer.from(input.packed.gzip.buffer, input.packed.gzip.byteOffset, input.packed.gzip.byteLength),
    },
    rootContentType: 'multipart/report; report-type="tlsrpt"',
  };
}
