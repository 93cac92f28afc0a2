/**
 * The rules of domain verification as tables: how published records are recognised, how record and domain
 * statuses move with what a check saw and how long it has been, and the return-path token.
 */
import { describe, expect, test } from "bun:test";
import {
  dkimMatches,
  dmarcMatches,
  mxMatches,
  nextDomainStatus,
  nextRecordStatus,
  spfMatches,
  type Observation,
} from "../src/domains/records.ts";
import { authorDomain, createReturnPathCodec } from "../src/domains/signing.ts";
import type { DomainStatus, RecordStatus } from "../src/domains/model.ts";

const H = 3_600_000;
const TIMEOUT = 72 * H;
const NOW = 1_000 * H;

describe("recognising published records", () => {
  const key = `MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAs${"x".repeat(300)}`;
  const dkim: Array<[string, string[][], boolean]> = [
    ["the record as given", [[`v=DKIM1; k=rsa; p=${key}`]], true],
    [
      "split into 255-byte strings",
      [[`v=DKIM1; k=rsa; p=${key}`.slice(0, 255), `v=DKIM1; k=rsa; p=${key}`.slice(255)]],
      true,
    ],
    ["without the optional v= and k= tags", [[`p=${key}`]], true],
    ["with spaces inside the key", [[`v=DKIM1; p=${key.slice(0, 100)} ${key.slice(100)}`]], true],
    ["another key", [[`v=DKIM1; k=rsa; p=${key}AB`]], false],
    ["a revoked key (empty p=)", [["v=DKIM1; k=rsa; p="]], false],
    ["an ed25519 key type", [[`v=DKIM1; k=ed25519; p=${key}`]], false],
    ["nothing published", [], false],
  ];
  for (const [name, answer, expected] of dkim)
    test(`DKIM: ${name} → ${expected ? "found" : "missing"}`, () => expect(dkimMatches(answer, key)).toBe(expected));

  const mechanisms = ["ip4:127.0.0.1", "include:spf.relay.example"];
  const spf: Array<[string, string[][], boolean]> = [
    ["exactly the suggested record", [["v=spf1 ip4:127.0.0.1 include:spf.relay.example ~all"]], true],
    [
      "the terms in another order, with + qualifiers and other terms",
      [["v=spf1 +include:spf.relay.example mx +ip4:127.0.0.1 -all"]],
      true,
    ],
    [
      "beside an unrelated TXT record",
      [["google-site-verification=abc"], ["v=spf1 ip4:127.0.0.1 include:spf.relay.example ~all"]],
      true,
    ],
    ["a term missing", [["v=spf1 ip4:127.0.0.1 ~all"]], false],
    [
      "two SPF records (a permerror, RFC 7208 §4.5)",
      [["v=spf1 ip4:127.0.0.1 include:spf.relay.example ~all"], ["v=spf1 -all"]],
      false,
    ],
    ["no SPF record", [["hello"]], false],
  ];
  for (const [name, answer, expected] of spf)
    test(`SPF: ${name} → ${expected ? "found" : "missing"}`, () =>
      expect(spfMatches(answer, mechanisms)).toBe(expected));

  const dmarc: Array<[string, string[][], boolean]> = [
    ["the suggested record", [["v=DMARC1; p=none; adkim=r; aspf=r"]], true],
    ["the owner's own stricter policy", [["v=DMARC1;p=reject"]], true],
    ["two DMARC records (RFC 7489 §6.6.3)", [["v=DMARC1; p=none"], ["v=DMARC1; p=reject"]], false],
    ["something else", [["v=spf1 -all"]], false],
  ];
  for (const [name, answer, expected] of dmarc)
    test(`DMARC: ${name} → ${expected ? "found" : "missing"}`, () => expect(dmarcMatches(answer)).toBe(expected));

  const mx: Array<[string, Array<{ exchange: string; priority: number }>, boolean]> = [
    ["our host", [{ exchange: "mail.mailroom.test", priority: 10 }], true],
    [
      "our host in capitals with a final dot, beside another",
      [
        { exchange: "mx.other.test", priority: 5 },
        { exchange: "MAIL.Mailroom.Test.", priority: 20 },
      ],
      true,
    ],
    ["another host only", [{ exchange: "mx.other.test", priority: 10 }], false],
  ];
  for (const [name, answer, expected] of mx)
    test(`MX: ${name} → ${expected ? "found" : "missing"}`, () =>
      expect(mxMatches(answer, "mail.mailroom.test")).toBe(expected));
});

describe("a record's status after a check", () => {
  const rows: Array<[string, RecordStatus, number, Observation, RecordStatus]> = [
    // [name, previous status, hours in it, seen, next status]
    ["a pending record found is verified", "pending", 1, "found", "verified"],
    ["a pending record still missing stays pending", "pending", 71, "missing", "pending"],
    ["a pending record missing for 72 h fails", "pending", 72, "missing", "failed"],
    ["a verified record that vanished is a temporary failure", "verified", 500, "missing", "temporary_failure"],
    ["a temporary failure found again is verified", "temporary_failure", 10, "found", "verified"],
    ["a temporary failure missing for 72 h fails", "temporary_failure", 72, "missing", "failed"],
    ["a failed record found is verified", "failed", 100, "found", "verified"],
    ["a failed record still missing stays failed", "failed", 100, "missing", "failed"],
    ["a record switched on starts pending", "not_started", 0, "missing", "pending"],
    ["a lookup that failed changes nothing", "verified", 100, "unknown", "verified"],
  ];
  for (const [name, previous, hours, seen, expected] of rows) {
    test(name, () =>
      expect(nextRecordStatus({ status: previous, since: NOW - hours * H }, seen, NOW, TIMEOUT).status).toBe(expected),
    );
  }
  test("a record keeps the time it became verified while it stays verified", () => {
    expect(nextRecordStatus({ status: "verified", since: 5 }, "found", NOW, TIMEOUT)).toEqual({
      status: "verified",
      since: 5,
    });
  });
});

