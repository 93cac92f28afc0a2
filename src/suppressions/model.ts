/**
 * The suppression list's wire (docs/delivery.md#suppressions): what put an address on it, and a suppression as the
 * API shows it — written once, as the schemas that type the service, check nothing in, and document the routes.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { named, Nullable, OneOf } from "../lib/wire.ts";

/** What put an address on the suppression list: the words the API shows and filters by. */
export const SUPPRESSION_ORIGINS = ["bounce", "complaint", "unsubscribe", "manual"] as const;
export type SuppressionOrigin = (typeof SUPPRESSION_ORIGINS)[number];

export const SuppressionSchema = named(
  "Suppression",
  t.Object(
    {
      object: t.Literal("suppression"),
      id: t.String({ format: "uuid" }),
      email: t.String(),
      origin: OneOf(SUPPRESSION_ORIGINS, { description: "What put the address on the list" }),
      source_id: Nullable(t.String(), { description: "The message or event that did (a bounce's, a complaint's)" }),
      reason: Nullable(t.String()),
      created_at: t.String({ format: "date-time" }),
    },
    { description: "An address on the organisation's suppression list: no message is delivered to it" },
  ),
);
export type SuppressionView = Static<typeof SuppressionSchema>;

export const RemovedSuppressionSchema = named(
  "RemovedSuppression",
  t.Object(
    {
      object: t.Literal("suppression"),
      id: Nullable(t.String()),
      email: Nullable(t.String()),
      deleted: t.Boolean(),
    },
    {
      description:
        "One address or id of a batch removal: found and removed, or not on the list (`deleted: false`, and the part not given null)",
    },
  ),
);
