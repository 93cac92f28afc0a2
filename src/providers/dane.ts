/**
 * DANE for direct delivery (RFC 7672, docs/deliverability.md#dane): which destinations have DNSSEC-secure TLSA
 * records, and whether an MX host's certificate matches them. Lookups go to `[dns] servers` with the DO and AD bits
 * (lib/dns.ts `queryServers`) and trust the resolver's AD bit, so that resolver must validate: `probe` checks it at
 * start.
 *
 * - Security of an answer: AD set → secure; AD clear → insecure (unsigned, or no trust anchor); SERVFAIL, a timeout
 *   or any other failure → bogus or indeterminate, which RFC 7672 §2.1.1 forbids treating as insecure.
 * - TLSA (RFC 6698 §2.1, RFC 7672 §3.1): usage 3 (DANE-EE) matches the server's certificate or its public key and
 *   ignores names and dates; usage 2 (DANE-TA) finds the anchor in the chain the server sent, checks every signature
 *   from the leaf up to it, the dates, and the MX host name (or the destination domain). Usages 0 and 1 are unusable
 *   for SMTP (RFC 7672 §3.1.3); a set with no usable record asks for TLS without authentication (§2.2).
 * Invariant: a host with usable secure TLSA records gets mail only over TLS whose certificate matched one of them.
 */
import { createHash, X509Certificate } from "node:crypto";
import type { TLSSocket } from "node:tls";
import { queryServers, type DnsAnswer } from "../lib/dns.ts";

const TYPE = { SOA: 6, MX: 15, TLSA: 52 } as const;
const NOERROR = 0;
const NXDOMAIN = 3;

export interface TlsaRecord {
  usage: number;
  selector: number;
  matchingType: number;
  data: Buffer;
}

/** What DNSSEC says of a lookup: secure and its records, insecure, or bogus (or indeterminate) with why. */
export type Secured<T> =
  | { status: "secure"; records: T[] }
  | { status: "insecure"; records: T[] }
  | { status: "bogus"; reason: string };

/** A TLSA record in presentation form (RFC 6698 §2.2), as TLS reports name the policy (RFC 8460 §4.4). */
export const presentTlsa = (r: TlsaRecord) => `${r.usage} ${r.selector} ${r.matchingType} ${r.data.toString("hex")}`;

/** RFC 6698 §2.1: usage, selector and matching type bytes, then the association data. */
export function parseTlsa(rdata: Buffer): TlsaRecord | null {
  if (rdata.length < 4) return null;
  return { usage: rdata[0]!, selector: rdata[1]!, matchingType: rdata[2]!, data: Buffer.from(rdata.subarray(3)) };
}

export interface Dane {
  /** Whether the destination's MX RRset (or its absence) is DNSSEC-secure. */
  mx(domain: string): Promise<Secured<string>>;
  /** The TLSA records of an MX host at `_<port>._tcp.<host>` (RFC 7672 §2.2.3). */
  tlsa(host: string, port: number): Promise<Secured<TlsaRecord>>;
}

export function createDane(options: { servers: readonly string[]; timeoutMs: number }): Dane {
  const lookup = async <T>(
    name: string,
    type: number,
    read: (answer: DnsAnswer["answers"][number]) => T | null,
  ): Promise<Secured<T>> => {
    try {
      return await queryServers(
        options.servers,
        { name, type, dnssec: true },
        { timeoutMs: options.timeoutMs, tries: 2 },
        (answer): Secured<T> => {
          const { rcode, ad } = answer.header;
          if (rcode !== NOERROR && rcode !== NXDOMAIN) return { status: "bogus", reason: `rcode ${rcode} for ${name}` };
          const records = answer.answers.filter((a) => a.type === type).flatMap((a) => read(a) ?? []);
          return { status: ad ? "secure" : "insecure", records };
        },
      );
    } catch (error) {
      return {
        status: "bogus" as const,
        reason: `${name}: ${(error as { code?: string }).code ?? (error as Error).message}`,
      };
    }
  };
  return {
    mx: (domain) =>
      lookup(domain, TYPE.MX, (a) => (a.exchange ? a.exchange.replace(/\.$/, "").toLowerCase() : null)) as Promise<
        Secured<string>
      >,
    tlsa: (host, port) =>
      lookup(`_${port}._tcp.${host}`, TYPE.TLSA, (a) => (Buffer.isBuffer(a.data) ? parseTlsa(a.data) : null)),
  };
}

