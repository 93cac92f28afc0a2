/**
 * Broadcasts, wired (docs/broadcasts.md): the service the routes call and the fan-out that makes each contact's message
 * through the outgoing funnel (mail's `emails.submit`). Invariant: the fan-out is started and stopped with the other
 * queues, so a stop waits for the batch in flight.
 */
import { createFanOut } from "../../broadcasts/fan-out.ts";
import { createBroadcastService } from "../../broadcasts/service.ts";
import type { Foundation } from "../foundation.ts";
import type { wireAccounts } from "./accounts.ts";
import type { wireMail } from "./mail.ts";
import type { wireSending } from "./sending.ts";

export function wireBroadcasts(
  base: Foundation,
  accounts: ReturnType<typeof wireAccounts>,
  sending: ReturnType<typeof wireSending>,
  mail: ReturnType<typeof wireMail>,
) {
  const { db, writer, clock, logger, config } = base;
  let wake = () => {};
  const broadcasts = createBroadcastService({
    db,
    writer,
    clock,
    domains: sending.domains,
    templates: mail.templates,
    lifecycle: accounts.lifecycle,
    maxRecipients: config.limits.max_recipients,
    wake: () => wake(),
  });
  const broadcastFanOut = createFanOut({
    db,
    writer,
    clock,
    logger,
    emails: mail.emails,
    contacts: accounts.contacts,
    suppressions: accounts.suppressions,
    preferences: mail.preferences,
    cancelWaiting: broadcasts.cancelWaiting,
    maxRecipients: config.limits.max_recipients,
    // A chunk is one funnel batch: within the batch limit.
    options: { chunk: Math.min(100, config.limits.max_batch_size) },
  });
  wake = broadcastFanOut.wake;
  return { broadcasts, broadcastFanOut };
}
