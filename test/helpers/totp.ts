/**
 * RFC 6238 codes made from the RFC itself (HMAC-SHA-1 over the 30-second step, RFC 4226 §5.3's dynamic truncation),
 * not by the library the server uses, so a test of TOTP checks the server against the standard.
 */
import { createHmac } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Decode(text: string): Buffer {
  let bits = "";
  for (const char of text.replace(/=+$/, "")) bits += ALPHABET.indexOf(char).toString(2).padStart(5, "0");
  return Buffer.from(bits.match(/.{8}/g)!.map((byte) => Number.parseInt(byte, 2)));
}

export function base32(bytes: Buffer): string {
  const bits = [...bytes].map((byte) => byte.toString(2).padStart(8, "0")).join("");
  return (bits.match(/.{1,5}/g) ?? []).map((chunk) => ALPHABET[Number.parseInt(chunk.padEnd(5, "0"), 2)]).join("");
}

export function totp(key: Buffer, at: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, "0");
}
