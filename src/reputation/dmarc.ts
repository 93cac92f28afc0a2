/**
 * DMARC aggregate reports received for a domain (docs/deliverability.md): stored as the inbound MX hands them over, listed per
 * domain, and summed per source address over some days as "who sends as you" — with, for each address, whether it
 * is one of Mailroom's: the domain's own SPF record at its return path (the one Mailroom asks for: `public_ips`,
 * the smarthost's and SES's includes) passes for it.
 *
 * Invariants: a report is stored once per domain name, reporter and report id (receivers resend); a report is
 * stored only for the domain its address belongs to or a subdomain of it (anyone may mail an `rua` address, and a
 * report about another domain would poison that domain's figures); an organisation reads the reports of its own
 * domains only, and of those only once the domain is verified — until then it has not shown it holds the name,
 * which another organisation may have added too. No answer carries a report's rows unbounded: the list gives each
 * report's first LIST_ROWS and its `row_count`, and `rows` pages through the rest; the store cuts both, so a
 * report's thousands of rows never pass through the event loop at once.
 */
import { and, desc, eq, gte, inArray } from "drizzle-orm";
import type { spf as SpfCheck } from "mailauth/lib/spf";
import { requireScope, type Actor } from "../access.ts";
import { jsonArrayLength, jsonArraySlice } from "../db/dialect.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { isUuid, newId } from "../lib/ids.ts";
import { findDomain } from "../domains/repo.ts";
// Types only: the parser and its libraries load on the CPU pool's threads, never on the main thread.
import type { DmarcReport, DmarcRow } from "./dmarc-report.ts";
import type { DmarcReportView, DmarcRowView, DmarcSummary } from "./wire.ts";

export type { DmarcReportView, DmarcRowView, DmarcSummary } from "./wire.ts";

export interface DmarcReports {
  /** Stores what the inbound MX received at `domainName`'s `rua` address; answers how many reports were new. */
  store(domainName: string, reports: DmarcReport[]): Promise<number>;
  /** Newest first, in the list shape every list has (docs/sending.md#resend-compatibility): `after` an id goes on to older, `before` to newer. */
  list(
    actor: Actor,
    domainIdOrName: string,
    page: PageOptions,
  ): Promise<{ object: "list"; has_more: boolean; data: DmarcReportView[] }>;
  /** One report's rows, page by page, in the order it keeps them. */
  rows(
    actor: Actor,
    domainIdOrName: string,
    reportId: string,
    page: PageOptions,
  ): Promise<{ object: "list"; has_more: boolean; data: DmarcRowView[] }>;
  summary(actor: Actor, domainIdOrName: string, days: number): Promise<DmarcSummary>;
}

/** Addresses whose SPF verdict is looked up per summary (by volume); any beyond are judged by `public_ips` alone. */
const SPF_CHECKED_ADDRESSES = 100;
const SPF_VERDICT_TTL_MS = 3_600_000;
const MAX_DAYS = 90;
/** Reports read per summary: a day brings one per receiver, so this is years of a busy domain's. */
const SUMMARY_REPORTS = 5_000;
/**
 * Rows summed per summary, newest reports first: 90 days of ten receivers' reports of fifty rows each, or five
 * reports at DMARC_LIMITS.rows. Anyone may mail reports, and reading more rows would hold the event loop (these take
 * about 0.3 s at worst).
 */
export const SUMMARY_ROWS = 50_000;
/** Rows of each report in the list: a report from a large receiver has a few; the rest are a page away. */
const LIST_ROWS = 20;

/**
 * A row's id: its report's id with the row's position in the last twelve hex digits — stable, as a stored report
 * never changes, and unique within its report, which is all a cursor needs.
 */
const rowId = (reportId: string, index: number) => `${reportId.slice(0, 24)}${index.toString(16).padStart(12, "0")}`;

const within = (name: string, domain: string) => name === domain || name.endsWith(`.${domain}`);

/**
 * Per source IP over several reports: messages, share of them that passed DMARC (dkim or spf pass in
 * policy_evaluated), and whether `isOwn(ip)` says the IP is ours. Sorted by messages descending.
 */
