/**
 * The webhook dispatcher: sends the outbox. Design note:
 *
 * - Claiming: the outbox on the leased-queue engine (queue/leased-queue.ts), keyed by endpoint. Leases expire
 *   after `webhooks.lease` (longer than the request timeout) and the rows are sent again — delivery is
 *   at-least-once, and receivers de-duplicate on `webhook-id`, which is the outbox row's id and so the same on
 *   every attempt, after restarts and in replays.
 * - Rows of a disabled endpoint are not claimed; they wait, due, until it is enabled again.
 * - Each attempt re-checks the endpoint's addresses (SSRF guard) and connects to the address it checked.
 * - Only a 2xx answer succeeds; redirects are not followed (a 3xx is a failure). 410 Gone disables the endpoint
 *   at once. 429 and 503 are retried after their Retry-After when they give one. Otherwise the next attempt
 *   follows `webhooks.retry_schedule` plus up to 10 % jitter (so endpoints that failed together do not all return
 *   at the same instant); after the last step the delivery fails, and an endpoint whose deliveries fail that way
 *   `disable_after_failures` times in a row is disabled, with the reason on the endpoint. A success resets it.
 * - Each attempt, its outcome and the endpoint's state are one durable write; `stop()` stops claiming and waits
 *   for requests in flight.
 */
import { and, eq, sql } from "drizzle-orm";
import { engineOf, notifyAtCommit } from "../db/dialect.ts";
import { POLICY_CHANGED } from "../db/read-cache.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { readBodyPrefix } from "../lib/capped-body.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import { EndpointRefused, pinnedRequest, type EndpointGuard } from "../lib/endpoint-guard.ts";
import { claimOnPostgres, createLeasedQueue, type ClaimStatements, type LeasedQueue } from "../queue/leased-queue.ts";
import { outboxStatements } from "./repo.ts";
import type { Signer, SigningKeys } from "./signing.ts";

export interface DispatcherOptions {
  concurrency: number;
  perEndpointConcurrency: number;
  /** Delays before the 2nd, 3rd, … attempt; one attempt more than its length in all. */
  schedule: readonly number[];
  timeoutMs: number;
  disableAfterFailures: number;
  leaseMs: number;
  pollMs: number;
}

export type WebhookDispatcher = LeasedQueue;

/** What one HTTP attempt came to. */
export interface AttemptOutcome {
  statusCode: number | null;
  responseBody: string | null;
  error: string | null;
  retryAfterMs?: number;
  durationMs: number;
}

export type Decision =
  | { status: "succeeded" }
  | { status: "failed"; disableReason?: string; exhausted: boolean }
  | { status: "pending"; delayMs: number };

const RESPONSE_PREFIX_BYTES = 1024;
const JITTER = 0.1;
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
const USER_AGENT = "Mailroom-Webhooks/1";

/**
 * The retry rules as a pure function: what happens after attempt number `step` (1-based within the current pass
 * through the schedule) came to `outcome`.
 */
export function decide(
  outcome: Pick<AttemptOutcome, "statusCode" | "retryAfterMs">,
  step: number,
  schedule: readonly number[],
  random: () => number,
): Decision {
  const code = outcome.statusCode;
  if (code !== null && code >= 200 && code < 300) return { status: "succeeded" };
  if (code === 410) return { status: "failed", disableReason: "the endpoint answered 410 Gone", exhausted: false };
  if (step > schedule.length) return { status: "failed", exhausted: true };
  if ((code === 429 || code === 503) && outcome.retryAfterMs !== undefined)
    return { status: "pending", delayMs: outcome.retryAfterMs };
  const base = schedule[step - 1]!;
  return { status: "pending", delayMs: Math.round(base * (1 + JITTER * random())) };
}

