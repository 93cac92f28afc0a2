/**
 * The HTTP root and route table, the one module that imports every area's routes: request ids, access logs and
 * metrics, the error mapping of every route, 404/405 for unknown routes, operations endpoints and the feature
 * routes. Invariant: every response — success or failure — carries `X-Request-Id`, and every failure has the
 * contract's error body.
 */
import { Elysia } from "elysia";
import { aiRoutes } from "../ai/routes.ts";
import type { AiService } from "../ai/service.ts";
import type { Config } from "../config/options.ts";
import type { SendingPauses } from "../deliveries/pauses.ts";
import type { DeliveryQueue } from "../deliveries/queue.ts";
import { deliveryRoutes, queueRoutes } from "../deliveries/routes.ts";
import type { SesEventIntake } from "../deliveries/provider-events.ts";
import { domainRoutes } from "../domains/routes.ts";
import { deliverabilityRoutes } from "../reputation/routes.ts";
import type { Guardrails } from "../reputation/guardrails.ts";
import type { DaneStatus } from "../reputation/dane-status.ts";
import type { DmarcReports } from "../reputation/dmarc.ts";
import type { Blocklists } from "../reputation/blocklists.ts";
import type { SendingIps } from "../providers/sending-ips.ts";
import type { DomainService } from "../domains/service.ts";
import type { Idempotency } from "../idempotency/service.ts";
import { emailRoutes } from "../emails/routes.ts";
import type { EmailService } from "../emails/service.ts";
import { AppError, validationError } from "../errors.ts";
import { hostNameOf } from "../http/client.ts";
import { inboundRoutes } from "../inbound/routes.ts";
import type { Mailbox } from "../inbound/mailbox.ts";
import { keyRoutes } from "../keys/routes.ts";
import { organizationRoutes } from "../organizations/routes.ts";
import { peopleRoutes } from "../people/routes.ts";
import type { Members } from "../people/members.ts";
import type { People } from "../people/service.ts";
import type { SingleSignOn } from "../people/sso.ts";
import type { OrganizationService } from "../organizations/service.ts";
import type { KeyService } from "../keys/service.ts";
import type { RateLimiter } from "../limits/rate-limiter.ts";
import type { Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import { suppressionRoutes } from "../suppressions/routes.ts";
import { inboundRouteRoutes } from "../inbound-routes/routes.ts";
import type { InboundRoutes } from "../inbound-routes/service.ts";
import { audienceRoutes } from "../contacts/audience-routes.ts";
import type { PropertyService, SegmentService, TopicService } from "../contacts/audience.ts";
import type { ContactImports } from "../contacts/imports.ts";
import type { Membership } from "../contacts/membership.ts";
import { contactRoutes } from "../contacts/routes.ts";
import { broadcastRoutes } from "../broadcasts/routes.ts";
import type { BroadcastService } from "../broadcasts/service.ts";
import type { ContactService } from "../contacts/service.ts";
import { templateRoutes } from "../templates/routes.ts";
import type { SentAttachments } from "../emails/attachments.ts";
import type { EmailMetricsService } from "../emails/metrics.ts";
import type { EmailStatsService } from "../emails/stats.ts";
import type { TemplateService } from "../templates/service.ts";
import type { SuppressionService } from "../suppressions/service.ts";
import { trackingRoutes } from "../tracking/routes.ts";
import type { TrackingService } from "../tracking/service.ts";
import { webhookRoutes } from "../webhooks/routes.ts";
import type { WebhookService } from "../webhooks/service.ts";
import { docsRoutes } from "../http/docs.ts";
import { uiRoutes } from "../admin-ui/routes.ts";
import { leftBodyUnread } from "../http/body.ts";
import { metricsScrape } from "./metrics-listener.ts";
import { describeFailure, failureResponse } from "../http/errors.ts";
import { traceOf, tracedOf } from "../http/request-trace.ts";
import type { RequestRecorder } from "../logs/recorder.ts";
import { logRoutes } from "../logs/routes.ts";
import type { RequestLogs } from "../logs/service.ts";
import { usageRoutes } from "../usage/routes.ts";
import { mcpRoutes } from "../mcp/routes.ts";
import type { UsageService } from "../usage/service.ts";

export interface HttpDeps {
  config: Config;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  keys: KeyService;
  organizations: OrganizationService;
  people: People;
  members: Members;
  sso: SingleSignOn;
  limiter: RateLimiter;
  emails: EmailService;
  idempotency: Idempotency;
  suppressions: SuppressionService;
  contacts: ContactService;
  membership: Membership;
  segments: SegmentService;
  topics: TopicService;
  contactProperties: PropertyService;
  contactImports: ContactImports;
  broadcasts: BroadcastService;
  domains: DomainService;
  webhooks: WebhookService;
  tracking: TrackingService;
  mailbox: Mailbox;
  inboundRoutes: InboundRoutes;
  templates: TemplateService;
  ai: AiService;
  sesEvents: SesEventIntake;
  queue: DeliveryQueue;
  pauses: SendingPauses;
  guardrails: Guardrails;
  dmarcReports: DmarcReports;
  daneStatus: DaneStatus;
  blocklists: Blocklists;
  sendingIps: SendingIps;
  sentAttachments: SentAttachments;
  emailStats: EmailStatsService;
  emailMetrics: EmailMetricsService;
  requestLog: RequestRecorder;
  requestLogs: RequestLogs;
  usage: UsageService;
  version: string;
  /** False while starting or shutting down: /readyz answers 503. */
  isReady: () => boolean;
}

interface RequestMeta {
  id: string;
  started: number;
}

/** Compiles Elysia route paths (`/v1/emails/:id`) to matchers, to tell 405 from 404. */
function routeMatchers(routes: Array<{ method: string; path: string }>) {
  return routes.map((route) => ({
    method: route.method,
    pattern: new RegExp(
      `^${route.path
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace(/:[^/]+/g, "[^/]+")
        .replace(/\*/g, ".*")}/?$`,
    ),
  }));
}

/** The paths a tracking host answers: the open pixel, click redirects and unsubscribe pages (tracking/routes.ts). */
const TRACKING_PATH = /^\/(?:t\/[oc]|u)\/[^/]+$/;

export function createHttpApp(deps: HttpDeps) {
  const { logger, metrics } = deps;
  const meta = new WeakMap<Request, RequestMeta>();
  const scrapeMetrics = metricsScrape(metrics, deps.config.metrics.token);
  let router: { handle: (request: Request) => Promise<Response> } | undefined;

  // standardHostname: false — the framework otherwise looks for the path from the 12th character of the URL,
  // which routes `Host: x` + `/v1/emails` to `/emails`.
  const app = new Elysia({ handler: { standardHostname: false } })
    .onRequest(async ({ request, set }) => {
      const id = newId();
      meta.set(request, { id, started: performance.now() });
      set.headers["x-request-id"] = id;
      // A domain's tracking host (docs/deliverability.md) serves its links and nothing else: the API and the admin UI under a
      // sender's own name would lend them its reputation (and its cookies' scope).
      const host = hostNameOf(request);
      if (host && (await deps.domains.isTrackingHost(host))) {
        const path = new URL(request.url).pathname;
        if (!TRACKING_PATH.test(path)) throw new AppError("not_found", `No route for ${request.method} ${path}.`);
      }
    })
    // Path parameters are decoded once, by the router; a malformed escape (`%zz`) reaches routes as null.
    .onTransform(({ params }) => {
      const malformed = Object.entries(params ?? {}).filter(([, value]) => value === null || value === undefined);
      if (malformed.length)
        throw validationError(
          malformed.map(([name]) => ({ path: name, message: "malformed percent-encoding in the path" })),
        );
    })
    .onError(({ error, code, request, set }) => {
      const requestId = meta.get(request)?.id ?? newId();
      let thrown: unknown = error;
      if (code === "NOT_FOUND") {
        const path = new URL(request.url).pathname;
        const allowed = [...new Set(matchers.filter((m) => m.pattern.test(path)).map((m) => m.method))];
        thrown = allowed.length
          ? new AppError("method_not_allowed", `${request.method} is not allowed here; use ${allowed.join(", ")}.`)
          : new AppError("not_found", `No route for ${request.method} ${path}.`);
        if (allowed.length) set.headers.allow = allowed.join(", ");
      } else if (code === "PARSE") {
        thrown = new AppError("validation_error", "The request body could not be parsed.");
      } else if (code === "VALIDATION") {
        thrown = new AppError("validation_error", "The request is invalid.", {
          details: [{ path: "", message: String((error as Error).message).slice(0, 500) }],
        });
      }
      const failure = describeFailure(thrown, requestId, logger);
      set.status = failure.status;
      Object.assign(set.headers, failure.headers, { "x-request-id": requestId });
      if (leftBodyUnread(thrown)) set.headers.connection = "close";
      traceOf(request).answer = failure.body;
      return failure.body;
    })
    .onAfterResponse(({ request, route, set }) => {
      const info = meta.get(request);
      const status = typeof set.status === "number" ? set.status : 200;
      metrics.inc("mailroom_http_requests_total", {
        route: route || "unmatched",
        method: request.method,
        status: String(status),
      });
      logger.debug("http request", {
        request_id: info?.id,
        method: request.method,
        route,
        status,
        duration_ms: info ? Math.round((performance.now() - info.started) * 100) / 100 : undefined,
      });
      recordRequest(deps.requestLog, request, status);
    })
    .get("/healthz", () => ({ status: "ok" }), { detail: { tags: ["Operations"], summary: "Liveness" } })
    .get(
      "/readyz",
      ({ set }) => {
        if (deps.isReady()) return { status: "ready" };
        set.status = 503;
        return { status: "not_ready" };
      },
      { detail: { tags: ["Operations"], summary: "Readiness: 503 while starting or draining" } },
    )
    // With a listener of its own ([metrics] listen), the API's port does not serve it at all.
    .use(
      deps.config.metrics.listen
        ? new Elysia()
        : new Elysia().get("/metrics", ({ request }) => scrapeMetrics(request), {
            detail: {
              tags: ["Operations"],
              summary: "Prometheus metrics (Authorization: Bearer <[metrics] token> when one is set)",
            },
          }),
    )
    .use(docsRoutes(deps.version))
    .use(uiRoutes(deps.config))
    // Before the emails' routes: `/v1/emails/receiving…` is not an email id.
    .use(inboundRoutes(deps))
    .use(emailRoutes(deps))
    .use(keyRoutes(deps))
    .use(suppressionRoutes(deps))
    .use(inboundRouteRoutes(deps))
    .use(contactRoutes(deps))
    .use(audienceRoutes(deps))
    .use(broadcastRoutes(deps))
    .use(domainRoutes(deps))
    .use(webhookRoutes(deps))
    .use(templateRoutes(deps))
    .use(aiRoutes(deps))
    .use(deliveryRoutes(deps))
    .use(queueRoutes(deps))
    .use(deliverabilityRoutes(deps))
    .use(organizationRoutes(deps))
    .use(peopleRoutes(deps))
    .use(logRoutes(deps))
    .use(usageRoutes(deps))
    // Its tools call the API's routes through this app's own router (the app exists by the time a tool is called).
    .use(mcpRoutes({ ...deps, handle: () => router!.handle }))
    .use(trackingRoutes(deps));

  const matchers = routeMatchers(app.routes);
  router = { handle: (request) => app.handle(request) };
  return app;
}

export type HttpApp = ReturnType<typeof createHttpApp>;

/**
 * Hands a finished API request made with a key to the request log (docs/logs-and-mcp.md#the-request-log): its path as
 * Resend names it (no `/v1`), its status, user agent and the bodies its trace holds. A person's requests (the admin
 * UI's, by session) are the audit log's business, not this one's.
 */
function recordRequest(log: RequestRecorder, request: Request, status: number): void {
  const trace = tracedOf(request);
  const actor = trace?.actor;
  if (!trace || !actor?.keyId) return;
  const path = new URL(request.url).pathname;
  log.record({
    organizationId: actor.organizationId,
    apiKeyId: actor.keyId,
    mode: actor.mode,
    endpoint: path.startsWith("/v1/") ? path.slice(3) : path,
    method: request.method,
    status,
    userAgent: request.headers.get("user-agent"),
    requestBody: trace.body,
    responseBody: trace.answer,
  });
}

export interface HttpListenOptions {
  hostname: string;
  port: number;
  /** Seconds a connection may stay silent (a trickled body included) before it is closed. */
  idleTimeout: number;
}

/**
 * A request target the router cannot take: CONNECT (its target is an authority, not a path, RFC 9110 §9.3.6) and
 * anything whose URL does not parse. Refused here because the framework would throw on them.
 */
function unroutable(request: Request): AppError | null {
  if (request.method === "CONNECT") return new AppError("method_not_allowed", "CONNECT is not allowed here.");
  if (!URL.canParse(request.url)) return new AppError("validation_error", "The request target is not a path.");
  return null;
}

/**
 * Binds the listener. The server is Bun's, started here rather than by the framework so that every request
 * passes `unroutable` first and a failure outside any route still gets the error shape — never Bun's HTML error
 * page, which shows paths and stack frames (`development` is false whatever NODE_ENV says).
 */
export function listenHttp(app: HttpApp, logger: Logger, options: HttpListenOptions) {
  const server = Bun.serve({
    ...options,
    development: false,
    // The body parser enforces max_body_bytes with the error shape (src/http/body.ts); Bun's own limit would
    // answer an over-long body with a bare 413 of its own, so it sits far above.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    // Two processes must never share a port by accident.
    reusePort: false,
    fetch(request) {
      const refusal = unroutable(request);
      if (refusal)
        return failureResponse(
          refusal,
          newId(),
          logger,
          refusal.name === "method_not_allowed" ? { allow: "GET, POST, PATCH, DELETE" } : {},
        );
      return app.fetch(request);
    },
    error: (error) => failureResponse(error, newId(), logger),
  });
  // Routes read the client address (tracking) through the framework's server handle.
  app.server = server;
  return server;
}
