/**
 * The listeners' options (docs/smtp.md): `[smtp]`, the submission relay (ports, TLS, AUTH, limits), and `[inbound]`,
 * the MX (its port, what it accepts, its size, header, time and session limits).
 */
import { bool, duration, int, MIB, oneOf, string, type OptionSpec } from "./option-kinds.ts";

export const SMTP_OPTIONS = {
  host: string("127.0.0.1", "Address the SMTP relay listens on (0.0.0.0 for every interface)."),
  hostname: string(
    "",
    "Name the relay greets with and puts in its generated certificate; server.hostname (then the machine's host name) when empty.",
  ),
  submission_enabled: bool(true, "Listen for submission with STARTTLS (RFC 6409, usually port 587)."),
  submission_port: int(
    587,
    0,
    65535,
    "Submission port (STARTTLS required before AUTH); 0 picks an ephemeral port (tests).",
  ),
  smtps_enabled: bool(true, "Listen for submission over implicit TLS (RFC 8314, usually port 465)."),
  smtps_port: int(
    465,
    0,
    65535,
    "Implicit-TLS port; 0 picks an ephemeral port (tests). Ports below 1024 need root or CAP_NET_BIND_SERVICE.",
  ),
  tls_cert: string(
    "",
    "PEM certificate chain file; empty generates a self-signed pair into <data_dir>/tls at first start.",
  ),
  tls_key: string("", "PEM private key file for tls_cert."),
  tls_reload_interval: duration(
    "30s",
    "How often tls_cert and tls_key are checked for changes; changed files are loaded without a restart (0s: never).",
  ),
  max_clients: int(256, 1, 100_000, "Concurrent connections per listener; more are refused with 421."),
  idle_timeout: duration(
    "5m",
    "A client silent this long is disconnected (RFC 5321 §4.5.3.2.7 asks servers to wait at least 5 minutes).",
  ),
  max_messages_per_connection: int(
    1000,
    1,
    1_000_000,
    "Messages one connection may send before it is asked to reconnect (421).",
  ),
  max_unauthenticated_commands: int(
    10,
    1,
    1000,
    "Commands a TLS client may issue before AUTH before it is disconnected.",
  ),
  max_clients_per_ip: int(
    64,
    1,
    100_000,
    "Concurrent connections from one client address (IPv6: one /64) per listener; more are refused with 421.",
  ),
  auth_failure_delay: duration(
    "500ms",
    "Delay of the reply to a failed AUTH; it doubles with each further failure from the same address (up to 16 times), and a success resets it. 0s disables.",
  ),
  reverse_lookup: bool(false, "Look up client host names (PTR) through [dns] servers, for logs only."),
  dsn: oneOf(
    ["on_request", "always", "never"],
    "always",
    "Delivery status notifications (RFC 3461/3464) for relayed mail, sent from MAILER-DAEMON@[server] hostname to the message's envelope sender: always (a failure is reported unless the client said NOTIFY=NEVER), on_request (only when the client gave DSN parameters) or never (DSN not offered).",
  ),
  greeting_pause: bool(
    false,
    "Wait 100 ms before the greeting to catch clients that talk too soon (a spam-bot trap of little use on AUTH-only ports; it costs clients that connect per message 100 ms each).",
  ),
} satisfies Record<string, OptionSpec>;

export const INBOUND_OPTIONS = {
  enabled: bool(true, "Run the inbound MX: replies to receiving domains, and bounces and complaints to return paths."),
  host: string(
    "127.0.0.1",
    "Address the inbound MX listens on (0.0.0.0 for every interface; the MX records point here).",
  ),
  port: int(
    25,
    0,
    65535,
    "Inbound MX port; other servers deliver to 25 (RFC 5321). 0 picks an ephemeral port (tests). Ports below 1024 need root or CAP_NET_BIND_SERVICE.",
  ),
  max_clients: int(256, 1, 100_000, "Concurrent connections; more are refused with 421."),
  max_clients_per_ip: int(
    16,
    1,
    100_000,
    "Concurrent connections from one client address (IPv6: one /64); more are refused with 421.",
  ),
  messages_per_ip_per_minute: int(
    120,
    1,
    10_000_000,
    "Messages one client address (IPv6: one /64) may deliver in any sliding 60 s window; more get 451 4.7.1 (try later).",
  ),
  bytes_per_ip_per_minute: int(
    100 * MIB,
    1024,
    1024 * 1024 * MIB,
    "Bytes one client address (IPv6: one /64) may send in message data in any sliding 60 s window (refused messages count too: they were read); past it MAIL FROM, and a message that crossed it, get 451 4.7.1 (try later). A client that sent nothing else in the window may always send one message up to max_message_bytes. The default is four messages at the 25 MiB limit.",
  ),
  max_recipients: int(
    100,
    1,
    1000,
    "Recipients per message (RFC 5321 §4.5.3.1.8 asks for at least 100); more get 452 (send them in another transaction).",
  ),
  max_message_bytes: int(
    25 * MIB,
    1024,
    1024 * MIB,
    "Largest message accepted, advertised in EHLO (SIZE, RFC 1870); bigger ones are refused with 552 5.3.4 (at MAIL FROM when the client declares the size, else after the data, which is not kept past the limit). 25 MiB is what large mailbox providers accept, ample for replies.",
  ),
  max_stored_bytes: int(
    5 * 1024 * MIB,
    0,
    2 ** 50,
    "Raw bytes of received mail one organisation may keep (the sum of its messages' sizes, until retention deletes them); at or over it RCPT to its receiving addresses answers 452 4.2.2 (mailbox full, try later), logged and counted on /metrics. Reports to return paths are still applied. Parsed bodies take up to as much again. 0: no limit.",
  ),
  max_header_bytes: int(
    256 * 1024,
    1024,
    64 * MIB,
    "Largest header block of a message (all its header lines, before the first empty line); larger gets 552 5.3.4 after the data, unread. 256 KiB is Exchange Online's limit.",
  ),
  max_header_lines: int(
    2000,
    10,
    1_000_000,
    "Most lines (continuation lines included) in a message's header block; more gets 552 5.3.4. Header checks cost the square of a folded header's lines.",
  ),
  auth_timeout: duration(
    "15s",
    "Longest the SPF, DKIM, DMARC and ARC checks of one received message may take, DNS included; past it the message is stored with temperror results.",
  ),
  idle_timeout: duration("5m", "A client silent this long is disconnected (RFC 5321 §4.5.3.2.7)."),
  max_session_time: duration(
    "30m",
    "Longest one connection may last, however steadily it sends; then 421 4.4.2 (the client reconnects). A message being stored is answered first.",
  ),
  retention: duration("30d", "Received messages older than this are deleted."),
  rspamd_url: {
    type: { kind: "string", pattern: /^(?:https?:\/\/[^\s/]+(?:\/\S*)?)?$/, hint: "an http(s) URL" },
    default: "",
    doc: "A local rspamd's normal worker (e.g. http://127.0.0.1:11333) that scores each received message for spam; the verdict is stored with it and inbound routes may refuse mail over a score. Nothing is sent anywhere else. Empty: no scoring.",
    url: true,
  },
  rspamd_timeout: duration(
    "2s",
    "Longest rspamd may take to score a message; past it (or when it is down) the message is received without a verdict and the reason logged.",
  ),
} satisfies Record<string, OptionSpec>;
