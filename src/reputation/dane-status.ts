/**
 * DANE per destination (docs/deliverability.md#dane-per-destination): for one sending domain, the destinations its
 * live mail went to in the last days, and for each MX host direct delivery negotiated with there, whether it had
 * DNSSEC-secure TLSA records and what the last negotiation came to — verified, mismatched or bogus (deferred 4.7.5),
 * or, without secure TLSA records, the MTA-STS policy or the domain's `tls` setting deciding.
 *
 * The outcomes are the ones the MX provider already reports for TLS reporting (providers/mx.ts → tls-reports.ts,
 * `tls_rpt_counts`, whose `last_at` says which was last); this module only reads them. Invariants: read with
 * `domains:read`, for the caller's own domain; a destination is shown only when that domain's mail went there, so
 * an organisation never learns where another one sends; bounded reads (at most `MAX_DESTINATIONS` destinations, the
 * window's rows of those only).
 */
import { and, eq, gte, inArray, sql } from "drizzle-orm";
import { requireScope, type Actor } from "../access.ts";
import { tablesOf, type Db } from "../db/store.ts";
import { findDomain } from "../domains/repo.ts";
import { AppError } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import type { DaneDestinationView, DomainDaneView } from "./wire.ts";

/** The window: destinations of the last week, as long as the TLS reports' periods are counted by default. */
export const DANE_WINDOW_DAYS = 7;
/** Destinations read at most: a domain that mails thousands of them shows its latest ones. */
const MAX_DESTINATIONS = 200;
const DAY = 86_400_000;

export interface DaneStatus {
  /** The domain's destinations and their DANE outcomes, most recent first. */
  forDomain(actor: Actor, idOrName: string): Promise<DomainDaneView>;
}

type Row = { policyType: "sts" | "tlsa" | "no-policy-found"; result: string };

/** What a counted negotiation says of DANE: the TLSA state, and the outcome in the UI's words. */
export function daneOutcome(row: Row, daneOn: boolean): Pick<DaneDestinationView, "tlsa" | "outcome"> {
  // mx.ts counts a TLSA answer that failed validation as a tlsa session with the result dnssec-invalid.
  if (row.result === "dnssec-invalid") return { tlsa: "bogus", outcome: "bogus" };
  if (row.policyType === "tlsa")
    return { tlsa: "secure", outcome: row.result === "success" ? "verified" : "mismatched" };
  return {
    tlsa: daneOn ? "none" : "unchecked",
    outcome: row.policyType === "sts" ? "mta_sts" : "tls_policy",
  };
}

/** `text` matched literally by LIKE (with ESCAPE '\'). */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function createDaneStatus(deps: {
  db: Db;
  clock: Clock;
  /** Whether a direct-delivery provider checks TLSA records ([mx] dane = "on"). */
  daneOn: boolean;
}): DaneStatus {
  const { db, clock } = deps;
  const { deliveries, emails, tlsRptCounts } = tablesOf(db);

  return {
    async forDomain(actor, idOrName) {
      requireScope(actor, "domains:read");
      const domain = await findDomain(db, actor.organizationId, idOrName);
      if (!domain) throw new AppError("not_found", "Domain not found.");
      const since = clock.now() - DANE_WINDOW_DAYS * DAY;
      // Where this domain's live mail went (the envelope sender's domain, as the guardrails count a domain's mail).
      const sent = await db
        .selectDistinct({ destination: deliveries.destination })
        .from(deliveries)
        .innerJoin(emails, eq(emails.id, deliveries.emailId))
        .where(
          and(
            eq(deliveries.organizationId, actor.organizationId),
            gte(deliveries.updatedAt, isoTime(since)),
            eq(emails.mode, "live"),
            sql`lower(${emails.envelopeFrom}) LIKE ${`%@${literal(domain.name.toLowerCase())}`} ESCAPE '\\'`,
          ),
        )
        .limit(MAX_DESTINATIONS);
      const view: DomainDaneView = {
        object: "dane_status",
        dane: deps.daneOn ? "on" : "off",
        days: DANE_WINDOW_DAYS,
        data: [],
      };
      if (sent.length === 0) return view;
      const rows = await db
        .select({
          destination: tlsRptCounts.policyDomain,
          mxHost: tlsRptCounts.mxHost,
          policyType: tlsRptCounts.policyType,
          result: tlsRptCounts.result,
          lastAt: tlsRptCounts.lastAt,
          sessions: tlsRptCounts.sessions,
        })
        .from(tlsRptCounts)
        .where(
          and(
            inArray(
              tlsRptCounts.policyDomain,
              sent.map((row) => row.destination),
            ),
            gte(tlsRptCounts.lastAt, since),
          ),
        );
      // One line per destination and MX host: its last negotiation, and every negotiation of the window counted.
      const hosts = new Map<string, { last: (typeof rows)[number]; sessions: number }>();
      for (const row of rows) {
        const key = `${row.destination} ${row.mxHost}`;
        const seen = hosts.get(key);
        if (!seen) hosts.set(key, { last: row, sessions: row.sessions });
        else {
          seen.sessions += row.sessions;
          if (row.lastAt > seen.last.lastAt) seen.last = row;
        }
      }
      view.data = [...hosts.values()]
        .sort((a, b) => b.last.lastAt - a.last.lastAt)
        .map(({ last, sessions }) => ({
          destination: last.destination,
          mx_host: last.mxHost,
          ...daneOutcome(last, deps.daneOn),
          result: last.result,
          last_at: isoTime(Number(last.lastAt)),
          sessions,
        }));
      return view;
    },
  };
}
