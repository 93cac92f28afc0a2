/**
 * Blocklist checks (docs/deliverability.md): each sending address looked up in each configured DNS blocklist (RFC 5782: the
 * address's octets reversed — nibbles for IPv6 — under the list's zone; an A record in 127.0.0.0/8 means listed, its
 * TXT record says why), by a periodic job once across the instances, the last answer kept per address and list.
 *
 * Invariants: only an answer in 127.0.0.0/8 outside 127.255.255.0/24 is a listing — that range is how large lists
 * say "query refused" (a public resolver, over quota), which is no verdict on the address; a lookup that fails keeps
 * the previous answer rather than clearing a listing.
 */
import { isIP } from "node:net";
import { asc } from "drizzle-orm";
import { tablesOf, type Db, type Writer } from "../db/store.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { isNotFound, type DnsResolver } from "../lib/dns.ts";
import type { Logger } from "../lib/logger.ts";
import type { BlocklistListing } from "./wire.ts";

export type { BlocklistListing } from "./wire.ts";

export interface Blocklists {
  /** Asks every list about every address (the periodic job's run). */
  check(): Promise<void>;
  /** The last answers, listed ones first. */
  listings(): Promise<BlocklistListing[]>;
}

/** The name to look up for `address` in `zone` (RFC 5782 §2.1, §2.4). */
export function blocklistQuery(address: string, zone: string): string {
  if (isIP(address) === 4) return `${address.split(".").reverse().join(".")}.${zone}`;
  const groups = address.split("::");
  const head = groups[0] ? groups[0].split(":") : [];
  const tail = groups[1] ? groups[1].split(":") : [];
  const full = [...head, ...Array(8 - head.length - tail.length).fill("0"), ...tail];
  const nibbles = full.map((group) => group.padStart(4, "0")).join("");
  return `${[...nibbles].reverse().join(".")}.${zone}`;
}

/** RFC 5782 §2.3: listed is 127.0.0.0/8; 127.255.255.0/24 is the lists' "refused" (no verdict). */
const LISTED = /^127\.(?!255\.255\.)\d+\.\d+\.\d+$/;

export function createBlocklists(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  logger: Logger;
  resolver: DnsResolver;
  zones: readonly string[];
  /** The sending addresses: `[server] public_ips` and the pools'. */
  addresses: () => readonly string[];
}): Blocklists {
  const { db, writer, clock, logger, resolver } = deps;
  const { blocklistListings } = tablesOf(db);

  /** Listed (with its reason), not listed, or undefined when the list could not be asked. */
  const ask = async (
    address: string,
    zone: string,
  ): Promise<{ listed: boolean; reason: string | null } | undefined> => {
    const name = blocklistQuery(address, zone);
    let answers: string[];
    try {
      answers = await resolver.resolve4(name);
    } catch (error) {
      if (isNotFound(error)) return { listed: false, reason: null };
      logger.warn("blocklist lookup failed", { list: zone, address, code: (error as { code?: string }).code });
      return undefined;
    }
    const listed = answers.filter((answer) => LISTED.test(answer));
    if (!listed.length) {
      if (answers.length) logger.warn("blocklist refused the query", { list: zone, address, answers });
      return answers.length ? undefined : { listed: false, reason: null };
    }
    const reason = await resolver
      .resolveTxt(name)
      .then(
        (records) =>
          records
            .map((chunks) => chunks.join(""))
            .join(" ")
            .slice(0, 500) || null,
      )
      .catch(() => null);
    return { listed: true, reason: reason ?? `listed (${listed.join(", ")})` };
  };

  return {
    async check() {
      const checkedAt = isoTime(clock.now());
      for (const address of deps.addresses())
        for (const zone of deps.zones) {
          const answer = await ask(address, zone);
          if (!answer) continue;
          if (answer.listed)
            logger.warn("sending address is on a blocklist", { address, list: zone, reason: answer.reason });
          await writer.write((tx) =>
            tx
              .insert(tablesOf(tx).blocklistListings)
              .values({ address, zone, ...answer, checkedAt })
              .onConflictDoUpdate({
                target: [tablesOf(tx).blocklistListings.address, tablesOf(tx).blocklistListings.zone],
                set: { ...answer, checkedAt },
              }),
          );
        }
    },

    async listings() {
      const configured = new Set(deps.zones);
      const addresses = new Set(deps.addresses());
      const rows = await db
        .select()
        .from(blocklistListings)
        .orderBy(asc(blocklistListings.address), asc(blocklistListings.zone));
      return rows
        .filter((row) => configured.has(row.zone) && addresses.has(row.address))
        .map((row) => ({
          address: row.address,
          list: row.zone,
          listed: row.listed,
          reason: row.reason,
          checked_at: row.checkedAt,
        }))
        .sort((a, b) => Number(b.listed) - Number(a.listed));
    },
  };
}
