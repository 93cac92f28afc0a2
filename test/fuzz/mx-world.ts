/**
 * The MX under fuzzing (mx.test.ts) and what its sessions know of it: receiving domains of two organisations (one
 * IDN), a verified domain with receiving off, and messages sent through the API before the run, each with one
 * delivery whose return path and Message-ID the reports carry. Every session comes from 127.0.0.1, so the
 * per-client limits (tested in inbound-limits.test.ts) are set out of reach.
 */
import { sql } from "drizzle-orm";
import { operatorActor } from "../../src/access.ts";
import { createReturnPathCodec, type ReturnPathCodec } from "../../src/domains/signing.ts";
import type { Logger } from "../../src/lib/logger.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/** The MX's size limit: a message over it must get 552 5.3.4. */
export const MAX_MESSAGE_BYTES = 2_000_000;

/** A message sent through the API: its one delivery, the return path the MX verifies, its Message-ID. */
export interface SentMessage {
  emailId: string;
  deliveryId: string;
  messageId: string;
  returnPath: string;
}

export interface MxWorld {
  t: TestApp;
  mxPort: number;
  codec: ReturnPathCodec;
  /** Receiving domains (as a client writes them: A-label and lower case) → the organisation that owns them. */
  receivingOrg: Map<string, string>;
  /** Messages sent before the run: each has one delivery, whose return path and Message-ID the reports carry. */
  sent: SentMessage[];
}

/** Sends a message through the API and reads its delivery and Message-ID; the API's answer when it was refused. */
export async function sendTracked(
  t: TestApp,
  codec: ReturnPathCodec,
  to: string,
  subject: string,
): Promise<SentMessage | { refused: { status: number; body: any } }> {
  const res = await t.json("POST", "/v1/emails", {
    body: { from: "Acme <hello@example.com>", to, subject, html: "<p>Thanks.</p>" },
  });
  if (res.status !== 200) return { refused: res };
  const emailId = res.body.id as string;
  const [delivery] = await t.app.services.store.query<{ id: string }>(
    sql`SELECT id FROM deliveries WHERE email_id = ${emailId}`,
  );
  const messageId = (await t.json("GET", `/v1/emails/${emailId}`)).body.message_id as string;
  return { emailId, deliveryId: delivery!.id, messageId, returnPath: codec.address(delivery!.id, "send.example.com") };
}

/** Starts the app with its MX on port 0, its domains and organisations, and eight messages sent. */
export async function startMxWorld(logger: Logger): Promise<MxWorld> {
  const t = await createTestApp(
    {
      inbound: {
        max_message_bytes: MAX_MESSAGE_BYTES,
        messages_per_ip_per_minute: 10_000_000,
        bytes_per_ip_per_minute: 2 ** 40,
        max_clients_per_ip: 10_000,
        idle_timeout: "20s",
      },
      // Report bursts send a fresh message each through the API; its rate limits are not what is fuzzed here.
      limits: { key_requests_per_minute: 10_000_000, org_requests_per_minute: 10_000_000 },
    },
    { logger },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true, receivingEnabled: true });
  await t.app.services.domains.add(t.operator, "bücher.example", { verifiedOverride: true, receivingEnabled: true });
  // Verified, but receiving is off: its addresses are refused like an unknown domain's.
  await t.app.services.domains.add(t.operator, "quiet.example", { verifiedOverride: true });
  // A second organisation that receives too: one message can reach both (two rows, one per organisation).
  const otherOrg = crypto.randomUUID();
  await t.app.services.store.query(
    sql`INSERT INTO organizations (id, name, created_at) VALUES (${otherOrg}, 'other', ${new Date().toISOString()})`,
  );
  await t.app.services.domains.add(operatorActor(otherOrg), "other.example", {
    verifiedOverride: true,
    receivingEnabled: true,
  });
  const receivingOrg = new Map<string, string>()
    .set("example.com", t.organizationId)
    .set("xn--bcher-kva.example", t.organizationId)
    .set("other.example", otherOrg);

  const codec = createReturnPathCodec(t.app.services.secrets.deriveKey("return-path"));
  const sent: SentMessage[] = [];
  for (let i = 0; i < 8; i++) {
    const message = await sendTracked(t, codec, "someone@dest.test", `receipt ${i}`);
    if ("refused" in message)
      throw new Error(`sending a message for the return paths failed: ${JSON.stringify(message.refused.body)}`);
    sent.push(message);
  }
  const listeners = await t.app.start();
  const mxPort = listeners.find((l) => l.name === "mx")!.port;
  return { t, mxPort, codec, receivingOrg, sent };
}
