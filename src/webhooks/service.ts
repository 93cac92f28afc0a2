/**
 * The webhook service (docs/events-and-webhooks.md): endpoints (endpoints.ts) and the events sent to them, with
 * their attempts and replays (deliveries.ts), as the one service the routes and the composition root see. The
 * payload every receiver gets is built in payload.ts, signed in signing.ts and sent by dispatcher.ts.
 */
import { createWebhookDeliveries, type WebhookDeliveries } from "./deliveries.ts";
import { createWebhookEndpoints, type WebhookDeps, type WebhookEndpoints } from "./endpoints.ts";

export { newSigningSecret } from "./signing.ts";
export type { WebhookDeps } from "./endpoints.ts";

export interface WebhookService extends WebhookEndpoints, WebhookDeliveries {}

export function createWebhookService(deps: WebhookDeps): WebhookService {
  return { ...createWebhookEndpoints(deps), ...createWebhookDeliveries(deps) };
}
