/**
 * Secret options held sealed in the configuration: a value `sealed:v1:…` (made by `mailroom secrets seal`) of any
 * secret option — provider passwords and keys, the AI key, the store URL — is opened with the master key when the
 * services are built, so the config file and the environment need never hold the plaintext. Invariant: a sealed
 * value that does not open is an error naming its option at start, never a credential sent as is.
 */
import { ConfigError } from "../lib/config-error.ts";
import type { SecretBox } from "../lib/secrets.ts";
import { CONFIG_OPTIONS, PROVIDER_KINDS, type Config, type OptionSpec } from "./options.ts";

export const SEALED_PREFIX = "sealed:";

type Sections = Record<string, Record<string, OptionSpec>>;
const SCHEMA = CONFIG_OPTIONS as unknown as Sections;

/** The configuration with every sealed secret opened (the same object when none is sealed). */
export function unsealConfig(config: Config, box: Pick<SecretBox, "open">): Config {
  let changed = false;
  const open = (name: string, options: Record<string, OptionSpec>, values: Record<string, unknown>) => {
    const out = { ...values };
    for (const [key, spec] of Object.entries(options)) {
      const value = values[key];
      if (!spec.secret || typeof value !== "string" || !value.startsWith(SEALED_PREFIX)) continue;
      try {
        out[key] = box.open(value.slice(SEALED_PREFIX.length));
      } catch {
        throw new ConfigError(
          `${name}.${key}: the sealed value does not open with this master key (MAILROOM_SECRET_KEY or the data directory's secret.key)`,
        );
      }
      changed = true;
    }
    return out;
  };
  const values = config as unknown as Record<string, Record<string, unknown>>;
  const sections = Object.fromEntries(
    Object.entries(SCHEMA)
      .filter(([section]) => section)
      .map(([section, options]) => [section, open(section, options, values[section]!)]),
  );
  const providers = Object.fromEntries(
    Object.entries(config.providers).map(([name, provider]) => {
      const section = PROVIDER_KINDS[provider.kind];
      return [
        name,
        section
          ? open(`providers.${name}`, SCHEMA[section]!, provider as unknown as Record<string, unknown>)
          : provider,
      ];
    }),
  );
  return changed ? (Object.freeze({ ...config, ...sections, providers }) as Config) : config;
}
