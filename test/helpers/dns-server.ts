/**
 * A real authoritative DNS server on loopback for tests (dns2), serving records set programmatically:
 * A, AAAA, MX, TXT. UDP and TCP listen on the same ephemeral port of 127.0.0.1, so large answers (a 2048-bit
 * DKIM key) truncate over UDP and are fetched again over TCP, as with a real server. A name with no records at
 * all answers NXDOMAIN; a name with records of other types answers NOERROR with no data (NODATA); `fail(name)`
 * makes a name answer SERVFAIL. Point Mailroom at it with `dns: { servers: dns.servers }`; always `close()` it.
 */
import type { Socket } from "node:net";
import dns2 from "dns2";

const { Packet, UDPServer, TCPServer } = dns2;

export type RecordType = "A" | "AAAA" | "MX" | "TXT" | "CNAME";

export interface MxRecord {
  exchange: string;
  priority: number;
}

/** A TXT record is one string (split into 255-byte character-strings when longer) or its character-strings. */
export type TxtRecord = string | string[];

export type RecordsOf<T extends RecordType> = T extends "MX" ? MxRecord[] : T extends "TXT" ? TxtRecord[] : string[];

export interface DnsServer {
  port: number;
  /** `["127.0.0.1:PORT"]`, the value for `[dns] servers`. */
  servers: string[];
  /** Replaces the records of `type` at `name`. */
  set<T extends RecordType>(name: string, type: T, records: RecordsOf<T>): void;
  /** Removes the records of `type` at `name`, or every record at `name`. */
  remove(name: string, type?: RecordType): void;
  /** Makes `name` answer SERVFAIL (until `remove(name)`), to test lookups that fail rather than find nothing. */
  fail(name: string): void;
  /** Questions received, as `NAME TYPE`, oldest first. */
  queries: string[];
  close(): Promise<void>;
}

const TYPE_CODES: Record<RecordType, number> = {
  A: Packet.TYPE.A,
  AAAA: Packet.TYPE.AAAA,
  MX: Packet.TYPE.MX,
  TXT: Packet.TYPE.TXT,
  CNAME: Packet.TYPE.CNAME,
};
const TYPE_NAMES = new Map<number, string>(Object.entries(Packet.TYPE).map(([name, code]) => [code as number, name]));
const TTL = 60;
/** RFC 1035 §4.1.1 response codes (missing from dns2's type declarations). */
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 };

const key = (name: string) => name.toLowerCase().replace(/\.$/, "");

/** RFC 1035 §3.3: a character-string holds at most 255 octets. */
function characterStrings(record: TxtRecord): string[] {
  if (Array.isArray(record)) return record;
  const chunks: string[] = [];
  for (let i = 0; i < record.length; i += 255) chunks.push(record.slice(i, i + 255));
  return chunks.length ? chunks : [""];
}

/** Binds UDP on an ephemeral port, then TCP on the same port; retries when TCP finds that port taken. */
async function bindBoth(handle: (request: any, send: (response: any) => Promise<unknown>) => void) {
  for (let attempt = 0; ; attempt++) {
    const udp = new UDPServer({ type: "udp4" });
    udp.on("request", handle);
    udp.on("requestError", () => {});
    await udp.listen(0, "127.0.0.1");
    const port = udp.address().port;
    const tcp = new TCPServer();
    tcp.on("request", handle);
    // Clients may keep a TCP connection open; close() must not wait for dns2's idle timeout.
    const sockets = new Set<Socket>();
    tcp.on("connection", (socket: Socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    tcp.on("requestError", () => {});
    const bound = await new Promise<boolean>((resolve) => {
      tcp.once("error", () => resolve(false));
      tcp.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (bound) return { udp, tcp, port, sockets };
    udp.close();
    if (attempt >= 20) throw new Error("could not bind UDP and TCP on one port");
  }
}

export async function startDnsServer(): Promise<DnsServer> {
  const zone = new Map<string, Map<RecordType, unknown[]>>();
  const failing = new Set<string>();
  const queries: string[] = [];

  const handle = (request: any, send: (response: any) => Promise<unknown>) => {
    const response = Packet.createResponseFromRequest(request) as {
      header: { aa: number; rcode: number };
      answers: object[];
    };
    response.header.aa = 1;
    const [question] = request.questions;
    if (!question) return void send(response).catch(() => {});
    const name = key(question.name);
    queries.push(`${name} ${TYPE_NAMES.get(question.type) ?? question.type}`);
    const entry = zone.get(name);
    if (failing.has(name)) {
      response.header.rcode = RCODE.SERVFAIL;
    } else if (!entry) {
      response.header.rcode = RCODE.NXDOMAIN;
    } else {
      const type = (Object.keys(TYPE_CODES) as RecordType[]).find((t) => TYPE_CODES[t] === question.type);
      for (const record of (type && entry.get(type)) || []) {
        const base = { name: question.name, type: question.type, class: Packet.CLASS.IN, ttl: TTL };
        if (type === "MX") response.answers.push({ ...base, ...(record as MxRecord) });
        else if (type === "TXT") response.answers.push({ ...base, data: characterStrings(record as TxtRecord) });
        else if (type === "CNAME") response.answers.push({ ...base, domain: record as string });
        else response.answers.push({ ...base, address: record as string });
      }
    }
    send(response).catch(() => {});
  };

  const { udp, tcp, port, sockets } = await bindBoth(handle);

  return {
    port,
    servers: [`127.0.0.1:${port}`],
    queries,
    set(name, type, records) {
      const entry = zone.get(key(name)) ?? new Map<RecordType, unknown[]>();
      entry.set(type, [...records]);
      zone.set(key(name), entry);
    },
    remove(name, type) {
      failing.delete(key(name));
      const entry = zone.get(key(name));
      if (!entry) return;
      if (type) entry.delete(type);
      if (!type || entry.size === 0) zone.delete(key(name));
    },
    fail(name) {
      failing.add(key(name));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}