/**
 * Whether the resolver validates: a probe of a DNSSEC-signed name must come back with the AD bit. The reason it does
 * not, or null.
 */
export async function probeValidation(servers: readonly string[], name: string, timeoutMs: number) {
  try {
    const answer = await queryServers(
      servers,
      { name, type: TYPE.SOA, dnssec: true },
      { timeoutMs, tries: 2 },
      (a) => a,
    );
    if (answer.header.ad) return null;
    return `it answered ${name} (a DNSSEC-signed name) without the AD bit (rcode ${answer.header.rcode})`;
  } catch (error) {
    return `it did not answer (${(error as { code?: string }).code ?? (error as Error).message})`;
  }
}

/** RFC 6698 §2.1.2-2.1.3: the certificate or its SubjectPublicKeyInfo, as is or hashed. */
function matches(record: TlsaRecord, cert: X509Certificate): boolean {
  const selected =
    record.selector === 0
      ? cert.raw
      : record.selector === 1
        ? cert.publicKey.export({ type: "spki", format: "der" })
        : null;
  if (!selected) return false;
  const digest =
    record.matchingType === 0
      ? selected
      : record.matchingType === 1
        ? createHash("sha256").update(selected).digest()
        : record.matchingType === 2
          ? createHash("sha512").update(selected).digest()
          : null;
  return !!digest && digest.equals(record.data);
}

/** The chain the server sent, leaf first (at most 10, each once). */
function peerChain(socket: TLSSocket): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  let cert = socket.getPeerCertificate(true) as { raw?: Buffer; issuerCertificate?: unknown } | undefined;
  while (cert?.raw && chain.length < 10) {
    const key = cert.raw.toString("base64");
    if (seen.has(key)) break;
    seen.add(key);
    chain.push(new X509Certificate(cert.raw));
    cert = cert.issuerCertificate as typeof cert;
  }
  return chain;
}

/** RFC 7672 §3.1.2: the chain from the leaf up to `anchor` signed link by link, in date, and named for one of `names`. */
function anchoredChain(chain: X509Certificate[], anchor: number, names: string[], now: Date): string | null {
  for (let i = 0; i < anchor; i++) {
    const [cert, issuer] = [chain[i]!, chain[i + 1]!];
    if (!cert.checkIssued(issuer) || !cert.verify(issuer.publicKey)) return "the chain does not lead to the anchor";
    if (new Date(cert.validFrom) > now || new Date(cert.validTo) < now) return "a certificate of the chain is expired";
  }
  const leaf = chain[0]!;
  if (!names.some((name) => leaf.checkHost(name) !== undefined)) return `the certificate is not for ${names[0]}`;
  return null;
}

/**
 * Whether the TLS session on `socket` is authenticated by `records` (RFC 7672 §3): null when it is, else why not.
 * `names`: the MX host, then the destination domain (RFC 7672 §3.2.2's reference identifiers).
 */
export function verifyDane(socket: TLSSocket, records: TlsaRecord[], names: string[], now = new Date()): string | null {
  const usable = records.filter((r) => r.usage === 2 || r.usage === 3);
  // §2.2: secure TLSA records none of which is usable still require TLS, without authentication.
  if (usable.length === 0) return null;
  const chain = peerChain(socket);
  if (chain.length === 0) return "the server sent no certificate";
  if (usable.some((r) => r.usage === 3 && matches(r, chain[0]!))) return null;
  let reason = "no TLSA record matches the certificate";
  for (const record of usable.filter((r) => r.usage === 2)) {
    for (let i = 0; i < chain.length; i++) {
      if (!matches(record, chain[i]!)) continue;
      const refused = anchoredChain(chain, i, names, now);
      if (!refused) return null;
      reason = refused;
    }
  }
  return reason;
}
