/**
 * Direct delivery: each recipient's mail goes straight to its domain's mail servers (RFC 5321 §5.1).
 *
 * - Route: MX records through the one resolver, lowest preference first and equal preferences in random order;
 *   no MX records → the domain itself (implicit MX); a null MX (RFC 7505) → permanent failure, nothing is tried.
 * - Connect: every address (IPv4, then IPv6) of every host in turn until one greets us; EHLO with the configured
 *   name; STARTTLS whenever offered, without certificate checks — opportunistic, as RFC 7435 describes — and
 *   in plain text again when the TLS handshake fails, as MTAs do (mail in the clear beats no mail).
 * - MTA-STS (RFC 8461, ./mta-sts.ts): a domain whose policy is `enforce` gets its mail only through the MX hosts
 *   the policy names, over TLS with a certificate valid for the host — else the delivery is deferred, never sent
 *   in the clear; `testing` logs what enforce would refuse and delivers as without a policy.
 * - A sending domain with `tls: enforced` (docs/deliverability.md, the job's `tls`) gets the same guarantee at every
 *   destination: STARTTLS with a certificate valid for the MX name, else deferred (4.7.10) and, once the retries
 *   are spent, bounced with that reason.
 * - DANE (RFC 7672, ./dane.ts, `[mx] dane`): below a DNSSEC-secure MX RRset, a host with secure TLSA records gets
 *   STARTTLS required and its certificate matched against them, before MTA-STS or any policy; no match, or a bogus
 *   answer, defers with 4.7.5 — never the clear, never another check. Insecure answers go on as without DANE.
 * - Pool: connections are reused per destination domain (./smtp-pool.ts), at most `maxConnectionsPerDomain`, or
 *   the destination provider's `connections` once shaping applies.
 * - Shaping (./sending-ips.ts): every message, of an IP pool or not, departs under its destination provider's rate
 *   and backs off when that provider pushes back (a 421, a 4.7.x "try again later").
 * - Addresses: only public unicast ones are contacted unless `allowPrivateNetworks` — an MX record is data anyone
 *   can publish, and pointing it at 127.0.0.1 or an internal relay must not turn Mailroom into a way in (SSRF).
 * - Results: one recipient per transaction (each has its own return path), so the reply to RCPT or to the end of
 *   DATA is that recipient's result; 250 → `delivered`; replies are classified by ./classify.ts.
 * Invariant: `deliver` resolves for every remote outcome; a fault before any reply is temporary.
 */
import { isIP } from "node:net";
import type { TLSSocket } from "node:tls";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import { domainOf } from "../lib/addresses.ts";
import { isNotFound, type DnsResolver } from "../lib/dns.ts";
import type { Logger } from "../lib/logger.ts";
import { refusedRange } from "../lib/ip-ranges.ts";
import { presentTlsa, verifyDane, type Dane, type TlsaRecord } from "./dane.ts";
import { mxMatches, type MtaSts, type MtaStsPolicy } from "./mta-sts.ts";
import { tlsFailureType, type TlsSession } from "./tls-sessions.ts";
import { DIRECT, type SendingIps, type SourceAddress } from "./sending-ips.ts";
import { resultFromError } from "./smtp.ts";
import { createSmtpPool, greeted, type PooledSession } from "./smtp-pool.ts";
import type { DeliveryResult, Provider } from "./types.ts";

export interface MxProviderOptions {
  resolver: DnsResolver;
  /** Name sent in EHLO (a fully qualified host name, RFC 5321 §4.1.1.1). */
  ehloName: string;
  /** Port of every MX host: 25, except when tests point the provider at their servers. */
  port: number;
  maxConnectionsPerDomain: number;
  connectTimeoutMs: number;
  socketTimeoutMs: number;
  /** Contact loopback, private and other non-public addresses too (test servers, a trusted internal network). */
  allowPrivateNetworks: boolean;
  /** Recipient domains' MTA-STS policies; absent, none is honoured. */
  /** Hears the outcome of every TLS negotiation with an MX host, for TLS reports (RFC 8460, docs/deliverability.md). */
  tlsSessions?: (session: TlsSession) => void;
  /**
   * Destination shaping and adaptive back-off for every job, and IP pools with warm-up for jobs that name a pool
   * (docs/deliverability.md#sending-ips).
   */
  sendingIps?: SendingIps;
  mtaSts?: MtaSts;
  /** DANE (RFC 7672, ./dane.ts): TLSA records of destinations whose MX records are DNSSEC-secure; absent, none. */
  dane?: Dane;
  /** TEST ONLY: extra CA certificates (PEM) trusted for the certificates of MX hosts under an MTA-STS policy. */
  tlsCa?: string;
  logger: Logger;
}

