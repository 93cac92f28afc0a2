/**
 * The providers a configuration defines, by name: the built-in ones (`capture`, `mx`, and `smtp` and `ses` once
 * their sections are filled in or the default names them) and the `[providers.<name>]` tables. Invariant: the
 * composition root builds exactly these, and domains may name exactly these.
 */
import type { Config, ProviderConfig } from "./options.ts";

/** The configuration of every provider by name: the built-ins their sections configure, then `[providers.<name>]`. */
export function providerConfigs(config: Config): Map<string, ProviderConfig> {
  const configs = new Map<string, ProviderConfig>([
    ["capture", { kind: "capture" }],
    ["mx", { kind: "mx", ...config.mx }],
  ]);
  // The smarthost and SES need settings: they exist once configured (or named as the default, which then says what is missing).
  const wanted = (name: string, configured: boolean) => configured || config.delivery.default_provider === name;
  if (wanted("smtp", !!config.smarthost.host)) configs.set("smtp", { kind: "smtp", ...config.smarthost });
  if (wanted("ses", !!(config.ses.region || config.ses.access_key_id)))
    configs.set("ses", { kind: "ses", ...config.ses });
  for (const [name, provider] of Object.entries(config.providers)) configs.set(name, provider);
  return configs;
}
