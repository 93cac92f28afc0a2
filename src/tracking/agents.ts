/**
 * Who fetched a pixel or a link: a person, an image proxy, or a machine (link scanner, prefetcher). Machine
 * fetches are recorded but marked `prefetch: true`, so they are not counted as people. The rules are a table
 * (tested row by row); only obvious cases are marked — a fetch that matches nothing counts as a person.
 */

export type FetchedBy = "person" | "image_proxy" | "scanner";

export interface AgentRule {
  pattern: RegExp;
  fetchedBy: Exclude<FetchedBy, "person">;
  /** What the rule recognises, for the test table and readers. */
  what: string;
}

export const AGENT_RULES: readonly AgentRule[] = [
  { pattern: /GoogleImageProxy/i, fetchedBy: "image_proxy", what: "Gmail's image proxy (ggpht.com)" },
  { pattern: /YahooMailProxy/i, fetchedBy: "image_proxy", what: "Yahoo Mail's image proxy" },
  {
    pattern: /Barracuda|Mimecast|Proofpoint|MessageLabs|Symantec|Forcepoint|Trend ?Micro|Sophos|Zscaler/i,
    fetchedBy: "scanner",
    what: "mail security gateways",
  },
  {
    pattern: /\b(?:bot|crawler|spider|preview)\b|bingbot|Googlebot|facebookexternalhit|Slackbot/i,
    fetchedBy: "scanner",
    what: "crawlers and link previewers",
  },
  {
    pattern: /^(?:curl|Wget|python-requests|python-urllib|Go-http-client|Java|okhttp|libwww-perl|axios|node-fetch)\b/i,
    fetchedBy: "scanner",
    what: "HTTP libraries (no mail client fetches with these)",
  },
  { pattern: /HeadlessChrome|PhantomJS/i, fetchedBy: "scanner", what: "headless browsers (sandbox detonation)" },
];

export interface FetchContext {
  userAgent: string | null;
  /** Milliseconds since the message was handed over (sent or delivered); null when it has not been yet. */
  sinceDeliveryMs: number | null;
  /** Fetches sooner than this after delivery are a scanner's (`tracking.scanner_window`). */
  scannerWindowMs: number;
}

/** Classifies one fetch: a known agent, then "too soon after delivery for a person", else a person. */
export function classifyFetch(context: FetchContext): FetchedBy {
  const agent = context.userAgent?.trim() ?? "";
  if (!agent) return "scanner";
  const rule = AGENT_RULES.find((candidate) => candidate.pattern.test(agent));
  if (rule) return rule.fetchedBy;
  if (context.sinceDeliveryMs === null || context.sinceDeliveryMs < context.scannerWindowMs) return "scanner";
  return "person";
}
