/**
 * HTTP routes of deliverability (DESIGN §14): the organisation's and its domains' sending health with the
 * blocklists' answers about the sending addresses, and the DMARC aggregate reports receivers sent about each domain.
 */
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { parsePage } from "../http/query.ts";
import type { DmarcReports } from "./dmarc.ts";
import type { Blocklists } from "./blocklists.ts";
import { requireScope } from "../access.ts";
import type { SendingIps } from "../providers/sending-ips.ts";
import type { Guardrails } from "./guardrails.ts";

export function deliverabilityRoutes(
  deps: AuthDeps & {
    guardrails: Guardrails;
    dmarcReports: DmarcReports;
    blocklists: Blocklists;
    sendingIps: Pick<SendingIps, "state">;
  },
) {
  const { guardrails, dmarcReports, blocklists, sendingIps } = deps;
  const tags = ["Deliverability"];
  return new Elysia()
    .use(authenticated(deps))
    .get(
      "/v1/sending/health",
      async ({ actor }) => ({ ...(await guardrails.overview(actor)), blocklists: await blocklists.listings() }),
      {
        detail: {
          summary:
            "Bounce and complaint rates over the guardrails' window, for the organisation and each sending domain, and what they led to (ok, warning, paused); and the blocklists' last answers about the sending addresses",
          tags,
        },
      },
    )
    .get(
      "/v1/ip-pools",
      async ({ actor }) => {
        requireScope(actor, "domains:read");
        return { object: "list", data: await sendingIps.state(actor.organizationId) };
      },
      {
        detail: {
          summary:
            "The IP pools of direct delivery ([ip_pools.<name>]) open to the caller's organisation: each address, its warm-up day and today's cap, today's messages per destination provider, and the providers whose rate is halved after throttling",
          tags,
        },
      },
    )
    .get("/v1/domains/:id/dmarc", ({ actor, params, query }) => dmarcReports.list(actor, params.id, parsePage(query)), {
      detail: {
        summary:
          "DMARC aggregate reports receivers sent about a verified domain (to the rua of its suggested record), newest first (?limit, after, before): each with its first 20 rows, heaviest source first, and its row_count",
        tags,
      },
    })
    .get(
      "/v1/domains/:id/dmarc/:report_id/rows",
      ({ actor, params, query }) => dmarcReports.rows(actor, params.id, params.report_id, parsePage(query)),
      {
        detail: {
          summary: "The rows of one DMARC report, page by page (?limit, after, before: a row's id)",
          tags,
        },
      },
    )
    .get(
      "/v1/domains/:id/dmarc/summary",
      ({ actor, params, query }) =>
        dmarcReports.summary(actor, params.id, query.days === undefined ? 7 : Number(query.days)),
      {
        detail: {
          summary:
            "Who sends as the domain: per source address over the last days (?days=7), messages, the share that passed DMARC aligned, and whether the address is one of Mailroom's",
          tags,
        },
      },
    );
}
