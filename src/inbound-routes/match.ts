/**
 * Which route decides a received message's fate for one recipient (docs/inbound.md#routes), as a pure function: the
 * first of the organisation's routes, by position, whose recipient pattern and header condition both fit.
 * Invariant: the same routes, recipient and headers always give the same route; no route matches → null (store).
 */
import type { RouteAction } from "./model.ts";

/** What matching reads of a route. */
export interface RouteRule {
  id: string;
  position: number;
  matchRecipient: string | null;
  matchHeaderName: string | null;
  matchHeaderContains: string | null;
  action: RouteAction;
  forwardTo: string[];
  webhookIds: string[];
  spamThreshold: number | null;
}

/** Whether `pattern` (an address or `*@domain`, stored lower-case) names `recipient`. */
export function recipientMatches(pattern: string, recipient: string): boolean {
  const address = recipient.trim().toLowerCase();
  if (pattern.startsWith("*@")) return address.slice(address.lastIndexOf("@")) === pattern.slice(1);
  return address === pattern;
}

/**
 * Whether a header field named `name` (any case) holds `contains` (any case). `headers` is the stored message's:
 * each field once by the name first written, repeated fields' values joined by newlines (inbound/received.ts).
 */
export function headerMatches(headers: Record<string, string>, name: string, contains: string): boolean {
  const wanted = name.toLowerCase();
  const needle = contains.toLowerCase();
  return Object.entries(headers).some(
    ([field, value]) => field.toLowerCase() === wanted && value.toLowerCase().includes(needle),
  );
}

/** The route that decides for `recipient`: the first by position that matches; null when none does. */
export function routeFor<R extends RouteRule>(
  routes: readonly R[],
  recipient: string,
  headers: Record<string, string>,
): R | null {
  const ordered = [...routes].sort((a, b) => a.position - b.position);
  return (
    ordered.find(
      (route) =>
        (route.matchRecipient === null || recipientMatches(route.matchRecipient, recipient)) &&
        (route.matchHeaderName === null ||
          headerMatches(headers, route.matchHeaderName, route.matchHeaderContains ?? "")),
    ) ?? null
  );
}
