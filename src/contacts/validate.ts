/**
 * Validation of audience requests (docs/contacts.md): addresses, names, property values. Pure; every problem names
 * its path.
 */
import { validationError } from "../errors.ts";
import { addressKey, normalizeAddress } from "../lib/addresses.ts";
import { isUuid } from "../lib/ids.ts";
import type { PropertyType, PropertyValues } from "../db/schema/index.ts";

/** Longest first or last name, segment or topic name, topic description, property key and string value. */
export const MAX_NAME = 255;
export const MAX_DESCRIPTION = 1000;
export const MAX_STRING_VALUE = 2000;

/**
 * The key a contact is found under: the address parsed as the send path parses it, lower-cased — the key the
 * suppression list uses (docs/delivery.md#suppressions), so "Ann@Example.com" is one contact and one suppression.
 */
export function contactKey(email: string, path = "email"): string {
  const normalized = normalizeAddress(email.trim());
  if ("error" in normalized) throw validationError([{ path, message: normalized.error }]);
  return addressKey(normalized.address);
}

/** How a path names a contact: a UUID is its id, anything else its address. */
export function contactRef(idOrEmail: string): { id: string } | { email: string } {
  if (isUuid(idOrEmail)) return { id: idOrEmail.toLowerCase() };
  let email: string;
  try {
    email = decodeURIComponent(idOrEmail);
  } catch {
    throw validationError([{ path: "id", message: "must be a contact id or a percent-encoded email address" }]);
  }
  return { email: contactKey(email) };
}

export function nameOf(value: string | null | undefined, path: string): string | null {
  if (value == null) return null;
  const name = value.toWellFormed().trim();
  if (name.length > MAX_NAME) throw validationError([{ path, message: `must be at most ${MAX_NAME} characters` }]);
  return name === "" ? null : name;
}

/** A required name (segment, topic): 1 to MAX_NAME characters once trimmed. */
export function requiredName(value: string, path: string): string {
  const name = nameOf(value, path);
  if (!name) throw validationError([{ path, message: "must not be empty" }]);
  return name;
}

/** A property key: letters, digits and underscores, starting with a letter (usable as `{{{KEY}}}`). */
export function propertyKey(value: string, path = "key"): string {
  if (!/^[A-Za-z][A-Za-z0-9_]{0,99}$/.test(value))
    throw validationError([
      { path, message: "must be 1 to 100 letters, digits or underscores, starting with a letter" },
    ]);
  return value;
}

/** A value of a property of `type`, or a 400 naming the path. */
export function propertyValue(type: PropertyType, value: unknown, path: string): string | number {
  if (type === "number") {
    if (typeof value === "number" && Number.isFinite(value)) return value;
    throw validationError([{ path, message: "must be a number" }]);
  }
  if (typeof value === "string" && value.length <= MAX_STRING_VALUE) return value.toWellFormed();
  throw validationError([{ path, message: `must be a string of at most ${MAX_STRING_VALUE} characters` }]);
}

/**
 * A contact's values after `given` changes them: each key must be a defined property (400 naming it), each value
 * of its type; null removes the key.
 */
export function mergedProperties(
  current: PropertyValues,
  given: Record<string, unknown> | undefined,
  types: ReadonlyMap<string, { type: PropertyType }>,
): PropertyValues {
  if (!given) return current;
  const next: PropertyValues = { ...current };
  for (const [key, value] of Object.entries(given)) {
    const path = `properties.${key}`;
    const property = types.get(key);
    if (!property) throw validationError([{ path, message: `there is no contact property "${key}"; create it first` }]);
    if (value === null || value === undefined) delete next[key];
    else next[key] = propertyValue(property.type, value, path);
  }
  return next;
}
