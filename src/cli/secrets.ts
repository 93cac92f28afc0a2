/**
 * `secrets seal`: prints a secret sealed under the master key, so that a secret option (a provider's password or
 * key) may hold the sealed value (config/sealed.ts opens it at start). The secret is read from stdin, never argv,
 * where it would show in `ps` and the shell's history.
 */
import { createLogger } from "../lib/logger.ts";
import { createSecretBox, loadMasterKey } from "../lib/secrets.ts";
import { SEALED_PREFIX } from "../config/sealed.ts";
import type { Invocation } from "./context.ts";
import { fail, out } from "./output.ts";

export async function sealSecret({ config, cli, secretKey }: Invocation): Promise<void> {
  const secret = (await new Response(Bun.stdin.stream()).text()).replace(/\r?\n$/, "");
  if (!secret) fail(`secrets seal reads the secret from stdin, e.g.: printf %s "$PASSWORD" | ${cli} secrets seal`);
  const box = createSecretBox(loadMasterKey(secretKey, config.data_dir, createLogger("warn")));
  out(SEALED_PREFIX + box.seal(secret));
}
