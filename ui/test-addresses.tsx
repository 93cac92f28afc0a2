/**
 * The simulator's test addresses (providers/simulator.ts, README "Test addresses"), as a hint where mail is sent
 * or looked for: each rehearses one recipient's fate without mail leaving the machine.
 */
import { CopyButton } from "./copy.tsx";

const DOMAIN = "simulator.mailroom.test";
const ADDRESSES: ReadonlyArray<[local: string, what: string]> = [
  ["delivered", "delivered"],
  ["bounced", "bounces with 550 5.1.1, and is suppressed"],
  ["complained", "is delivered, then complains, and is suppressed"],
  ["delayed", "is deferred twice, then delivered"],
  ["suppressed", "is on the suppression list from the start"],
];

export function TestAddresses() {
  return (
    <details class="more test-addresses">
      <summary>Test addresses: rehearse a bounce or a complaint</summary>
      <p class="hint">
        With any key, mail to these never leaves this machine; within seconds each recipient ends as a real one would,
        with its events, suppression and webhooks. A label may follow a <code>+</code>, as in{" "}
        <code>bounced+signup@{DOMAIN}</code>. They do not count in the statistics.
      </p>
      <ul>
        {ADDRESSES.map(([local, what]) => (
          <li key={local}>
            <code>
              {local}@{DOMAIN}
            </code>
            <CopyButton text={`${local}@${DOMAIN}`} label={`Copy ${local}@${DOMAIN}`} />
            <span class="what">{what}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
