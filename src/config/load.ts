/**
 * Loads the configuration once: defaults, then the TOML file, then `MAILROOM_*` environment overrides; validates
 * every value against the schema and freezes the result. Invariant: an unknown key or bad value is one
 * `ConfigError` naming it (the CLI prints it and exits non-zero); nothing reads config files or env elsewhere.
 */
import { parse as parseToml, TomlError } from "smol-toml";
import { isIP } from "node:net";
import {
  BUILT_IN_SHAPING,
  CONFIG_OPTIONS,
  IP_POOL_OPTIONS,
  SHAPING_OPTIONS,
  PROVIDER_KINDS,
  PROVIDER_NAME,
  PROVIDER_NAME_HINT,
  type Config,
  type OptionSpec,
  type ProviderKind,
} from "./options.ts";
import { ConfigError } from "../lib/config-error.ts";
import { formatDuration, parseDuration } from "../lib/durations.ts";
import { isUuid } from "../lib/ids.ts";
import { REDACTED, redactUrlCredentials } from "../lib/url-credentials.ts";

export { ConfigError };

type Sections = Record<string, Record<string, OptionSpec>>;
const SCHEMA = CONFIG_OPTIONS as unknown as Sections;

const optionName = (section: string, key: string) => (section ? `${section}.${key}` : key);
export const envName = (section: string, key: string) => `MAILROOM_${section ? `${section}_` : ""}${key}`.toUpperCase();

/** Converts one raw value (TOML value or env string) to the option's type, or throws naming the option. */
function coerce(name: string, spec: OptionSpec, raw: unknown, fromEnv: boolean): unknown {
  const fail = (expected: string): never => {
    throw new ConfigError(`${name}: expected ${expected}, got ${JSON.stringify(raw)}`);
  };
  const type = spec.type;
  const list = (): unknown[] => {
    if (Array.isArray(raw)) return raw;
    if (fromEnv && typeof raw === "string")
      return raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    return fail("a list");
  };
  switch (type.kind) {
    case "string":
      if (typeof raw !== "string") return fail("a string");
      if (type.pattern && !type.pattern.test(raw)) return fail(type.hint ?? `a value matching ${type.pattern}`);
      return raw;
    case "int": {
      const n = fromEnv && typeof raw === "string" && /^-?\d+$/.test(raw) ? Number(raw) : raw;
      if (typeof n !== "number" || !Number.isInteger(n)) return fail("an integer");
      if (n < type.min || n > type.max) return fail(`an integer from ${type.min} to ${type.max}`);
      return n;
    }
    case "rate": {
      const n = fromEnv && typeof raw === "string" && /^\d*\.?\d+$/.test(raw) ? Number(raw) : raw;
      if (typeof n !== "number" || !(n >= 0 && n <= 1)) return fail("a rate from 0 to 1, e.g. 0.04");
      return n;
    }
    case "bool":
      if (typeof raw === "boolean") return raw;
      if (fromEnv && (raw === "true" || raw === "false")) return raw === "true";
      return fail("true or false");
    case "enum":
      if (typeof raw !== "string" || !type.values.includes(raw)) return fail(`one of ${type.values.join(", ")}`);
      return raw;
    case "duration": {
      const ms = typeof raw === "string" ? parseDuration(raw) : undefined;
      if (ms === undefined) return fail('a duration such as "30s", "5m", "2h"');
      if (type.min !== undefined && ms < type.min) return fail(`a duration of at least ${type.min} ms`);
      return ms;
    }
    case "string_list":
      return list().map((item) => (typeof item === "string" ? item : fail("a list of strings")));
    case "duration_list": {
      const items = list().map((item) => (typeof item === "string" ? parseDuration(item) : undefined));
      if (items.length === 0 || items.some((ms) => ms === undefined || ms <= 0))
        return fail('a non-empty list of durations such as ["1m", "5m"]');
      return items;
    }
  }
}

const isTable = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The options of a provider kind: those of the section that configures its built-in provider. */
const kindOptions = (kind: ProviderKind): Record<string, OptionSpec> => {
  const section = PROVIDER_KINDS[kind];
  return section ? SCHEMA[section]! : {};
};

/** One `[providers.<name>]` table: its kind, then that kind's options over their defaults. */
function providerTable(name: string, raw: unknown): Record<string, unknown> {
  const where = `providers.${name}`;
  if (!PROVIDER_NAME.test(name)) throw new ConfigError(`[${where}]: expected ${PROVIDER_NAME_HINT}`);
  if (Object.hasOwn(PROVIDER_KINDS, name)) {
    const section = PROVIDER_KINDS[name as ProviderKind];
    throw new ConfigError(
      `[${where}]: ${name} is a built-in provider (${section ? `configured in [${section}]` : "it takes no options"}); give this one another name`,
    );
  }
  if (!isTable(raw)) throw new ConfigError(`${where}: expected a table`);
  const kind = raw.kind;
  if (typeof kind !== "string" || !Object.hasOwn(PROVIDER_KINDS, kind)) {
    throw new ConfigError(
      `${where}.kind: expected one of ${Object.keys(PROVIDER_KINDS).join(", ")}, got ${JSON.stringify(kind)}`,
    );
  }
  const options = kindOptions(kind as ProviderKind);
  const out: Record<string, unknown> = { kind };
  for (const [key, spec] of Object.entries(options)) out[key] = spec.default;
  for (const [key, value] of Object.entries(raw)) {
    if (key === "kind") continue;
    const spec = options[key];
    if (!spec)
      throw new ConfigError(
        `unknown option ${where}.${key} (kind ${kind} takes ${Object.keys(options).join(", ") || "no options"})`,
      );
    out[key] = coerce(`${where}.${key}`, spec, value, false);
  }
  return out;
}

