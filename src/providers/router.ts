/**
 * Routing and failover: which named provider takes a delivery. A domain names an ordered list of providers (none:
 * the default provider); its first provider takes its mail. A provider whose own faults (`providerFault`:
 * unreachable, its API's 5xx, throttling, refused credentials) last longer than the failover window is failed over:
 * the next provider of the list takes the domain's mail, in the same attempt, so no message waits for a provider
 * that is down. While failed over, one delivery per probe interval goes to it first (the probe is a real
 * delivery, so it proves what matters); its first success gives the provider its mail back.
 *
 * Invariants: only provider faults move mail — a recipient's 4xx or 5xx says nothing about the provider; the last
 * provider of a list is always tried (mail never stops for want of a healthy provider, it defers); health is kept
 * per process (each instance sharing a PostgreSQL store learns it from its own attempts).
 */
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import type { DeliveryJob, DeliveryResult, Provider } from "./types.ts";

export interface RouterOptions {
  providers: ReadonlyMap<string, Provider>;
  defaultProvider: string;
  /** The providers the job's sending domain names, in order; empty for the default. */
  routeOf(job: DeliveryJob): Promise<readonly string[]>;
  windowMs: number;
  probeIntervalMs: number;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
}

interface Health {
  /** Since when the provider's attempts have been failing with its own faults (ms), or null. */
  faultingSince: number | null;
  failedOver: boolean;
  /** When a failed-over provider may be probed next (ms). */
  nextProbeAt: number;
}

export interface Router extends Provider {
  /** Whether the provider is failed over now (health as this process knows it). */
  isFailedOver(name: string): boolean;
}

export function createRouter(options: RouterOptions): Router {
  const { providers, clock, logger, metrics } = options;
  const health = new Map<string, Health>();
  const healthOf = (name: string) => {
    let entry = health.get(name);
    if (!entry) health.set(name, (entry = { faultingSince: null, failedOver: false, nextProbeAt: 0 }));
    return entry;
  };

  const observe = (name: string, result: DeliveryResult) => {
    const entry = healthOf(name);
    const now = clock.now();
    if (result.outcome === "temporary" && result.providerFault) {
      entry.faultingSince ??= now;
      if (!entry.failedOver && now - entry.faultingSince >= options.windowMs) {
        entry.failedOver = true;
        entry.nextProbeAt = now + options.probeIntervalMs;
        metrics.inc("mailroom_provider_failovers_total", { provider: name });
        logger.warn("provider failed over: its domains' mail goes to their next provider", {
          provider: name,
          failing_since: new Date(entry.faultingSince).toISOString(),
          response: result.response,
        });
      }
      return;
    }
    if (entry.failedOver) logger.info("provider recovered: it takes its domains' mail again", { provider: name });
    entry.faultingSince = null;
    entry.failedOver = false;
  };

  /** A failed-over provider is skipped, except by the one delivery that claims its due probe. */
  const skips = (name: string) => {
    const entry = health.get(name);
    if (!entry?.failedOver) return false;
    const now = clock.now();
    if (now < entry.nextProbeAt) return true;
    entry.nextProbeAt = now + options.probeIntervalMs;
    return false;
  };

  return {
    name: "router",
    isFailedOver: (name) => health.get(name)?.failedOver ?? false,
    async deliver(job) {
      const named = await options.routeOf(job);
      const route = named.length ? named : [options.defaultProvider];
      let result: DeliveryResult = { outcome: "temporary", response: "no provider" };
      for (const [index, name] of route.entries()) {
        const last = index === route.length - 1;
        if (!last && skips(name)) continue;
        const provider = providers.get(name);
        if (!provider) {
          // Config lost a provider a domain still names: the mail waits (visibly) for the config to be fixed.
          result = {
            outcome: "temporary",
            response: `provider ${name} is not configured (its domain names it)`,
            provider: name,
          };
          continue;
        }
        result = { ...(await provider.deliver(job)), provider: name };
        observe(name, result);
        if (last || !(result.outcome === "temporary" && result.providerFault && health.get(name)?.failedOver))
          return result;
      }
      return result;
    },
    async close() {
      await Promise.all([...providers.values()].map((provider) => provider.close()));
    },
  };
}
