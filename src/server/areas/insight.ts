/**
 * What callers learn about their own use, wired (docs/logs-and-mcp.md): the request log — its recorder, fed by the
 * HTTP root, and its reads. Invariant: the recorder is stopped (what it holds written) before the store closes.
 */
import { createRequestRecorder } from "../../logs/recorder.ts";
import { createRequestLogs } from "../../logs/service.ts";
import type { Foundation } from "../foundation.ts";

export function wireInsight(base: Foundation) {
  const { db, writer, clock, logger, metrics, config } = base;
  return {
    requestLog: createRequestRecorder({ writer, clock, logger, metrics, enabled: config.http.request_log }),
    requestLogs: createRequestLogs({ db }),
  };
}
