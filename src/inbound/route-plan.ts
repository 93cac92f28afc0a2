/**
 * What the routes make of a received message (docs/inbound.md#routes): each recipient of a receiving domain goes to
 * the first of its organisation's routes that matches it (inbound-routes/match.ts), recipients deciding alike are kept
 * together, and the message is refused at the end of DATA when any of them is refused — by a `reject` route, or by
 * a spam score at or over a route's threshold — before anything is stored, so no recipient has it while the sender
 * is told it failed.
 */
import { AppError } from "../errors.ts";
import { routeFor, type RouteRule } from "../inbound-routes/match.ts";
import type { ReceivedSpam } from "./spam.ts";

/** One organisation's recipients that one route (or none: store) decides for. */
export interface RoutedTarget {
  organizationId: string;
  receivedFor: string[];
  route: RouteRule | null;
}

/** Splits each organisation's recipients by the route that decides for them, reading each one's routes once. */
export async function planRoutes(
  targets: ReadonlyArray<{ organizationId: string; receivedFor: string[] }>,
  headers: Record<string, string>,
  rulesOf: (organizationId: string) => Promise<RouteRule[]>,
): Promise<RoutedTarget[]> {
  const planned: RoutedTarget[] = [];
  for (const target of targets) {
    const rules = await rulesOf(target.organizationId);
    const byRoute = new Map<string, RoutedTarget>();
    for (const address of target.receivedFor) {
      const route = routeFor(rules, address, headers);
      const key = route?.id ?? "";
      const group = byRoute.get(key);
      if (group) group.receivedFor.push(address);
      else byRoute.set(key, { organizationId: target.organizationId, receivedFor: [address], route });
    }
    planned.push(...byRoute.values());
  }
  return planned;
}

/** Whether the message must be scored before it is kept: a route refuses over a score, or something is stored. */
export const needsScore = (planned: readonly RoutedTarget[]) =>
  planned.some((target) => target.route?.spamThreshold != null || target.route?.action !== "drop");

/** The refusal (550 5.7.1) the routes give the message, or null when every recipient takes it. */
export function routeRefusal(planned: readonly RoutedTarget[], spam: ReceivedSpam | null): AppError | null {
  if (planned.some((target) => target.route?.action === "reject"))
    return new AppError("insufficient_scope", "Message refused: the recipient does not accept this mail.");
  const over = planned.find(
    (target) => target.route?.spamThreshold != null && spam !== null && spam.score >= target.route.spamThreshold,
  );
  if (over && spam)
    return new AppError(
      "insufficient_scope",
      `Message refused as spam (score ${spam.score.toFixed(1)}, threshold ${over.route!.spamThreshold}).`,
    );
  return null;
}
