/**
 * `tls-rpt send`: sends now the TLS reports (RFC 8460) of every period that has ended, as the server's periodic job
 * would, and says how many went, were not asked for, or wait to be tried again.
 */
import type { CommandGroup } from "./context.ts";
import { out } from "./output.ts";

export const tlsRpt = {
  async send({ services, print }) {
    const tally = await services.tlsReports.sendDue();
    print(tally, () =>
      out(
        `TLS reports: ${tally.sent} sent, ${tally.notAsked} not asked for (no _smtp._tls record), ${tally.failed} not delivered (tried again later)`,
      ),
    );
  },
} satisfies CommandGroup;