/** Named tables other than providers: `[ip_pools.<name>]` and `[shaping.<provider>]` (docs/deliverability.md). */
const NAMED_TABLES = { ip_pools: IP_POOL_OPTIONS, shaping: SHAPING_OPTIONS } as const;
type NamedTable = keyof typeof NAMED_TABLES;

/** One named table's options over their defaults; a shaping table named like a built-in one starts from its MX list. */
function namedTable(kind: NamedTable, name: string, raw: unknown): Record<string, unknown> {
  const where = `${kind}.${name}`;
  if (!PROVIDER_NAME.test(name)) throw new ConfigError(`[${where}]: expected ${PROVIDER_NAME_HINT}`);
  if (!isTable(raw)) throw new ConfigError(`${where}: expected a table`);
  const options: Record<string, OptionSpec> = NAMED_TABLES[kind];
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(options)) out[key] = spec.default;
  if (kind === "shaping" && BUILT_IN_SHAPING[name]) out.mx = [...BUILT_IN_SHAPING[name]!];
  for (const [key, value] of Object.entries(raw)) {
    const spec = options[key];
    if (!spec) throw new ConfigError(`unknown option ${where}.${key} (takes ${Object.keys(options).join(", ")})`);
    out[key] = coerce(`${where}.${key}`, spec, value, false);
  }
  if (kind === "ip_pools") {
    const addresses = out.addresses as string[];
    if (!addresses.length) throw new ConfigError(`${where}.addresses: a pool needs at least one address`);
    const bad = addresses.find((address) => !isIP(address));
    if (bad) throw new ConfigError(`${where}.addresses: ${JSON.stringify(bad)} is not an IP address`);
    const names = out.ehlo_names as string[];
    if (names.length && names.length !== addresses.length)
      throw new ConfigError(`${where}.ehlo_names: one name per address (${addresses.length}), or none`);
    const organizations = (out.organizations as string[]).map((id) => id.trim().toLowerCase());
    const notAnId = organizations.find((id) => !isUuid(id));
    if (notAnId !== undefined)
      throw new ConfigError(
        `${where}.organizations: ${JSON.stringify(notAnId)} is not an organisation's id (a UUID, as GET /v1/organizations lists them)`,
      );
    out.organizations = organizations;
  }
  return out;
}

/** The shaping rules: the built-in providers' MX lists with the default limits, then the configured tables. */
function shapingTables(configured: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const defaults = Object.fromEntries(Object.entries(SHAPING_OPTIONS).map(([key, spec]) => [key, spec.default]));
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, mx] of Object.entries(BUILT_IN_SHAPING)) out[name] = { ...defaults, mx: [...mx] };
  return { ...out, ...configured };
}

export interface LoadOptions {
  /** Path of a TOML file; absent means defaults plus environment. */
  file?: string;
  /** Values between the built-in defaults and the file's (a clone's own ports), as section → key → value. */
  defaults?: Record<string, Record<string, unknown>>;
  env?: Record<string, string | undefined>;
  /** Values set by code (tests, CLI flags), applied last, as section → key → raw value. */
  overrides?: Record<string, Record<string, unknown>>;
}

