/**
 * DMARC aggregate reports mailed to `dmarc@<return path>` of a verified domain (docs/deliverability.md#dmarc-aggregate-reports),
 * as the incoming funnel receives them: which addresses take them, and reading them once for every such address a
 * message reached. Invariant: a message holding no report it can read is refused (554 5.6.0), so a zip bomb costs
 * its sender a bounce and Mailroom nothing stored.
 */
import type { DomainService } from "../domains/service.ts";
import { DMARC_REPORT_LOCAL } from "../domains/records.ts";
import { AppError } from "../errors.ts";
import { normalizeDomain } from "../lib/addresses.ts";
import type { Metrics } from "../lib/metrics.ts";
import type { DmarcMessage, DmarcReport } from "../reputation/dmarc-report.ts";

/** Where the reports mailed to `dmarc@<return path>` go: read off the event loop, then stored per domain. */
export interface DmarcIntake {
  read(raw: Buffer, tenant: string): Promise<DmarcMessage>;
  store(domainName: string, reports: DmarcReport[]): Promise<number>;
}

export function dmarcReceiver(deps: { domains: DomainService; dmarc: DmarcIntake; metrics: Metrics }) {
  const { domains, metrics } = deps;
  /** The domain as domains are stored (lower-case punycode); smtp-server hands IDNs over in Unicode. */
  const domainOf = (address: string) => {
    const domain = normalizeDomain(address.slice(address.lastIndexOf("@") + 1));
    return "error" in domain ? "" : domain.domain;
  };
  return {
    domainOf,
    /** The domain whose DMARC reports `address` receives (`dmarc@<return path>` of a verified domain), or null. */
    dmarcReportDomain(address: string) {
      const at = address.lastIndexOf("@");
      return address.slice(0, at).toLowerCase() === DMARC_REPORT_LOCAL
        ? domains.dmarcReportDomain(domainOf(address))
        : Promise.resolve(null);
    },
    /** Reads the reports once for every `rua` address the message reached; a message with none is refused (5xx). */
    async receiveDmarcReports(raw: Buffer, domainNames: string[], tenant: string) {
      const { reports, refused } = await deps.dmarc.read(raw, tenant);
      if (!reports.length) {
        metrics.inc("mailroom_inbound_reports_total", { kind: "dmarc", reason: "refused" });
        throw new AppError("validation_error", `DMARC report refused: ${refused.join("; ")}`);
      }
      const outcomes: Array<{ handled: "dmarc_report"; domain: string; reports: number; stored: number }> = [];
      for (const domain of domainNames) {
        const stored = await deps.dmarc.store(domain, reports);
        metrics.inc("mailroom_inbound_reports_total", { kind: "dmarc", reason: stored ? "applied" : "repeated" });
        outcomes.push({ handled: "dmarc_report", domain, reports: reports.length, stored });
      }
      return outcomes;
    },
  };
}
