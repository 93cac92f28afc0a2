/**
 * Secrets at rest (DKIM private keys, webhook signing secrets, provider credentials) are sealed with AES-256-GCM
 * under a master key: `MAILROOM_SECRET_KEY` (base64 or hex of 32 bytes) when set, otherwise a key file generated in
 * the data directory with mode 0600 and a warning. Invariant: sealed values are authenticated — a tampered or
 * wrongly keyed value fails to open instead of yielding garbage — and the master key is never logged.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "./config-error.ts";
import type { Logger } from "./logger.ts";
import { ensurePrivateDirectory, keepPrivate, PRIVATE_FILE_MODE } from "./private-files.ts";

const PREFIX = "v1:";
const KEY_FILE = "secret.key";

export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /** A 32-byte key for `purpose` derived from the master key (HKDF-SHA256, RFC 5869), e.g. to MAC tokens. */
  deriveKey(purpose: string): Buffer;
}

export function parseMasterKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) throw new ConfigError("MAILROOM_SECRET_KEY must be 32 bytes, as 64 hex characters or base64");
  return key;
}

/** Where the generated master key lives when `MAILROOM_SECRET_KEY` is not set. */
export function masterKeyFile(dataDir: string): string {
  return join(dataDir, KEY_FILE);
}

/** Loads the master key from the environment value, or from (creating if needed) the key file in `dataDir`. */
export function loadMasterKey(envValue: string | undefined, dataDir: string, logger: Logger): Buffer {
  if (envValue) return parseMasterKey(envValue);
  const path = masterKeyFile(dataDir);
  ensurePrivateDirectory(dataDir, logger);
  if (existsSync(path)) {
    keepPrivate(path, logger);
    return parseMasterKey(readFileSync(path, "utf8"));
  }
  writeFileSync(path, `${randomBytes(32).toString("base64")}\n`, { mode: PRIVATE_FILE_MODE, flag: "wx" });
  logger.warn(
    "MAILROOM_SECRET_KEY is not set: generated a master key file; back it up with the database, or set the variable",
    { path },
  );
  return parseMasterKey(readFileSync(path, "utf8"));
}

export function createSecretBox(masterKey: Buffer): SecretBox {
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", masterKey, iv);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
    },
    open(sealed) {
      if (!sealed.startsWith(PREFIX)) throw new Error("not a sealed secret");
      const bytes = Buffer.from(sealed.slice(PREFIX.length), "base64");
      const decipher = createDecipheriv("aes-256-gcm", masterKey, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
    },
    deriveKey(purpose) {
      return Buffer.from(hkdfSync("sha256", masterKey, Buffer.alloc(0), `mailroom:${purpose}`, 32));
    },
  };
}