describe("a domain's status after a check (DKIM, SPF)", () => {
  const rows: Array<[string, DomainStatus, number, Observation[], DomainStatus]> = [
    ["both found: verified", "pending", 1, ["found", "found"], "verified"],
    ["one found: partially verified", "pending", 1, ["found", "missing"], "partially_verified"],
    ["none found: still pending", "pending", 1, ["missing", "missing"], "pending"],
    ["none found after 72 h: failed", "pending", 72, ["missing", "missing"], "failed"],
    ["partially verified for 72 h: failed", "partially_verified", 72, ["found", "missing"], "failed"],
    ["verified, a record vanished: temporary failure", "verified", 400, ["found", "missing"], "temporary_failure"],
    [
      "temporary failure, still missing after 71 h: unchanged",
      "temporary_failure",
      71,
      ["found", "missing"],
      "temporary_failure",
    ],
    ["temporary failure, missing for 72 h: failed", "temporary_failure", 72, ["missing", "found"], "failed"],
    ["temporary failure, found again: verified", "temporary_failure", 5, ["found", "found"], "verified"],
    ["failed, records found on a later check: verified", "failed", 100, ["found", "found"], "verified"],
    ["verified, a lookup failed: unchanged", "verified", 400, ["found", "unknown"], "verified"],
    ["pending for 80 h, every lookup failed: unchanged", "pending", 80, ["unknown", "unknown"], "pending"],
    [
      "pending for 80 h, one record missing and one lookup failed: failed",
      "pending",
      80,
      ["unknown", "missing"],
      "failed",
    ],
  ];
  for (const [name, previous, hours, essentials, expected] of rows) {
    test(name, () =>
      expect(
        nextDomainStatus({ status: previous, since: NOW - hours * H }, essentials, NOW, TIMEOUT, false).status,
      ).toBe(expected),
    );
  }
  test("the operator override is verified whatever DNS says", () => {
    expect(nextDomainStatus({ status: "verified", since: 0 }, ["missing", "missing"], NOW, TIMEOUT, true).status).toBe(
      "verified",
    );
  });
  test("a partially verified domain keeps the start of its 72 h window", () => {
    expect(nextDomainStatus({ status: "pending", since: 7 }, ["found", "missing"], NOW, TIMEOUT * 100, false)).toEqual({
      status: "partially_verified",
      since: 7,
    });
  });
});

describe("return-path tokens", () => {
  const codec = createReturnPathCodec(Buffer.alloc(32, 7));
  const deliveryId = "0190f3a2-b4c5-7d8e-9f0a-1b2c3d4e5f60";

  test("name the delivery, fit in a local part and read back", () => {
    const address = codec.address(deliveryId, "send.example.com");
    expect(address).toMatch(/^bounces\+0190f3a2b4c57d8e9f0a1b2c3d4e5f60-[a-z2-7]{16}@send\.example\.com$/);
    expect(address.split("@")[0]!.length).toBeLessThanOrEqual(64);
    expect(codec.parse(address)).toEqual({ deliveryId, returnPathDomain: "send.example.com" });
  });

  test("survive a server that upper-cases the address", () => {
    expect(codec.parse(codec.address(deliveryId, "send.example.com").toUpperCase())?.deliveryId).toBe(deliveryId);
  });

  const forged: Array<[string, (address: string) => string]> = [
    ["another delivery id with the same MAC", (a) => a.replace("0190f3a2", "0190f3a3")],
    ["a changed MAC", (a) => a.replace(/-([a-z2-7])/, (_, c) => `-${c === "a" ? "b" : "a"}`)],
    ["no MAC", (a) => a.replace(/-[a-z2-7]{16}@/, "@")],
    ["another key's token", () => createReturnPathCodec(Buffer.alloc(32, 8)).address(deliveryId, "send.example.com")],
  ];
  for (const [name, forge] of forged)
    test(`reject ${name}`, () => expect(codec.parse(forge(codec.address(deliveryId, "send.example.com")))).toBeNull());
});

describe("the author domain of a message", () => {
  const rows: Array<[string, string, string | null]> = [
    ["a plain From", "From: hi@Example.com\r\nTo: a@b.test\r\n\r\nbody", "example.com"],
    [
      "a display name and a folded line",
      'From: "Acme, Inc." \r\n <hi@example.com>\r\nSubject: x\r\n\r\n',
      "example.com",
    ],
    ["no From", "To: a@b.test\r\n\r\nFrom: hi@example.com\r\n", null],
    [
      "a header ended by a bare LF then a CRLF: the From below is body",
      "From: hi@example.com\nTo: a@b.test\n\r\nFrom: b@two.test\r\n",
      "example.com",
    ],
    ["two From fields", "From: a@one.test\r\nFrom: b@two.test\r\n\r\n", null],
    ["two addresses in From", "From: a@one.test, b@two.test\r\n\r\n", null],
  ];
  for (const [name, raw, expected] of rows)
    test(`${name} → ${expected}`, () => expect(authorDomain(Buffer.from(raw))).toBe(expected));
});
