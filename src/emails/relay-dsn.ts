/**
 * Which delivery status notifications a relayed message asked for (RFC 3461, docs/smtp.md#delivery-status-notifications):
 * the relay hands over what the client said at MAIL FROM (RET, ENVID) and RCPT TO (NOTIFY, ORCPT), and this decides,
 * per recipient, which outcomes are reported to the envelope sender under `[smtp] dsn`.
 *
 * Invariant: nothing is ever reported for a null reverse path (RFC 3461 §6.2, RFC 5321 §4.5.5: a report about a
 * report would loop), for NOTIFY=NEVER, or for a message that is itself a report (`multipart/report`, RFC 6522).
 */
import { addressKey } from "../lib/addresses.ts";
import { readHeader } from "./raw-message.ts";

export const DSN_MODES = ["on_request", "always", "never"] as const;
export type DsnMode = (typeof DSN_MODES)[number];

/** The outcomes a recipient's NOTIFY names, as `deliveries.dsn_notify` stores them. */
export type NotifyOn = "failure" | "delay" | "success";

/** What the client said, as the relay read it (ENVID and ORCPT already decoded from xtext, lib/xtext.ts). */
export interface RelayDsnParams {
  mode: DsnMode;
  /** MAIL FROM; empty for the null reverse path. */
  mailFrom: string;
  ret?: "FULL" | "HDRS";
  envid?: string;
  recipients: Array<{ address: string; notify?: string[]; orcpt?: string }>;
}

/** What is stored: where reports go, and per recipient (by address key) what is reported and its ORCPT. */
export interface RelayDsn {
  returnTo: string;
  ret: "FULL" | "HDRS" | null;
  envid: string | null;
  recipients: Map<string, { notify: string; orcpt: string | null }>;
}

/** RFC 6522: a `multipart/report` is a report (a bounce, a feedback report, a TLS report…). */
export function isReport(raw: Buffer): boolean {
  return /^\s*multipart\/report\b/i.test(readHeader(raw, "Content-Type") ?? "");
}

const NOTIFY_VALUES: Record<string, NotifyOn> = { FAILURE: "failure", DELAY: "delay", SUCCESS: "success" };

/**
 * The reports `params` asks for of `raw`, or undefined when none will ever be sent. `[smtp] dsn`: `never` sends
 * none; `on_request` only for a recipient with NOTIFY, or a transaction with RET or ENVID (then FAILURE, RFC 3461
 * §4.1's default); `always` also FAILURE for a recipient the client said nothing about.
 */
export function resolveRelayDsn(params: RelayDsnParams, raw: Buffer): RelayDsn | undefined {
  if (params.mode === "never" || params.mailFrom === "" || isReport(raw)) return undefined;
  const askedAtMail = params.ret !== undefined || params.envid !== undefined;
  const recipients = new Map<string, { notify: string; orcpt: string | null }>();
  for (const recipient of params.recipients) {
    let notify: NotifyOn[];
    if (recipient.notify) notify = recipient.notify.flatMap((value) => NOTIFY_VALUES[value.toUpperCase()] ?? []);
    else notify = params.mode === "always" || askedAtMail ? ["failure"] : [];
    if (notify.length)
      recipients.set(addressKey(recipient.address), { notify: notify.join(","), orcpt: recipient.orcpt ?? null });
  }
  if (recipients.size === 0) return undefined;
  return { returnTo: params.mailFrom, ret: params.ret ?? null, envid: params.envid ?? null, recipients };
}
