/** Names of the wake-ups instances send each other through the store (db/dialect.ts `notifyAtCommit`). */
export const DELIVERIES_DUE = "mailroom_deliveries";
export const WEBHOOKS_DUE = "mailroom_webhooks";