export { tlsFailureType, type TlsSession };

type Route = { hosts: string[] } | { result: DeliveryResult };

/** A message cleared to leave: from a pool's address (`source`) or the machine's own, counted under `provider`. */
type Departed = { source?: SourceAddress; provider: string };

const temporary = (response: string): DeliveryResult => ({ outcome: "temporary", response });

/** RFC 5321 §5.1: preference order, with equal preferences shuffled to spread load. */
function byPreference(records: Array<{ exchange: string; priority: number }>): string[] {
  return records
    .map((record) => ({ ...record, tie: Math.random() }))
    .sort((a, b) => a.priority - b.priority || a.tie - b.tie)
    .map((record) => record.exchange.replace(/\.$/, "").toLowerCase());
}

/** The pool key's mark of a sender that requires TLS. */
const TLS_REQUIRED = "tls";

interface Destination {
  domain: string;
  tlsEnforced: boolean;
  source?: SourceAddress;
  /** The destination provider an IP pool's shaping counts it under. */
  provider?: string;
}

/** The SMTP pool's key of a destination: sessions are shared only within one. EHLO names ride along with the address. */
const destinationKey = (d: Destination) =>
  [
    d.domain,
    d.tlsEnforced ? TLS_REQUIRED : "",
    d.source?.address ?? "",
    d.source?.ehloName ?? "",
    d.provider ?? "",
  ].join("|");

function destinationOf(key: string): Destination {
  const [domain = key, tls, address, ehloName, provider] = key.split("|");
  return {
    domain,
    tlsEnforced: tls === TLS_REQUIRED,
    ...(address && { source: { address, ...(ehloName && { ehloName }) } }),
    ...(provider && { provider }),
  };
}

