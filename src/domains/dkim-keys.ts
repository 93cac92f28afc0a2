/**
 * DKIM keys of a domain: a new RSA pair (or, on request, an Ed25519 one, RFC 8463) whose private half exists only
 * sealed with the master key. Rotation (a `next` key published beside the `active` one, taking over once its
 * record is found) is decided by the checks, for the RSA key.
 */
import { generateKeyPair as generateKeyPairCallback, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import type { SecretBox } from "../lib/secrets.ts";
import type { KeyRow } from "./repo.ts";

const RSA_BITS = 2048;
const generateKeyPair = promisify(generateKeyPairCallback);

/** An Ed25519 SubjectPublicKeyInfo is a fixed 12-byte header before the 32-byte key (RFC 8410). */
const ED25519_SPKI_HEADER_BYTES = 12;

/**
 * A new key, its private half sealed; the selector carries the date so operators can tell keys apart (and `ed`
 * for Ed25519). The public key is what the record's `p=` holds: the DER SubjectPublicKeyInfo for RSA (RFC 6376),
 * the bare 32-byte key for Ed25519 (RFC 8463 §4.2).
 */
export async function newDkimKey(
  deps: { clock: Clock; secrets: SecretBox },
  domainId: string,
  state: "active" | "next",
  algorithm: "rsa" | "ed25519" = "rsa",
): Promise<KeyRow> {
  const { publicKey, privateKey } =
    algorithm === "rsa" ? await generateKeyPair("rsa", { modulusLength: RSA_BITS }) : await generateKeyPair("ed25519");
  const spki = publicKey.export({ type: "spki", format: "der" });
  const now = deps.clock.now();
  const date = isoTime(now).slice(0, 10).replace(/-/g, "");
  return {
    id: newId(),
    domainId,
    selector: `${algorithm === "rsa" ? "mr" : "ed"}${date}${randomBytes(2).toString("hex")}`,
    algorithm,
    publicKey: (algorithm === "rsa" ? spki : spki.subarray(ED25519_SPKI_HEADER_BYTES)).toString("base64"),
    privateKey: deps.secrets.seal(privateKey.export({ type: "pkcs8", format: "pem" }).toString()),
    state,
    createdAt: isoTime(now),
    activatedAt: state === "active" ? isoTime(now) : null,
    retiredAt: null,
  };
}
