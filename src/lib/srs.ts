/**
 * The Sender Rewriting Scheme for forwarded mail (docs/inbound.md#forwarding): a forwarded copy leaves with an envelope
 * sender on the forwarding domain, `SRS0=<hash>=<tt>=<domain>=<local>@<forwarding domain>`, so SPF is checked on a
 * name this server may send for, and a bounce to it can be routed back to the original sender.
 *
 * `<tt>` is the day number modulo 1024 in two base32 characters (as libsrs2 writes it); `<hash>` the first 40 bits of
 * HMAC-SHA256 over `<tt>`, the forwarding domain, the original domain and local part (lower-cased: some servers fold
 * the case of local parts), in base32 — 8 characters. libsrs2 leaves the forwarding domain out; it is in here so that
 * an address issued for one organisation's return-path name cannot be moved onto another's. Invariant: an address is
 * reversed only when its hash verifies for the domain it is written at and its day is within `MAX_AGE_DAYS`, so
 * nobody can use the forwarder to relay mail to an address of their choosing (RFC 5321's open relay) by writing an
 * SRS address by hand.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
const DAY_MS = 86_400_000;
/** How long a bounce may take to come back: libsrs2's default. */
export const MAX_AGE_DAYS = 21;
const HASH_BYTES = 5;

const base32 = (bytes: Buffer) => {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + BASE32[(value << (5 - bits)) & 31] : out;
};

const dayStamp = (now: number) => {
  const day = Math.floor(now / DAY_MS) % 1024;
  return BASE32[day >> 5]! + BASE32[day & 31]!;
};

const stampAge = (stamp: string, now: number) => {
  const given = BASE32.indexOf(stamp[0]!) * 32 + BASE32.indexOf(stamp[1]!);
  const today = Math.floor(now / DAY_MS) % 1024;
  return (today - given + 1024) % 1024;
};

const SRS_ADDRESS = /^srs0=([a-z2-7]{8})=([a-z2-7]{2})=([^=@]+)=(.+)@([^@]+)$/i;

export interface SrsCodec {
  /** The envelope sender a copy of mail from `original` forwarded by `domain` leaves with. */
  forward(original: string, domain: string, now: number): string;
  /** The original sender an SRS address names, or null when it is not one of ours, forged, or too old. */
  reverse(address: string, now: number): string | null;
  /** Whether `address` is written as an SRS0 address (verified or not). */
  looksLike(address: string): boolean;
}

/** Builds the codec from a 32-byte key (`secrets.deriveKey("srs")`). */
export function createSrsCodec(key: Buffer): SrsCodec {
  const hash = (stamp: string, forwarder: string, domain: string, local: string) =>
    base32(
      createHmac("sha256", key)
        .update(`${stamp}\0${forwarder.toLowerCase()}\0${domain.toLowerCase()}\0${local.toLowerCase()}`)
        .digest()
        .subarray(0, HASH_BYTES),
    );
  return {
    forward(original, domain, now) {
      const at = original.lastIndexOf("@");
      const local = original.slice(0, at);
      const origin = original.slice(at + 1);
      const stamp = dayStamp(now);
      return `SRS0=${hash(stamp, domain, origin, local)}=${stamp}=${origin}=${local}@${domain}`;
    },
    reverse(address, now) {
      const match = SRS_ADDRESS.exec(address.trim());
      if (!match) return null;
      const [, given, stamp, origin, local, forwarder] = match as unknown as [
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      const expected = hash(stamp.toLowerCase(), forwarder, origin, local);
      if (!timingSafeEqual(Buffer.from(expected), Buffer.from(given.toLowerCase()))) return null;
      if (stampAge(stamp.toLowerCase(), now) > MAX_AGE_DAYS) return null;
      return `${local}@${origin}`;
    },
    looksLike: (address) => /^srs0=/i.test(address.trim()),
  };
}
