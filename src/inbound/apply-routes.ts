/**
 * Carrying out what the routes decided for a received message (docs/inbound.md#routes), once nothing refuses it:
 * `drop` keeps nothing; `store` and `webhook` store it (a `webhook` route's `email.received` goes to its webhooks
 * only); `forward` stores it and sends a copy, ARC-sealed with the receiving domain's key, to the route's addresses
 * (forwarding.ts). Loops are found before anything is stored (`prepareForwards`), so a refused loop keeps nothing.
 */
import { AppError } from "../errors.ts";
import type { Logger } from "../lib/logger.ts";
import { type ForwardIdentity, type Forwarding, forwardingLoop, receivedField } from "./forwarding.ts";
import type { ReceivedFields, SealedAuthentication } from "./received.ts";
import type { RoutedTarget } from "./route-plan.ts";
import type { ReceivedSpam } from "./spam.ts";

/** A forwarding target with the copy it sends: the message with this server's Received field on top. */
export interface PreparedForward {
  target: RoutedTarget;
  identity: ForwardIdentity;
  withReceived: Buffer;
}

/** What storing one routed target takes from the funnel (service.ts `store`). */
export interface RoutedStore {
  organizationId: string;
  receivedFor: string[];
  routeId: string | null;
  webhookIds?: readonly string[];
  spam: ReceivedSpam | null;
  authentication: SealedAuthentication;
}

/**
 * The forwarding targets' keys and copies; throws the loop refusal (554 5.4.6) for a message that went round too
 * often or carries the receiving domain's own seal.
 */
export async function prepareForwards(
  planned: readonly RoutedTarget[],
  raw: Buffer,
  deps: { forwarding: Forwarding; received: string; logger: Logger },
): Promise<PreparedForward[]> {
  const prepared: PreparedForward[] = [];
  for (const target of planned) {
    if (target.route?.action !== "forward") continue;
    const address = target.receivedFor[0]!;
    const identity = await deps.forwarding.identity(target.organizationId, address.slice(address.lastIndexOf("@") + 1));
    const loop = forwardingLoop(raw, identity);
    if (loop) {
      deps.logger.warn("inbound message refused: a forwarding loop", { route_id: target.route.id, reason: loop });
      throw new AppError("insufficient_scope", `Routing loop detected: ${loop}.`, { condition: "routing_loop" });
    }
    if (!identity) {
      // Every domain gets a key when added; one without is being removed. The message is still stored.
      deps.logger.warn("inbound message not forwarded: the receiving domain has no DKIM key", {
        route_id: target.route.id,
      });
      continue;
    }
    prepared.push({ target, identity, withReceived: Buffer.concat([Buffer.from(deps.received), raw]) });
  }
  return prepared;
}

/** Stores, notifies and forwards as the routes decided; the outcomes of the stored and dropped targets. */
export async function applyRoutes<Outcome>(input: {
  planned: readonly RoutedTarget[];
  forwards: readonly PreparedForward[];
  spam: ReceivedSpam | null;
  envelopeFrom: string;
  fields: ReceivedFields;
  forwarding: Forwarding;
  /** The message's authentication results, sealed for `seal` when given (and read over `raw` then). */
  authenticate(seal?: { identity: ForwardIdentity; raw: Buffer }): Promise<SealedAuthentication>;
  store(target: RoutedStore): Promise<Outcome>;
  dropped(target: RoutedTarget): Outcome;
}): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const target of input.planned) {
    const route = target.route;
    if (route?.action === "drop") {
      outcomes.push(input.dropped(target));
      continue;
    }
    const forward = input.forwards.find((prepared) => prepared.target === target);
    const authentication = await input.authenticate(
      forward ? { identity: forward.identity, raw: forward.withReceived } : undefined,
    );
    outcomes.push(
      await input.store({
        organizationId: target.organizationId,
        receivedFor: target.receivedFor,
        routeId: route?.id ?? null,
        ...(route?.action === "webhook" && { webhookIds: route.webhookIds }),
        spam: input.spam,
        authentication,
      }),
    );
    if (forward && route)
      await input.forwarding.forward({
        organizationId: target.organizationId,
        routeId: route.id,
        raw: Buffer.concat([Buffer.from(authentication.arcSet ?? ""), forward.withReceived]),
        envelopeFrom: input.envelopeFrom,
        identity: forward.identity,
        to: route.forwardTo,
        fields: input.fields,
      });
  }
  return outcomes;
}

export { receivedField };
