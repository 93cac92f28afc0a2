/**
 * The rules a route's fields follow beyond their schema (docs/inbound.md#routes), as pure functions: a recipient
 * pattern is an address or `*@domain`, kept lower-case punycode; forwarding names valid addresses and the webhook
 * action its webhooks; an action is given only what it uses. Invariant: what passes here is what matching reads.
 */
import { validationError, type ErrorDetail } from "../errors.ts";
import { normalizeAddress, normalizeDomain } from "../lib/addresses.ts";
import type { RouteAction } from "./model.ts";

/** The pattern as stored: `local@domain` or `*@domain`, lower-case punycode. */
export function recipientPattern(input: string, details: ErrorDetail[]): string | null {
  const value = input.trim();
  if (value.startsWith("*@")) {
    const domain = normalizeDomain(value.slice(2));
    if ("error" in domain) details.push({ path: "match.recipient", message: domain.error });
    return "error" in domain ? null : `*@${domain.domain}`;
  }
  const address = normalizeAddress(value);
  if ("error" in address) {
    details.push({ path: "match.recipient", message: `${address.error}; or *@domain for every address of a domain` });
    return null;
  }
  return address.address.toLowerCase();
}

/** Checks that an action has what it needs and nothing it would ignore; throws `validation_error` naming each field. */
export function checkActionFields(
  route: { action: RouteAction; forwardTo: string[]; webhookIds: string[] },
  details: ErrorDetail[],
): string[] {
  const forwardTo: string[] = [];
  if (route.action === "forward") {
    if (route.forwardTo.length === 0) details.push({ path: "forward_to", message: "forward needs an address" });
    for (const [i, given] of route.forwardTo.entries()) {
      const address = normalizeAddress(given.trim());
      if ("error" in address) details.push({ path: `forward_to.${i}`, message: address.error });
      else if (!forwardTo.includes(address.address)) forwardTo.push(address.address);
    }
  } else if (route.forwardTo.length) {
    details.push({ path: "forward_to", message: "only the forward action forwards" });
  }
  if (route.action === "webhook" && route.webhookIds.length === 0)
    details.push({ path: "webhook_ids", message: "webhook needs at least one webhook id" });
  if (route.action !== "webhook" && route.webhookIds.length)
    details.push({ path: "webhook_ids", message: "only the webhook action notifies chosen webhooks" });
  if (details.length) throw validationError(details);
  return forwardTo;
}