export function summarizeDmarc(
  reports: Pick<DmarcReport, "rows">[],
  isOwn: (ip: string) => boolean,
): Array<{ source_ip: string; messages: number; aligned_pass_rate: number; own: boolean }> {
  const byIp = new Map<string, { messages: number; passed: number }>();
  for (const report of reports) {
    for (const row of report.rows) {
      const sums = byIp.get(row.source_ip) ?? { messages: 0, passed: 0 };
      sums.messages += row.count;
      if (row.dkim === "pass" || row.spf === "pass") sums.passed += row.count;
      byIp.set(row.source_ip, sums);
    }
  }
  return [...byIp]
    .map(([source_ip, { messages, passed }]) => ({
      source_ip,
      messages,
      aligned_pass_rate: messages === 0 ? 0 : passed / messages,
      own: isOwn(source_ip),
    }))
    .sort((a, b) => b.messages - a.messages || (a.source_ip < b.source_ip ? -1 : a.source_ip > b.source_ip ? 1 : 0));
}

export function createDmarcReports(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  /** `[server] public_ips`. */
  publicIps: readonly string[];
  /** The configured resolver as mailauth calls it. */
  resolve: (name: string, rrtype: string) => Promise<unknown>;
  hostname: string;
}): DmarcReports {
  const { db, writer, clock } = deps;
  const { dmarcReports } = tablesOf(db);
  const spfVerdicts = new Map<string, { own: boolean; at: number }>();

  const isOwnBySpf = async (returnPathDomain: string, ip: string) => {
    const key = `${returnPathDomain} ${ip}`;
    const cached = spfVerdicts.get(key);
    if (cached && clock.now() - cached.at < SPF_VERDICT_TTL_MS) return cached.own;
    // Loaded at the first summary: the API's start need not wait for it.
    const { spf } = (await import("mailauth/lib/spf")) as { spf: typeof SpfCheck };
    const verdict = await spf({
      sender: `postmaster@${returnPathDomain}`,
      ip,
      helo: returnPathDomain,
      mta: deps.hostname,
      resolver: deps.resolve as Parameters<typeof SpfCheck>[0]["resolver"],
    }).catch(() => null);
    const own = verdict?.status?.result === "pass";
    spfVerdicts.set(key, { own, at: clock.now() });
    if (spfVerdicts.size > 10_000) spfVerdicts.delete(spfVerdicts.keys().next().value!);
    return own;
  };

  /** The organisation's verified domain, or not_found (an unverified one has no reports to show yet). */
  const verifiedDomain = async (actor: Actor, idOrName: string) => {
    requireScope(actor, "domains:read");
    const row = await findDomain(db, actor.organizationId, idOrName);
    if (!row) throw new AppError("not_found", "Domain not found.");
    return row;
  };

  return {
    async store(domainName, reports) {
      const receivedAt = isoTime(clock.now());
      const fitting = reports.filter((report) => within(report.policy_domain, domainName));
      if (!fitting.length) return 0;
      return writer.write(async (tx) => {
        let stored = 0;
        for (const report of fitting) {
          const inserted = await tx
            .insert(dmarcReports)
            .values({
              id: newId(),
              domainName,
              reporter: report.reporter.slice(0, 200),
              reportId: report.report_id.slice(0, 200),
              beginAt: report.begin,
              endAt: report.end,
              rows: report.rows,
              receivedAt,
            })
            .onConflictDoNothing()
            .returning({ id: dmarcReports.id });
          stored += inserted.length;
        }
        return stored;
      });
    },

    async list(actor, idOrName, page) {
      const row = await verifiedDomain(actor, idOrName);
      if (row.status !== "verified") return { object: "list", has_more: false, data: [] };
      const { page: reports, hasMore } = await pageById(
        dmarcReports.id,
        [eq(dmarcReports.domainName, row.name)],
        page,
        (where, order, limit) =>
          db
            .select({
              id: dmarcReports.id,
              reporter: dmarcReports.reporter,
              reportId: dmarcReports.reportId,
              beginAt: dmarcReports.beginAt,
              endAt: dmarcReports.endAt,
              firstRows: jsonArraySlice(db, dmarcReports.rows, 0, LIST_ROWS),
              rowCount: jsonArrayLength(db, dmarcReports.rows),
            })
            .from(dmarcReports)
            .where(where)
            .orderBy(order)
            .limit(limit),
      );
      return {
        object: "list",
        has_more: hasMore,
        data: reports.map((report) => ({
          object: "dmarc_report",
          id: report.id,
          reporter: report.reporter,
          report_id: report.reportId,
          begin: report.beginAt,
          end: report.endAt,
          rows: JSON.parse(report.firstRows) as DmarcRow[],
          row_count: report.rowCount,
        })),
      };
    },

    async rows(actor, idOrName, reportId, page) {
      const row = await verifiedDomain(actor, idOrName);
      const report =
        row.status === "verified" && isUuid(reportId)
          ? await first(
              db
                .select({ id: dmarcReports.id, count: jsonArrayLength(db, dmarcReports.rows) })
                .from(dmarcReports)
                .where(and(eq(dmarcReports.domainName, row.name), eq(dmarcReports.id, reportId.toLowerCase()))),
            )
          : undefined;
      if (!report) throw new AppError("not_found", "DMARC report not found.");
      /** The position a cursor names: one of this report's row ids, or a refusal naming the parameter. */
      const position = (name: "after" | "before", cursor: string) => {
        const index = Number.parseInt(cursor.slice(24), 16);
        if (cursor.slice(0, 24) !== report.id.slice(0, 24) || index >= report.count)
          throw validationError([{ path: name, message: "must be the id of a row of this report" }]);
        return index;
      };
      // `after` goes on from the row after it; `before` alone takes the rows just before it (db/pages.ts's rule).
      const from = page.after ? position("after", page.after) + 1 : 0;
      const to = page.before ? position("before", page.before) : report.count;
      const backwards = page.before !== undefined && page.after === undefined;
      const start = backwards ? Math.max(from, to - page.limit) : from;
      const stop = backwards ? to : Math.max(from, Math.min(to, from + page.limit));
      const slice = await first(
        db
          .select({ rows: jsonArraySlice(db, dmarcReports.rows, start, stop) })
          .from(dmarcReports)
          .where(eq(dmarcReports.id, report.id)),
      );
      const rows = JSON.parse(slice?.rows ?? "[]") as DmarcRow[];
      return {
        object: "list",
        has_more: backwards ? start > from : stop < to,
        data: rows.map((entry, offset) => ({ id: rowId(report.id, start + offset), ...entry })),
      };
    },

    async summary(actor, idOrName, days) {
      if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS)
        throw validationError([{ path: "days", message: `must be a whole number from 1 to ${MAX_DAYS}` }]);
      const row = await verifiedDomain(actor, idOrName);
      // The newest reports whose rows fit SUMMARY_ROWS: their sizes are counted by the store, then only they are read.
      const sizes =
        row.status === "verified"
          ? await db
              .select({ id: dmarcReports.id, count: jsonArrayLength(db, dmarcReports.rows) })
              .from(dmarcReports)
              .where(
                and(
                  eq(dmarcReports.domainName, row.name),
                  gte(dmarcReports.endAt, isoTime(clock.now() - days * 86_400_000)),
                ),
              )
              .orderBy(desc(dmarcReports.endAt))
              .limit(SUMMARY_REPORTS)
          : [];
      const summed: string[] = [];
      let rowsLeft = SUMMARY_ROWS;
      for (const size of sizes) {
        if (size.count > rowsLeft) break;
        rowsLeft -= size.count;
        summed.push(size.id);
      }
      const reports = summed.length
        ? await db.select({ rows: dmarcReports.rows }).from(dmarcReports).where(inArray(dmarcReports.id, summed))
        : [];
      const publicIps = new Set(deps.publicIps);
      const bySource = summarizeDmarc(reports, (ip) => publicIps.has(ip));
      const returnPathDomain = `${row.returnPathSubdomain}.${row.name}`;
      const data = await Promise.all(
        bySource.map(async (entry, index) =>
          entry.own || index >= SPF_CHECKED_ADDRESSES
            ? entry
            : { ...entry, own: await isOwnBySpf(returnPathDomain, entry.source_ip) },
        ),
      );
      return { object: "dmarc_summary", domain: row.name, days, reports: reports.length, data };
    },
  };
}
