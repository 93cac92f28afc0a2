/**
 * A real webhook receiver on loopback (Bun.serve, port 0) that verifies every request with the `standardwebhooks`
 * package against the secrets it is given, records what came, and answers as programmed. It can go down
 * (connections refused) and come back up on the same port. Always `close()` it.
 *
 * Signatures carry the sender's timestamp, and the package refuses one more than 5 minutes from `Date.now()`;
 * when the sender runs on a ManualClock, pass it as `clock` and verification happens at that clock's time.
 */
import { setSystemTime } from "bun:test";
import { Webhook } from "standardwebhooks";
import type { Clock } from "../../src/lib/clock.ts";

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  payload: any;
  /** The secrets (by index in `secrets`) whose signature verified. */
  verifiedWith: number[];
  host: string | null;
}

export type Reply = { status: number; headers?: Record<string, string>; body?: string };

export interface WebhookReceiver {
  port: number;
  url: string;
  received: ReceivedWebhook[];
  /** Secrets to verify with (whsec_…); every request is checked against each. */
  secrets: string[];
  /** The answer to the next requests (default 204); a function can vary it per request. */
  reply: Reply | ((request: ReceivedWebhook) => Reply);
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  /** Stops listening: connections are refused until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

function verify(secret: string, body: string, headers: Record<string, string>, clock?: Clock): boolean {
  if (clock) setSystemTime(new Date(clock.now()));
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  } finally {
    if (clock) setSystemTime();
  }
}

export async function startWebhookReceiver(
  options: { clock?: Clock; tls?: { cert: string; key: string }; path?: string } = {},
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let server: ReturnType<typeof Bun.serve> | undefined;

  const receiver: WebhookReceiver = {
    port: 0,
    url: "",
    received,
    secrets: [],
    reply: { status: 204 },
    async waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} webhook requests, got ${received.length}`)),
          timeoutMs,
        );
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    async down() {
      await server?.stop(true);
      server = undefined;
    },
    async up() {
      listen(receiver.port);
    },
    async close() {
      await receiver.down();
    },
  };

  const listen = (port: number) => {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port,
      tls: options.tls,
      async fetch(request) {
        const body = await request.text();
        const headers = Object.fromEntries(request.headers.entries());
        let payload: unknown;
        try {
          payload = JSON.parse(body);
        } catch {
          payload = undefined;
        }
        const entry: ReceivedWebhook = {
          headers,
          body,
          payload,
          verifiedWith: receiver.secrets.flatMap((secret, i) =>
            verify(secret, body, headers, options.clock) ? [i] : [],
          ),
          host: request.headers.get("host"),
        };
        received.push(entry);
        for (const waiter of waiters.filter((w) => received.length >= w.count)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
        const reply = typeof receiver.reply === "function" ? receiver.reply(entry) : receiver.reply;
        return new Response(reply.body ?? null, { status: reply.status, headers: reply.headers });
      },
    });
    receiver.port = server.port!;
    receiver.url = `${options.tls ? "https" : "http"}://127.0.0.1:${receiver.port}${options.path ?? "/hooks"}`;
  };

  listen(0);
  return receiver;
}
