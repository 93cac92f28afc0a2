/** Webhooks: the public records of endpoints, deliveries and attempts, and the payload every receiver gets (DESIGN §7). */
import type { EventType } from "../events/model.ts";

/** How a delivery is stored. */
export type DeliveryStatus = "pending" | "succeeded" | "failed";
/** Resend's status of a webhook event: pending (not tried yet), attempting (retrying), success, failed (gave up). */
export const WEBHOOK_EVENT_STATUSES = ["pending", "attempting", "success", "failed"] as const;
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number];

export interface WebhookView {
  object: "webhook";
  id: string;
  endpoint: string;
  events: EventType[];
  description: string | null;
  status: "enabled" | "disabled";
  /** Why the endpoint was disabled (410 Gone, repeated failures, or by the user). */
  disabled_reason: string | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The create and rotate answers: the only ones that carry the secret. */
export interface WebhookWithSecret extends WebhookView {
  signing_secret: string;
}

/** An attempt in Resend's shape (`http_status_code`, `response`, `sent_at`) with Mailroom's error and duration. */
export interface AttemptView {
  object: "webhook_attempt";
  id: string;
  sent_at: string;
  /** Null when no HTTP answer came (timeout, refused connection, refused address). */
  http_status_code: number | null;
  /** The first 1 KB of the response body. */
  response: string | null;
  error: string | null;
  duration_ms: number;
}

/** One event sent (or to be sent) to one endpoint: Resend's webhook event, with Mailroom's delivery details. */
export interface DeliveryView {
  object: "webhook_event";
  /** The `webhook-id` header of every attempt of this delivery. */
  id: string;
  webhook_id: string;
  event_id: string | null;
  type: string;
  status: WebhookEventStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
}

export interface DeliveryDetail extends DeliveryView {
  payload: WebhookPayload;
  attempts: AttemptView[];
}

/** The JSON body of every webhook request. */
export interface WebhookPayload {
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export interface CreateWebhookInput {
  endpoint: string;
  events: string[];
  description?: string | null;
}

export interface UpdateWebhookInput {
  endpoint?: string;
  events?: string[];
  description?: string | null;
  status?: "enabled" | "disabled";
}
