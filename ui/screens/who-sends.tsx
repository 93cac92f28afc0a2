/**
 * "Who sends as you": a verified domain's DMARC aggregate reports of the last 7 days, summed per source address
 * (`GET /v1/domains/:id/dmarc/summary?days=7`) — how many messages each sent as the domain, the share that passed
 * DMARC aligned, and whether the address is Mailroom's. Shown on the domain's own page, so one domain's summary is
 * read at a time. Invariant: the figures and the Mailroom/not verdict are the server's.
 */
import type { DmarcSummary, Domain } from "../../clients/node/src/types.ts";
import { api } from "../api.ts";
import { Empty } from "../empty.tsx";
import { rate } from "../format.ts";
import { usePolled } from "../hooks.ts";
import { Alert } from "../alert.tsx";

const DAYS = 7;

/** The id of the DMARC record's copy button on the domain's card, which the empty state's first step focuses. */
export const dmarcCopyId = (domainId: string) => `dmarc-value-${domainId}`;

/** The `rua=mailto:` address of the DMARC record Mailroom suggests: where receivers send their reports. */
const reportAddress = (domain: Pick<Domain, "records">) =>
  domain.records.find((r) => r.record === "DMARC")?.value.match(/rua=mailto:([^;,\s]+)/i)?.[1] ?? null;

export function WhoSendsAsYou({ domain }: { domain: Pick<Domain, "id" | "name" | "status" | "records"> }) {
  // Reports are read every minute at most: they arrive once a day per receiver.
  const { data, error } = usePolled(
    () => api.get<DmarcSummary>(`/v1/domains/${encodeURIComponent(domain.id)}/dmarc/summary?days=${DAYS}`),
    [domain.id],
    60_000,
  );
  const rua = reportAddress(domain);
  const dmarc = domain.records.find((r) => r.record === "DMARC");
  const messages = data?.data.reduce((sum, row) => sum + row.messages, 0) ?? 0;

  return (
    <section class="who-sends" aria-labelledby="who-sends-title">
      <h2 id="who-sends-title">Who sends as you</h2>
      <p class="hint">
        Every address that sent mail as {domain.name} in the last {DAYS} days, as the receivers' DMARC reports tell it:
        a message passed when its SPF or DKIM result was aligned with {domain.name}. An address that is not Mailroom's
        is another service sending for you — or someone pretending to be you.
      </p>
      <Alert message={error} />
      {data && data.data.length === 0 && (
        <Empty
          title="No DMARC report yet"
          first={dmarc ? { label: "Go to the DMARC record to publish", field: dmarcCopyId(domain.id) } : undefined}
        >
          Receivers that get mail from {domain.name} send a DMARC aggregate report about it once a day to the address in
          the <code>rua</code> of the DMARC record Mailroom suggests
          {rua ? (
            <>
              {" "}
              (<code>{rua}</code>)
            </>
          ) : null}
          , and Mailroom reads them there.{" "}
          {domain.status !== "verified"
            ? "Reports are kept once the domain is verified."
            : dmarc?.status === "verified"
              ? "The record is published: the first reports come within a day or two of mail being sent."
              : "Publish the record, send some mail, and the first reports come within a day or two."}
        </Empty>
      )}
      {data && data.data.length > 0 && (
        <>
          <p>
            {messages.toLocaleString("en")} message{messages === 1 ? "" : "s"} from {data.data.length} address
            {data.data.length === 1 ? "" : "es"}, in {data.reports} report{data.reports === 1 ? "" : "s"}.
          </p>
          <div class="scroll">
            <table class="list stack">
              <thead>
                <tr>
                  <th scope="col">Source address</th>
                  <th scope="col">Messages</th>
                  <th scope="col">Passed aligned</th>
                  <th scope="col">Sender</th>
                </tr>
              </thead>
              <tbody>
                {data.data.map((row) => (
                  <tr key={row.source_ip}>
                    <td data-label="Source address">
                      <code>{row.source_ip}</code>
                    </td>
                    <td data-label="Messages">{row.messages.toLocaleString("en")}</td>
                    <td data-label="Passed aligned">{rate(row.aligned_pass_rate)}</td>
                    <td data-label="Sender">
                      <span class={`status ${row.own ? "sender-own" : "sender-other"}`}>
                        {row.own ? "Mailroom" : "Not Mailroom"}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
