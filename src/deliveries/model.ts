/** A recipient's statuses (docs/sending.md, docs/operations.md), as the look-up record shows them; deliveries/lifecycle.ts moves them. */
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

/** Accepted and not yet taken: the queue's recipients (docs/operations.md), and what retention never touches. */
export const WAITING_STATUSES: readonly RecipientStatus[] = ["queued", "deferred", "held"];

/**
 * Nothing more will happen to the recipient's message (docs/operations.md). `sent` is not among them: a smarthost or
 * SES took it, and its fate may still be reported.
 */
export const FINAL_STATUSES: readonly RecipientStatus[] = [
  "delivered",
  "bounced",
  "failed",
  "complained",
  "suppressed",
  "canceled",
];

/**
 * What content retention requires of every recipient (docs/operations.md#retention): final, or `sent` — a relay
 * took it, and once the content age has passed its content goes as well, even though a report about its fate may
 * still arrive (that report moves the kept record; only the content is gone). Without `sent` here, nothing sent
 * through a smarthost or SES would ever lose its content.
 */
export const CONTENT_DONE_STATUSES: readonly RecipientStatus[] = [...FINAL_STATUSES, "sent"];

/**
 * A message's sending lane (docs/operations.md#sending-lanes), in the order the worker claims them: transactional
 * mail (the API, SMTP, templates) before broadcasts, so a newsletter never delays a login code.
 */
export const LANES = ["transactional", "broadcast"] as const;
export type Lane = (typeof LANES)[number];
