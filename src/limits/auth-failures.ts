/**
 * Slows password guessing over SMTP AUTH. Each failed attempt from a client network makes its next failure reply
 * wait twice as long (from `baseDelayMs` up to `maxDelayMs`); a success or `forgetAfterMs` of quiet clears the
 * count. Clients are grouped by address, IPv6 by /64 (one host usually owns a whole /64). Invariant: memory is
 * bounded — at most `maxTracked` networks are remembered, the longest-quiet forgotten first.
 */
import ipaddr from "ipaddr.js";
import type { Clock } from "../lib/clock.ts";

export interface AuthFailureOptions {
  baseDelayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
  maxTracked: number;
}

export interface AuthFailures {
  /** Records a failure; resolves after the delay the failure reply must wait. */
  fail(address: string): Promise<void>;
  /** The delay the next failure from `address` would get (for tests and logs). */
  delayFor(address: string): number;
  succeed(address: string): void;
}

/** The unit a delay applies to: the address itself, or its /64 for IPv6. */
export function clientNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  return parsed.kind() === "ipv6"
    ? `${(parsed as ipaddr.IPv6).parts
        .slice(0, 4)
        .map((part) => part.toString(16))
        .join(":")}::/64`
    : parsed.toString();
}

export function createAuthFailures(clock: Clock, options: AuthFailureOptions): AuthFailures {
  /** Network → failures and the last one's time; a Map iterates in insertion order, so re-inserting keeps it LRU. */
  const failures = new Map<string, { count: number; last: number }>();

  const current = (network: string) => {
    const entry = failures.get(network);
    if (entry && clock.now() - entry.last > options.forgetAfterMs) {
      failures.delete(network);
      return undefined;
    }
    return entry;
  };
  const delayAfter = (count: number) =>
    count === 0 ? 0 : Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.min(count - 1, 30));

  return {
    delayFor: (address) => delayAfter((current(clientNetwork(address))?.count ?? 0) + 1),
    fail(address) {
      const network = clientNetwork(address);
      const count = (current(network)?.count ?? 0) + 1;
      failures.delete(network);
      failures.set(network, { count, last: clock.now() });
      if (failures.size > options.maxTracked) failures.delete(failures.keys().next().value!);
      const delay = delayAfter(count);
      return delay > 0 ? new Promise((resolve) => setTimeout(resolve, delay)) : Promise.resolve();
    },
    succeed: (address) => void failures.delete(clientNetwork(address)),
  };
}
