/**
 * HTTP routes of the deliveries: the SNS endpoint Amazon SES's events are published to. No API key: the message's
 * signature and topic are the authority (deliveries/provider-events.ts).
 */
import { Elysia } from "elysia";
import type { Config } from "../config/schema.ts";
import { bodyLimits, readJsonBody } from "../http/body.ts";
import type { SesEventIntake } from "./provider-events.ts";

export function deliveryRoutes(deps: { config: Config; sesEvents: SesEventIntake }) {
  const limits = bodyLimits(deps.config);
  return new Elysia().post(
    "/v1/providers/ses/sns",
    async ({ request }) => deps.sesEvents.receive(await readJsonBody(request, limits, { anyContentType: true })),
    {
      parse: "none",
      detail: {
        summary:
          "Amazon SNS endpoint for SES events: subscription confirmations and Delivery, Bounce, Complaint, DeliveryDelay, Reject notifications (signature verified)",
        tags: ["Providers"],
      },
    },
  );
}
