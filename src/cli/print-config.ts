/**
 * `print-config`: the effective configuration (defaults, then the file, then the environment) as TOML, secrets redacted.
 * It creates nothing, and it refuses a sealed secret that would not open, as `serve` would.
 */
import { existsSync, readFileSync } from "node:fs";
import { redactedConfig } from "../config/load.ts";
import type { Config } from "../config/options.ts";
import { unsealConfig } from "../config/sealed.ts";
import { createSecretBox, masterKeyFile, parseMasterKey } from "../lib/secrets.ts";
import { stringify as toToml } from "smol-toml";
import type { Invocation } from "./context.ts";
import { out } from "./output.ts";

export function printConfig({ config, secretKey }: Invocation): void {
  checkSealedSecrets(config, secretKey);
  out(toToml(redactedConfig(config)));
}

/**
 * A sealed secret shown as `<redacted>` must be one that opens, as `serve` would open it: else the same error, here.
 * Reads the master key without creating one (print-config makes nothing).
 */
function checkSealedSecrets(config: Config, secretKey: string | undefined): void {
  const keyFile = masterKeyFile(config.data_dir);
  const key = secretKey ?? (existsSync(keyFile) ? readFileSync(keyFile, "utf8") : undefined);
  const unopenable = {
    open(): string {
      throw new Error("no master key");
    },
  };
  unsealConfig(config, key ? createSecretBox(parseMasterKey(key)) : unopenable);
}
