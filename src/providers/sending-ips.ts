/**
 * Sending IPs for direct delivery (docs/deliverability.md): which source address of a domain's `[ip_pools.<name>]` a message
 * leaves from, and whether it may leave now — warm-up, destination shaping and adaptive back-off. Mail of a domain
 * without a pool leaves from the machine's own address (`DIRECT`, never bound): shaped and backed off the same way,
 * without warm-up (docs/deliverability.md#sending-ips).
 *
 * - Destination provider: the recipient domain's first MX host matched against the shaping rules
 *   (`[shaping.<provider>] mx`, built-in gmail, outlook, yahoo); a host no rule names is its own provider, named by
 *   the host, with `[shaping.other]`'s limits: a throttling corporate MX is slowed without slowing everyone else.
 * - Warm-up: an address's messages per provider and UTC day are capped at 50 on its day 1 (the day it first sent),
 *   doubling daily, and uncapped once `warmup` has passed. The counts live in the store, so every instance sees
 *   them; an address over its cap is skipped, and mail every address of the pool is over it for waits as
 *   deferred until the next UTC day.
 * - Shaping: per address and provider, at most `messages_per_minute` (a token bucket), `connections` at once and
 *   `messages_per_connection` per session (the SMTP pool applies those two).
 * - Back-off: a 421, or a 4.7.x reply that speaks of rate or trying again later, halves that address's rate for
 *   that provider for an hour — again on each further such reply — as large senders do when a receiver pushes back.
 *   The buckets and back-offs are this instance's, in memory: each instance slows down on its own.
 *
 * Invariants: nothing here refuses mail; a message that may not leave now is answered with a temporary result
 * naming why and when to try again. A pool is an organisation's to name, and to see, only when open to it
 * (`poolOpenTo`: `[ip_pools.<name>] organizations`, empty for every one).
 */
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { IpPoolConfig, ShapingConfig } from "../config/options.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import type { Clock } from "../lib/clock.ts";
import type { AddressState, PoolState } from "./wire.ts";

export type { AddressState, PoolState } from "./wire.ts";

export const OTHER_PROVIDER = "other";
/** The source "address" of direct mail of no pool: the machine's own, chosen by the kernel, never bound. */
export const DIRECT = "direct";
const DAY_MS = 86_400_000;
const WARMUP_FIRST_DAY = 50;
const BACK_OFF_MS = 3_600_000;
/** A message waits this long at most for its minute's budget before it is deferred instead. */
const LONGEST_WAIT_MS = 2_000;

export interface SourceAddress {
  address: string;
  ehloName?: string;
}

export type Departure =
  /** `go`: the pool's address to bind, or null for mail of no pool (the machine's own address). */
  { go: SourceAddress | null; provider: string; limits: ShapingConfig } | { wait: string; retryAfterMs: number };

export interface SendingIps {
  /** The destination provider of a recipient domain, by its first MX host: a rule's name, else the host itself. */
  providerOf(mxHost: string): string;
  /** The shaping of a destination provider (`[shaping.other]` for one no rule names). */
  limitsOf(provider: string): ShapingConfig;
  /**
   * Where and whether a message of `pool` (null: a domain of no pool) to `provider` leaves now, waiting up to 2 s
   * for the rate's next share.
   */
  depart(pool: string | null, provider: string): Promise<Departure>;
  /**
   * What became of a message that departed from `address` (`DIRECT` for mail of no pool): one not taken gives its
   * warm-up share back, and a receiver's push-back (`response`, when it speaks of rate or trying later) halves the rate.
   */
  settled(address: string, provider: string, result: { taken: boolean; response: string }): Promise<void>;
  /**
   * The back-offs in force on this instance: by source (a pool's address, or `DIRECT` for the machine's own) and
   * destination provider, with the rate they leave; for /metrics.
   */
  backOffs(): Array<{ source: string; provider: string; messages_per_minute: number; until: string }>;
  /** The pools open to `organizationId` (`poolOpenTo`), with their addresses' state; every pool without one. */
  state(organizationId?: string): Promise<PoolState[]>;
}

/**
 * Whether an organisation's domains may send from `pool` (docs/deliverability.md): those its `organizations` names, or every
 * organisation when it names none; no one's when there is no such pool.
 */
export function poolOpenTo(pool: Pick<IpPoolConfig, "organizations"> | undefined, organizationId: string): boolean {
  return pool !== undefined && (pool.organizations.length === 0 || pool.organizations.includes(organizationId));
}

/** RFC 3463 X.7.x with rate words, or any 421: a receiver asking the sender to slow down. */
export function isThrottling(response: string): boolean {
  if (/^421\b/.test(response)) return true;
  return /\b4\.7\.\d{1,3}\b/.test(response) && /rate|try (again )?later|too many|slow down/i.test(response);
}

