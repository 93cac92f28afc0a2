/**
 * Tracking tokens: the opaque part of `/t/o/<token>`, `/t/c/<token>` and `/u/<token>`. A token is
 * base64url(kind ‖ email id ‖ [expiry] ‖ [link] ‖ MAC), the MAC being the first 16 bytes of HMAC-SHA256 over
 * everything before it under a key derived from the master key. Invariant: only tokens Mailroom minted verify — a
 * forged or altered token (another email id, another link, another expiry, another kind) is rejected, so a click
 * can only ever lead to a link Mailroom itself wrote into a message. Tokens are stateless: nothing is stored.
 *
 * A click token carries its expiry (seconds since the epoch, 4 bytes), after which it no longer redirects (the
 * service decides what it answers instead). Click tokens minted before expiries existed have their own kind byte
 * and no expiry: they still verify, and `expiresAt` is absent.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export type TokenKind = "open" | "click" | "unsubscribe";

export interface TrackingToken {
  kind: TokenKind;
  emailId: string;
  /** The original link (click tokens only). */
  link?: string;
  /** When the click stops redirecting, epoch ms, whole seconds (click tokens; absent from those minted before expiries). */
  expiresAt?: number;
}

const KIND_BYTES: Record<TokenKind, number> = { open: 0x6f, click: 0x43, unsubscribe: 0x75 };
/** The kind byte of click tokens without an expiry, minted before click tokens expired: read, never minted. */
const UNEXPIRING_CLICK = 0x63;
const KINDS = new Map<number, TokenKind>([
  ...Object.entries(KIND_BYTES).map(([kind, byte]) => [byte, kind as TokenKind] as const),
  [UNEXPIRING_CLICK, "click"],
]);
const MAC_BYTES = 16;
const ID_BYTES = 16;
const EXPIRY_BYTES = 4;
/** Longer tokens are refused before any work (links in mail rarely exceed a few hundred characters). */
const MAX_TOKEN_LENGTH = 8192;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export interface TokenCodec {
  mint(token: TrackingToken): string;
  /** The token's content, or null when it is malformed or its MAC does not match. */
  verify(text: string, kind: TokenKind): TrackingToken | null;
}

const idToBytes = (id: string) => Buffer.from(id.replace(/-/g, ""), "hex");
const bytesToId = (bytes: Buffer) => {
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** `key` is the tracking-tokens key; a Uint8Array too, as it arrives in a CPU-pool thread. */
export function createTokenCodec(key: Uint8Array): TokenCodec {
  const mac = (body: Buffer) => createHmac("sha256", key).update(body).digest().subarray(0, MAC_BYTES);
  return {
    mint(token) {
      const expiry = Buffer.alloc(token.kind === "click" ? EXPIRY_BYTES : 0);
      if (token.kind === "click") {
        if (token.expiresAt === undefined) throw new Error("a click token needs an expiry");
        // Rounded up to the second: a token never expires before the time it was minted for.
        expiry.writeUInt32BE(Math.min(0xffffffff, Math.max(0, Math.ceil(token.expiresAt / 1000))));
      }
      const body = Buffer.concat([
        Buffer.from([KIND_BYTES[token.kind]]),
        idToBytes(token.emailId),
        expiry,
        Buffer.from(token.link ?? "", "utf8"),
      ]);
      return Buffer.concat([body, mac(body)]).toString("base64url");
    },
    verify(text, kind) {
      if (text.length > MAX_TOKEN_LENGTH || !BASE64URL.test(text)) return null;
      const bytes = Buffer.from(text, "base64url");
      // Only the canonical spelling: unused trailing bits must not make a second valid form of one token.
      if (bytes.toString("base64url") !== text) return null;
      if (bytes.length < 1 + ID_BYTES + MAC_BYTES) return null;
      const body = bytes.subarray(0, bytes.length - MAC_BYTES);
      if (!timingSafeEqual(mac(body), bytes.subarray(bytes.length - MAC_BYTES))) return null;
      if (KINDS.get(body[0]!) !== kind) return null;
      const emailId = bytesToId(body.subarray(1, 1 + ID_BYTES));
      if (kind !== "click") return body.length === 1 + ID_BYTES ? { kind, emailId } : null;
      const expires = body[0] !== UNEXPIRING_CLICK;
      if (expires && body.length < 1 + ID_BYTES + EXPIRY_BYTES) return null;
      const link = body.subarray(1 + ID_BYTES + (expires ? EXPIRY_BYTES : 0)).toString("utf8");
      if (!link) return null;
      return { kind, emailId, link, ...(expires && { expiresAt: body.readUInt32BE(1 + ID_BYTES) * 1000 }) };
    },
  };
}