export function createMxProvider(options: MxProviderOptions): Provider {
  const { resolver, logger } = options;

  const route = async (domain: string): Promise<Route> => {
    let records: Array<{ exchange: string; priority: number }>;
    try {
      records = await resolver.resolveMx(domain);
    } catch (error) {
      if (isNotFound(error)) return { hosts: [domain] };
      return {
        result: temporary(`4.4.3 MX lookup for ${domain} failed (${(error as { code?: string }).code ?? "error"})`),
      };
    }
    // RFC 7505 §3: a single MX with the root as exchange says the domain accepts no mail.
    const real = records.filter((record) => record.exchange !== "" && record.exchange !== ".");
    if (real.length === 0) {
      return {
        result: {
          outcome: "permanent",
          subType: "NoEmail",
          response: `556 5.1.10 ${domain} accepts no mail (null MX, RFC 7505)`,
        },
      };
    }
    return { hosts: byPreference(real) };
  };

  /** The host's addresses, IPv4 first; null when a lookup failed (as opposed to finding none). */
  const addressesOf = async (host: string): Promise<string[] | null> => {
    if (isIP(host)) return [host];
    let failed = false;
    const lookup = (query: Promise<string[]>) =>
      query.catch((error) => {
        if (!isNotFound(error)) failed = true;
        return [] as string[];
      });
    const [v4, v6] = await Promise.all([lookup(resolver.resolve4(host)), lookup(resolver.resolve6(host))]);
    const all = [...v4, ...v6];
    return all.length === 0 && failed ? null : all;
  };

  /**
   * One SMTP handshake. `verified`: STARTTLS required and the certificate checked against the host name (an MTA-STS
   * host); `opportunistic`: STARTTLS when offered, any certificate; `plain`: no TLS (after a failed STARTTLS).
   */
  const handshake = (
    address: string,
    host: string,
    security: "verified" | "dane" | "opportunistic" | "plain",
    source: SourceAddress | undefined,
  ): Promise<SMTPConnection> => {
    const servername = isIP(host) ? undefined : host;
    const verified = security === "verified";
    // DANE: TLS is required, and the certificate is judged by the TLSA records (verifyDane), not by a CA.
    const tlsRequired = verified || security === "dane";
    const smtp = new SMTPConnection({
      host: address,
      port: options.port,
      name: source?.ehloName ?? options.ehloName,
      ...(source && { localAddress: source.address }),
      servername,
      ignoreTLS: security === "plain",
      requireTLS: tlsRequired,
      opportunisticTLS: !tlsRequired,
      tls: verified
        ? { rejectUnauthorized: true, servername, ...(options.tlsCa && { ca: options.tlsCa }) }
        : { rejectUnauthorized: false, servername },
      connectionTimeout: options.connectTimeoutMs,
      greetingTimeout: options.connectTimeoutMs,
      socketTimeout: options.socketTimeoutMs,
      logger: false,
    });
    return greeted(smtp).then(
      () => smtp,
      (error) => {
        // A handshake that fails during STARTTLS is reported as ETLS, or — when the TLS socket itself errors under
        // Bun — as a socket error while the connection is still upgrading.
        const startTlsFailed =
          (error as { code?: string }).code === "ETLS" ||
          (smtp as unknown as { upgrading?: boolean }).upgrading === true;
        smtp.close();
        throw Object.assign(error as object, { startTlsFailed });
      },
    );
  };

  /**
   * A connection to one address of a host under the domain's MTA-STS policy: `enforce` (or the sending domain's
   * `tls: enforced`) accepts only TLS with a valid certificate; `testing` tries that first and, when it fails, logs what enforce would refuse and goes on as
   * without a policy — opportunistic TLS, then plain text.
   */
  const open = async (
    domain: string,
    address: string,
    host: string,
    policy: MtaStsPolicy | null,
    tlsEnforced: boolean,
    source: SourceAddress | undefined,
    tlsa: TlsaRecord[] | null,
  ): Promise<SMTPConnection> => {
    const heard = (smtp: SMTPConnection | null, result: TlsSession["result"], failureReason?: string) =>
      options.tlsSessions?.({
        policyDomain: domain,
        policy: !tlsa && policy && policy.mode !== "none" ? policy : null,
        ...(tlsa && { tlsa: tlsa.map(presentTlsa) }),
        mxHost: host,
        receivingIp: address,
        sendingIp: (smtp as unknown as { _socket?: { localAddress?: string } } | null)?._socket?.localAddress ?? null,
        result,
        ...(failureReason && { failureReason: failureReason.slice(0, 200) }),
      });
    // RFC 7672 §2.2, RFC 8461 §2: secure TLSA records decide alone; never plain text, never another check.
    if (tlsa) {
      try {
        const smtp = await handshake(address, host, "dane", source);
        const refused = verifyDane((smtp as unknown as { _socket: TLSSocket })._socket, tlsa, [host, domain]);
        if (refused) {
          smtp.close();
          throw Object.assign(new Error(refused), { tlsaMismatch: true });
        }
        heard(smtp, "success");
        return smtp;
      } catch (error) {
        const reason = (error as { response?: string; message: string }).response ?? (error as Error).message;
        heard(
          null,
          (error as { tlsaMismatch?: boolean }).tlsaMismatch ? "tlsa-invalid" : tlsFailureType(error as Error),
          reason,
        );
        throw Object.assign(new Error(`DANE requires TLS matching the TLSA records of ${host} (${reason})`), {
          daneRefused: true,
        });
      }
    }
    if (tlsEnforced || (policy && policy.mode !== "none")) {
      try {
        const smtp = await handshake(address, host, "verified", source);
        heard(smtp, "success");
        return smtp;
      } catch (error) {
        const reason = (error as { response?: string; message: string }).response ?? (error as Error).message;
        heard(null, tlsFailureType(error as Error), reason);
        if (tlsEnforced)
          throw Object.assign(
            new Error(`the sending domain requires TLS with a certificate valid for ${host} (${reason})`),
            { tlsRequired: true },
          );
        if (policy?.mode === "enforce") throw new Error(`MTA-STS requires TLS with a valid certificate (${reason})`);
        logger.warn("MTA-STS (testing): enforce would refuse this host", { domain, host, address, reason });
      }
    }
    try {
      const smtp = await handshake(address, host, "opportunistic", source);
      if (smtp.secure) heard(smtp, "success");
      else heard(smtp, "starttls-not-supported", "the server did not offer STARTTLS");
      return smtp;
    } catch (error) {
      if (!(error as { startTlsFailed?: boolean }).startTlsFailed) throw error;
      heard(null, tlsFailureType(error as Error), (error as Error).message);
      logger.info("STARTTLS failed; delivering in plain text", { host, address });
      return await handshake(address, host, "plain", source);
    }
  };

  /** The MX hosts a policy allows: all of them without one or in testing mode (which logs the others). */
  const allowedHosts = (domain: string, hosts: string[], policy: MtaStsPolicy | null): string[] => {
    if (!policy || policy.mode === "none") return hosts;
    const outside = hosts.filter((host) => !policy.mx.some((pattern) => mxMatches(pattern, host)));
    if (outside.length && policy.mode === "testing")
      logger.warn("MTA-STS (testing): MX hosts outside the policy", { domain, hosts: outside });
    return policy.mode === "enforce" ? hosts.filter((host) => !outside.includes(host)) : hosts;
  };

  /**
   * Opens a connection to the first host and address that greets us, or says why none did. `key` names the
   * recipient domain, whether the sender requires TLS and the source address (`destinationKey`): sessions are
   * pooled apart by all three, so a connection opened without verified TLS never carries mail that requires it, and
   * one bound to an address carries only that address's mail.
   */
  const connect = async (key: string): Promise<PooledSession | DeliveryResult> => {
    const { domain, tlsEnforced, source } = destinationOf(key);
    const found = await route(domain);
    if ("result" in found) return found.result;
    const policy = options.mtaSts ? await options.mtaSts.policyFor(domain) : null;
    const hosts = allowedHosts(domain, found.hosts, policy);
    if (hosts.length === 0)
      return temporary(`4.7.5 The MTA-STS policy of ${domain} allows none of its MX hosts (${found.hosts.join(", ")})`);
    // RFC 7672 §2.2.1: DANE applies only below a DNSSEC-secure MX RRset; a bogus one is never taken as insecure.
    const secureMx = options.dane ? await options.dane.mx(domain) : undefined;
    if (secureMx?.status === "bogus")
      return temporary(`4.7.5 DANE: the MX records of ${domain} failed DNSSEC validation (${secureMx.reason})`);
    const failures: string[] = [];
    let lookupFailed = false;
    let attempted = false;
    let tlsRefused = 0;
    let daneRefused = 0;
    for (const host of hosts) {
      const tlsa = secureMx?.status === "secure" ? await options.dane!.tlsa(host, options.port) : undefined;
      if (tlsa?.status === "bogus") {
        daneRefused++;
        failures.push(`${host}: its TLSA records failed DNSSEC validation (${tlsa.reason})`);
        options.tlsSessions?.({
          ...{ policyDomain: domain, policy: null, tlsa: [], mxHost: host, receivingIp: "", sendingIp: null },
          ...{ result: "dnssec-invalid", failureReason: tlsa.reason.slice(0, 200) },
        });
        continue;
      }
      const records = tlsa?.status === "secure" && tlsa.records.length ? tlsa.records : null;
      const addresses = await addressesOf(host);
      if (addresses === null) {
        lookupFailed = true;
        failures.push(`${host}: address lookup failed`);
        continue;
      }
      for (const address of addresses) {
        const range = options.allowPrivateNetworks ? null : refusedRange(address);
        if (range) {
          failures.push(`${host} [${address}]: not a public address (${range})`);
          continue;
        }
        attempted = true;
        try {
          return {
            smtp: await open(domain, address, host, policy, tlsEnforced, source, records),
            host,
            messages: 0,
            broken: false,
          };
        } catch (error) {
          const reason = error as { code?: string; response?: string; message: string; tlsRequired?: boolean };
          if (reason.tlsRequired) tlsRefused++;
          if ((error as { daneRefused?: boolean }).daneRefused) daneRefused++;
          failures.push(`${host} [${address}]: ${reason.response ?? reason.code ?? reason.message}`);
        }
      }
    }
    if (failures.length === 0) {
      return { outcome: "permanent", subType: "NoEmail", response: `550 5.1.2 ${domain} has no mail server address` };
    }
    const detail = failures.join("; ").slice(0, 800);
    // RFC 7672 §2.1.1 and RFC 3463 X.7.5 (cryptographic failure): deferred, never sent another way.
    if (daneRefused && daneRefused + tlsRefused === failures.length)
      return temporary(`4.7.5 DANE: no mail server of ${domain} passed its TLSA records: ${detail}`);
    if (!attempted && !lookupFailed)
      return {
        outcome: "permanent",
        subType: "General",
        response: `554 5.4.4 No public address for the mail servers of ${domain}: ${detail}`,
      };
    // RFC 3463 X.7.10, encryption needed: retried, then bounced with this reason once the retries are spent.
    if (tlsRefused === failures.length)
      return temporary(`4.7.10 No mail server of ${domain} offered TLS as required: ${detail}`);
    return temporary(
      lookupFailed && failures.every((f) => f.endsWith("lookup failed"))
        ? `4.4.3 ${detail}`
        : `4.4.1 No mail server of ${domain} accepted a connection: ${detail}`,
    );
  };

  /** Tells the shaping what became of a message that departed (from a pool's address or the own one); answers `result`. */
  const settle = async (departed: Departed | undefined, result: DeliveryResult): Promise<DeliveryResult> => {
    if (departed)
      await options
        .sendingIps!.settled(departed.source?.address ?? DIRECT, departed.provider, {
          taken: result.outcome === "delivered",
          response: result.response,
        })
        // The delivery's own result stands; a count not given back only lowers today's cap by one.
        .catch((error: unknown) =>
          logger.warn("IP pool count not settled", {
            address: departed.source?.address ?? DIRECT,
            error: (error as Error).message,
          }),
        );
    return result;
  };

  /**
   * Whether and where a message leaves: the destination provider by the domain's first MX host, then the address
   * that may send to it now — the pool's (`poolName`) or the machine's own (null) — under that provider's rate
   * (sending-ips.ts); or the temporary result that says why not yet.
   */
  const departure = async (poolName: string | null, domain: string): Promise<Departed | DeliveryResult> => {
    const found = await route(domain);
    if ("result" in found) return found.result;
    const ips = options.sendingIps!;
    const decided = await ips.depart(poolName, ips.providerOf(found.hosts[0]!));
    if ("wait" in decided) return { ...temporary(decided.wait), retryAfterMs: decided.retryAfterMs };
    return { ...(decided.go && { source: decided.go }), provider: decided.provider };
  };

  const pool = createSmtpPool({
    maxConnections: options.maxConnectionsPerDomain,
    connect,
    limitsOf: (key) => {
      const { provider, source } = destinationOf(key);
      const limits = provider ? options.sendingIps?.limitsOf(provider) : undefined;
      if (!limits) return undefined;
      // A pool's address takes its provider's `connections`; the machine's own address stays under
      // `[mx] max_connections_per_domain` as well, the ceiling an operator without pools set.
      const connections = source ? limits.connections : Math.min(limits.connections, options.maxConnectionsPerDomain);
      return { maxConnections: connections, maxMessagesPerConnection: limits.messages_per_connection };
    },
  });

  return {
    name: "mx",
    async deliver(job) {
      let departed: Departed | undefined;
      try {
        const domain = domainOf(job.recipient);
        const tlsEnforced = job.tls === "enforced";
        const shaped = options.sendingIps ? await departure(job.ipPool ?? null, domain) : undefined;
        if (shaped && "outcome" in shaped) return shaped;
        departed = shaped;
        const key = destinationKey({ domain, tlsEnforced, source: shaped?.source, provider: shaped?.provider });
        const sent = await pool.send(key, { from: job.envelopeFrom, to: job.recipient }, job.raw);
        const result: DeliveryResult =
          "host" in sent ? { outcome: "delivered", response: sent.response, providerMessageId: job.messageId } : sent;
        if ("host" in sent) logger.debug("delivered to MX", { delivery_id: job.deliveryId, host: sent.host });
        return await settle(departed, result);
      } catch (error) {
        return settle(departed, resultFromError(error as Parameters<typeof resultFromError>[0]));
      }
    },
    async close() {
      pool.close();
    },
  };
}
