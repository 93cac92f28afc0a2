/**
 * The package's public surface: the client, its errors, the webhook verifier, every request and response type, and
 * the server's lists of values (event types, statuses, scopes) with their types.
 */
export { Mailroom } from "./mailroom.js";
export { MailroomError, type ApiErrorName, type ClientErrorName, type MailroomErrorName } from "./errors.js";
export {
  Webhook,
  WebhookVerificationError,
  DEFAULT_TOLERANCE_SECONDS,
  type WebhookHeaders,
  type WebhookOptions,
  type WebhookVerificationReason,
} from "./webhook.js";
export {
  DEFAULT_BASE_URL,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  type ClientOptions,
  type FetchLike,
} from "./http.js";
export { ChainableTemplateResult } from "./templates.js";
export type { VerifyWebhookOptions } from "./webhooks.js";
export { VERSION } from "./version.js";
export type * from "./types.js";
export type * from "./audience-types.js";
export type * from "./operations-types.js";
export type * from "./broadcast-types.js";
export * from "./wire.js";
