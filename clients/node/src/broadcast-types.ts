/**
 * The request and response shapes of broadcasts (docs/broadcasts.md#operations). The answers and bodies come from
 * generated.ts (`npm run generate`); what is written here is the client's side: `react` beside `html`, `Date`s for
 * `scheduled_at`, the recipients' filters, and the short answers the document leaves unnamed.
 */
import type {
  BroadcastRecipient,
  CreateBroadcastOptions as CreateBroadcastBody,
  UpdateBroadcastOptions as UpdateBroadcastBody,
} from "./generated.js";
import type { PaginationOptions, ReactElementLike } from "./types.js";

export type {
  Broadcast,
  BroadcastClickedLink,
  BroadcastCounts,
  BroadcastCountsByStatus,
  BroadcastRecipient,
  BroadcastRecipientClickedLink,
  BroadcastSummary,
  BroadcastTemplate,
} from "./generated.js";

export interface CreateBroadcastOptions extends Omit<CreateBroadcastBody, "scheduled_at"> {
  /** Rendered to `html` (and `text`, when absent) with `@react-email/render`, an optional peer dependency. */
  react?: ReactElementLike;
  /** With `send: true`: ISO 8601, a relative time as Resend takes it (`in 2 hours`), or a Date. */
  scheduled_at?: string | Date;
}

export interface UpdateBroadcastOptions extends UpdateBroadcastBody {
  /** Rendered to `html` (and `text`, when absent) with `@react-email/render`. */
  react?: ReactElementLike;
}

export interface SendBroadcastOptions {
  /** ISO 8601, a relative time (`in 2 hours`) or a Date; absent: now. */
  scheduled_at?: string | Date;
}

/** The answer of create, update and send: the broadcast's id. */
export interface BroadcastId {
  id: string;
}

/** The answer of cancel and duplicate (duplicate: the new draft's id). */
export interface BroadcastRef {
  object: "broadcast";
  id: string;
}

export interface BroadcastDeleted extends BroadcastRef {
  deleted: true;
}

export type BroadcastRecipientEventType =
  | "sent"
  | "delivered"
  | "opened"
  | "clicked"
  | "bounced"
  | "complained"
  | "unsubscribed"
  | "suppressed";

export interface ListBroadcastRecipientsOptions extends PaginationOptions {
  /** The event the recipients had. */
  type: BroadcastRecipientEventType;
  /** Only this recipient. */
  email?: string;
  /** With `type: "bounced"`. */
  bounce_type?: NonNullable<BroadcastRecipient["bounce_type"]>;
}
