/**
 * A domain's DANE status per destination, in the TLS part of its own page (docs/deliverability.md#dane-per-destination):
 * for each destination its mail went to by direct delivery in the last days and each MX host there, whether the host
 * has DNSSEC-secure TLSA records and what the last negotiation came to — verified, mismatched or bogus (deferred
 * 4.7.5), or fallen back to MTA-STS or the domain's TLS setting (`GET /v1/domains/:id/dane`). Invariant: every
 * verdict is the server's; the screen only puts it in words, never a colour alone.
 */
import type { DaneDestination, DomainDane } from "../../clients/node/src/generated.ts";
import { Alert } from "../alert.tsx";
import { api } from "../api.ts";
import { Empty } from "../empty.tsx";
import { when } from "../format.ts";
import { usePolled } from "../hooks.ts";

/** The id of the domain's Require TLS switch, which the empty state's first step focuses. */
export const requireTlsId = (domainId: string) => `require-tls-${domainId}`;

const TLSA: Record<DaneDestination["tlsa"], string> = {
  secure: "DNSSEC-secure",
  none: "none secure",
  bogus: "bogus (failed DNSSEC validation)",
  unchecked: "not checked (DANE off)",
};

/** The last outcome: a word in a pill (its colour repeats the word) and what it meant. */
function outcome(row: DaneDestination): { pill: string; status: string; words: string } {
  switch (row.outcome) {
    case "verified":
      return { pill: "Verified", status: "status-success", words: "the certificate matched a TLSA record" };
    case "mismatched":
      return { pill: "Mismatched", status: "status-failed", words: `${row.result}: deferred 4.7.5, nothing sent` };
    case "bogus":
      return { pill: "Bogus", status: "status-failed", words: "the TLSA answer failed validation: deferred 4.7.5" };
    case "mta_sts":
      return { pill: "MTA-STS", status: "status-pending", words: `fell back to the MTA-STS policy (${row.result})` };
    default:
      return { pill: "TLS setting", status: "status-pending", words: `fell back to the TLS setting (${row.result})` };
  }
}

export function DaneStatus({
  domain,
  canWrite,
}: {
  domain: { id: string; name: string };
  /** Whether the Require TLS switch is there to focus. */
  canWrite: boolean;
}) {
  // Outcomes change with deliveries, not by the second: read every minute at most.
  const { data, error } = usePolled(
    () => api.get<DomainDane>(`/v1/domains/${encodeURIComponent(domain.id)}/dane`),
    [domain.id],
    60_000,
  );
  const titleId = `dane-title-${domain.id}`;
  return (
    <section class="who-sends" aria-labelledby={titleId}>
      <h2 id={titleId}>TLS per destination (DANE)</h2>
      {data && (
        <p class="hint">
          {data.dane === "on" ? (
            <>
              DANE is on: a destination whose MX host has DNSSEC-secure TLSA records gets {domain.name}'s mail only over
              TLS with a certificate matching them — otherwise the mail waits (4.7.5) and is never sent in the clear.
              Hosts without secure records fall back to their MTA-STS policy and this domain's TLS setting.
            </>
          ) : (
            <>
              DANE is off on this server (<code>[mx] dane</code>): TLSA records are not checked, and each destination
              gets its MTA-STS policy and this domain's TLS setting.
            </>
          )}{" "}
          The destinations of the last {data.days} days, by direct delivery.
        </p>
      )}
      <Alert message={error} />
      {data && data.data.length === 0 && (
        <Empty
          title="No direct delivery yet"
          first={canWrite ? { label: "Go to the Require TLS setting", field: requireTlsId(domain.id) } : undefined}
        >
          Each destination {domain.name}'s mail reaches straight at its MX hosts is listed here with the TLS it got:
          whether its MX host publishes DNSSEC-secure TLSA records (DANE), and whether the last delivery matched them,
          was deferred, or fell back to MTA-STS or the TLS setting. Mail through a relay or SES is not listed: that
          provider negotiates TLS itself.
        </Empty>
      )}
      {data && data.data.length > 0 && (
        <div class="scroll">
          <table class="list stack dane-table">
            <thead>
              <tr>
                <th scope="col">Destination</th>
                <th scope="col">MX host</th>
                <th scope="col">TLSA records</th>
                <th scope="col">Last outcome</th>
                <th scope="col">When</th>
                <th scope="col">Negotiations</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((row) => {
                const said = outcome(row);
                return (
                  <tr key={`${row.destination} ${row.mx_host}`}>
                    <td data-label="Destination">{row.destination}</td>
                    <td data-label="MX host">
                      <code>{row.mx_host || "—"}</code>
                    </td>
                    <td data-label="TLSA records">{TLSA[row.tlsa]}</td>
                    <td data-label="Last outcome">
                      <span class={`status ${said.status}`}>{said.pill}</span> {said.words}
                    </td>
                    <td data-label="When">{when(row.last_at)}</td>
                    <td data-label="Negotiations">{row.sessions.toLocaleString("en")}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
