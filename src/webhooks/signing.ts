/**
 * Standard Webhooks signing (https://www.standardwebhooks.com/): `webhook-signature` holds one `v1,<base64
 * HMAC-SHA256 of "id.timestamp.body">` per active secret, separated by spaces, so during a rotation a receiver
 * holding either the old or the new secret verifies. The same values go out as `svix-*` headers for receivers
 * built on Svix libraries; new secrets are made here too. Invariant: secrets are opened from the secret box only
 * here and never leave it.
 */
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { SecretBox } from "../lib/secrets.ts";

/** Rotations leave old sealed values behind; a bound keeps the cache from growing with them. */
const MAX_CACHED = 1024;
/** Standard Webhooks recommends secrets of 24 to 64 bytes. */
const SECRET_BYTES = 32;

/** A new signing secret, `whsec_<base64 key>`: what the receivers' verifiers take. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString("base64")}`;
}

export interface SigningKeys {
  /** Sealed current secret. */
  secret: string;
  /** Sealed previous secret, used while `previousSecretUntil` (epoch ms) is in the future. */
  previousSecret: string | null;
  previousSecretUntil: number | null;
}

export interface Signer {
  /** The signature headers for one attempt: `webhook-*` and their `svix-*` twins. */
  headers(keys: SigningKeys, messageId: string, timestampMs: number, body: string): Record<string, string>;
}

export function createSigner(secrets: SecretBox): Signer {
  // Opening a sealed secret is an AES-GCM decryption; keep the opened signer per sealed value.
  const cache = new Map<string, Webhook>();
  const webhookFor = (sealed: string) => {
    let webhook = cache.get(sealed);
    if (!webhook) {
      if (cache.size >= MAX_CACHED) cache.clear();
      webhook = new Webhook(secrets.open(sealed));
      cache.set(sealed, webhook);
    }
    return webhook;
  };

  return {
    headers(keys, messageId, timestampMs, body) {
      const timestamp = new Date(timestampMs);
      const active = [keys.secret];
      if (keys.previousSecret && keys.previousSecretUntil !== null && keys.previousSecretUntil > timestampMs)
        active.push(keys.previousSecret);
      const signature = active.map((sealed) => webhookFor(sealed).sign(messageId, timestamp, body)).join(" ");
      const seconds = String(Math.floor(timestampMs / 1000));
      return {
        "webhook-id": messageId,
        "webhook-timestamp": seconds,
        "webhook-signature": signature,
        "svix-id": messageId,
        "svix-timestamp": seconds,
        "svix-signature": signature,
      };
    },
  };
}
