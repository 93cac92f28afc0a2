/**
 * HTTP routes of the providers: the SNS endpoint Amazon SES's events are published to. No API key: the message's
 * signature and topic are the authority (providers/ses-events.ts).
 */
import { Elysia } from "elysia";
import type { Config } from "../config/schema.ts";
import { bodyLimits, readJsonBody } from "../http/body.ts";
import type { SesEventIntake } from "./ses-events.ts";

export function providerRoutes(deps: { config: Config; sesEvents: SesEventIntake }) {
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
