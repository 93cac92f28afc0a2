/**
 * HTTP routes of the deliveries: the queue an operator sees and steers (DESIGN §12), and the SNS endpoint Amazon
 * SES's events are published to — without an API key: the message's signature and topic are the authority
 * (deliveries/provider-events.ts).
 */
import { Elysia } from "elysia";
import type { Config } from "../config/schema.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readBody, readJsonBody } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import { parseCursor, parseEnum, parsePage } from "../http/query.ts";
import type { SesEventIntake } from "./provider-events.ts";
import { QUEUE_STATUSES, type DeliveryQueue, type QueueAction } from "./queue.ts";
import type { SendingPauses } from "./pauses.ts";
import { BulkActionSchema, filterOf, PauseSchema, ResumeSchema } from "./validate.ts";

const WHAT: Record<QueueAction, string> = {
  retry: "Retry now: a deferred delivery is due at once (its attempts so far still count)",
  cancel: "Cancel: a queued, deferred or held delivery is stopped",
  release: "Release: a held delivery goes now, whatever pause held it",
};

export function queueRoutes(deps: AuthDeps & { queue: DeliveryQueue; pauses: SendingPauses }) {
  const { queue, pauses, config } = deps;
  const limits = bodyLimits(config);
  const tags = ["Queue"];
  /** One action's routes: on one delivery, and in bulk by filter. */
  const actionRoutes = (action: QueueAction) =>
    new Elysia()
      .use(authenticated(deps))
      .post(`/v1/deliveries/:id/${action}`, ({ actor, params }) => queue.act(actor, action, params.id), {
        detail: { summary: `${WHAT[action]}; 409 while it is being attempted`, tags },
      })
      .post(
        `/v1/deliveries/${action}`,
        async ({ request, actor }) =>
          queue.actOnAll(actor, action, filterOf(await readBody(request, limits, BulkActionSchema))),
        {
          parse: "none",
          detail: {
            summary: `${WHAT[action]} — every delivery of the filter (at least one of status, domain, provider, email_id)`,
            tags,
            requestBody: jsonContent(BulkActionSchema),
          },
        },
      );
  return new Elysia()
    .use(authenticated(deps))
    .get(
      "/v1/deliveries",
      ({ actor, query }) =>
        queue.list(actor, {
          ...parsePage(query),
          status: parseEnum("status", query.status, QUEUE_STATUSES),
          domain: query.domain,
          provider: query.provider,
          emailId: parseCursor("email_id", query.email_id),
        }),
      {
        detail: {
          summary:
            "The recipients waiting (queued, deferred, held, sending), oldest first, with attempts, next attempt and last reply (filters: status, domain, provider, email_id)",
          tags,
        },
      },
    )
    .get("/v1/deliveries/summary", ({ actor }) => queue.summary(actor), {
      detail: { summary: "What waits: by status, by destination domain (top 20), by provider, and the oldest", tags },
    })
    .use(actionRoutes("retry"))
    .use(actionRoutes("cancel"))
    .use(actionRoutes("release"))
    .get("/v1/sending", ({ actor }) => pauses.state(actor), {
      detail: { summary: "The pauses that apply: the organisation's, its sending domains', providers'", tags },
    })
    .post(
      "/v1/sending/pause",
      async ({ request, actor }) => pauses.pause(actor, await readBody(request, limits, PauseSchema)),
      {
        parse: "none",
        detail: {
          summary:
            "Pause sending for the organisation, a sending domain or a provider: mail is still accepted and waits as held",
          tags,
          requestBody: jsonContent(PauseSchema),
        },
      },
    )
    .post(
      "/v1/sending/resume",
      async ({ request, actor }) => pauses.resume(actor, await readBody(request, limits, ResumeSchema)),
      {
        parse: "none",
        detail: {
          summary: "Resume sending: what the pause held goes out, oldest first; answers how many were released",
          tags,
          requestBody: jsonContent(ResumeSchema),
        },
      },
    );
}

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
