/** Validation of suppression requests: addresses, batches of them, a reason. Pure; every problem with its path. */
import { type Static, Type as t } from "@sinclair/typebox";
import { validationError } from "../errors.ts";
import { addressKey, normalizeAddress } from "../lib/addresses.ts";
import { named } from "../lib/wire.ts";

/** Addresses per batch add or remove. */
const MAX_BATCH = 1000;

/** The key an address is suppressed under (lower-case); one that does not parse is a 400 naming `email`. */
export function suppressionKey(email: string): string {
  const normalized = normalizeAddress(email.trim());
  if ("error" in normalized) throw validationError([{ path: "email", message: normalized.error }]);
  return addressKey(normalized.address);
}

/** A batch: 1 to MAX_BATCH strings. */
export function batchOf(value: unknown, path: string): string[] {
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.length > MAX_BATCH ||
    value.some((item) => typeof item !== "string")
  ) {
    throw validationError([{ path, message: `must be a list of 1 to ${MAX_BATCH} strings` }]);
  }
  return value as string[];
}

export function reasonOf(reason: unknown): string | null {
  if (reason != null && (typeof reason !== "string" || reason.length > 1000))
    throw validationError([{ path: "reason", message: "reason must be a string of at most 1000 characters" }]);
  // A lone surrogate (JSON's "\ud800", valid JSON, not valid Unicode) becomes U+FFFD: PostgreSQL's jsonb refuses
  // it, and the reason goes into the suppression's event (the HTTP fuzz target found the 500).
  return typeof reason === "string" ? reason.toWellFormed() : null;
}

/** The request bodies, as the API documents and checks them (shape-check.ts). */
const Reason = t.Optional(t.Union([t.String(), t.Null()], { description: "Why, for your records (null: none)" }));
export const AddSuppressionSchema = named(
  "AddSuppressionOptions",
  t.Object(
    { email: t.String(), reason: Reason },
    { additionalProperties: false, description: "An address to suppress by hand (origin manual)" },
  ),
);
export const BatchAddSuppressionsSchema = named(
  "BatchAddSuppressionsOptions",
  t.Object(
    { emails: t.Array(t.String()), reason: Reason },
    { additionalProperties: false, description: "Addresses to suppress; those already suppressed keep their entry" },
  ),
);
export const BatchRemoveSuppressionsSchema = named(
  "BatchRemoveSuppressionsOptions",
  t.Object(
    { emails: t.Optional(t.Array(t.String())), ids: t.Optional(t.Array(t.String())) },
    {
      additionalProperties: false,
      description: "Suppressions to remove, by address (emails) or by id (ids): one of the two",
    },
  ),
);
/** A batch removal names addresses or ids, never both. */
export const oneOfEmailsOrIds = (body: Static<typeof BatchRemoveSuppressionsSchema>) => {
  if (body.emails !== undefined && body.ids === undefined) return { emails: body.emails };
  if (body.ids !== undefined && body.emails === undefined) return { ids: body.ids };
  throw validationError([{ path: "", message: "give emails or ids (one of them)" }]);
};
