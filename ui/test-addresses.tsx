/**
 * The simulator's test addresses (providers/simulator.ts, README "Test addresses"), as a hint where mail is sent
 * or looked for: each rehearses one recipient's fate without mail leaving the machine.
 */
import { CopyButton } from "./copy.tsx";
import { TEST_ADDRESS_DOMAIN as DOMAIN, TEST_ADDRESS_LIST as ADDRESSES } from "./test-address-list.ts";

/** The README's wording, its `code` spans drawn as code. */
function Words({ text }: { text: string }) {
  return (
    <>
      {text.split("`").map((part, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a fixed sentence never move.
        i % 2 ? <code key={i}>{part}</code> : part,
      )}
    </>
  );
}

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
            <span class="what">
              <Words text={what} />
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}
