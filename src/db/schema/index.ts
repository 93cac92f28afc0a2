/** Drizzle table definitions, one file per area; the SQL that creates them lives in ../migrations. */
export * from "./organizations.ts";
export * from "./keys.ts";
export * from "./domains.ts";
export * from "./emails.ts";
export * from "./suppressions.ts";
export * from "./idempotency.ts";
export * from "./webhooks.ts";
export * from "./shared.ts";
export * from "./received.ts";
export * from "./templates.ts";
export * from "./people.ts";
export * from "./contacts.ts";
export * from "./logs.ts";
export * from "./broadcasts.ts";
