/**
 * The capture provider: mail is kept in the store and never leaves (the default, and always for test keys). The
 * stored MIME — what `GET /v1/emails/:id/raw` returns — is the final message, so nothing else is written.
 */
import type { Provider } from "./types.ts";

export function createCaptureProvider(): Provider {
  return {
    name: "capture",
    async deliver(job) {
      return {
        outcome: "delivered",
        response: "250 2.0.0 Captured by Mailroom; not sent",
        providerMessageId: job.messageId,
      };
    },
    async close() {},
  };
}
