/**
 * Sending IPs, on the Deliverability screen (docs/deliverability.md): each `[ip_pools.<name>]` of direct delivery with its
 * addresses — the EHLO name each greets with, where it is in its warm-up, today's messages per destination provider
 * and any back-off a receiver's throttling set — and what warm-up and back-off mean; without a pool, one line on how
 * to configure one. Invariant: the days, caps and counts are the server's (`GET /v1/ip-pools`); nothing is computed
 * here but words.
 */
import { api, type IpPool, type IpPoolAddress, type Page } from "../api.ts";
import { Alert } from "../alert.tsx";
import { clockTime } from "../format.ts";
import { usePolled } from "../hooks.ts";

/** "30d" → 30 (the server writes a pool's warm-up in whole days). */
const warmupDays = (warmup: string) => Number.parseInt(warmup, 10) || 0;

/** Where an address is in its warm-up: "day 3 of 30, up to 200 per provider today", "not used yet", "warm". */
function warmupWords(address: IpPoolAddress, pool: IpPool): string {
  if (address.daily_cap === null) return warmupDays(pool.warmup) === 0 ? "no warm-up" : "warm";
  if (address.warmup_day === null) return "not used yet";
  return `day ${address.warmup_day} of ${warmupDays(pool.warmup)}, up to ${address.daily_cap.toLocaleString("en")} per provider today`;
}

/** Today's counts, the named providers first and `other` last: "gmail: 12, outlook: 3". */
const todayWords = (today: Record<string, number>) => {
  const entries = Object.entries(today)
    .filter(([, messages]) => messages > 0)
    .sort(([a], [b]) => (a === "other" ? 1 : b === "other" ? -1 : a.localeCompare(b)));
  return entries.length
    ? entries.map(([provider, messages]) => `${provider}: ${messages.toLocaleString("en")}`).join(", ")
    : "none yet";
};

export function SendingIps() {
  const pools = usePolled(() => api.get<Page<IpPool>>("/v1/ip-pools"), []);
  const data = pools.data?.data;
  return (
    <>
      <h2>Sending IPs</h2>
      <Alert message={pools.error} />
      {data && data.length === 0 && (
        <p class="hint">
          Direct delivery sends from this machine's own address. To send from addresses you choose, each greeting with
          its own name and warmed up, add an <code>[ip_pools.&lt;name&gt;]</code> table to the configuration (
          <code>addresses = ["203.0.113.5"]</code>, <code>ehlo_names = ["mta1.example.com"]</code>) and restart; the
          domains' suggested SPF records then name those addresses. Choose the pool in a domain's settings.
        </p>
      )}
      {data?.map((pool) => (
        <Pool key={pool.name} pool={pool} />
      ))}
      {data && data.length > 0 && (
        <p class="hint">
          A domain's direct delivery (straight to the receivers' mail servers; a relay or SES sends from its own
          addresses) leaves from its pool's addresses in turn. <strong>Warm-up:</strong> receivers distrust a new
          address that suddenly sends a lot, so from its first day each address sends at most 50 messages a day to each
          destination provider (gmail, outlook, yahoo, other — told by the recipient's mail servers), twice as many each
          following day, and without a cap once the pool's warm-up is over; mail over the day's cap waits, deferred,
          until the next UTC day. <strong>Back-off:</strong> when a provider answers with a throttling reply (a 421, or
          a 4.7.x about its rate), the address sends to it at half the rate for an hour, halved again on each further
          such reply; each Mailroom instance backs off on its own, and this shows the one that answered.
        </p>
      )}
    </>
  );
}

function Pool({ pool }: { pool: IpPool }) {
  const days = warmupDays(pool.warmup);
  return (
    <>
      <h3>IP pool {pool.name}</h3>
      <p class="hint">
        {pool.addresses.length} address{pool.addresses.length === 1 ? "" : "es"},{" "}
        {days ? `warmed up over ${days} day${days === 1 ? "" : "s"}` : "without warm-up"}. A domain sends from it once
        its settings name it.
      </p>
      <div class="scroll">
        <table class="list stack ip-table" aria-label={`Addresses of IP pool ${pool.name}`}>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">EHLO name</th>
              <th scope="col">Warm-up</th>
              <th scope="col">Today (UTC)</th>
              <th scope="col">Back-off</th>
            </tr>
          </thead>
          <tbody>
            {pool.addresses.map((a) => (
              <tr key={a.address}>
                <td data-label="Address">{a.address}</td>
                <td data-label="EHLO name">
                  {a.ehlo_name ?? (
                    <>
                      the server's (<code>[mx] ehlo_name</code>)
                    </>
                  )}
                </td>
                <td data-label="Warm-up">{warmupWords(a, pool)}</td>
                <td data-label="Today (UTC)">{todayWords(a.today)}</td>
                <td data-label="Back-off">
                  {a.backed_off.length
                    ? a.backed_off
                        .map(
                          (b) =>
                            `${b.provider}: ${b.messages_per_minute.toLocaleString("en")}/min until ${clockTime(b.until)} (throttled)`,
                        )
                        .join("; ")
                    : "none"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