/** The warm-up cap on `day` (1-based) of an address's warm-up of `warmupMs`; null when it is over. */
export function warmupCap(day: number, warmupMs: number): number | null {
  if (warmupMs <= 0 || day > Math.ceil(warmupMs / DAY_MS)) return null;
  return WARMUP_FIRST_DAY * 2 ** Math.min(day - 1, 30);
}

/** A shaping pattern: a host, or `*.` and a domain matching any host under it (aspmx.l.google.com is gmail's). */
const hostMatches = (pattern: string, host: string) =>
  pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : host === pattern;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function createSendingIps(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  pools: Readonly<Record<string, IpPoolConfig>>;
  shaping: Readonly<Record<string, ShapingConfig>>;
}): SendingIps {
  const { db, writer, clock } = deps;
  const { ipVolumes, ipFirstUse } = tablesOf(db);
  const turn = new Map<string, number>();
  const buckets = new Map<string, { tokens: number; at: number }>();
  const backOffs = new Map<string, { factor: number; until: number }>();
  const defaults: ShapingConfig = deps.shaping[OTHER_PROVIDER] ?? {
    mx: [],
    connections: 4,
    messages_per_connection: 100,
    messages_per_minute: 600,
  };
  const limitsOf = (provider: string) => deps.shaping[provider] ?? defaults;

  const rateOf = (address: string, provider: string) => {
    const back = backOffs.get(`${address}|${provider}`);
    const base = limitsOf(provider).messages_per_minute;
    if (!back || back.until <= clock.now()) return base;
    return Math.max(1, Math.floor(base * back.factor));
  };

  /** Takes one message's share of the minute, or says how long until there is one. */
  const take = (address: string, provider: string): number => {
    const key = `${address}|${provider}`;
    const perMinute = rateOf(address, provider);
    const now = clock.now();
    const bucket = buckets.get(key) ?? { tokens: perMinute, at: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + ((now - bucket.at) * perMinute) / 60_000);
    bucket.at = now;
    buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.tokens) * 60_000) / perMinute);
  };

  /** Returns a share of the minute taken for a message that did not leave from this address after all. */
  const refund = (address: string, provider: string) => {
    const bucket = buckets.get(`${address}|${provider}`);
    if (bucket) bucket.tokens = Math.min(rateOf(address, provider), bucket.tokens + 1);
  };

  const warmupDay = async (address: string): Promise<number | null> => {
    const row = await first(db.select({ day: ipFirstUse.day }).from(ipFirstUse).where(eq(ipFirstUse.address, address)));
    if (!row) return null;
    return Math.floor((Date.parse(dayOf(clock.now())) - Date.parse(row.day)) / DAY_MS) + 1;
  };

  /**
   * Takes one of today's messages of `address` to `provider` if warm-up allows it, in one conditional write, so
   * instances and concurrent deliveries never pass the cap together; false when the cap is reached.
   */
  const reserve = (pool: IpPoolConfig, address: string, provider: string) =>
    writer.write(async (tx) => {
      const tables = tablesOf(tx);
      const day = dayOf(clock.now());
      await tx.insert(tables.ipFirstUse).values({ address, day }).onConflictDoNothing();
      const firstDay = (await first(
        tx.select({ day: tables.ipFirstUse.day }).from(tables.ipFirstUse).where(eq(tables.ipFirstUse.address, address)),
      ))!.day;
      const cap = warmupCap(Math.floor((Date.parse(day) - Date.parse(firstDay)) / DAY_MS) + 1, pool.warmup);
      await tx.insert(tables.ipVolumes).values({ address, provider, day, messages: 0 }).onConflictDoNothing();
      const taken = await tx
        .update(tables.ipVolumes)
        .set({ messages: sql`${tables.ipVolumes.messages} + 1` })
        .where(
          and(
            eq(tables.ipVolumes.address, address),
            eq(tables.ipVolumes.provider, provider),
            eq(tables.ipVolumes.day, day),
            cap === null ? undefined : lt(tables.ipVolumes.messages, cap),
          ),
        )
        .returning({ messages: tables.ipVolumes.messages });
      return taken.length > 0;
    });

  /** Gives back a message `reserve` took that did not go (deferred, bounced, the connection failed). */
  const giveBack = (address: string, provider: string) =>
    writer.write((tx) => {
      const { ipVolumes: volumes } = tablesOf(tx);
      return tx
        .update(volumes)
        .set({ messages: sql`${volumes.messages} - 1` })
        .where(
          and(
            eq(volumes.address, address),
            eq(volumes.provider, provider),
            eq(volumes.day, dayOf(clock.now())),
            gt(volumes.messages, 0),
          ),
        );
    });

  /** Mail of no pool: only the rate applies (no warm-up: the machine's address is not a new one being introduced). */
  const departDirect = async (provider: string, waited: boolean): Promise<Departure> => {
    const wait = take(DIRECT, provider);
    if (wait === 0) return { go: null, provider, limits: limitsOf(provider) };
    if (!waited && wait <= LONGEST_WAIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      return departDirect(provider, true);
    }
    return {
      wait: `4.7.0 Shaping: at the rate for ${provider}; next attempt when the rate allows`,
      retryAfterMs: wait,
    };
  };

  const depart = async (poolName: string, provider: string, waited: boolean): Promise<Departure> => {
    const pool = deps.pools[poolName];
    if (!pool) return { wait: `4.3.5 IP pool ${poolName} is not configured`, retryAfterMs: 60_000 };
    const count = pool.addresses.length;
    // Taken before any await: messages departing at once start from different addresses.
    const start = turn.get(poolName) ?? 0;
    turn.set(poolName, (start + 1) % count);
    let soonest = Number.POSITIVE_INFINITY;
    let warmedOut = 0;
    for (let i = 0; i < count; i++) {
      const index = (start + i) % count;
      const address = pool.addresses[index]!;
      const wait = take(address, provider);
      if (wait > 0) {
        soonest = Math.min(soonest, wait);
        continue;
      }
      if (!(await reserve(pool, address, provider))) {
        refund(address, provider);
        warmedOut++;
        continue;
      }
      const ehloName = pool.ehlo_names[index];
      return { go: { address, ...(ehloName && { ehloName }) }, provider, limits: limitsOf(provider) };
    }
    if (warmedOut === count) {
      const tomorrow = (Math.floor(clock.now() / DAY_MS) + 1) * DAY_MS;
      return {
        wait: `4.7.0 Warm-up: every address of IP pool ${poolName} sent today's volume to ${provider}; the rest goes from the next UTC day`,
        retryAfterMs: tomorrow - clock.now(),
      };
    }
    if (!waited && soonest <= LONGEST_WAIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, soonest));
      return depart(poolName, provider, true);
    }
    return {
      wait: `4.7.0 Shaping: IP pool ${poolName} is at its rate for ${provider}; next attempt when the rate allows`,
      retryAfterMs: soonest,
    };
  };

  return {
    depart: (poolName, provider) =>
      poolName === null ? departDirect(provider, false) : depart(poolName, provider, false),
    limitsOf,

    providerOf(mxHost) {
      const host = mxHost.toLowerCase().replace(/\.$/, "");
      for (const [provider, rule] of Object.entries(deps.shaping))
        if (rule.mx.some((pattern) => hostMatches(pattern.toLowerCase(), host))) return provider;
      return host;
    },

    backOffs() {
      const now = clock.now();
      return [...backOffs]
        .filter(([, back]) => back.until > now)
        .map(([key, back]) => {
          const [source = "", provider = ""] = key.split("|");
          return {
            source,
            provider,
            messages_per_minute: rateOf(source, provider),
            until: new Date(back.until).toISOString(),
          };
        });
    },

    async settled(address, provider, result) {
      if (result.taken) return;
      // Mail of no pool reserved no warm-up share.
      if (address !== DIRECT) await giveBack(address, provider);
      if (!isThrottling(result.response)) return;
      const key = `${address}|${provider}`;
      const now = clock.now();
      const current = backOffs.get(key);
      const factor = current && current.until > now ? current.factor / 2 : 0.5;
      backOffs.set(key, { factor, until: now + BACK_OFF_MS });
      // The bucket shrinks with the rate at once.
      const bucket = buckets.get(key);
      if (bucket) bucket.tokens = Math.min(bucket.tokens, rateOf(address, provider));
    },

    async state(organizationId) {
      const today = dayOf(clock.now());
      const volumes = await db.select().from(ipVolumes).where(eq(ipVolumes.day, today));
      const out: PoolState[] = [];
      for (const [name, pool] of Object.entries(deps.pools)) {
        if (organizationId !== undefined && !poolOpenTo(pool, organizationId)) continue;
        const addresses: AddressState[] = [];
        for (const [index, address] of pool.addresses.entries()) {
          const day = await warmupDay(address);
          const cap = warmupCap(day ?? 1, pool.warmup);
          const backed = [...backOffs]
            .filter(([key, back]) => key.startsWith(`${address}|`) && back.until > clock.now())
            .map(([key, back]) => {
              const provider = key.slice(address.length + 1);
              return {
                provider,
                messages_per_minute: rateOf(address, provider),
                until: new Date(back.until).toISOString(),
              };
            });
          addresses.push({
            address,
            ehlo_name: pool.ehlo_names[index] ?? null,
            warmup_day: cap === null ? null : (day ?? null),
            daily_cap: cap,
            today: Object.fromEntries(
              volumes.filter((v) => v.address === address).map((v) => [v.provider, v.messages]),
            ),
            backed_off: backed,
          });
        }
        out.push({ name, warmup: `${Math.round(pool.warmup / DAY_MS)}d`, addresses });
      }
      return out;
    },
  };
}
