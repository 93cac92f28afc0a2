/** The delivery benchmarks' queue: filled with `count` messages from example.com to 100 domains, polled until empty. */
import type { Services } from "../../src/server/app.ts";
import { parseSendRequest } from "../../src/emails/validate.ts";
import { operatorActor } from "../../src/access.ts";

/**
 * 1 while any delivery is still queued, else 0 (SQLite and PostgreSQL): an EXISTS walking the due index from its
 * oldest entry. A count(*) of the queued rows scanned the whole table — 5 ms per poll at 20,000 deliveries, run on
 * the event loop being measured every 20 ms, or on the machine's other core.
 */
export const ANY_QUEUED =
  "SELECT CASE WHEN EXISTS (SELECT 1 FROM deliveries WHERE next_attempt_at IS NOT NULL AND status = 'queued') THEN 1 ELSE 0 END AS n";

export async function queueMessages(services: Services, body: string, count: number): Promise<void> {
  const actor = operatorActor((await services.organizations.ensureDefault()).id);
  await services.domains.add(actor, "example.com", { verifiedOverride: true });
  const template = JSON.parse(body);
  for (let queued = 0; queued < count; queued += 1000) {
    const inputs = Array.from({ length: Math.min(1000, count - queued) }, (_, i) => ({
      kind: "fields" as const,
      source: "api" as const,
      fields: parseSendRequest(
        { ...template, to: `user${queued + i}@dest${(queued + i) % 100}.test` },
        { now: Date.now(), maxRecipients: 50 },
      ),
    }));
    await services.emails.submitBatch(inputs, actor);
  }
}
