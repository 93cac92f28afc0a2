/**
 * What composition writes into a message's html for tracking, as plain data: composition runs on a thread of the
 * CPU pool (src/workers), so the rewrite — whose cost grows with the html a client sent — and the minting of one
 * token per link happen there, never on the event loop. The plan carries the tracking-tokens key for that reason
 * (as signing carries the DKIM key); it never leaves the process.
 *
 * Invariant: every click token written carries `clicksExpireAt`; the open pixel and tracked links name the message
 * they were composed for.
 */
import { rewriteHtml } from "./html.ts";
import { createTokenCodec } from "./tokens.ts";

export interface TrackingPlan {
  /** The key tracking tokens are signed with (derived from the master key for tracking tokens alone). */
  tokenKey: Uint8Array;
  /** The public base URL, without a trailing slash. */
  baseUrl: string;
  /** Set when links are tracked: when their tokens stop redirecting, epoch ms. */
  clicksExpireAt?: number;
  opens: boolean;
}

/** What tracking and unsubscribe add to one message (built by service.ts for the message's id), as plain data. */
export interface MessageDecorations {
  /** Tracked links and the open pixel, written into the html after placeholders are filled. */
  tracking?: TrackingPlan;
  /** The one-click unsubscribe URL (https in production). */
  unsubscribeUrl?: string;
}

/** The html with tracked links and the open pixel, as the plan says. */
export function writeTracking(html: string, emailId: string, plan: TrackingPlan): string {
  const tokens = createTokenCodec(plan.tokenKey);
  const { baseUrl, clicksExpireAt } = plan;
  return rewriteHtml(html, {
    trackLink:
      clicksExpireAt === undefined
        ? undefined
        : (link) => `${baseUrl}/t/c/${tokens.mint({ kind: "click", emailId, link, expiresAt: clicksExpireAt })}`,
    keepPrefix: `${baseUrl}/u/`,
    pixelUrl: plan.opens ? `${baseUrl}/t/o/${tokens.mint({ kind: "open", emailId })}` : undefined,
  });
}
