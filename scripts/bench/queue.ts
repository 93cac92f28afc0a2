/** Fills the delivery queue for the delivery benchmarks: `count` messages from example.com to 100 domains. */
import type { Services } from "../../src/app.ts";
import { parseSendRequest } from "../../src/emails/validate.ts";
import { operatorActor } from "../../src/keys/model.ts";

export async function queueMessages(services: Services, body: string, count: number): Promise<void> {
  const actor = operatorActor((await services.organizations.ensureDefault()).id);
  await services.domains.add(actor, "example.com", { verifiedOverride: true });
  const template = JSON.parse(body);
  for (let queued = 0; queued < count; queued += 1000) {
    const inputs = Array.from({ length: Math.min(1000, count - queued) }, (_, i) => ({
      kind: "fields" as const,
      source: "api" as const,
      fields: parseSendRequest({ ...template, to: `user${queued + i}@dest${(queued + i) % 100}.test` }, { now: Date.now(), maxRecipients: 50 }),
    }));
    await services.emails.submitBatch(inputs, actor);
  }
}