export async function loadConfig(options: LoadOptions = {}): Promise<Config> {
  let fileValues: Record<string, unknown> = {};
  if (options.file) {
    const file = Bun.file(options.file);
    if (!(await file.exists())) throw new ConfigError(`config file not found: ${options.file}`);
    try {
      fileValues = parseToml(await file.text()) as Record<string, unknown>;
    } catch (error) {
      const at = error instanceof TomlError ? `:${error.line}:${error.column}` : "";
      throw new ConfigError(`${options.file}${at}: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  for (const [section, values] of Object.entries(options.defaults ?? {}))
    fileValues[section] = { ...values, ...(isTable(fileValues[section]) ? fileValues[section] : {}) };
  return buildConfig(fileValues, options.env ?? {}, options.overrides ?? {});
}

export function buildConfig(
  fileValues: Record<string, unknown>,
  env: Record<string, string | undefined>,
  overrides: Record<string, Record<string, unknown>> = {},
): Config {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [section, options] of Object.entries(SCHEMA)) {
    out[section] = {};
    for (const [key, spec] of Object.entries(options)) out[section][key] = spec.default;
  }

  const apply = (section: string, key: string, raw: unknown, fromEnv: boolean) => {
    const spec = SCHEMA[section]?.[key];
    if (!spec) throw new ConfigError(`unknown option ${optionName(section, key)}`);
    out[section]![key] = coerce(optionName(section, key), spec, raw, fromEnv);
  };

  const providers: Record<string, Record<string, unknown>> = {};
  const applyProviders = (tables: unknown) => {
    if (!isTable(tables)) throw new ConfigError("providers: expected tables [providers.<name>]");
    for (const [name, table] of Object.entries(tables)) providers[name] = providerTable(name, table);
  };
  const named: Record<NamedTable, Record<string, Record<string, unknown>>> = { ip_pools: {}, shaping: {} };
  const applyNamed = (kind: NamedTable, tables: unknown) => {
    if (!isTable(tables)) throw new ConfigError(`${kind}: expected tables [${kind}.<name>]`);
    for (const [name, table] of Object.entries(tables)) named[kind][name] = namedTable(kind, name, table);
  };
  const isNamed = (name: string): name is NamedTable => Object.hasOwn(NAMED_TABLES, name);

  for (const [name, value] of Object.entries(fileValues)) {
    if (name === "providers") applyProviders(value);
    else if (isNamed(name)) applyNamed(name, value);
    else if (isTable(value)) {
      if (!SCHEMA[name] || name === "") throw new ConfigError(`unknown section [${name}]`);
      for (const [key, raw] of Object.entries(value as Record<string, unknown>)) apply(name, key, raw, false);
    } else {
      apply("", name, value, false);
    }
  }

  // Only MAILROOM_<SECTION>_<KEY> of a known section (and the top-level options) is configuration: a variable such as
  // MAILROOM_API_KEY (the README's and the client libraries' key) or MAILROOM_WEBHOOK_SECRET is someone else's and is left alone, while a
  // misspelt key of a known section is still an error naming it.
  const known = new Map<string, [string, string]>();
  for (const [section, options] of Object.entries(SCHEMA))
    for (const key of Object.keys(options)) known.set(envName(section, key), [section, key]);
  const sectionPrefixes = Object.keys(SCHEMA)
    .filter(Boolean)
    .map((section) => envName(section, ""));
  for (const [name, raw] of Object.entries(env)) {
    if (raw === undefined) continue;
    const target = known.get(name);
    if (target) apply(target[0], target[1], raw, true);
    else if (sectionPrefixes.some((prefix) => name.startsWith(prefix)))
      throw new ConfigError(`unknown environment variable ${name}`);
  }

  for (const [section, values] of Object.entries(overrides)) {
    if (section === "providers") applyProviders(values);
    else if (isNamed(section)) applyNamed(section, values);
    else for (const [key, raw] of Object.entries(values)) apply(section, key, raw, typeof raw === "string");
  }

  const defaultProvider = out.delivery!.default_provider as string;
  if (!Object.hasOwn(PROVIDER_KINDS, defaultProvider) && !Object.hasOwn(providers, defaultProvider)) {
    const known = [...Object.keys(PROVIDER_KINDS), ...Object.keys(providers)];
    throw new ConfigError(
      `delivery.default_provider: no provider named ${JSON.stringify(defaultProvider)} (known: ${known.join(", ")})`,
    );
  }

  const { "": top, ...sections } = out;
  return deepFreeze({
    ...top,
    ...sections,
    providers,
    ip_pools: named.ip_pools,
    shaping: shapingTables(named.shaping),
  }) as unknown as Config;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** The configuration as TOML-shaped sections with secrets replaced, for `print-config`. */
export function redactedConfig(config: Config): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const values = config as unknown as Record<string, unknown>;
  for (const [section, options] of Object.entries(SCHEMA)) {
    const target = redacted(options, (section ? values[section] : values) as Record<string, unknown>);
    if (section) out[section] = target;
    else Object.assign(out, target);
  }
  for (const kind of Object.keys(NAMED_TABLES) as NamedTable[])
    if (Object.keys(config[kind]).length) out[kind] = config[kind];
  if (Object.keys(config.providers).length) {
    out.providers = Object.fromEntries(
      Object.entries(config.providers).map(([name, provider]) => [
        name,
        {
          kind: provider.kind,
          ...redacted(kindOptions(provider.kind), provider as unknown as Record<string, unknown>),
        },
      ]),
    );
  }
  return out;
}

function redacted(options: Record<string, OptionSpec>, source: Record<string, unknown>): Record<string, unknown> {
  const target: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(options)) {
    const value = source[key];
    if (spec.url && value) target[key] = redactUrlCredentials(value as string);
    else if (spec.secret && value) target[key] = REDACTED;
    else if (spec.type.kind === "duration") target[key] = formatDuration(value as number);
    else if (spec.type.kind === "duration_list") target[key] = (value as number[]).map(formatDuration);
    else target[key] = value;
  }
  return target;
}
