/**
 * Every configuration option, its type, default and documentation — the single source for the TOML loader, the
 * `MAILROOM_<SECTION>_<KEY>` environment overrides, `print-config` redaction and the example file.
 * Invariant: an option not listed here is an error at start, never silently ignored.
 */
import { parseDuration } from "../lib/durations.ts";

export type OptionType =
  | { kind: "string"; pattern?: RegExp; hint?: string }
  | { kind: "int"; min: number; max: number }
  | { kind: "bool" }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "duration"; min?: number }
  | { kind: "string_list" }
  | { kind: "duration_list" };

export interface OptionSpec {
  type: OptionType;
  default: unknown;
  doc: string;
  /** Redacted by print-config and never logged. */
  secret?: boolean;
}

type Spec<K extends OptionType["kind"]> = OptionSpec & { type: Extract<OptionType, { kind: K }> };

const string = (def: string, doc: string, extra: { secret?: boolean } = {}): Spec<"string"> => ({ type: { kind: "string" }, default: def, doc, ...extra });
const int = (def: number, min: number, max: number, doc: string): Spec<"int"> => ({ type: { kind: "int", min, max }, default: def, doc });
const bool = (def: boolean, doc: string): Spec<"bool"> => ({ type: { kind: "bool" }, default: def, doc });
const duration = (def: string, doc: string): Spec<"duration"> => ({ type: { kind: "duration" }, default: parseDuration(def), doc });
const oneOf = (values: readonly string[], def: string, doc: string): Spec<"enum"> => ({ type: { kind: "enum", values }, default: def, doc });
const stringList = (def: string[], doc: string): Spec<"string_list"> => ({ type: { kind: "string_list" }, default: def, doc });
const durationList = (def: string[], doc: string): Spec<"duration_list"> => ({ type: { kind: "duration_list" }, default: def.map(parseDuration), doc });

const MIB = 1024 * 1024;

export const CONFIG_SCHEMA = {
  "": {
    data_dir: string("./data", "Directory holding the SQLite database (WAL) and generated certificates."),
  },
  log: {
    level: oneOf(["debug", "info", "warn", "error"], "info", "Lowest level written to the JSON log on stderr."),
  },
  http: {
    host: string("127.0.0.1", "Address the HTTP API, docs and tracking endpoints listen on (0.0.0.0 for every interface)."),
    port: int(3000, 0, 65535, "HTTP port; 0 picks an ephemeral port (tests)."),
    public_url: string("", "Base URL users and recipients reach this server at (e.g. https://mail.example.com); derived from host and port when empty."),
    max_body_bytes: int(56 * MIB, 1024, 1024 * MIB, "Largest accepted request body; base64 attachments make JSON about 4/3 of the message size."),
  },
  limits: {
    key_requests_per_minute: int(100, 1, 10_000_000, "Requests (and SMTP messages) per API key in any sliding 60 s window."),
    org_requests_per_minute: int(500, 1, 10_000_000, "Requests (and SMTP messages) per organisation in any sliding 60 s window."),
    max_recipients: int(50, 1, 1000, "Combined to + cc + bcc per message, after de-duplication."),
    max_message_bytes: int(40 * MIB, 1024, 1024 * MIB, "Largest message (MIME, attachments included)."),
    max_batch_size: int(100, 1, 1000, "Messages per POST /v1/emails/batch."),
  },
  delivery: {
    provider: oneOf(["capture", "smtp"], "capture", "Where live mail goes: capture (kept, never leaves) or smtp (a smarthost, see [smarthost])."),
    concurrency: int(64, 1, 4096, "Delivery attempts in flight at once."),
    per_destination_concurrency: int(16, 1, 1024, "Delivery attempts in flight at once to one recipient domain."),
    retry_schedule: durationList(["1m", "5m", "15m", "30m", "1h", "2h", "4h", "8h"], "Delays between attempts after a temporary failure; the last step repeats until retry_max_age."),
    retry_max_age: duration("48h", "A message still deferred this long after acceptance bounces (Transient)."),
    lease: duration("60s", "How long a claimed delivery stays claimed; a crashed process's claims are retaken after this."),
    poll_interval: duration("1s", "How often the worker looks for due deliveries when nothing wakes it."),
  },
  smarthost: {
    host: string("", "Smarthost name or address (provider = smtp)."),
    port: int(587, 1, 65535, "Smarthost port."),
    security: oneOf(["starttls", "tls", "none"], "starttls", "starttls (required), tls (implicit, usually port 465) or none (loopback test servers only)."),
    username: string("", "Smarthost AUTH user; empty for no AUTH."),
    password: string("", "Smarthost AUTH password.", { secret: true }),
    pool_size: int(8, 1, 256, "Pooled connections to the smarthost."),
    connect_timeout: duration("10s", "Connection (and greeting) timeout."),
    socket_timeout: duration("60s", "Inactivity timeout once connected."),
    tls_reject_unauthorized: bool(true, "Refuse smarthost certificates that do not verify."),
  },
  dns: {
    servers: stringList([], "DNS servers (ip or ip:port) for every lookup Mailroom makes; empty uses the system's."),
  },
} satisfies Record<string, Record<string, OptionSpec>>;

type Schema = typeof CONFIG_SCHEMA;
type ValueOf<S extends OptionSpec> = S["type"]["kind"] extends "int" | "duration"
  ? number
  : S["type"]["kind"] extends "bool"
    ? boolean
    : S["type"]["kind"] extends "string_list"
      ? string[]
      : S["type"]["kind"] extends "duration_list"
        ? number[]
        : string;

type SectionValues<S extends Record<string, OptionSpec>> = { readonly [K in keyof S]: ValueOf<S[K]> };

/** The validated, frozen configuration: durations in milliseconds, sizes in bytes. */
export type Config = SectionValues<Schema[""]> & { readonly [S in Exclude<keyof Schema, "">]: SectionValues<Schema[S]> };
