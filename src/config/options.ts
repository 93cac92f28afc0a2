/**
 * Every configuration option, its type, default and documentation — the single source for the TOML loader, the
 * `MAILROOM_<SECTION>_<KEY>` environment overrides, `print-config` redaction and the example file.
 * Invariant: an option not listed here is an error at start, never silently ignored.
 */
import { INBOUND_OPTIONS, SMTP_OPTIONS } from "./listener-options.ts";
import type { IP_POOL_OPTIONS, SHAPING_OPTIONS } from "./ip-pool-options.ts";
import {
  bool,
  duration,
  durationList,
  int,
  MIB,
  oneOf,
  rate,
  string,
  stringList,
  type OptionSpec,
  type SectionValues,
} from "./option-kinds.ts";

export type { OptionSpec, OptionType } from "./option-kinds.ts";
export { BUILT_IN_SHAPING, IP_POOL_OPTIONS, SHAPING_OPTIONS } from "./ip-pool-options.ts";

export const PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;
export const PROVIDER_NAME_HINT = "a provider name (a-z, 0-9, _ and -, at most 40 characters)";

export const CONFIG_OPTIONS = {
  "": {
    data_dir: string("./data", "Directory holding the SQLite database (WAL) and generated certificates."),
  },
  store: {
    url: string(
      "",
      "Empty: embedded SQLite in data_dir. postgres://user:password@host:port/database: PostgreSQL, which any number of instances can share.",
      { secret: true, url: true },
    ),
    pool_size: int(16, 1, 1000, "PostgreSQL connections per instance (reads and transactions); SQLite ignores it."),
  },
  log: {
    level: oneOf(["debug", "info", "warn", "error"], "info", "Lowest level written to the JSON log on stderr."),
  },
  http: {
    host: string(
      "127.0.0.1",
      "Address the HTTP API, docs and tracking endpoints listen on (0.0.0.0 for every interface).",
    ),
    port: int(3000, 0, 65535, "HTTP port; 0 picks an ephemeral port (tests)."),
    public_url: string(
      "",
      "Base URL users and recipients reach this server at (e.g. https://mail.example.com); derived from host and port when empty.",
      { url: true },
    ),
    max_body_bytes: int(
      56 * MIB,
      1024,
      1024 * MIB,
      "Largest accepted request body; base64 attachments make JSON about 4/3 of the message size.",
    ),
    idle_timeout: duration("30s", "A connection that sends nothing for this long is closed (at most 255s)."),
    body_timeout: duration(
      "30s",
      "Time a request body may take before body_min_rate applies; a slower body is refused (400).",
    ),
    body_min_rate: int(
      4096,
      1,
      1024 * MIB,
      "Bytes per second a request body must keep up beyond body_timeout (each byte extends the deadline).",
    ),
    request_log: bool(
      true,
      "Record every API request made with a key, its bodies with secrets replaced, for GET /v1/logs; kept [retention] logs.",
    ),
  },
  limits: {
    key_requests_per_minute: int(
      100,
      1,
      10_000_000,
      "Requests (and SMTP messages) per API key in any sliding 60 s window.",
    ),
    org_requests_per_minute: int(
      500,
      1,
      10_000_000,
      "Requests (and SMTP messages) per organisation in any sliding 60 s window.",
    ),
    max_recipients: int(50, 1, 1000, "Combined to + cc + bcc per message, after de-duplication."),
    max_message_bytes: int(40 * MIB, 1024, 1024 * MIB, "Largest message (MIME, attachments included)."),
    max_batch_size: int(100, 1, 1000, "Messages per POST /v1/emails/batch."),
    template_render_timeout: duration(
      "5s",
      "Longest a template may take to render or be checked, on a thread of the CPU pool; one that takes longer is stopped and refused (400).",
    ),
  },
  delivery: {
    default_provider: {
      type: { kind: "string", pattern: PROVIDER_NAME, hint: PROVIDER_NAME_HINT },
      default: "capture",
      doc: "Provider of every domain that names none: capture (kept, never leaves), smtp (the smarthost of [smarthost]), mx (straight to each recipient's MX, see [mx]), ses (Amazon SES, see [ses]) or the name of a [providers.<name>] table.",
    },
    failover_window: duration(
      "2m",
      "A domain's provider failing temporarily (connection faults, the provider's 5xx, throttling) for this long hands the domain's mail to the next provider the domain names.",
    ),
    failover_probe_interval: duration(
      "30s",
      "While a provider is failed over, one delivery this often tries it again; the first success gives it its domains back.",
    ),
    concurrency: int(64, 1, 4096, "Delivery attempts in flight at once."),
    per_destination_concurrency: int(16, 1, 1024, "Delivery attempts in flight at once to one recipient domain."),
    retry_schedule: durationList(
      ["1m", "5m", "15m", "30m", "1h", "2h", "4h", "8h"],
      "Delays between attempts after a temporary failure; the last step repeats until retry_max_age.",
    ),
    retry_max_age: duration("48h", "A message still deferred this long after acceptance bounces (Transient)."),
    lease: duration(
      "60s",
      "How long a claimed delivery stays claimed; a crashed process's claims are retaken after this.",
    ),
    poll_interval: duration("1s", "How often the worker looks for due deliveries when nothing wakes it."),
  },
  smarthost: {
    host: string("", "Smarthost name or address (provider = smtp)."),
    port: int(587, 1, 65535, "Smarthost port."),
    security: oneOf(
      ["starttls", "tls", "none"],
      "starttls",
      "starttls (required), tls (implicit, usually port 465) or none (loopback test servers only).",
    ),
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
  server: {
    hostname: string(
      "",
      "Public host name of this server: the MX target users publish for bounces and inbound mail, and the EHLO name of direct delivery; the machine's host name when empty.",
    ),
    public_ips: stringList(
      [],
      "Public IPv4/IPv6 addresses outgoing mail leaves from (provider mx); published as ip4:/ip6: in every domain's SPF record.",
    ),
  },
  domains: {
    return_path_subdomain: {
      type: { kind: "string", pattern: /^(?!-)[a-z0-9-]{1,63}(?<!-)$/, hint: "one DNS label (a-z, 0-9, -)" },
      default: "send",
      doc: "Subdomain new domains use for the return path (bounces+…@send.example.com) and its SPF and MX records.",
    },
    spf_include: stringList(
      [],
      "Domains added to every SPF record as include: (your smarthost's SPF domain, e.g. spf.provider.example).",
    ),
    dmarc_policy: oneOf(
      ["none", "quarantine", "reject"],
      "none",
      "Policy (p=) of the DMARC record Mailroom suggests; start with none and tighten once reports look clean.",
    ),
    dmarc_rua: string(
      "",
      "Mailbox for DMARC aggregate reports in the suggested record (rua=mailto:…); empty: dmarc@<return-path subdomain>.<domain>, which Mailroom's inbound MX reads into each domain's reports (GET /v1/domains/:id/dmarc).",
    ),
    pending_check_interval: duration(
      "10m",
      "How often DNS records of pending domains (and of verified ones with a record missing) are checked.",
    ),
    verified_check_interval: duration("24h", "How often DNS records of verified domains are checked again."),
    failure_timeout: duration(
      "72h",
      "A domain still unverified this long after it was added, or with a record missing this long, becomes failed.",
    ),
  },
  mx: {
    ehlo_name: string("", "Name sent in EHLO/HELO by direct delivery; server.hostname when empty."),
    port: int(
      25,
      1,
      65535,
      "TEST ONLY: the port every MX host is contacted on. MX hosts listen on 25 (RFC 5321); change it only to point the mx provider at test servers.",
    ),
    max_connections_per_domain: int(
      4,
      1,
      256,
      "Connections open at once to one destination domain; idle ones are reused for its next messages.",
    ),
    connect_timeout: duration(
      "30s",
      "Connection and greeting timeout per MX address; the next address or host is tried after it.",
    ),
    socket_timeout: duration(
      "5m",
      "Inactivity timeout once connected (RFC 5321 §4.5.3.2 suggests 5 minutes per command).",
    ),
    allow_private_networks: bool(
      false,
      "Deliver to MX hosts on loopback, private and other non-public addresses (test servers, a trusted internal network); off, such hosts are refused.",
    ),
    mta_sts: bool(
      true,
      "Honour recipient domains' MTA-STS policies (RFC 8461): under enforce, mail goes only to the MX hosts a policy names, over TLS with a valid certificate, or waits.",
    ),
    dane: oneOf(
      ["off", "on"],
      "off",
      "DANE (RFC 7672): a destination whose MX host has DNSSEC-secure TLSA records gets its mail only over TLS whose certificate matches them (else deferred 4.7.5). Needs a DNSSEC-validating resolver in [dns] servers: Mailroom refuses to start otherwise.",
    ),
    dane_probe: string(
      ".",
      "A DNSSEC-signed name asked at start when dane is on: the resolver must answer it with the AD bit (validated). The root zone by default; a test zone's name in tests.",
    ),
    mta_sts_port: int(
      443,
      1,
      65535,
      "TEST ONLY: the port MTA-STS policies are fetched from. Policy servers listen on 443 (RFC 8461); change it only to point at test servers.",
    ),
  },
  ses: {
    region: string("", "AWS region of the SES account, e.g. eu-west-1 (provider = ses)."),
    access_key_id: string("", "AWS access key id of an IAM identity allowed ses:SendEmail."),
    secret_access_key: string("", "Its secret access key.", { secret: true }),
    session_token: string("", "Session token, for temporary credentials only.", { secret: true }),
    configuration_set: string(
      "",
      "SES configuration set each message names (event publishing to SNS is configured on it); none when empty.",
    ),
    endpoint: {
      type: { kind: "string", pattern: /^(?:https?:\/\/[^\s/]+\/?)?$/, hint: "an http(s) URL without a path" },
      default: "",
      doc: "Replaces https://email.<region>.amazonaws.com: a VPC endpoint, or a local SES emulator in tests.",
      url: true,
    },
    timeout: duration("30s", "Longest one SendEmail call may take; after it the delivery is retried."),
  },
  sns: {
    topics: stringList(
      [],
      "ARNs of the SNS topics SES publishes its events to (arn:aws:sns:<region>:<account>:<name>); notifications from any other topic are refused.",
    ),
    test_certificate_host: string(
      "",
      "TEST ONLY: one extra host[:port] trusted for SNS signing certificates and subscription URLs besides sns.<region>.amazonaws.com. Leave empty in production.",
    ),
  },
  webhooks: {
    allow_private_networks: bool(
      false,
      "Allow webhook endpoints on loopback, private, link-local and other non-public addresses, and plain http:// (local receivers, tests).",
    ),
    concurrency: int(64, 1, 4096, "Webhook requests in flight at once."),
    per_endpoint_concurrency: int(16, 1, 1024, "Webhook requests in flight at once to one endpoint."),
    retry_schedule: durationList(
      ["5s", "5m", "30m", "2h", "5h", "10h", "14h", "20h", "24h"],
      "Delays before each retry of a failed webhook delivery (up to 10 % jitter is added); after the last, the delivery fails.",
    ),
    timeout: duration("15s", "A webhook request that has not answered in this time fails (and is retried)."),
    disable_after_failures: int(
      5,
      1,
      1000,
      "An endpoint whose deliveries exhaust every retry this many times in a row is disabled.",
    ),
    secret_rotation_overlap: duration(
      "24h",
      "After a secret rotation, the old secret keeps signing alongside the new one for this long.",
    ),
    lease: duration(
      "60s",
      "How long a claimed webhook delivery stays claimed; longer than timeout. A crashed process's claims are retaken after this.",
    ),
    poll_interval: duration("1s", "How often the dispatcher looks for due webhook deliveries when nothing wakes it."),
  },
  tracking: {
    scanner_window: duration(
      "5s",
      "Opens and clicks this soon after delivery are marked as machine prefetches (link scanners), not people.",
    ),
    link_lifetime: duration(
      "30d",
      "A tracked link redirects for this long after its message is accepted (or scheduled); then it answers a page naming its destination.",
    ),
  },
  smtp: SMTP_OPTIONS,
  inbound: INBOUND_OPTIONS,
  ai: {
    base_url: {
      type: { kind: "string", pattern: /^(?:https?:\/\/[^\s/]+(?:\/\S*)?)?$/, hint: "an http(s) URL" },
      default: "",
      doc: "OpenAI-compatible API the AI writer and subject suggestions use, e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1; empty: subjects are scored offline, nothing is generated.",
      url: true,
    },
    model: string("", "Model name sent to the endpoint, e.g. llama3.1:8b or gpt-4o-mini."),
    api_key: string("", "Bearer token for the endpoint; empty for a local server that needs none.", { secret: true }),
    timeout: duration("60s", "Longest a generation may take; after it the request answers 503."),
  },
  retention: {
    content: duration(
      "30d",
      "Sent messages whose every recipient is final (delivered, bounced, failed, complained, suppressed, canceled) lose their raw MIME, bodies and attachments after this; the record, recipients and events stay, and /raw answers 410 gone. Per organisation: PATCH /v1/organization {retention: {content_days}}.",
    ),
    metadata: duration(
      "400d",
      "Sent messages with no recipient still waiting are removed whole, with their events, after this; hourly statistics survive as rollups. Per organisation: PATCH /v1/organization {retention: {metadata_days}}.",
    ),
    audit: duration("400d", "Audit log events (who changed what, sign-ins) are kept this long."),
    logs: duration("30d", "The request log (GET /v1/logs: API requests and their redacted bodies) is kept this long."),
    interval: duration("1h", "How often the retention job runs (once across the instances sharing a store)."),
  },
  guardrails: {
    window: duration(
      "24h",
      "Bounce and complaint rates of each organisation and sending domain are measured over this sliding window (test addresses never count).",
    ),
    min_recipients: int(
      200,
      1,
      10_000_000,
      "Rates are judged only once this many recipients ended (sent, delivered or bounced) in the window; below it they are shown, never acted on.",
    ),
    bounce_rate_warn: rate(0.04, "Permanent bounces over recipients at which the domain's health turns to warning."),
    complaint_rate_warn: rate(0.001, "Complaints over recipients at which the domain's health turns to warning."),
    bounce_rate_pause: rate(
      0.08,
      "Permanent bounce rate at which the domain (or the whole organisation) is paused (docs/operations.md): its mail is held until a person resumes it.",
    ),
    complaint_rate_pause: rate(
      0.003,
      "Complaint rate at which the domain (or the whole organisation) is paused; 0.003 is where Gmail and Yahoo start refusing a sender.",
    ),
    interval: duration("5m", "How often the rates are evaluated (once across the instances sharing a store)."),
  },
  deliverability: {
    dnsbl: stringList(
      [],
      'DNS blocklist zones each sending address ([server] public_ips and the IP pools\' addresses) is looked up in, e.g. ["zen.spamhaus.org", "b.barracudacentral.org"] (mind each list\'s terms; some refuse queries through public resolvers); a listing shows on the overview and in /metrics. Empty: no checks.',
    ),
    dnsbl_interval: duration("1d", "How often the blocklists are asked (once across the instances sharing a store)."),
  },
  tls_rpt: {
    interval: duration(
      "1d",
      "The TLS reporting period (RFC 8460): TLS outcomes of direct deliveries are counted per period, and when one ends each destination that publishes _smtp._tls gets its report (mailto: through Mailroom, https: POST). `mailroom tls-rpt send` sends what is due now.",
    ),
  },
  oidc: {
    issuer: string(
      "",
      "Single sign-on: the OpenID Connect issuer URL (its /.well-known/openid-configuration is read at start), e.g. https://accounts.google.com or https://login.example.com/realms/acme; empty: no SSO.",
      { url: true },
    ),
    client_id: string("", "The client id Mailroom is registered with at the identity provider."),
    client_secret: string("", "The client's secret (client_secret_basic).", { secret: true }),
    scopes: stringList(["openid", "email", "profile"], "Scopes asked for; openid and email are needed."),
    allowed_email_domains: stringList(
      [],
      'Only people whose verified email is at one of these domains sign in with SSO, e.g. ["example.com"]; empty: any.',
    ),
    organization: string(
      "",
      "The id of the organisation a person signing in with SSO for the first time joins; empty: the first organisation.",
    ),
    default_role: oneOf(["admin", "developer", "viewer"], "viewer", "The role such a person joins with."),
    role_claim: string(
      "",
      "An ID token claim naming the role instead (admin, developer or viewer, or a list holding one), e.g. mailroom_role; empty: default_role.",
    ),
    required: bool(
      false,
      "Password sign-in is off for everyone but instance admins, who keep it so that a broken identity provider cannot lock the instance out.",
    ),
  },
  metrics: {
    listen: {
      type: {
        kind: "string",
        pattern: /^(?:(?:\[[0-9A-Fa-f:.]+\]|[^\s:[\]]+):\d{1,5})?$/,
        hint: "host:port, e.g. 127.0.0.1:9464",
      },
      default: "",
      doc: "Serve GET /metrics on a listener of its own at host:port (e.g. 127.0.0.1:9464, an address only your monitoring reaches), and no longer on the HTTP API's port; empty: on the API's port, as /metrics.",
    },
    token: string(
      "",
      "When set, /metrics answers only requests with Authorization: Bearer <token> (401 otherwise); give it to Prometheus as its scrape job's bearer token.",
      { secret: true },
    ),
  },
} satisfies Record<string, Record<string, OptionSpec>>;

/**
 * Provider kinds and the section whose options configure each: `[smarthost]`, `[mx]` and `[ses]` configure the
 * built-in providers named `smtp`, `mx` and `ses`, and a `[providers.<name>]` table of that kind takes the same options.
 */
export const PROVIDER_KINDS = { capture: null, smtp: "smarthost", mx: "mx", ses: "ses" } as const;
export type ProviderKind = keyof typeof PROVIDER_KINDS;

type Options = typeof CONFIG_OPTIONS;
type Sections = { readonly [S in Exclude<keyof Options, "">]: SectionValues<Options[S]> };

/** A provider's configuration: its kind and that kind's options (none for capture). */
export type ProviderConfig =
  | { readonly kind: "capture" }
  | ({ readonly kind: "smtp" } & Sections["smarthost"])
  | ({ readonly kind: "mx" } & Sections["mx"])
  | ({ readonly kind: "ses" } & Sections["ses"]);

export type IpPoolConfig = SectionValues<typeof IP_POOL_OPTIONS>;
export type ShapingConfig = SectionValues<typeof SHAPING_OPTIONS>;

/** The validated, frozen configuration: durations in milliseconds, sizes in bytes. */
export type Config = SectionValues<Options[""]> &
  Sections & {
    /** The `[providers.<name>]` tables, by name (the built-in providers are not among them). */
    readonly providers: Readonly<Record<string, ProviderConfig>>;
    /** The `[ip_pools.<name>]` tables, by name. */
    readonly ip_pools: Readonly<Record<string, IpPoolConfig>>;
    /** The `[shaping.<provider>]` tables over the built-in ones, by provider name. */
    readonly shaping: Readonly<Record<string, ShapingConfig>>;
  };
