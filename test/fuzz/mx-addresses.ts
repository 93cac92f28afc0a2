/**
 * The MX fuzz target's RCPT addresses (mx.test.ts), and the rule that judges them: receiving addresses as a sending
 * MTA may write them, return paths whose token verifies (a real delivery's, or one naming no delivery) and forged
 * ones (one character of the token changed, cut, doubled), addresses of domains the MX must never take mail for
 * (unknown, receiving off, look-alikes, sub- and super-domains, source routes) and malformed ones. `mustRefuse` says
 * which an MX that is no open relay refuses.
 */
import { SAMPLE_RETURN_PATH } from "../helpers/inbound-fixtures.ts";
import type { MxWorld } from "./mx-world.ts";
import type { Rng } from "./prng.ts";

/** Domains this server must never take mail for: unknown, receiving off, look-alikes, sub- and super-domains. */
const FOREIGN_DOMAINS = [
  "dest.test",
  "elsewhere.test",
  "quiet.example",
  "send.example.com",
  "sub.example.com",
  "example.com.evil.test",
  "other.example.evil.test",
  "ex\u0430mple.com",
  "example.co",
  "exmple.com",
  "xn--exmple-cua.com",
  "[127.0.0.1]",
  "[IPv6:::1]",
  "localhost",
  "gmail.com",
];
const FOREIGN = new Set(FOREIGN_DOMAINS.map((d) => d.toLowerCase()));
const LOCALS = [
  "hello",
  "a",
  "postmaster",
  "abuse",
  "fbl",
  "x+tag",
  "first.last",
  "bounces",
  "bounces-x",
  "MAILER-DAEMON",
  "a".repeat(64),
  '"q"',
  "b\xfccher",
];
const HEX = "0123456789abcdef";
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** RFC 5321 source route, which smtp-server drops ("@a,@b:" before the mailbox). */
export const stripRoute = (address: string) => address.replace(/^@[^\s,:@]+(?:,@[^\s,:@]+)*:/, "");
export const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/**
 * Whether the MX must refuse this RCPT address: a return-path local part whose token does not verify (wherever it
 * points), or a domain of FOREIGN_DOMAINS. Anything else (receiving domains, odd syntax) is not judged here.
 */
export function mustRefuse(address: string, { codec }: MxWorld): boolean {
  const mailbox = stripRoute(address);
  const local = mailbox.slice(0, Math.max(0, mailbox.lastIndexOf("@")));
  if (/^bounces\+/i.test(local)) return !codec.parse(mailbox);
  return mailbox.includes("@") && FOREIGN.has(domainOf(mailbox));
}

/** Addresses a receiving domain owns, written as a sending MTA may write them. */
function receivingAddress(rng: Rng): string {
  const domain = rng.weighted([
    [6, "example.com"],
    [1, "EXAMPLE.COM"],
    [1, "Example.Com"],
    [3, "other.example"],
    [2, "xn--bcher-kva.example"],
  ]);
  const local = rng.weighted([
    [8, rng.pick(["hello", "support", "fbl", "postmaster", "abuse", "x+tag", "first.last", "Hello"])],
    [1, rng.pick(["a".repeat(64), "a!#$%&'*+/=?^_`{|}~b", '"q"', "%", "a%dest.test"])],
  ]);
  const address = `${local}@${domain}`;
  return rng.chance(0.05) ? `@relay.test:${address}` : address;
}

/** A well-formed receiving address the MX must accept. */
export function cleanReceivingAddress(rng: Rng): string {
  return `${rng.pick(["hello", "support", "fbl", "postmaster", "x+tag", "first.last"])}@${rng.weighted([
    [6, "example.com"],
    [1, "EXAMPLE.COM"],
    [3, "other.example"],
    [2, "xn--bcher-kva.example"],
  ])}`;
}

