/**
 * The Prometheus endpoint, `GET /metrics`: on the API listener by default, or on a listener of its own
 * (`[metrics] listen`, e.g. an address only the monitoring network reaches), and behind a bearer token when
 * `[metrics] token` is set.
 * Invariants: with a listener of its own, /metrics is served there and nowhere else; with a token, nothing is
 * rendered for a request that does not carry it, and the comparison takes the same time whatever the guess.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { AppError } from "../errors.ts";
import { ConfigError } from "../lib/config-error.ts";
import { newId } from "../lib/ids.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import { failureResponse } from "../http/errors.ts";

const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Hashed first, so both sides have one length and timingSafeEqual reveals neither the token's length nor a prefix. */
const digest = (text: string) => createHash("sha256").update(text).digest();

/** Renders the metrics for a scrape; throws `unauthorized` when a token is configured and the request lacks it. */
export function metricsScrape(metrics: Metrics, token: string): (request: Request) => Promise<Response> {
  const expected = token ? digest(token) : null;
  return async (request) => {
    if (expected) {
      const given = /^Bearer (.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
      if (!timingSafeEqual(digest(given), expected)) {
        throw new AppError("unauthorized", "Scraping /metrics needs Authorization: Bearer <[metrics] token>.");
      }
    }
    return new Response(await metrics.render(), { headers: { "content-type": CONTENT_TYPE } });
  };
}

export interface MetricsListenOptions {
  hostname: string;
  port: number;
  token: string;
}

/** `[metrics] listen` as a host and a port: `127.0.0.1:9464`, `[::1]:9464`. */
export function parseListenAddress(listen: string): { hostname: string; port: number } {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(listen);
  if (!match || Number(match[3]) > 65535)
    throw new ConfigError(`metrics.listen: "${listen}" is not host:port (e.g. 127.0.0.1:9464)`);
  return { hostname: match[1] ?? match[2]!, port: Number(match[3]) };
}

/** The listener of its own: `GET /metrics` and nothing else, every failure in the API's error shape. */
export function listenMetrics(metrics: Metrics, logger: Logger, options: MetricsListenOptions) {
  const scrape = metricsScrape(metrics, options.token);
  return Bun.serve({
    hostname: options.hostname,
    port: options.port,
    development: false,
    // Two processes must never share a port by accident.
    reusePort: false,
    async fetch(request) {
      const requestId = newId();
      try {
        const path = URL.canParse(request.url) ? new URL(request.url).pathname : "";
        if (path !== "/metrics") throw new AppError("not_found", "This listener serves GET /metrics only.");
        if (request.method !== "GET" && request.method !== "HEAD") {
          return failureResponse(
            new AppError("method_not_allowed", `${request.method} is not allowed here; use GET.`),
            requestId,
            logger,
            { allow: "GET" },
          );
        }
        return await scrape(request);
      } catch (error) {
        return failureResponse(error, requestId, logger);
      }
    },
    error: (error) => failureResponse(error, newId(), logger),
  });
}
