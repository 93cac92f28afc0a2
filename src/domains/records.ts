/**
 * The DNS records a sending domain needs (docs/domains.md), how a published record is recognised, and the status
 * transitions of records and domains — pure functions, so every rule is a table with a test per row.
 *
 * - DKIM: `<selector>._domainkey.<domain>` TXT with our public key (RFC 6376 §3.6.1).
 * - SPF: `<return path>.<domain>` TXT authorising where mail leaves from (RFC 7208): the server's addresses and
 *   `[domains] spf_include`, and what the domain's providers add (include:amazonses.com for SES). The return path,
 *   not the From domain, is what SPF checks, and DMARC's relaxed alignment accepts a subdomain (RFC 7489 §3.1.2).
 * - MX: `<return path>.<domain>` MX to this server, so bounces come back here.
 * - DMARC: `_dmarc.<domain>` TXT; any valid DMARC record counts (the owner may already have a policy).
 * - Inbound: `<domain>` MX to this server, when receiving is on.
 * A domain is verified when its active DKIM key and its SPF record are found; the others show their own status.
 */
import { hostname as osHostname } from "node:os";
import { isIP } from "node:net";
import { providerConfigs } from "../config/providers.ts";
import type { Config } from "../config/options.ts";
import type { DnsRecordView, DomainStatus, RecordKind, RecordStatus } from "./model.ts";

export interface RecordSettings {
  /** Public host name: the MX target for bounces and inbound mail. */
  hostname: string;
  /** False when `[server] hostname` is unset and `hostname` is only the machine's own name. */
  hostnameConfigured: boolean;
  /**
   * SPF terms every record carries: `[server] public_ips`, the IP pools' addresses and `[domains] spf_include` (a
   * smarthost's SPF domain).
   */
  spfBase: readonly string[];
  /** SPF terms a provider's mail needs beyond those, by provider name, e.g. `include:amazonses.com` for SES. */
  providerSpf: Readonly<Record<string, readonly string[]>>;
  /** The provider of domains that name none. */
  defaultProvider: string;
  dmarcPolicy: string;
  dmarcRua: string;
  /** The guardrails' window (docs/deliverability.md), which a domain's health names. */
  guardrailWindowMs: number;
  /** Recipients that must end in the window before the guardrails judge (`[guardrails] min_recipients`). */
  guardrailMinRecipients: number;
}

/** SES sends from Amazon's addresses, which amazonses.com's SPF record lists. */
const SES_SPF = "include:amazonses.com";

/** Derives the record values from configuration: the server's public name and addresses, and each provider's SPF terms. */
export function recordSettings(config: Config): RecordSettings {
  const hostname = (config.server.hostname || osHostname()).toLowerCase().replace(/\.$/, "");
  // The IP pools' addresses send a domain's mail as much as public_ips do (docs/deliverability.md).
  const sendingIps = new Set([
    ...config.server.public_ips,
    ...Object.values(config.ip_pools).flatMap((pool) => pool.addresses),
  ]);
  const spfBase = [
    ...[...sendingIps].map((ip) => (isIP(ip) === 6 ? `ip6:${ip}` : `ip4:${ip}`)),
    ...config.domains.spf_include.map((domain) => `include:${domain}`),
  ];
  const providerSpf: Record<string, readonly string[]> = {};
  for (const [name, provider] of providerConfigs(config)) providerSpf[name] = provider.kind === "ses" ? [SES_SPF] : [];
  return {
    hostname,
    hostnameConfigured: !!config.server.hostname,
    spfBase,
    providerSpf,
    defaultProvider: config.delivery.default_provider,
    dmarcPolicy: config.domains.dmarc_policy,
    dmarcRua: config.domains.dmarc_rua,
    guardrailWindowMs: config.guardrails.window,
    guardrailMinRecipients: config.guardrails.min_recipients,
  };
}

