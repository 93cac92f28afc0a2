/**
 * The organisation's settings as the API shows them (docs/operations.md#organisation-settings): each the value in
 * force — its own, or the configured default — with today's usage, what it stores and whether its sending is paused.
 * Written once, as the schema that types the service's answer and documents the routes.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { named, Nullable } from "../lib/wire.ts";

/** What the organisation stores, as the retention job last counted it. */
export const OrganizationStorageSchema = named(
  "OrganizationStorage",
  t.Object({
    messages: t.Integer(),
    content_bytes: t.Integer(),
    measured_at: t.String({ format: "date-time" }),
  }),
);
export type StorageView = Static<typeof OrganizationStorageSchema>;

export const OrganizationSchema = named(
  "Organization",
  t.Object({
    object: t.Literal("organization"),
    id: t.String({ format: "uuid" }),
    name: t.String(),
    rate_limit: t.Integer({
      description: "Requests per minute, all keys together: the organisation's own or the configured default",
    }),
    daily_quota: Nullable(t.Integer(), { description: "Live messages per UTC day; null: none" }),
    usage_today: t.Integer({ description: "Live messages accepted since 00:00 UTC" }),
    // Days may be fractional: a configured default need not be a whole number of days.
    retention: t.Object({ content_days: t.Number(), metadata_days: t.Number() }),
    paused: t.Boolean({
      description: "Sending of the whole organisation is paused (GET /v1/sending lists every pause)",
    }),
    storage: Nullable(OrganizationStorageSchema, { description: "Null until the retention job has counted once" }),
    created_at: t.String({ format: "date-time" }),
  }),
);
export type OrganizationView = Static<typeof OrganizationSchema>;
