/**
 * The one DNS resolver of the process. Every lookup Mailroom makes (MX, TXT for verification, A/AAAA for webhook
 * endpoints, reverse lookups of SMTP clients) goes through the resolver built here from `[dns] servers`, so tests
 * can point all of it at a server on loopback. Invariant: no module calls `node:dns` lookups directly.
 *
 * TXT lookups do not use the runtime's resolver: Bun's `resolveTxt` returns each <character-string> of a record
 * as a record of its own (oven-sh/bun#21370), which cuts every 2048-bit DKIM key in pieces. TXT queries are
 * therefore sent here (UDP, then TCP when the answer is truncated — RFC 1035 §4.2, RFC 7766) with dns2's packet
 * codec, and each record's strings stay together as RFC 1035 §3.3.14 and RFC 7208 §3.3 require.
 */
import { randomInt } from "node:crypto";
import { createSocket } from "node:dgram";
import { promises as dns, getServers } from "node:dns";
import { connect, isIPv6 } from "node:net";
import type dns2 from "dns2";

type PacketCodec = typeof dns2.Packet;
let packetCodec: Promise<PacketCodec> | undefined;
/** dns2 loaded on the first TXT query: with its server and DNS-over-HTTPS client it cost every cold start about 3 ms. */
const loadPacketCodec = () => (packetCodec ??= import("dns2").then((module) => module.default.Packet));

/** The runtime's resolver, with a record-preserving `resolveTxt`. */
export type DnsResolver = dns.Resolver;

export interface ResolverOptions {
  timeoutMs?: number;
  tries?: number;
}

interface ServerAddress {
  host: string;
  port: number;
}

/** `ip`, `ip:port`, `[v6]:port` or a bare IPv6 address. */
function parseServer(server: string): ServerAddress {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ? Number(bracketed[2]) : 53 };
  if (isIPv6(server)) return { host: server, port: 53 };
  const [host, port] = server.split(":");
  return { host: host!, port: port ? Number(port) : 53 };
}

export function dnsError(code: string, hostname: string): Error {
  return Object.assign(new Error(`queryTxt ${code} ${hostname}`), { code, hostname, syscall: "queryTxt" });
}

export interface DnsAnswer {
  /** `ad`: the resolver validated the answer with DNSSEC (RFC 4035 §3.2.3), asked for by `dnssec` queries. */
  header: { id: number; tc: number; rcode: number; ad: number };
  answers: Array<{ type: number; name?: string; data?: string | string[] | Buffer; exchange?: string }>;
}

/**
 * A query for `name` and `type`. `dnssec`: with EDNS0's DO bit (RFC 3225) and the AD bit (RFC 6840 §5.7), so a
 * validating resolver says whether it validated the answer.
 */
function buildQuery(Packet: PacketCodec, name: string, type: number, dnssec: boolean): { id: number; bytes: Buffer } {
  const packet = new Packet();
  packet.header.id = randomInt(0x10000);
  packet.header.rd = 1;
  packet.questions.push({ name, type, class: Packet.CLASS.IN } as never);
  if (dnssec) {
    (packet.header as { ad?: number }).ad = 1;
    // RFC 8085 and DNS flag day 2020: 1232 bytes avoids fragmentation; larger answers come over TCP.
    const edns = Packet.Resource.EDNS as unknown as (rdata: unknown[], options: object) => unknown;
    packet.additionals.push(edns([], { doFlag: true, udpPayloadSize: 1232 }) as never);
  }
  return { id: packet.header.id, bytes: packet.toBuffer() };
}

type Query = { id: number; bytes: Buffer };

function overUdp(
  Packet: PacketCodec,
  server: ServerAddress,
  name: string,
  query: Query,
  timeoutMs: number,
): Promise<DnsAnswer> {
  const socket = createSocket(isIPv6(server.host) ? "udp6" : "udp4");
  return new Promise<DnsAnswer>((resolve, reject) => {
    const timer = setTimeout(() => reject(dnsError("ETIMEOUT", name)), timeoutMs);
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(Object.assign(dnsError("ECONNREFUSED", name), { cause: error }));
    });
    socket.on("message", (message) => {
      let parsed: DnsAnswer;
      try {
        parsed = Packet.parse(message) as unknown as DnsAnswer;
      } catch {
        return; // Not a DNS message; keep waiting for the real answer.
      }
      // RFC 5452 §4: accept only the answer to our own query id.
      if (parsed.header.id !== query.id) return;
      clearTimeout(timer);
      resolve(parsed);
    });
    // A connected socket accepts datagrams from the server only, and reports "port unreachable" at once.
    socket.connect(server.port, server.host, () => socket.send(query.bytes));
  }).finally(() => socket.close());
}