/**
 * The SPF terms of a domain whose mail leaves through `providers` (none: the default): the common terms, then each
 * provider's. When that is nothing, the server's own name is the best statement of where mail leaves from.
 */
export function spfMechanisms(providers: readonly string[], settings: RecordSettings): string[] {
  const route = providers.length ? providers : [settings.defaultProvider];
  const terms = [...new Set([...settings.spfBase, ...route.flatMap((name) => settings.providerSpf[name] ?? [])])];
  return terms.length ? terms : [`a:${settings.hostname}`];
}

export interface DomainShape {
  name: string;
  returnPathSubdomain: string;
  receivingEnabled: boolean;
  providers: readonly string[];
  trackingSubdomain: string | null;
}

export interface KeyShape {
  selector: string;
  publicKey: string;
  state: "active" | "next" | "retired";
  algorithm: "rsa" | "ed25519";
}

/** One record to publish, with the id its status is stored under and how to recognise it in DNS answers. */
export interface ExpectedRecord {
  id: string;
  record: RecordKind;
  name: string;
  type: "TXT" | "MX" | "CNAME";
  value: string;
  priority?: number;
  keyState?: "active" | "next";
  /** Counts towards the domain's verification (the active DKIM key and SPF). */
  essential: boolean;
  /** Checked at all (the inbound MX only while receiving is on). */
  checked: boolean;
  /** Why the record as shown cannot work yet (built from an unset `[server] hostname`). */
  warning?: string;
  matches(answer: DnsAnswer): boolean;
}

export type DnsAnswer = TxtAnswer | MxAnswer | CnameAnswer;
export type CnameAnswer = string[];
export type TxtAnswer = string[][];
export type MxAnswer = Array<{ exchange: string; priority: number }>;

const MX_PRIORITY = 10;

/** Tag-value list of a DKIM or DMARC record (RFC 6376 §3.2): `v=DKIM1; k=rsa; p=…`. */
export function parseTags(text: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of text.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  return tags;
}

/** A TXT record's character-strings are one value, concatenated without spaces (RFC 7208 §3.3, RFC 6376 §3.6.2.2). */
const joined = (answer: TxtAnswer) => answer.map((strings) => strings.join(""));

const sameHost = (a: string, b: string) => a.toLowerCase().replace(/\.$/, "") === b.toLowerCase().replace(/\.$/, "");

export function dkimMatches(answer: TxtAnswer, publicKey: string, algorithm: KeyShape["algorithm"] = "rsa"): boolean {
  return joined(answer).some((text) => {
    const tags = parseTags(text);
    const version = tags.get("v");
    // `k=` defaults to rsa (RFC 6376 §3.6.1); an Ed25519 record must say so.
    const keyType = (tags.get("k") ?? "rsa").toLowerCase();
    return (
      (version === undefined || version === "DKIM1") &&
      keyType === algorithm &&
      tags.get("p")?.replace(/\s+/g, "") === publicKey
    );
  });
}

/** Exactly one SPF record (two are a permerror, RFC 7208 §4.5) that contains every term we ask for. */
export function spfMatches(answer: TxtAnswer, mechanisms: readonly string[]): boolean {
  const records = joined(answer).filter((text) => /^v=spf1(\s|$)/i.test(text.trim()));
  if (records.length !== 1) return false;
  const terms = new Set(
    records[0]!
      .trim()
      .toLowerCase()
      .split(/\s+/)
      .map((term) => term.replace(/^\+/, "")),
  );
  return mechanisms.every((mechanism) => terms.has(mechanism.toLowerCase()));
}

/** One DMARC record (RFC 7489 §6.6.3: more than one means no policy), whatever its policy. */
export function dmarcMatches(answer: TxtAnswer): boolean {
  return joined(answer).filter((text) => /^v=DMARC1\s*(;|$)/i.test(text.trim())).length === 1;
}