/** Retry-After as delta-seconds or an HTTP-date (RFC 9110 §10.2.3), bounded to [1 s, 24 h]. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 1000), MAX_RETRY_AFTER_MS);
}

interface Claimed extends SigningKeys {
  id: string;
  endpointId: string;
  organizationId: string;
  url: string;
  payload: string;
}

/** The claim statements on `tx`: PostgreSQL's one (leased-queue.ts `claimOnPostgres`), SQLite's three steps. */
function claimStatements(tx: Db): ClaimStatements<Claimed> {
  if (engineOf(tx) !== "postgres") return outboxStatements(tx);
  return {
    claim: claimOnPostgres(
      tx,
      "webhook_claim",
      {
        table: "webhook_deliveries",
        key: "endpoint_id",
        join: "JOIN webhook_endpoints qe ON qe.id = q.endpoint_id",
        where: "qe.enabled",
        // The jobs as `webhook_jobs` reads them; an epoch in milliseconds fits a float8 exactly, which pg reads as a number.
        jobsFrom: "webhook_endpoints e",
        jobsWhere: "e.id = d.endpoint_id",
        returning: `d.id, d.endpoint_id AS "endpointId", d.organization_id AS "organizationId", d.payload, e.url,
  e.secret, e.previous_secret AS "previousSecret", e.previous_secret_until::float8 AS "previousSecretUntil"`,
      },
      ({ claim_key: _key, ...job }) => job as unknown as Claimed,
    ),
  };
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: string }).name;
  if (name === "TimeoutError" || name === "AbortError") return `no answer within ${timeoutMs / 1000} s`;
  const code = (error as { code?: string }).code;
  return `connection failed${code ? ` (${code})` : ""}`;
}

