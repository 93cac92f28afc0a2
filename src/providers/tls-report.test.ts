import { describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { simpleParser } from "mailparser";
import MailComposer from "nodemailer/lib/mail-composer";
import schema from "../../test/fixtures/tls-rpt/rfc8460-schema.json";
import { buildTlsReport, packTlsReport, parseTlsRptRecord, type TlsOutcomeCount, tlsReportMail } from "./tls-report.ts";

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(schema);

const START = new Date("2026-03-14T00:00:00Z");
const END = new Date("2026-03-15T00:00:00Z");
const SENDER_IP = "192.0.2.25";
const STS_POLICY = ["version: STSv1", "mode: enforce", "mx: mx1.example.net", "mx: mx2.example.net", "max_age: 604800"];

/** A day's sending: example.net has an MTA-STS policy and two MX hosts, example.org has no policy. */
const day: TlsOutcomeCount[] = [
  ...["mx1.example.net", "mx2.example.net"].map(
    (mx, i): TlsOutcomeCount => ({
      policyDomain: "example.net",
      policyType: "sts",
      policyString: STS_POLICY,
      mxHost: mx,
      result: "success",
      sendingMtaIp: SENDER_IP,
      receivingMxHostname: mx,
      count: 1200 + i * 34,
    }),
  ),
  {
    policyDomain: "example.net",
    policyType: "sts",
    policyString: STS_POLICY,
    mxHost: "mx2.example.net",
    result: "certificate-host-mismatch",
    sendingMtaIp: SENDER_IP,
    receivingMxHostname: "mx2.example.net",
    receivingIp: "198.51.100.7",
    count: 5,
    failureReasonCode: "X509_V_ERR_HOSTNAME_MISMATCH",
  },
  {
    policyDomain: "example.net",
    policyType: "sts",
    policyString: STS_POLICY,
    mxHost: "mx1.example.net",
    result: "starttls-not-supported",
    sendingMtaIp: "2001:db8::25",
    receivingMxHostname: "mx1.example.net",
    receivingIp: "2001:db8:1::7",
    count: 2,
  },
  // The same failure counted again later in the day joins the first bucket.
  {
    policyDomain: "example.net",
    policyType: "sts",
    policyString: STS_POLICY,
    mxHost: "mx2.example.net",
    result: "certificate-host-mismatch",
    sendingMtaIp: SENDER_IP,
    receivingMxHostname: "mx2.example.net",
    receivingIp: "198.51.100.7",
    count: 1,
    failureReasonCode: "X509_V_ERR_HOSTNAME_MISMATCH",
  },
  ...["mx-a.example.org", "mx-b.example.org"].map(
    (mx): TlsOutcomeCount => ({
      policyDomain: "EXAMPLE.org.",
      policyType: "no-policy-found",
      mxHost: mx,
      result: "success",
      sendingMtaIp: SENDER_IP,
      receivingMxHostname: mx,
      count: 40,
    }),
  ),
];

function reportFor(policyDomain: string, counts = day) {
  return buildTlsReport({
    organizationName: "Mailroom at sender.example",
    contactInfo: "tlsrpt@mail.sender.example",
    reportId: "2026-03-14T000000Z-example.net-1",
    start: START,
    end: END,
    policyDomain,
    counts,
  });
}

function schemaErrors(report: unknown): string[] {
  return validate(report) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}: ${e.message}`);
}

describe("parseTlsRptRecord (RFC 8460 §3)", () => {
  test("a mailto and an https rua, split strings joined without spaces, other TXT records and unknown fields ignored", () => {
    expect(
      parseTlsRptRecord([
        ["v=spf1 -all"],
        [
          "v=TLSRPTv1 ; rua=mailto:tls%2Dreports@example.net?subject=tlsrpt ,",
          "https://reports.example.net/v1/tlsrpt",
          ";ext=1;",
        ],
      ]),
    ).toEqual({
      rua: [
        { kind: "mailto", address: "tls-reports@example.net" },
        { kind: "https", url: "https://reports.example.net/v1/tlsrpt" },
      ],
    });
  });

  test("a URI of another scheme is skipped; the supported ones stay", () => {
    expect(parseTlsRptRecord([["v=TLSRPTv1;rua=http://r.example.net/x,mailto:r@example.net"]])).toEqual({
      rua: [{ kind: "mailto", address: "r@example.net" }],
    });
  });

  test.each([
    ["no record", []],
    ["no TLSRPT record", [["v=spf1 -all"]]],
    ["another version", [["v=TLSRPTv2;rua=mailto:r@example.net"]]],
    ["the version in another case", [["v=tlsrptv1;rua=mailto:r@example.net"]]],
    ["the version not first", [["rua=mailto:r@example.net;v=TLSRPTv1"]]],
    ["no rua", [["v=TLSRPTv1;ext=1"]]],
    ["an empty rua", [["v=TLSRPTv1;rua="]]],
    ["only unsupported URIs", [["v=TLSRPTv1;rua=ftp://r.example.net/"]]],
    ["a mailto that is no address", [["v=TLSRPTv1;rua=mailto:reports"]]],
    ["a field that is not name=value", [["v=TLSRPTv1;rua=mailto:r@example.net;garbage"]]],
    [
      "two TLSRPT records",
      [["v=TLSRPTv1;rua=mailto:r@example.net"], ["v=TLSRPTv1;rua=https://reports.example.net/tlsrpt"]],
    ],
    [
      "two identical TLSRPT records",
      [["v=TLSRPTv1;rua=mailto:r@example.net"], ["v=TLSRPTv1;rua=mailto:r@example.net"]],
    ],
  ])("%s is no record", (_name, txt) => {
    expect(parseTlsRptRecord(txt)).toBeNull();
  });
});

describe("buildTlsReport (RFC 8460 §4.4)", () => {
  test("a day for an MTA-STS domain: one policy entry per MX, failures merged, valid against the schema", () => {
    const report = reportFor("example.net");
    expect(schemaErrors(report)).toEqual([]);
    expect(report).toEqual({
      "organization-name": "Mailroom at sender.example",
      "date-range": { "start-datetime": "2026-03-14T00:00:00Z", "end-datetime": "2026-03-15T00:00:00Z" },
      "contact-info": "tlsrpt@mail.sender.example",
      "report-id": "2026-03-14T000000Z-example.net-1",
      policies: [
        {
          policy: {
            "policy-type": "sts",
            "policy-string": STS_POLICY,
            "policy-domain": "example.net",
            "mx-host": "mx1.example.net",
          },
          summary: { "total-successful-session-count": 1200, "total-failure-session-count": 2 },
          "failure-details": [
            {
              "result-type": "starttls-not-supported",
              "sending-mta-ip": "2001:db8::25",
              "receiving-mx-hostname": "mx1.example.net",
              "receiving-ip": "2001:db8:1::7",
              "failed-session-count": 2,
            },
          ],
        },
        {
          policy: {
            "policy-type": "sts",
            "policy-string": STS_POLICY,
            "policy-domain": "example.net",
            "mx-host": "mx2.example.net",
          },
          summary: { "total-successful-session-count": 1234, "total-failure-session-count": 6 },
          "failure-details": [
            {
              "result-type": "certificate-host-mismatch",
              "sending-mta-ip": SENDER_IP,
              "receiving-mx-hostname": "mx2.example.net",
              "receiving-ip": "198.51.100.7",
              "failed-session-count": 6,
              "failure-reason-code": "X509_V_ERR_HOSTNAME_MISMATCH",
            },
          ],
        },
      ],
    });
  });

  test("a domain with no policy: one entry without policy-string or mx-host, valid against the schema", () => {
    const report = reportFor("example.org");
    expect(schemaErrors(report)).toEqual([]);
    expect(report.policies).toEqual([
      {
        policy: { "policy-type": "no-policy-found", "policy-domain": "example.org" },
        summary: { "total-successful-session-count": 80, "total-failure-session-count": 0 },
        "failure-details": [],
      },
    ]);
  });

  test("a bogus TLSA answer (DANE, dnssec-invalid): no connection was made, so no receiving IP — the report still builds", () => {
    // As reputation/tls-reports.ts reads the row providers/mx.ts counted: receiving IP "", an empty tlsa policy string.
    const report = reportFor("bogus.example", [
      {
        policyDomain: "bogus.example",
        policyType: "tlsa",
        policyString: [],
        mxHost: "mx.bogus.example",
        result: "dnssec-invalid",
        sendingMtaIp: SENDER_IP,
        receivingMxHostname: "mx.bogus.example",
        receivingIp: "",
        count: 3,
      },
    ]);
    expect(schemaErrors(report)).toEqual([]);
    expect(report.policies[0]!["failure-details"]).toEqual([
      {
        "result-type": "dnssec-invalid",
        "sending-mta-ip": SENDER_IP,
        "receiving-mx-hostname": "mx.bogus.example",
        "failed-session-count": 3,
      },
    ]);
  });

  test("domain names are written as A-labels", () => {
    const report = reportFor("bücher.example", [
      { policyDomain: "Bücher.example", policyType: "sts", mxHost: "*.mx.bücher.example", result: "success", count: 3 },
    ]);
    expect(schemaErrors(report)).toEqual([]);
    expect(report.policies[0]!.policy).toEqual({
      "policy-type": "sts",
      "policy-domain": "xn--bcher-kva.example",
      "mx-host": "*.mx.xn--bcher-kva.example",
    });
  });

  test.each([
    ["a failure without the sending IP", { sendingMtaIp: undefined }, "sending MTA"],
    ["a failure without the MX host name", { receivingMxHostname: undefined }, "MX host name"],
    ["a receiving IP that is not one", { receivingIp: "mx2.example.net" }, "not an IP"],
    ["a negative count", { count: -1 }, "non-negative"],
    ["a fractional count", { count: 1.5 }, "non-negative"],
  ])("%s is refused", (_name, change, message) => {
    const failure = { ...day[2]!, ...change } as TlsOutcomeCount;
    expect(() => reportFor("example.net", [failure])).toThrow(message);
  });

  test("a period that does not end after it starts is refused", () => {
    expect(() =>
      buildTlsReport({
        organizationName: "x",
        contactInfo: "tlsrpt@mail.sender.example",
        reportId: "1",
        start: END,
        end: START,
        policyDomain: "example.net",
        counts: [],
      }),
    ).toThrow("end after");
  });
});

describe("the schema (test/fixtures/tls-rpt/rfc8460-schema.json)", () => {
  const good = () => structuredClone(reportFor("example.net")) as any;

  test.each([
    [
      "a policy without summary",
      (r: any) => delete r.policies[0].summary,
      "/policies/0 required: must have required property 'summary'",
    ],
    ["a report without policies", (r: any) => delete r.policies, "required: must have required property 'policies'"],
    ["an unknown result-type", (r: any) => (r.policies[1]["failure-details"][0]["result-type"] = "tls-broken"), "enum"],
    ["an unknown policy-type", (r: any) => (r.policies[0].policy["policy-type"] = "dane"), "enum"],
    ["a date that is not RFC 3339", (r: any) => (r["date-range"]["start-datetime"] = "14 Mar 2026"), "date-time"],
    ["a count as a string", (r: any) => (r.policies[0].summary["total-failure-session-count"] = "2"), "integer"],
    [
      "a sending IP that is no address",
      (r: any) => (r.policies[0]["failure-details"][0]["sending-mta-ip"] = "mx"),
      "ipv",
    ],
    ["a field §4.4 does not define", (r: any) => (r.policies[0].policy.extra = 1), "additional"],
  ])("rejects %s", (_name, breakIt, message) => {
    const report = good();
    expect(schemaErrors(report)).toEqual([]);
    breakIt(report);
    expect(schemaErrors(report).join("\n")).toContain(message);
  });
});

describe("packTlsReport (RFC 8460 §5.1, §5.2)", () => {
  test("the gzip holds the report's JSON and the file name follows §5.1", () => {
    const report = reportFor("example.net");
    const { filename, gzip } = packTlsReport(report, "mail.sender.example", "example.net", START, END, "001");
    expect(filename).toBe("mail.sender.example!example.net!1773446400!1773532800!001.json.gz");
    expect(filename).toMatch(/^[a-z0-9.-]+![a-z0-9.-]+!\d+!\d+(![A-Za-z0-9]+)?\.json\.gz$/);
    expect([gzip[0], gzip[1]]).toEqual([0x1f, 0x8b]);
    expect(JSON.parse(gunzipSync(gzip).toString("utf8"))).toEqual(report);
  });

  test.each(["", "a-b", "a!b", "x.y"])("unique-id %p is refused", (id) => {
    expect(() => packTlsReport({}, "mail.sender.example", "example.net", START, END, id)).toThrow("unique-id");
  });
});

describe("tlsReportMail (RFC 8460 §5.3)", () => {
  const report = reportFor("example.net");
  const packed = packTlsReport(report, "mail.sender.example", "example.net", START, END, "1");

  test("subject, headers, text and attachment", () => {
    const mail = tlsReportMail({ report, policyDomain: "example.net", sender: "mail.sender.example", packed });
    expect(mail.subject).toBe(
      "Report Domain: example.net Submitter: mail.sender.example Report-ID: <2026-03-14T000000Z-example.net-1@mail.sender.example>",
    );
    expect(mail.headers).toEqual({ "TLS-Report-Domain": "example.net", "TLS-Report-Submitter": "mail.sender.example" });
    expect(mail.text).toContain("2434 successful and 8 failed");
    expect(mail.attachment.filename).toBe(packed.filename);
    expect(mail.attachment.contentType).toBe("application/tlsrpt+gzip");
  });

  test("a report-id that is already a message id is used as it is", () => {
    const withId = { ...report, "report-id": "735ff.e317+bf22029@mail.sender.example" };
    const mail = tlsReportMail({ report: withId, policyDomain: "example.net", sender: "mail.sender.example", packed });
    expect(mail.subject).toEndWith("Report-ID: <735ff.e317+bf22029@mail.sender.example>");
  });

  test("a submitter that is not the contact-info's domain is refused", () => {
    expect(() => tlsReportMail({ report, policyDomain: "example.net", sender: "sender.example", packed })).toThrow(
      "contact-info",
    );
  });

  test("MailComposer builds a multipart/report; report-type=tlsrpt message once the root type is replaced", async () => {
    const mail = tlsReportMail({ report, policyDomain: "example.net", sender: "mail.sender.example", packed });
    const root = new MailComposer({
      from: "tlsrpt@mail.sender.example",
      to: "tls-reports@example.net",
      subject: mail.subject,
      headers: mail.headers,
      text: mail.text,
      attachments: [mail.attachment],
    }).compile();
    root.setHeader("Content-Type", mail.rootContentType);
    const raw = (await root.build()).toString();
    const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
    expect(head.match(/^content-type:/gim)).toHaveLength(1);

    const parsed = await simpleParser(raw);
    expect(parsed.headers.get("content-type")).toMatchObject({
      value: "multipart/report",
      params: { "report-type": "tlsrpt" },
    });
    expect(parsed.headers.get("tls-report-domain")).toBe("example.net");
    expect(parsed.headers.get("tls-report-submitter")).toBe("mail.sender.example");
    expect(parsed.subject).toBe(mail.subject);
    expect(parsed.text).toContain("aggregate TLS report");
    expect(parsed.attachments).toHaveLength(1);
    const [attachment] = parsed.attachments;
    expect(attachment!.contentType).toBe("application/tlsrpt+gzip");
    expect(attachment!.filename).toBe(packed.filename);
    expect(JSON.parse(gunzipSync(attachment!.content).toString("utf8"))).toEqual(report);
  });
});
