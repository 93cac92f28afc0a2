/** Identifiers: UUIDv7 for rows (time-ordered, so inserts append to the index) and random tokens for secrets. */
import { randomBytes } from "node:crypto";

export function newId(): string {
  return Bun.randomUUIDv7();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A random base62 string; 32 characters carry about 190 bits. */
export function randomToken(length = 32): string {
  const bytes = randomBytes(length * 2);
  let out = "";
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    // Rejection sampling keeps the alphabet uniform: 248 = 4 × 62.
    if (bytes[i]! < 248) out += BASE62[bytes[i]! % 62];
  }
  return out.length === length ? out : out + randomToken(length - out.length);
}
