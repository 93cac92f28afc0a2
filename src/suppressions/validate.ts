/** Validation of suppression requests: addresses, batches of them, a reason. Pure; every problem with its path. */
import { validationError } from "../errors.ts";
import { addressKey, normalizeAddress } from "../lib/addresses.ts";

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
  return (reason as string | null | undefined) ?? null;
}