function overTcp(
  Packet: PacketCodec,
  server: ServerAddress,
  name: string,
  query: Query,
  timeoutMs: number,
): Promise<DnsAnswer> {
  const socket = connect({ host: server.host, port: server.port });
  return new Promise<DnsAnswer>((resolve, reject) => {
    const timer = setTimeout(() => reject(dnsError("ETIMEOUT", name)), timeoutMs);
    let buffered = Buffer.alloc(0);
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(Object.assign(dnsError("ECONNREFUSED", name), { cause: error }));
    });
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      // RFC 1035 §4.2.2: each message is prefixed with its two-byte length.
      if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
      clearTimeout(timer);
      try {
        const parsed = Packet.parse(buffered.subarray(2, 2 + buffered.readUInt16BE(0))) as unknown as DnsAnswer;
        if (parsed.header.id !== query.id) throw new Error("answer to another query");
        resolve(parsed);
      } catch (error) {
        reject(Object.assign(dnsError("EBADRESP", name), { cause: error }));
      }
    });
    const length = Buffer.alloc(2);
    length.writeUInt16BE(query.bytes.length);
    socket.write(Buffer.concat([length, query.bytes]));
  }).finally(() => socket.destroy());
}

/** RFC 1035 §4.1.1 response codes (3 is NXDOMAIN) and the error codes node gives them. */
const NXDOMAIN = 3;
const RCODE_ERRORS: Record<number, string> = { 1: "EFORMERR", 2: "ESERVFAIL", 4: "ENOTIMP", 5: "EREFUSED" };

/**
 * The answer to one query, asked of each server in turn (`tries` rounds) until one answers: UDP, then TCP when the
 * answer is truncated. `accept` turns an answer into the result or throws; an error marked `final` ends the search.
 */
export async function queryServers<T>(
  servers: readonly string[],
  question: { name: string; type: number; dnssec?: boolean },
  options: { timeoutMs: number; tries: number },
  accept: (answer: DnsAnswer) => T,
): Promise<T> {
  const Packet = await loadPacketCodec();
  const { name } = question;
  let lastError: Error = dnsError("ECONNREFUSED", name);
  for (let attempt = 0; attempt < options.tries; attempt++) {
    for (const server of (servers.length ? servers : getServers()).map(parseServer)) {
      try {
        const query = () => buildQuery(Packet, name, question.type, question.dnssec ?? false);
        let answer = await overUdp(Packet, server, name, query(), options.timeoutMs);
        if (answer.header.tc) answer = await overTcp(Packet, server, name, query(), options.timeoutMs);
        return accept(answer);
      } catch (error) {
        if ((error as { final?: boolean }).final) throw error;
        lastError = error as Error;
      }
    }
  }
  throw lastError;
}

/** TXT records of `name`, each as its list of character-strings; errors carry node's codes (ENOTFOUND, ENODATA…). */
async function resolveTxt(
  servers: readonly string[],
  name: string,
  timeoutMs: number,
  tries: number,
): Promise<string[][]> {
  const Packet = await loadPacketCodec();
  return queryServers(servers, { name, type: Packet.TYPE.TXT }, { timeoutMs, tries }, (answer) => {
    if (answer.header.rcode === NXDOMAIN) throw Object.assign(dnsError("ENOTFOUND", name), { final: true });
    const code = RCODE_ERRORS[answer.header.rcode];
    if (code) throw dnsError(code, name);
    // Answers may start with a CNAME chain; only the TXT records are the result.
    const records = answer.answers
      .filter((a) => a.type === Packet.TYPE.TXT)
      .map((a) => (Array.isArray(a.data) ? a.data : [String(a.data ?? "")]));
    if (records.length === 0) throw Object.assign(dnsError("ENODATA", name), { final: true });
    return records;
  });
}

/** A resolver using `servers` (`ip` or `ip:port`, `[v6]:port`); the system's servers when the list is empty. */
export function createResolver(servers: readonly string[], options: ResolverOptions = {}): DnsResolver {
  const timeoutMs = options.timeoutMs ?? 5000;
  const tries = options.tries ?? 2;
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries });
  if (servers.length) resolver.setServers([...servers]);
  const txt = (name: string) => resolveTxt(servers, name, timeoutMs, tries);
  const resolve = resolver.resolve.bind(resolver) as (name: string, rrtype: string) => Promise<unknown>;
  return Object.assign(resolver, {
    resolveTxt: txt,
    resolve: (name: string, rrtype = "A") => (rrtype === "TXT" ? txt(name) : resolve(name, rrtype)),
  }) as DnsResolver;
}

/** True when a lookup error means "no such record" (NXDOMAIN or no data) rather than "could not find out". */
export function isNotFound(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === "ENOTFOUND" || code === "ENODATA";
}

/** The resolver as the `(name, rrtype) → records` function mailauth and similar libraries take. */
// biome-ignore lint/suspicious/noExplicitAny: mailauth declares its resolver option as returning any
export function resolveFunction(resolver: DnsResolver): (name: string, rrtype: string) => Promise<any> {
  return (name, rrtype) => (resolver.resolve as (name: string, rrtype: string) => Promise<unknown>)(name, rrtype);
}