export function mxMatches(answer: MxAnswer, host: string): boolean {
  return answer.some((mx) => sameHost(mx.exchange, host));
}

/** Where receivers send a domain's DMARC aggregate reports, unless `[domains] dmarc_rua` names another mailbox. */
export function dmarcReportAddress(returnPathDomain: string): string {
  return `${DMARC_REPORT_LOCAL}@${returnPathDomain}`;
}
export const DMARC_REPORT_LOCAL = "dmarc";

export function dkimRecordName(selector: string, domain: string): string {
  return `${selector}._domainkey.${domain}`;
}

export function dkimRecordValue(publicKey: string, algorithm: KeyShape["algorithm"] = "rsa"): string {
  return `v=DKIM1; k=${algorithm}; p=${publicKey}`;
}

/** The records to publish for `domain`, DKIM first (the active key, then a rotation's next key). */
export function expectedRecords(
  domain: DomainShape,
  keys: readonly KeyShape[],
  settings: RecordSettings,
): ExpectedRecord[] {
  const returnPath = `${domain.returnPathSubdomain}.${domain.name}`;
  const records: ExpectedRecord[] = [];
  for (const state of ["active", "next"] as const) {
    for (const key of keys.filter((k) => k.state === state)) {
      records.push({
        id: `dkim:${key.selector}`,
        record: "DKIM",
        name: dkimRecordName(key.selector, domain.name),
        type: "TXT",
        value: dkimRecordValue(key.publicKey, key.algorithm),
        keyState: state,
        // The RSA key verifies the domain; an Ed25519 key's record shows its own status.
        essential: state === "active" && key.algorithm === "rsa",
        checked: true,
        matches: (answer) => dkimMatches(answer as TxtAnswer, key.publicKey, key.algorithm),
      });
    }
  }
  const spf = spfMechanisms(domain.providers, settings);
  // A user must never be told to publish a machine's short name as if other servers could reach it.
  const unsetHostname = settings.hostnameConfigured
    ? undefined
    : `[server] hostname is not set, so this record names the machine's own name "${settings.hostname}", which other mail servers cannot find: set [server] hostname to this server's public DNS name (and [server] public_ips to its addresses)`;
  const dmarc = [
    `v=DMARC1`,
    `p=${settings.dmarcPolicy}`,
    `rua=mailto:${settings.dmarcRua || dmarcReportAddress(returnPath)}`,
    `adkim=r`,
    `aspf=r`,
  ].join("; ");
  records.push(
    {
      id: "spf",
      record: "SPF",
      name: returnPath,
      type: "TXT",
      value: `v=spf1 ${spf.join(" ")} ~all`,
      essential: true,
      checked: true,
      ...(spf.includes(`a:${settings.hostname}`) && unsetHostname ? { warning: unsetHostname } : {}),
      matches: (answer) => spfMatches(answer as TxtAnswer, spf),
    },
    {
      id: "mx",
      record: "MX",
      name: returnPath,
      type: "MX",
      value: settings.hostname,
      priority: MX_PRIORITY,
      essential: false,
      checked: true,
      ...(unsetHostname ? { warning: unsetHostname } : {}),
      matches: (answer) => mxMatches(answer as MxAnswer, settings.hostname),
    },
    {
      id: "dmarc",
      record: "DMARC",
      name: `_dmarc.${domain.name}`,
      type: "TXT",
      value: dmarc,
      essential: false,
      checked: true,
      matches: (answer) => dmarcMatches(answer as TxtAnswer),
    },
    {
      id: "inbound",
      record: "Inbound",
      name: domain.name,
      type: "MX",
      value: settings.hostname,
      priority: MX_PRIORITY,
      essential: false,
      checked: domain.receivingEnabled,
      ...(unsetHostname ? { warning: unsetHostname } : {}),
      matches: (answer) => mxMatches(answer as MxAnswer, settings.hostname),
    },
  );
  if (domain.trackingSubdomain)
    records.push({
      id: "tracking",
      record: "Tracking",
      name: trackingHost(domain.trackingSubdomain, domain.name),
      type: "CNAME",
      value: settings.hostname,
      essential: false,
      checked: true,
      ...(unsetHostname ? { warning: unsetHostname } : {}),
      matches: (answer) => (answer as CnameAnswer).some((target) => sameHost(target, settings.hostname)),
    });
  return records;
}

