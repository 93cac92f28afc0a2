/**
 * Test addresses: mail to `<outcome>@simulator.mailroom.test` (a label may follow a `+`, as in
 * `bounced+signup@…`) never leaves the machine, whatever the key or the configured provider, and ends as a real
 * recipient with that outcome would — the same status, events, suppression and webhooks — within seconds:
 *
 * - `delivered`: delivered.
 * - `bounced`: refused at once with a 5.1.1 reply: bounced, and the address suppressed.
 * - `complained`: delivered, then a complaint reported with it: complained, and the address suppressed.
 * - `delayed`: refused for now twice (the retry comes seconds later, as a server's own hint asks), then delivered.
 * - `suppressed`: on the suppression list from the start: recorded `suppressed` at acceptance, never attempted — and,
 *   like any address on the list, alone it makes the send refused (422 `domain_not_verified`, the rule for a message
 *   whose every recipient is suppressed, docs/errors.md#the-error-table).
 *
 * TEST_ADDRESSES says this in the README's words: the README's table and the admin UI's list (ui/test-address-list.ts)
 * are checked against it word for word (test/readme.test.ts), so the three never disagree.
 *
 * Invariant: only these addresses are simulated, and `.test` is reserved (RFC 2606), so no real mailbox can be one;
 * any other local part of the domain is refused at acceptance, since nothing could ever deliver it.
 */
import type { Provider } from "./types.ts";

export const SIMULATOR_DOMAIN = "simulator.mailroom.test";

export const SIMULATED_OUTCOMES = ["delivered", "bounced", "complained", "delayed", "suppressed"] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

/** What happens to each test address, as the README's "Test addresses" table and the admin UI say it. */
export const TEST_ADDRESSES: Readonly<Record<SimulatedOutcome, string>> = {
  delivered: "delivered",
  bounced: "refused with `550 5.1.1`: `bounced`, and the address is suppressed",
  complained: "delivered, then complained about: `complained`, and the address is suppressed",
  delayed: "deferred twice (`email.delivery_delayed`, retried after 2 s), then delivered",
  suppressed:
    "on the suppression list from the start: beside another recipient it is recorded `suppressed` and never attempted; alone, the send is refused with 422 `domain_not_verified`, as any message whose every recipient is suppressed",
};

/** Temporary refusals `delayed@` answers before it accepts. */
const DELAYS = 2;
/** When a `delayed@` recipient asks to be tried again: soon enough to rehearse a delay in a test. */
const DELAY_RETRY_MS = 2_000;
const ACCEPTED = "250 2.0.0 Accepted by Mailroom's simulator; it never left this machine";

/** Whether `address` is at the simulator's domain (any local part). */
export function isSimulatorAddress(address: string): boolean {
  const at = address.lastIndexOf("@");
  return at >= 0 && address.slice(at + 1).toLowerCase() === SIMULATOR_DOMAIN;
}

/** The outcome `address` rehearses, or undefined when it is not a known test address. */
export function simulatedOutcome(address: string): SimulatedOutcome | undefined {
  if (!isSimulatorAddress(address)) return undefined;
  const local = address.slice(0, address.lastIndexOf("@")).toLowerCase();
  const plus = local.indexOf("+");
  const outcome = plus >= 0 ? local.slice(0, plus) : local;
  return (SIMULATED_OUTCOMES as readonly string[]).includes(outcome) ? (outcome as SimulatedOutcome) : undefined;
}

/** The refusal of a simulator address that rehearses nothing, or undefined when `address` is fine. */
export function unknownSimulatorAddress(address: string): string | undefined {
  if (!isSimulatorAddress(address) || simulatedOutcome(address)) return undefined;
  return `${address} is not a test address: use ${SIMULATED_OUTCOMES.map((o) => `${o}@`).join(", ")}${SIMULATOR_DOMAIN} (a label may follow a +)`;
}

export function createSimulatorProvider(): Provider {
  return {
    name: "simulator",
    async deliver(job) {
      const outcome = simulatedOutcome(job.recipient);
      switch (outcome) {
        case "bounced":
          return {
            outcome: "permanent",
            response: `550 5.1.1 <${job.recipient}>: simulated bounce, no such mailbox`,
            subType: "NoEmail",
          };
        case "complained":
          return { outcome: "delivered", response: ACCEPTED, complaint: { feedbackType: "abuse" } };
        case "delayed":
          if (job.attempts < DELAYS)
            return {
              outcome: "temporary",
              response: `451 4.2.0 <${job.recipient}>: simulated delay, try again in ${DELAY_RETRY_MS / 1000} seconds`,
              retryAfterMs: DELAY_RETRY_MS,
            };
          return { outcome: "delivered", response: ACCEPTED };
        default:
          // `delivered`, and `suppressed` should it ever be attempted (a suppression removed after acceptance).
          return { outcome: "delivered", response: ACCEPTED };
      }
    },
    async close() {},
  };
}
