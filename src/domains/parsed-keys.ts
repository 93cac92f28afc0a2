/**
 * Parsed DKIM private keys, kept in the thread that signs. mailauth's signer takes a key only as PEM text and parses
 * it with `crypto.createPrivateKey` for every signature (its `getPrivateKey` refuses a KeyObject) — measured here at
 * 300 µs of a 1.3 ms RSA-2048 signature. `reuseParsedKeys` makes `createPrivateKey` answer a PEM key it parsed
 * before from memory; it is called once, in the CPU pool's threads only (cpu/thread.ts).
 * Invariants: only PEM text (or its bytes) is kept, keyed by the whole text, so a rotated key — new text — is parsed
 * anew and the old one ages out; at most MAX_KEYS are kept, the least recently used dropped first.
 */
import crypto, { type KeyObject, type PrivateKeyInput } from "node:crypto";

const MAX_KEYS = 1_000;

export function reuseParsedKeys(): void {
  const parse = crypto.createPrivateKey;
  const parsed = new Map<string, KeyObject>();
  const pemText = (input: unknown): string | undefined => {
    if (typeof input === "string") return input.startsWith("-----BEGIN") ? input : undefined;
    const { key, format, passphrase } = (input ?? {}) as Partial<PrivateKeyInput>;
    if ((format ?? "pem") !== "pem" || passphrase !== undefined) return undefined;
    if (typeof key === "string") return key;
    return Buffer.isBuffer(key) ? key.toString("latin1") : undefined;
  };
  crypto.createPrivateKey = ((input: Parameters<typeof parse>[0]) => {
    const text = pemText(input);
    if (text === undefined) return parse(input);
    let key = parsed.get(text);
    if (key) parsed.delete(text);
    else key = parse(input);
    parsed.set(text, key);
    if (parsed.size > MAX_KEYS) parsed.delete(parsed.keys().next().value!);
    return key;
  }) as typeof parse;
}
