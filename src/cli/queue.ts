/**
 * `queue summary|list|retry|cancel|release`: what waits to be delivered, and the operator's hand on it — one
 * delivery by id, or every one a filter (`--status`, `--domain`, `--provider`, `--email`) matches.
 */
import { QUEUE_STATUSES, type QueueStatus } from "../deliveries/queue.ts";
import type { Command, CommandGroup, Options } from "./context.ts";
import { fail, out } from "./output.ts";

/** `--status` of the queue commands, one of the statuses the queue lists. */
function queueStatus(status: string): QueueStatus {
  if (!(QUEUE_STATUSES as readonly string[]).includes(status))
    fail(`--status must be one of ${QUEUE_STATUSES.join(", ")}`, 2);
  return status as QueueStatus;
}

const queueFilter = (options: Options) => ({
  status: options.status === undefined ? undefined : queueStatus(options.status),
  domain: options.domain?.[0],
  provider: options.provider,
  emailId: options.email,
});

/** `queue retry|cancel|release [ID]`: the delivery named, else every one of the filter. */
const act =
  (action: "retry" | "cancel" | "release"): Command =>
  async ({ services, actor, options, args: [id], print }) => {
    if (id) {
      const delivery = await services.queue.act(actor, action, id);
      return print(delivery, () => out(`${delivery.id}  ${delivery.recipient}  now ${delivery.status}`));
    }
    const filter = queueFilter(options);
    // Said in the CLI's own words: the API's refusal names its fields (email_id), not these flags.
    if (Object.values(filter).every((value) => value === undefined))
      fail(
        `queue ${action} needs a delivery id, or at least one of --status, --domain, --provider, --email (an email id): a bulk action needs a filter`,
        2,
      );
    const result = await services.queue.actOnAll(actor, action, filter);
    print(result, () => out(`${action}: ${result.changed} of ${result.matched} matching changed`));
  };

export const queue = {
  async summary({ services, actor, print }) {
    const summary = await services.queue.summary(actor);
    print(summary, () => {
      const { queued, deferred, held, sending } = summary.by_status;
      out(`waiting: ${queued} queued, ${deferred} deferred, ${held} held, ${sending} sending`);
      out(`oldest waiting since: ${summary.oldest_waiting_at ?? "nothing waits"}`);
      for (const row of summary.by_domain)
        out(
          `  ${row.domain}  ${row.queued} queued, ${row.deferred} deferred, ${row.held} held  since ${row.oldest_at}`,
        );
    });
  },
  async list({ services, actor, options, print }) {
    const page = await services.queue.list(actor, { limit: 100, ...queueFilter(options) });
    print(page.data, () =>
      page.data.forEach((d) =>
        out(
          `${d.id}  ${d.recipient}  ${d.status}  attempts ${d.attempts}  next ${d.next_attempt_at ?? "-"}  ${d.last_response ?? ""}`,
        ),
      ),
    );
  },
  retry: act("retry"),
  cancel: act("cancel"),
  release: act("release"),
} satisfies CommandGroup;