/** The host a domain's tracking and unsubscribe links use once its CNAME is found: `<subdomain>.<domain>`. */
export function trackingHost(subdomain: string, domain: string): string {
  return `${subdomain}.${domain}`;
}

export interface TrackedStatus<S extends string> {
  status: S;
  /** When this status was entered (ms). */
  since: number;
}

/** What a DNS check found for one record: found, definitely absent, or unknown (the lookup itself failed). */
export type Observation = "found" | "missing" | "unknown";

/**
 * One record's next status. A lookup that failed changes nothing (our DNS trouble is not the owner's); a record
 * seen once and then missing is `temporary_failure`, and anything missing for `timeoutMs` becomes `failed`.
 */
export function nextRecordStatus(
  previous: TrackedStatus<RecordStatus>,
  seen: Observation,
  now: number,
  timeoutMs: number,
): TrackedStatus<RecordStatus> {
  if (seen === "unknown") return previous;
  if (seen === "found") return previous.status === "verified" ? previous : { status: "verified", since: now };
  switch (previous.status) {
    case "verified":
      return { status: "temporary_failure", since: now };
    case "failed":
      return previous;
    case "not_started":
      return { status: "pending", since: now };
    default:
      return now - previous.since >= timeoutMs ? { status: "failed", since: now } : previous;
  }
}

/**
 * The domain's next status from what was seen of its essential records (the active DKIM key and SPF).
 * Pending and partially verified domains fail `timeoutMs` after they started waiting; a verified domain missing a
 * record is `temporary_failure` (still sending) and fails `timeoutMs` later; the operator override is always verified.
 */
export function nextDomainStatus(
  previous: TrackedStatus<DomainStatus>,
  essentials: readonly Observation[],
  now: number,
  timeoutMs: number,
  override: boolean,
): TrackedStatus<DomainStatus> {
  const verified = (): TrackedStatus<DomainStatus> =>
    previous.status === "verified" ? previous : { status: "verified", since: now };
  if (override) return verified();
  if (essentials.every((seen) => seen === "found")) return verified();
  if (!essentials.includes("missing")) return previous;
  const expired = now - previous.since >= timeoutMs;
  switch (previous.status) {
    case "verified":
      return { status: "temporary_failure", since: now };
    case "temporary_failure":
      return expired ? { status: "failed", since: now } : previous;
    case "failed":
      return previous;
    default: {
      if (expired) return { status: "failed", since: now };
      const status = essentials.includes("found") ? "partially_verified" : "pending";
      return { status, since: previous.status === "not_started" ? now : previous.since };
    }
  }
}

/** The public form of one record with its stored status. */
/** What an answer shows a user: each TXT record's value, or each MX as `priority host`. */
export function answerValues(answer: DnsAnswer): string[] {
  return answer.map((entry) =>
    typeof entry === "string" ? entry : Array.isArray(entry) ? entry.join("") : `${entry.priority} ${entry.exchange}`,
  );
}

export function recordView(record: ExpectedRecord, status: RecordStatus, found?: string[] | null): DnsRecordView {
  return {
    record: record.record,
    name: record.name,
    type: record.type,
    value: record.value,
    ...(record.priority !== undefined ? { priority: record.priority } : {}),
    ttl: "Auto",
    status,
    ...(found !== undefined ? { found } : {}),
    ...(record.warning ? { warning: record.warning } : {}),
    ...(record.keyState ? { key_state: record.keyState } : {}),
  };
}
