/**
 * What callers learn about their own use, wired (docs/logs-and-mcp.md): the request log — its recorder, fed by the
 * HTTP root, and its reads — and the usage figures. Invariant: the recorder is stopped (what it holds written) before the store closes.
 */
import { createRequestRecorder } from "../../logs/recorder.ts";
import { createRequestLogs } from "../../logs/service.ts";
import { createUsage } from "../../usage/service.ts";
import type { Foundation } from "../foundation.ts";
import type { wireAccounts } from "./accounts.ts";
import type { wireMail } from "./mail.ts";

export function wireInsight(
  base: Foundation,
  accounts: ReturnType<typeof wireAccounts>,
  mail: ReturnType<typeof wireMail>,
) {
  const { db, writer, clock, logger, metrics, config } = base;
  return {
    requestLog: createRequestRecorder({ writer, clock, logger, metrics, enabled: config.http.request_log }),
    requestLogs: createRequestLogs({
      db,
      retentionMs: config.retention.logs,
      recording: config.http.request_log,
    }),
    usage: createUsage({ db, clock, organizations: accounts.organizations, stats: mail.emailStats }),
  };
}
