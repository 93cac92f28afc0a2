/**
 * Policy reads kept in memory: what every send asks of the store — the key and its organisation, the From domain,
 * the organisation's webhook endpoints, its suppressions — and what almost never changes. A write that changes
 * what a cache holds calls `notifyAtCommit(tx, channel)`; once the write commits, the store calls back every cache
 * on that channel — in this process on either engine, and on PostgreSQL by LISTEN on every other instance sharing
 * the store — and the cache drops everything it holds. An entry is also never used past `maxAgeMs`, so a change no
 * notification carries (a lost LISTEN connection; the CLI's own process on SQLite) takes that long at most.
 * Invariants: a load that began before a drop never fills the cache after it (its entry, kept from the start of
 * the load, goes with the drop); concurrent asks for one missing key share one load; at most `maxEntries` entries,
 * the least recently loaded dropped first; a failed load is not kept.
 */
import type { Clock } from "../lib/clock.ts";
import type { Store } from "./store.ts";

/** Keys, organisations, domains (and their DKIM keys) and webhook endpoints: changed by people, rarely. */
export const POLICY_CHANGED = "mailroom_policy";
/** Suppressions: changed by bounces and complaints too, so they are dropped apart from the rest. */
export const SUPPRESSIONS_CHANGED = "mailroom_suppressions";

/** How long an entry may be used when no change was heard: the bound on a change another instance made. */
const POLICY_MAX_AGE_MS = 1_000;

export interface ReadCache<V> {
  /** The value of `key`, from memory when a fresh one is there, else from `load` (kept unless it fails). */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** Drops every entry (a change committed). */
  clear(): void;
}

function createReadCache<V>(options: { clock: Clock; maxAgeMs?: number; maxEntries: number }): ReadCache<V> {
  const { clock, maxEntries } = options;
  const maxAgeMs = options.maxAgeMs ?? POLICY_MAX_AGE_MS;
  const entries = new Map<string, { value: Promise<V>; loadedAt: number }>();

  return {
    get(key, load) {
      const now = clock.now();
      const found = entries.get(key);
      if (found && now - found.loadedAt < maxAgeMs) return found.value;
      const value = load();
      entries.delete(key);
      entries.set(key, { value, loadedAt: now });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      return value;
    },
    clear: () => entries.clear(),
  };
}

/**
 * A cache of `channel`'s reads for a service: dropped whenever a write that notified `channel` commits (here, or on
 * any instance sharing the store). Without `listen` (a service built on its own, as in its tests) every ask loads.
 */
export function policyCache<V>(
  deps: { clock: Clock; listen?: Store["listen"] },
  channel: string,
  maxEntries: number,
): ReadCache<V> {
  if (!deps.listen) return { get: (_key, load) => load(), clear() {} };
  const cache = createReadCache<V>({ clock: deps.clock, maxEntries });
  deps.listen(channel, () => cache.clear());
  return cache;
}
