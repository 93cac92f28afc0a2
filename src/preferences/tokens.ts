/**
 * Unsubscribe tokens of topic mail and of a contact's preference page (docs/contacts-preferences.md#tokens): the
 * `TOKEN` of `https://…/u/TOKEN` and of `mailto:unsubscribe+TOKEN@<return-path domain>`.
 *
 * A token is lower-case base32 of kind ‖ id(s) ‖ MAC, the MAC being the first 12 bytes (96 bits) of HMAC-SHA256
 * over everything before it under a key derived from the master key for these tokens alone:
 * - `d` + a delivery id (one recipient of one message): what topic mail carries, 47 characters, so that
 *   `unsubscribe+TOKEN` stays within RFC 5321's 64-octet local part; lower case because some servers fold the case
 *   of local parts (as the return path, domains/signing.ts).
 * - `c` + a contact id + a topic id (zeros for none): a contact's own page, for mail composed per contact
 *   (broadcasts), 72 characters, used in URLs only.
 *
 * Invariants: only tokens Mailroom minted verify (the MAC is compared in constant time after the shape is checked);
 * a token names rows, never an address, so nothing in it reads as the recipient; tokens carry no expiry — an
 * unsubscribe link must work for as long as the mail that carries it is read (RFC 8058 §3 asks that it keep working).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export type PreferenceToken =
  | { kind: "delivery"; deliveryId: string }
  | { kind: "contact"; contactId: string; topicId: string | null };

export interface PreferenceTokens {
  forDelivery(deliveryId: string): string;
  forContact(contactId: string, topicId: string | null): string;
  /** What a token names, or null when it is malformed or its MAC does not match. */
  read(text: string): PreferenceToken | null;
}

const KIND = { delivery: 0x64, contact: 0x63 } as const;
const MAC_BYTES = 12;
const ID_BYTES = 16;
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
/** The lengths a token can have (47 and 72 characters); anything else is refused before any work. */
const LENGTHS = new Map([
  [Math.ceil(((1 + ID_BYTES + MAC_BYTES) * 8) / 5), "delivery"],
  [Math.ceil(((1 + 2 * ID_BYTES + MAC_BYTES) * 8) / 5), "contact"],
]);
const SHAPE = /^[a-z2-7]+$/;

function encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

function decode(text: string): Buffer {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    value = ((value << 5) | ALPHABET.indexOf(char)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

const NO_TOPIC = "00000000-0000-0000-0000-000000000000";
const idBytes = (id: string) => {
  const hex = id.replace(/-/g, "").toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`not a UUID: ${id}`);
  return Buffer.from(hex, "hex");
};
const idOf = (bytes: Buffer) => {
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** `key`: `secrets.deriveKey("unsubscribe-tokens")`. */
export function createPreferenceTokens(key: Uint8Array): PreferenceTokens {
  const mac = (body: Buffer) => createHmac("sha256", key).update(body).digest().subarray(0, MAC_BYTES);
  const mint = (body: Buffer) => encode(Buffer.concat([body, mac(body)]));
  return {
    forDelivery: (deliveryId) => mint(Buffer.concat([Buffer.from([KIND.delivery]), idBytes(deliveryId)])),
    forContact: (contactId, topicId) =>
      mint(Buffer.concat([Buffer.from([KIND.contact]), idBytes(contactId), idBytes(topicId ?? NO_TOPIC)])),
    read(text) {
      const kind = LENGTHS.get(text.length);
      if (!kind || !SHAPE.test(text)) return null;
      const bytes = decode(text);
      // Only the canonical spelling: unused trailing bits must not make a second valid form of one token.
      if (encode(bytes) !== text) return null;
      const body = bytes.subarray(0, bytes.length - MAC_BYTES);
      if (!timingSafeEqual(mac(body), bytes.subarray(bytes.length - MAC_BYTES))) return null;
      if (kind === "delivery" && body[0] === KIND.delivery) return { kind, deliveryId: idOf(body.subarray(1)) };
      if (kind === "contact" && body[0] === KIND.contact) {
        const topicId = idOf(body.subarray(1 + ID_BYTES));
        return {
          kind,
          contactId: idOf(body.subarray(1, 1 + ID_BYTES)),
          topicId: topicId === NO_TOPIC ? null : topicId,
        };
      }
      return null;
    },
  };
}