export function createWebhookDispatcher(deps: {
  writer: Writer;
  clock: Clock;
  guard: EndpointGuard;
  signer: Signer;
  options: DispatcherOptions;
  logger: Logger;
  metrics: Metrics;
  /** Jitter source; tests may fix it. */
  random?: () => number;
  /** Extra trusted CA certificates (PEM) for endpoints; tests use it for a receiver with its own CA. */
  tlsCa?: string;
}): WebhookDispatcher {
  const { writer, clock, guard, signer, options, logger, metrics } = deps;
  const random = deps.random ?? Math.random;
  /** One HTTP POST to the endpoint's checked address. Never throws: every failure is an outcome. */
  const send = async (job: Claimed): Promise<AttemptOutcome> => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const target = await guard.resolve(new URL(job.url));
      const request = pinnedRequest(target);
      const headers = {
        ...signer.headers(job, job.id, clock.now(), job.payload),
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        host: request.host,
      };
      const https = target.url.protocol === "https:";
      const response = await fetch(request.url, {
        method: "POST",
        headers,
        body: job.payload,
        redirect: "manual",
        signal: AbortSignal.timeout(options.timeoutMs),
        // Connect directly: a proxy from the environment would make its own lookup of the name.
        proxy: false,
        tls: https ? { serverName: request.serverName, ...(deps.tlsCa && { ca: deps.tlsCa }) } : undefined,
      });
      // Only a prefix is kept for the attempt log; the rest of the answer is never read.
      const responseBody = await readBodyPrefix(response, RESPONSE_PREFIX_BYTES);
      return {
        statusCode: response.status,
        responseBody,
        error: null,
        retryAfterMs: parseRetryAfter(response.headers.get("retry-after"), clock.now()),
        durationMs: elapsed(),
      };
    } catch (error) {
      if (error instanceof EndpointRefused)
        return { statusCode: null, responseBody: null, error: `refused: ${error.reason}`, durationMs: elapsed() };
      return {
        statusCode: null,
        responseBody: null,
        error: describeNetworkError(error, options.timeoutMs),
        durationMs: elapsed(),
      };
    }
  };

  const record = (job: Claimed, outcome: AttemptOutcome) =>
    writer.write(async (tx) => {
      const { webhookEndpoints } = tablesOf(tx);
      const now = clock.now();
      const statements = outboxStatements(tx);
      const [current] = await statements.current.execute({ id: job.id });
      // Deleted with its endpoint while the request was out: nothing left to record.
      if (current?.status !== "pending") return;
      const at = isoTime(now);
      await statements.insertAttempt.execute({
        id: newId(),
        deliveryId: job.id,
        attemptedAt: at,
        statusCode: outcome.statusCode,
        responseBody: outcome.responseBody,
        error: outcome.error,
        durationMs: outcome.durationMs,
      });
      const step = current.scheduleStep + 1;
      const decision = decide(outcome, step, options.schedule, random);
      await statements.settle.execute({
        id: job.id,
        status: decision.status,
        attemptCount: current.attemptCount + 1,
        scheduleStep: step,
        nextAttemptAt: decision.status === "pending" ? now + decision.delayMs : null,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        at,
      });

      const endpoint = eq(webhookEndpoints.id, job.endpointId);
      const disable = async (reason: string) => {
        await tx
          .update(webhookEndpoints)
          .set({ enabled: false, disabledReason: reason, disabledAt: at, updatedAt: at })
          .where(and(endpoint, eq(webhookEndpoints.enabled, true)));
        await notifyAtCommit(tx, POLICY_CHANGED);
        logger.warn("webhook endpoint disabled", {
          webhook_id: job.endpointId,
          organization_id: job.organizationId,
          reason,
        });
      };
      if (decision.status === "succeeded") {
        await statements.resetFailures.execute({ endpointId: job.endpointId });
      } else if (decision.status === "failed" && decision.disableReason) {
        await disable(decision.disableReason);
      } else if (decision.status === "failed" && decision.exhausted) {
        const row = await first(
          tx
            .update(webhookEndpoints)
            .set({ consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1` })
            .where(endpoint)
            .returning({ failures: webhookEndpoints.consecutiveFailures }),
        );
        if (row && row.failures >= options.disableAfterFailures)
          await disable(`${row.failures} deliveries in a row failed after every retry`);
      }
    });

  const attempt = async (job: Claimed): Promise<AttemptOutcome> => {
    const outcome = await send(job);
    const result =
      outcome.statusCode === null
        ? outcome.error?.startsWith("refused")
          ? "refused"
          : "network_error"
        : outcome.statusCode < 300 && outcome.statusCode >= 200
          ? "success"
          : "http_error";
    metrics.inc("mailroom_webhook_attempts_total", { result });
    logger.debug("webhook attempt", {
      delivery_id: job.id,
      webhook_id: job.endpointId,
      status_code: outcome.statusCode,
      error: outcome.error,
      duration_ms: outcome.durationMs,
    });
    return outcome;
  };

  return createLeasedQueue<Claimed, AttemptOutcome>({
    writer,
    clock,
    logger,
    spec: {
      name: "webhooks",
      concurrency: options.concurrency,
      perKeyConcurrency: options.perEndpointConcurrency,
      leaseMs: options.leaseMs,
      pollMs: options.pollMs,
      statements: claimStatements,
      attempt,
      record,
    },
  });
}

/** Outbox depth for /metrics: deliveries waiting (due or for a retry) and the age of the oldest due one. */
export function outboxGauges(db: Db, clock: Clock) {
  const { webhookDeliveries } = tablesOf(db);
  return async () => {
    const now = clock.now();
    const row = await first(
      db
        .select({
          pending: sql<number>`count(*)`.mapWith(Number),
          due: sql<number>`sum(CASE WHEN ${webhookDeliveries.nextAttemptAt} <= ${now} THEN 1 ELSE 0 END)`.mapWith(
            Number,
          ),
          oldest: sql<number | null>`min(${webhookDeliveries.nextAttemptAt})`.mapWith(Number),
        })
        .from(webhookDeliveries)
        .where(sql`${webhookDeliveries.nextAttemptAt} IS NOT NULL`),
    );
    const oldest = row?.oldest ?? null;
    return {
      pending: row?.pending ?? 0,
      due: row?.due ?? 0,
      oldestDueAgeSeconds: oldest !== null && oldest <= now ? (now - oldest) / 1000 : 0,
    };
  };
}
