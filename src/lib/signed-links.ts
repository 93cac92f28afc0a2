/**
 * Download links that work without an API key (as Resend's do): a Mailroom URL with an expiry and an HMAC over the
 * path and expiry, under a key derived from the master key. Invariant: a link grants exactly the one path it was
 * made for, until it expires; it cannot be forged, moved to another path or extended.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { isoTime, type Clock } from "./clock.ts";

/** What a request presents: its path and the link's query parameters. */
export interface PresentedLink {
  path: string;
  expires: string;
  signature: string;
}

export interface SignedLinks {
  link(path: string): { download_url: string; expires_at: string };
  valid(presented: PresentedLink): boolean;
}

export function createSignedLinks(deps: {
  key: Buffer;
  clock: Clock;
  publicUrl: () => string;
  lifetimeMs: number;
}): SignedLinks {
  const sign = (path: string, expires: number) =>
    createHmac("sha256", deps.key).update(`${path}\n${expires}`).digest("base64url");
  return {
    link(path) {
      const expires = Math.floor((deps.clock.now() + deps.lifetimeMs) / 1000);
      return {
        download_url: `${deps.publicUrl()}${path}?expires=${expires}&signature=${sign(path, expires)}`,
        expires_at: isoTime(expires * 1000),
      };
    },
    valid({ path, expires, signature }) {
      if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 < deps.clock.now()) return false;
      const expected = Buffer.from(sign(path, Number(expires)));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