/** A return path whose token verifies: a real delivery's (any case, any domain), or one naming no delivery. */
export function validReturnPath(rng: Rng, { codec, sent }: MxWorld): string {
  const real = rng.pick(sent).returnPath;
  return rng.weighted([
    [8, () => real],
    [1, () => real.toUpperCase()],
    [
      1,
      () => real.replace(/@.*$/, `@${rng.pick(["bounces.example.com", "example.com", "other.example", "dest.test"])}`),
    ],
    [1, () => codec.address(rng.uuid(), "send.example.com")],
  ])();
}

/** Fisher–Yates with the case's Rng (a random comparator in `sort` does not replay: the engine decides the calls). */
export function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** One character of `s` replaced by a different one of `alphabet`. */
function swapOne(rng: Rng, s: string, alphabet: string): string {
  const i = rng.int(s.length);
  return s.slice(0, i) + rng.pick([...alphabet.replace(s[i]!, "")]) + s.slice(i + 1);
}

/** A return path whose token does not verify. */
export function forgedReturnPath(rng: Rng, { sent }: MxWorld): string {
  const [, hex, mac, home] = /^bounces\+([0-9a-f]{32})-([a-z2-7]{16})@(.+)$/.exec(
    rng.pick(sent).returnPath,
  )! as unknown as [string, string, string, string];
  const domain = rng.weighted([
    [4, home],
    [2, "example.com"],
    [1, "other.example"],
    [1, "dest.test"],
  ]);
  return rng.pick([
    () => `bounces+${hex}-${swapOne(rng, mac, BASE32)}@${domain}`,
    () => `bounces+${swapOne(rng, hex, HEX)}-${mac}@${domain}`,
    () => `BOUNCES+${hex}-${swapOne(rng, mac, BASE32)}@${domain}`,
    () => `bounces+${rng.hex(32)}-${Array.from({ length: 16 }, () => rng.pick([...BASE32])).join("")}@${domain}`,
    () => `bounces+${hex.slice(1)}-${mac}@${domain}`,
    () => `bounces+${hex}-${mac}x@${domain}`,
    () => `bounces+${hex}-${mac.slice(0, 15)}@${domain}`,
    () => `bounces+${hex}@${domain}`,
    () => `bounces+@${domain}`,
    () => `bounces++${hex}-${mac}@${domain}`,
    () => `bounces+${hex}-${mac}-${mac}@${domain}`,
    () => SAMPLE_RETURN_PATH,
  ])();
}

export function foreignAddress(rng: Rng): string {
  const address = `${rng.pick(LOCALS)}@${rng.pick(FOREIGN_DOMAINS)}`;
  return rng.pick([
    () => address,
    () => address,
    () => address.toUpperCase(),
    () => `@example.com:${address}`,
    () => `@example.com,@other.example:${address}`,
  ])();
}

const MALFORMED_ADDRESSES = [
  "",
  "a@b@c",
  "hello@",
  "@example.com",
  "hello",
  "postmaster",
  "Postmaster",
  "hello@example..com",
  "hello@.example.com",
  "hello@example.com.",
  ".hello@example.com",
  "hello.@example.com",
  "hello@-example.com",
  "a\0b@example.com",
  "hello@exa mple.com",
  `${"x".repeat(300)}@example.com`,
  `hello@${"d".repeat(260)}.com`,
  "hello@[999.1.1.1]",
  "hello@[example.com]",
  "\u200bhello@example.com",
  "hello@example.com\x7f",
  "bücher@example.com",
  "hello@bücher.example",
  "hello@例え.テスト",
];

/** An RCPT address of any kind. */
export function rcptAddress(rng: Rng, world: MxWorld): string {
  return rng.weighted([
    [5, () => receivingAddress(rng)],
    [3, () => validReturnPath(rng, world)],
    [3, () => forgedReturnPath(rng, world)],
    [4, () => foreignAddress(rng)],
    [2, () => rng.pick(MALFORMED_ADDRESSES)],
  ])();
}
