/**
 * HTTP routes of deliverability (docs/deliverability.md): the organisation's and its domains' sending health with
 * the blocklists' answers about the sending addresses, the IP pools open to the organisation, and the DMARC
 * aggregate reports receivers sent about each domain, and each domain's DANE outcomes per destination — each route one
 * contract (http/contract.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { requireScope } from "../access.ts";
import { pageOfList } from "../db/pages.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { ListOf, PageQuery } from "../lib/wire.ts";
import type { SendingIps } from "../providers/sending-ips.ts";
import { IpPoolSchema } from "../providers/wire.ts";
import type { Blocklists } from "./blocklists.ts";
import type { DaneStatus } from "./dane-status.ts";
import type { DmarcReports } from "./dmarc.ts";
import type { Guardrails } from "./guardrails.ts";
import {
  DmarcReportRowSchema,
  DmarcReportSchema,
  DmarcSummarySchema,
  DomainDaneSchema,
  SendingHealthOverviewSchema,
} from "./wire.ts";

const tags = ["Deliverability"];
const Domain = t.Object({ id: t.String({ description: "The domain's id, or its name" }) });
/** Pools have names, not ids: their pages' cursors are names. */
const PoolPage = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 100, description: "How many, 1 to 100" })),
  after: t.Optional(t.String({ description: "the name of the last pool of the page before" })),
  before: t.Optional(t.String({ description: "the name of the first pool of the page after" })),
});

export function deliverabilityRoutes(
  deps: AuthDeps & {
    guardrails: Guardrails;
    dmarcReports: DmarcReports;
    blocklists: Blocklists;
    sendingIps: Pick<SendingIps, "state">;
    daneStatus: DaneStatus;
  },
) {
  const { guardrails, dmarcReports, blocklists, sendingIps, daneStatus } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "GET",
        path: "/v1/sending/health",
        summary:
          "Bounce and complaint rates over the guardrails' window, for the organisation and each sending domain, and what they led to (ok, warning, paused); and the blocklists' last answers about the sending addresses",
        tags,
        responses: { 200: SendingHealthOverviewSchema },
      },
      async ({ actor }) => ({ ...(await guardrails.overview(actor)), blocklists: await blocklists.listings() }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/ip-pools",
        summary:
          "The IP pools of direct delivery ([ip_pools.<name>]) open to the caller's organisation: each address, its warm-up day and today's cap, today's messages per destination provider, and the providers whose rate is halved after throttling",
        tags,
        query: PoolPage,
        responses: { 200: ListOf(IpPoolSchema) },
      },
      async ({ actor, query }) => {
        requireScope(actor, "domains:read");
        // A page of the configured pools, in memory; 100 by default, so a caller that does not page sees them all.
        const pools = (await sendingIps.state(actor.organizationId)).map((pool) => ({ id: pool.name, pool }));
        const { page, hasMore } = pageOfList(pools, { ...query, limit: query.limit ?? 100 });
        return { object: "list" as const, has_more: hasMore, data: page.map((entry) => entry.pool) };
      },
    ),
    route(
      {
        method: "GET",
        path: "/v1/domains/:id/dmarc",
        summary:
          "DMARC aggregate reports receivers sent about a verified domain (to the rua of its suggested record), newest first: each with its first 20 rows, heaviest source first, and its row_count",
        tags,
        params: Domain,
        query: t.Object(PageQuery),
        responses: { 200: ListOf(DmarcReportSchema) },
      },
      ({ actor, params, query }) => dmarcReports.list(actor, params.id, { ...query, limit: query.limit ?? 20 }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/domains/:id/dmarc/:report_id/rows",
        summary: "The rows of one DMARC report, page by page (after and before: a row's id)",
        tags,
        params: t.Object({
          id: t.String({ description: "The domain's id, or its name" }),
          report_id: t.String({ description: "The report's id" }),
        }),
        query: t.Object(PageQuery),
        responses: { 200: ListOf(DmarcReportRowSchema) },
      },
      // A row's id is compared as stored (lower case); a cursor may come back in capitals.
      ({ actor, params, query }) =>
        dmarcReports.rows(actor, params.id, params.report_id, {
          limit: query.limit ?? 20,
          after: query.after?.toLowerCase(),
          before: query.before?.toLowerCase(),
        }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/domains/:id/dmarc/summary",
        summary:
          "Who sends as the domain: per source address over the last days, messages, the share that passed DMARC aligned, and whether the address is one of Mailroom's",
        tags,
        params: Domain,
        query: t.Object({
          days: t.Optional(t.Integer({ minimum: 1, maximum: 90, default: 7, description: "The days to sum, 1 to 90" })),
        }),
        responses: { 200: DmarcSummarySchema },
      },
      ({ actor, params, query }) => dmarcReports.summary(actor, params.id, query.days ?? 7),
    ),
    route(
      {
        method: "GET",
        path: "/v1/domains/:id/dane",
        summary:
          "DANE per destination (RFC 7672): each MX host the domain's live mail reached by direct delivery in the last 7 days, whether it had DNSSEC-secure TLSA records, and the last negotiation's outcome",
        tags,
        params: Domain,
        responses: { 200: DomainDaneSchema },
      },
      ({ actor, params }) => daneStatus.forDomain(actor, params.id),
    ),
  ]);
}
