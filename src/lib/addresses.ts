/**
 * Email address and domain syntax: parsing `Display Name <addr>` (nodemailer's addressparser), validating the
 * address (RFC 5321 limits, RFC 5322 dot-atom or quoted local part) and normalising domains to lower-case
 * punycode (IDN). Invariant: everything this returns is safe to put on an SMTP envelope and in a header.
 */
import { domainToASCII } from "node:url";
import addressparser from "nodemailer/lib/addressparser";

export interface Mailbox {
  /** Display name, unencoded; empty when absent. */
  name: string;
  /** `local@domain` with the domain in lower-case ASCII (punycode). */
  address: string;
}

const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const DOT_ATOM = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*$`);
const QUOTED = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Lower-case ASCII form of a domain name, or an explanation of what is wrong with it. */
export function normalizeDomain(input: string): { domain: string } | { error: string } {
  const trimmed = input.trim().replace(/\.$/, "");
  if (!trimmed) return { error: "domain is empty" };
  if (/[\s/\\@:]/.test(trimmed)) return { error: `"${input}" is not a domain name` };
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (!ascii) return { error: `"${input}" is not a valid domain name` };
  if (ascii.length > 253) return { error: "domain is longer than 253 characters" };
  const labels = ascii.split(".");
  if (labels.length < 2) return { error: `"${input}" needs at least two labels (e.g. example.com)` };
  for (const label of labels) if (!LABEL.test(label)) return { error: `"${input}" has an invalid label "${label}"` };
  if (/^\d+$/.test(labels.at(-1)!)) return { error: `"${input}" is an address, not a domain name` };
  return { domain: ascii };
}

/** Validates a bare address; returns it normalised or an explanation. */
export function normalizeAddress(input: string): { address: string } | { error: string } {
  const at = input.lastIndexOf("@");
  if (at <= 0 || at === input.length - 1) return { error: `"${input}" is not an email address` };
  const local = input.slice(0, at);
  if (local.length > 64) return { error: "the local part (before @) is longer than 64 characters" };
  if (!DOT_ATOM.test(local) && !QUOTED.test(local)) {
    return {
      error: /[\u0080-\uffff]/.test(local)
        ? `"${input}" has non-ASCII characters before the @, which SMTPUTF8-less delivery cannot carry`
        : `"${input}" is not a valid email address`,
    };
  }
  const domain = normalizeDomain(input.slice(at + 1));
  if ("error" in domain) return { error: `"${input}": ${domain.error}` };
  const address = `${local}@${domain.domain}`;
  if (address.length > 254) return { error: "the address is longer than 254 characters" };
  return { address };
}

/** Parses one mailbox, with or without a display name. */
export function parseMailbox(input: string): Mailbox | { error: string } {
  if (/[\r\n\0]/.test(input)) return { error: "must not contain line breaks" };
  if (input.length > 998) return { error: "is too long" };
  if (!input.includes("<")) {
    // A bare address: parse it whole, so "a b@c.com" is an error rather than the name "a" and the address b@c.com.
    const bare = normalizeAddress(input.trim());
    return "error" in bare ? bare : { name: "", address: bare.address };
  }
  const parsed = addressparser(input);
  if (parsed.length !== 1 || !("address" in parsed[0]!) || "group" in parsed[0]!)
    return { error: `"${input}" must be exactly one address` };
  const entry = parsed[0] as { name: string; address: string };
  const normalized = normalizeAddress(entry.address ?? "");
  if ("error" in normalized) return normalized;
  return { name: entry.name ?? "", address: normalized.address };
}

export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1);
}

/** Comparison key for de-duplication and suppression: the whole address lower-cased. */
export function addressKey(address: string): string {
  return address.toLowerCase();
}

/** `Name <addr>` as shown in records; names with specials are quoted. */
export function formatMailbox(mailbox: Mailbox): string {
  if (!mailbox.name) return mailbox.address;
  const name = /^[\w !#$%&'*+\-/=?^`{|}~.]*$/.test(mailbox.name)
    ? mailbox.name
    : `"${mailbox.name.replace(/["\\]/g, "\\$&")}"`;
  return `${name} <${mailbox.address}>`;
}
