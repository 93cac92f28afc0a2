/**
 * The webhook tests' app (test/webhooks*.test.ts): for each test a fresh app on an injected clock, allowed to
 * deliver to loopback, with example.com verified, and a real receiver on loopback that verifies every request with
 * the standardwebhooks package at that clock's time; and the calls the tests make of the app of the running test.
 */
import { expect } from "bun:test";
import { ManualClock } from "../../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { closeAll, setUpFixture } from "./fixture.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.ts";

export interface WebhookApp {
  t: TestApp;
  clock: ManualClock;
  receiver: WebhookReceiver;
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;

async function startWebhookApp(): Promise<WebhookApp> {
  const clock = new ManualClock(Date.now());
  const receiver = await startWebhookReceiver({ clock });
  const t = await createTestApp({ webhooks: { allow_private_networks: true } }, { clock });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  return { t, clock, receiver };
}

/** A fresh app and receiver for each test, handed to `bind`; answers the calls the tests make of them. */
export function setUpWebhookApp(bind: (app: WebhookApp) => void) {
  const running = setUpFixture({
    each: true,
    start: startWebhookApp,
    stop: ({ t, receiver }) => closeAll(t, receiver),
    bind,
  });
  const json: TestApp["json"] = (...args) => running().t.json(...args);
  return {
    /** Subscribes `endpoint` (the receiver by default) to `events`, and gives the receiver its signing secret. */
    async register(events: string[], endpoint = running().receiver.url) {
      const res = await json("POST", "/v1/webhooks", { body: { endpoint, events, description: "test receiver" } });
      expect(res.status).toBe(200);
      running().receiver.secrets.push(res.body.signing_secret);
      return res.body as { id: string; signing_secret: string };
    },
    /** One pass of the webhook dispatcher: how many deliveries it attempted. */
    dispatch: () => running().t.app.services.webhookDispatcher.runOnce(),
    suppress: (email: string) => json("POST", "/v1/suppressions", { body: { email } }),
    deliveries: async (webhookId: string) => (await json("GET", `/v1/webhooks/${webhookId}/events`)).body.data,
    detail: async (webhookId: string, deliveryId: string) =>
      (await json("GET", `/v1/webhooks/${webhookId}/events/${deliveryId}`)).body,
    webhook: async (webhookId: string) => (await json("GET", `/v1/webhooks/${webhookId}`)).body,
  };
}
