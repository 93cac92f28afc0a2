/** A recipient's statuses (DESIGN §1, §12), as the look-up record shows them; deliveries/lifecycle.ts moves them. */
export const RECIPIENT_STATUSES = [
  "queued",
  "sent",
  "delivered",
  "deferred",
  "bounced",
  "complained",
  "failed",
  "suppressed",
  "canceled",
  "held",
] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];
