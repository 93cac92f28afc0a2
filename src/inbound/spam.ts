/**
 * Spam scoring by a local rspamd (docs/inbound.md#spam-scoring): the received message is posted to rspamd's normal
 * worker (`POST /checkv2`, rspamd's HTTP protocol, with the session's facts as headers) at `[inbound] rspamd_url`,
 * and its answer is kept as `{score, action, symbols}`.
 *
 * Invariants: nothing is sent anywhere but the configured rspamd (an operator's URL, usually on loopback); scoring
 * never stops receiving — an rspamd that is down, slow past `[inbound] rspamd_timeout` or answers nonsense gives
 * null, with the reason logged and counted; its answer is read up to 1 MiB, so a broken peer cannot fill memory.
 */
import type { ReceivedSpam } from "../db/schema/received.ts";
import { readCappedText } from "../lib/capped-body.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";

export type { ReceivedSpam };

/** What rspamd is told about the session the message came in (its HTTP protocol's request headers). */
export interface ScoredSession {
  clientAddress: string | null;
  helo: string | null;
  /** MAIL FROM; empty for notifications. */
  from: string;
  recipients: string[];
}

export interface SpamScorer {
  /** The verdict, or null when no rspamd is configured or it gave none in time. */
  score(raw: Buffer, session: ScoredSession): Promise<ReceivedSpam | null>;
}

const ANSWER_BYTES = 1024 * 1024;
/** The symbols kept, highest score first: enough to say why, small enough for every stored message. */
const KEPT_SYMBOLS = 50;

interface RspamdAnswer {
  score?: unknown;
  action?: unknown;
  symbols?: Record<string, { name?: unknown; score?: unknown }>;
}

/** rspamd's `/checkv2` answer as a verdict; null when it is not one. */
export function readVerdict(answer: RspamdAnswer): ReceivedSpam | null {
  if (typeof answer.score !== "number" || typeof answer.action !== "string") return null;
  const symbols = Object.entries(answer.symbols ?? {})
    .map(([name, symbol]) => ({
      name: typeof symbol?.name === "string" ? symbol.name : name,
      score: typeof symbol?.score === "number" ? symbol.score : 0,
    }))
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    .slice(0, KEPT_SYMBOLS);
  return { score: answer.score, action: answer.action, symbols };
}

export function createSpamScorer(deps: {
  /** `[inbound] rspamd_url`; empty: no scoring. */
  url: string;
  timeoutMs: number;
  logger: Logger;
  metrics: Metrics;
}): SpamScorer {
  const endpoint = deps.url ? `${deps.url.replace(/\/+$/, "")}/checkv2` : "";
  const unscored = (reason: string, detail: string) => {
    deps.metrics.inc("mailroom_inbound_spam_total", { outcome: reason });
    deps.logger.warn("inbound message not scored for spam; received without a verdict", { reason, detail });
    return null;
  };
  return {
    async score(raw, session) {
      if (!endpoint) return null;
      const headers: Record<string, string> = { "content-type": "message/rfc822", From: session.from };
      if (session.clientAddress) headers.IP = session.clientAddress;
      if (session.helo) headers.Helo = session.helo;
      // One Rcpt header per recipient would be rspamd's way; fetch joins repeated headers with commas, which rspamd
      // does not split, so the first recipient stands for the message (scoring reads the content, not the list).
      if (session.recipients[0]) headers.Rcpt = session.recipients[0];
      const signal = AbortSignal.timeout(deps.timeoutMs);
      try {
        const response = await fetch(endpoint, { method: "POST", headers, body: raw, signal, redirect: "manual" });
        const text = await readCappedText(response, ANSWER_BYTES);
        if (!response.ok) return unscored("refused", `rspamd answered ${response.status}`);
        const verdict = readVerdict(JSON.parse(text) as RspamdAnswer);
        if (!verdict) return unscored("unreadable", "rspamd's answer has no score and action");
        deps.metrics.inc("mailroom_inbound_spam_total", { outcome: "scored" });
        return verdict;
      } catch (error) {
        const timedOut = signal.aborted;
        return unscored(
          timedOut ? "timeout" : "unavailable",
          timedOut ? `no answer within ${deps.timeoutMs} ms` : error instanceof Error ? error.message : String(error),
        );
      }
    },
  };
}
