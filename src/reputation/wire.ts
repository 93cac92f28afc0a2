/**
 * Deliverability's wire (docs/deliverability.md): the sending health with the blocklists' answers, and the DMARC
 * aggregate reports about a domain with their rows and the "who sends as you" summary — written once, as the
 * schemas that type the services and document the routes, under the Node client's names.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { DomainHealthSchema } from "../domains/model.ts";
import { named, OneOf, Nullable } from "../lib/wire.ts";

const Time = t.String({ format: "date-time" });
const Verdict = OneOf(["pass", "fail"]);

/** One row of a DMARC aggregate report: a source address and what the receiver saw of its messages. */
export const DmarcRowSchema = named(
  "DmarcRow",
  t.Object({
    source_ip: t.String(),
    count: t.Integer({ description: "Messages from that address the row counts" }),
    disposition: OneOf(["none", "quarantine", "reject"], {
      description: "What the receiver did with them under the domain's policy",
    }),
    dkim: OneOf(["pass", "fail"], {
      description: "DKIM and SPF as DMARC evaluated them (aligned with the From domain)",
    }),
    spf: Verdict,
    header_from: t.String(),
  }),
);

export const DmarcReportSchema = named(
  "DmarcReport",
  t.Object({
    object: t.Literal("dmarc_report"),
    id: t.String({ format: "uuid" }),
    reporter: t.String({ description: "The receiver's organisation, as it names itself (google.com, Yahoo, …)" }),
    report_id: t.String({ description: "The receiver's id of the report" }),
    begin: t.String({ description: "The period the report covers (ISO 8601, UTC)" }),
    end: t.String(),
    rows: t.Array(DmarcRowSchema, { description: "The report's first 20 rows at most, heaviest source first" }),
    row_count: t.Integer({ description: "How many rows the report has: those past `rows` are read page by page" }),
  }),
);
export type DmarcReportView = Static<typeof DmarcReportSchema>;

/** A row of a report as its pages give it: its id (the report's, with its position) is the pages' cursor. */
export const DmarcReportRowSchema = named(
  "DmarcReportRow",
  t.Intersect([DmarcRowSchema, t.Object({ id: t.String({ format: "uuid" }) })]),
);
export type DmarcRowView = Static<typeof DmarcReportRowSchema>;

/** One address that sent as the domain, over the summary's days. */
export const DmarcSourceSchema = named(
  "DmarcSource",
  t.Object({
    source_ip: t.String(),
    messages: t.Integer(),
    aligned_pass_rate: t.Number({
      minimum: 0,
      maximum: 1,
      description: "The share of messages (0–1) that passed DKIM or SPF aligned, so passed DMARC",
    }),
    own: t.Boolean({
      description: "One of Mailroom's addresses (public_ips, or the domain's SPF at its return path passes for it)",
    }),
  }),
);

export const DmarcSummarySchema = named(
  "DmarcSummary",
  t.Object({
    object: t.Literal("dmarc_summary"),
    domain: t.String(),
    days: t.Integer(),
    reports: t.Integer({ description: "How many reports were summed (those of the last days, newest first)" }),
    data: t.Array(DmarcSourceSchema, { description: "Most messages first" }),
  }),
);
export type DmarcSummary = Static<typeof DmarcSummarySchema>;

/** A DNS blocklist's last answer about one of the server's sending addresses. */
export const BlocklistListingSchema = named(
  "BlocklistListing",
  t.Object({
    address: t.String(),
    list: t.String(),
    listed: t.Boolean(),
    reason: Nullable(t.String()),
    checked_at: Time,
  }),
);
export type BlocklistListing = Static<typeof BlocklistListingSchema>;

export const DomainHealthEntrySchema = named(
  "DomainHealthEntry",
  t.Object({ id: t.String({ format: "uuid" }), name: t.String(), health: DomainHealthSchema }),
);

/** The organisation's rates across all its domains, each sending domain's, and the blocklists' answers. */
export const SendingHealthOverviewSchema = named(
  "SendingHealthOverview",
  t.Object({
    object: t.Literal("sending_health"),
    health: DomainHealthSchema,
    domains: t.Array(DomainHealthEntrySchema),
    blocklists: t.Array(BlocklistListingSchema, {
      description: "Listed ones first; empty without [deliverability] dnsbl",
    }),
  }),
);
/** The guardrails' part of the overview (the blocklists' is theirs). */
export type SendingHealthView = Omit<Static<typeof SendingHealthOverviewSchema>, "blocklists">;

/**
 * One MX host of a destination the domain's mail went to by direct delivery, and what the last TLS negotiation with it
 * found (docs/deliverability.md#dane-per-destination).
 */
export const DaneDestinationSchema = named(
  "DaneDestination",
  t.Object({
    destination: t.String({ description: "The recipient domain" }),
    mx_host: t.String({ description: "The MX host negotiated with; empty when its MX lookup failed validation" }),
    tlsa: OneOf(["secure", "none", "bogus", "unchecked"], {
      description:
        "secure: DNSSEC-secure TLSA records; none: no secure TLSA records (unsigned, or none published); bogus: the TLSA answer failed DNSSEC validation; unchecked: DANE was off",
    }),
    outcome: OneOf(["verified", "mismatched", "bogus", "mta_sts", "tls_policy"], {
      description:
        "The last negotiation: verified (the certificate matched a TLSA record), mismatched or bogus (deferred 4.7.5, nothing sent), mta_sts or tls_policy (no secure TLSA records: the MTA-STS policy, or the domain's tls setting, decided)",
    }),
    result: t.String({ description: "RFC 8460's result type of that negotiation: success, tlsa-invalid, …" }),
    last_at: Time,
    sessions: t.Integer({ description: "Negotiations with this host over the window" }),
  }),
);
export type DaneDestinationView = Static<typeof DaneDestinationSchema>;

export const DomainDaneSchema = named(
  "DomainDane",
  t.Object({
    object: t.Literal("dane_status"),
    dane: OneOf(["on", "off"], { description: "Whether direct delivery checks TLSA records ([mx] dane)" }),
    days: t.Integer({ description: "The window: destinations the domain's mail went to in these last days" }),
    data: t.Array(DaneDestinationSchema, { description: "Most recently negotiated first" }),
  }),
);
export type DomainDaneView = Static<typeof DomainDaneSchema>;
