/**
 * Renders the example configuration file from the schema, so `config/mailroom.example.toml` documents every
 * option with its default and environment variable and can never drift (a test compares the two).
 */
import { BUILT_IN_SHAPING, CONFIG_OPTIONS, IP_POOL_OPTIONS, SHAPING_OPTIONS, type OptionSpec } from "./options.ts";
import { envName } from "./load.ts";
import { formatDuration } from "../lib/durations.ts";

function tomlValue(spec: OptionSpec): string {
  const value = spec.default;
  switch (spec.type.kind) {
    case "duration":
      return JSON.stringify(formatDuration(value as number));
    case "duration_list":
      return `[${(value as number[]).map((ms) => JSON.stringify(formatDuration(ms))).join(", ")}]`;
    default:
      return JSON.stringify(value);
  }
}

function describeType(spec: OptionSpec): string {
  const type = spec.type;
  switch (type.kind) {
    case "int":
      return `integer ${type.min}–${type.max}`;
    case "enum":
      return type.values.join(" | ");
    case "rate":
      return "rate 0–1";
    case "duration":
      return "duration (ms, s, m, h, d)";
    case "duration_list":
      return "list of durations";
    case "string_list":
      return "list of strings (comma-separated in the environment)";
    default:
      return type.kind;
  }
}

export function renderExampleConfig(): string {
  const lines = [
    "# Mailroom configuration. Every option, with its default. Pass the file with --config (or MAILROOM_CONFIG);",
    "# each option can also be set through the environment variable named beside it, which wins over the file.",
    "# Secrets at rest are sealed with MAILROOM_SECRET_KEY (32 bytes, hex or base64); without it a key file is",
    "# generated in the data directory.",
    "",
  ];
  for (const [section, options] of Object.entries(
    CONFIG_OPTIONS as unknown as Record<string, Record<string, OptionSpec>>,
  )) {
    if (section) lines.push(`[${section}]`);
    for (const [key, spec] of Object.entries(options)) {
      const shown = spec.url ? "the credentials inside it redacted by print-config" : "redacted by print-config";
      const note = spec.secret
        ? `; secret (${shown}; may hold a value sealed by \`mailroom secrets seal\`)`
        : spec.url
          ? `; ${shown}`
          : "";
      lines.push(`# ${spec.doc}`, `# ${describeType(spec)}; env ${envName(section, key)}${note}`);
      lines.push(`# ${key} = ${tomlValue(spec)}`, "");
    }
  }
  lines.push(
    "# [providers.<name>]: more providers, named as you like (a-z, 0-9, _ and -). kind = capture | smtp | mx | ses,",
    "# then any option of that kind's section above ([smarthost], [mx], [ses]), with the same defaults; environment",
    "# variables do not reach these tables. A domain names its providers in order (API: providers; CLI: --providers);",
    "# the next takes over while one fails ([delivery] failover_window). For example:",
    "#   [providers.ses_eu]",
    '#   kind = "ses"',
    '#   region = "eu-west-1"',
    '#   access_key_id = "AKIA…"',
    '#   secret_access_key = "…"',
    "#   [providers.relay]",
    '#   kind = "smtp"',
    '#   host = "smtp.relay.example"',
    "",
  );
  const namedTable = (title: string, options: Record<string, OptionSpec>, example: string[]) => {
    lines.push(`# ${title}`);
    for (const [key, spec] of Object.entries(options))
      lines.push(`#   ${key} (${describeType(spec)}, default ${tomlValue(spec)}): ${spec.doc}`);
    lines.push("# For example:", ...example.map((line) => `#   ${line}`), "");
  };
  namedTable(
    "[ip_pools.<name>]: source addresses for direct delivery (a domain names its pool: PATCH /v1/domains/:id {ip_pool}), with warm-up.",
    IP_POOL_OPTIONS,
    [
      "[ip_pools.main]",
      'addresses = ["203.0.113.5", "203.0.113.6"]',
      'ehlo_names = ["mta1.example.com", "mta2.example.com"]',
    ],
  );
  namedTable(
    `[shaping.<provider>]: a destination provider by its MX hosts and its limits per source address of a pool. Built in: ${Object.entries(
      BUILT_IN_SHAPING,
    )
      .map(([name, mx]) => `${name} (${mx.join(", ")})`)
      .join("; ")}; others take [shaping.other]'s limits, or the defaults.`,
    SHAPING_OPTIONS,
    [
      "[shaping.gmail]",
      "messages_per_minute = 300",
      "[shaping.fastmail]",
      'mx = ["*.messagingengine.com"]',
      "connections = 2",
    ],
  );
  return lines.join("\n");
}

if (import.meta.main) process.stdout.write(renderExampleConfig());
