/**
 * DKIM keys of a domain: a new RSA pair whose private half exists only sealed with the master key. Rotation
 * (a `next` key published beside the `active` one, taking over once its record is found) is decided by the checks.
 */
import { generateKeyPair as generateKeyPairCallback, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import type { SecretBox } from "../lib/secrets.ts";
import type { KeyRow } from "./repo.ts";

const RSA_BITS = 2048;
const generateKeyPair = promisify(generateKeyPairCallback);

/** A new key, its private half sealed; the selector carries the date so operators can tell keys apart. */
export async function newDkimKey(
  deps: { clock: Clock; secrets: SecretBox },
  domainId: string,
  state: "active" | "next",
): Promise<KeyRow> {
  const { publicKey, privateKey } = await generateKeyPair("rsa", { modulusLength: RSA_BITS });
  const now = deps.clock.now();
  const date = isoTime(now).slice(0, 10).replace(/-/g, "");
  return {
    id: newId(),
    domainId,
    selector: `mr${date}${randomBytes(2).toString("hex")}`,
    publicKey: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
    privateKey: deps.secrets.seal(privateKey.export({ type: "pkcs8", format: "pem" }).toString()),
    state,
    createdAt: isoTime(now),
    activatedAt: state === "active" ? isoTime(now) : null,
    retiredAt: null,
  };
}
