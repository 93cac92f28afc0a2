/**
 * Domains as a setup flow: add a domain, publish its records (copy buttons; what DNS answered beside what to
 * publish; a record's warning), verify now, receiving on or off, the providers that take its mail, its sending health
 * and its delivery settings (tracking domain, TLS, Ed25519, IP pool). A domain's own page (`#/domains/<id>`) adds
 * who sends as it, from the receivers' DMARC reports. Invariant: every state shown is the server's.
 */
import { useContext, useState } from "preact/hooks";
import { api, query, type Page } from "../api.ts";
import { AccessContext, useWhyNot } from "../access.ts";
import { Guarded } from "../guarded.tsx";
import { useAction, usePolled } from "../hooks.ts";
import { CopyButton } from "../copy.tsx";
import { when } from "../format.ts";
import { Alert } from "../alert.tsx";
import { PauseControl, useSending } from "../pauses.tsx";
import { Empty } from "../empty.tsx";
import { HealthLine } from "../health.tsx";
import { DomainSettings, useIpPoolNames } from "./domain-settings.tsx";
import { dmarcCopyId, WhoSendsAsYou } from "./who-sends.tsx";
import type { Domain as ClientDomain } from "../../clients/node/src/types.ts";
import { PageHeader, StartAction } from "../page-header.tsx";

type Domain = Pick<
  ClientDomain,
  | "id"
  | "name"
  | "status"
  | "receiving_enabled"
  | "providers"
  | "records"
  | "last_checked_at"
  | "health"
  | "dkim"
  | "tracking_subdomain"
  | "tls"
  | "ip_pool"
  | "verified_override"
>;
type Act = (action: () => Promise<unknown>) => Promise<boolean>;

/** The providers that take the domain's mail, first choice first; edited as a comma-separated list. */
function Providers({ domain, canWrite, act }: { domain: Domain; canWrite: boolean; act: Act }) {
  const [editing, setEditing] = useState<string | null>(null);
  const shown = domain.providers.length ? domain.providers.join(" → ") : "the default provider";
  if (editing === null)
    return (
      <p class="actions">
        <span>Delivered by {shown}</span>
        {canWrite && (
          <button
            type="button"
            class="link"
            onClick={() => setEditing(domain.providers.join(", "))}
            aria-label={`Change the providers of ${domain.name}`}
          >
            Change
          </button>
        )}
      </p>
    );
  const save = async (e: Event) => {
    e.preventDefault();
    const providers = editing
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    if (await act(() => api.patch(`/v1/domains/${encodeURIComponent(domain.id)}`, { providers }))) setEditing(null);
  };
  return (
    <form class="actions" onSubmit={save}>
      <label>
        Providers, first choice first (empty: the default)
        <input value={editing} placeholder="ses, relay" onInput={(e) => setEditing(e.currentTarget.value)} />
      </label>
      <button type="submit">Save providers</button>
      <button type="button" onClick={() => setEditing(null)}>
        Cancel
      </button>
    </form>
  );
}

/** Longer answers (a DKIM key is ~400 characters) are cut to this, the whole one a click away. */
const ANSWER_SHOWN = 40;

/** What DNS answered for a record: said in words when it is exactly what to publish, else the answer itself. */
function Found({ found, expected }: { found: string[] | null | undefined; expected: string }) {
  if (found === undefined) return <>not checked yet</>;
  if (found === null) return <>the lookup failed</>;
  if (found.length === 0) return <>nothing</>;
  if (found.length === 1 && found[0] === expected) return <>the value to publish</>;
  const answer = found.join(" | ");
  if (answer.length <= ANSWER_SHOWN) return <code class="value">{answer}</code>;
  return (
    <details class="answer">
      <summary>
        <code>{answer.slice(0, ANSWER_SHOWN)}…</code>
      </summary>
      <code class="value">{answer}</code>
    </details>
  );
}

export function DomainsScreen({ id }: { id?: string }) {
  return id ? <DomainPage id={id} /> : <DomainList />;
}

function DomainList() {
  const { data, error, reload } = usePolled(() => api.get<Page<Domain>>(`/v1/domains${query({ limit: 100 })}`), []);
  const [name, setName] = useState("");
  const { act, actionError } = useAction(reload);
  const whyNotWrite = useWhyNot("domains:write", "add, verify, change or remove domains");
  const canWrite = !whyNotWrite;
  const sending = useSending();
  const pools = useIpPoolNames();
  const add = (e: Event) => {
    e.preventDefault();
    void act(async () => {
      await api.post("/v1/domains", { name: name.trim() });
      setName("");
    });
  };

  return (
    <section aria-labelledby="domains-title">
      <PageHeader
        id="domains-title"
        title="Domains"
        description="The domains this organisation sends from: their DNS records, checks and settings."
      >
        <StartAction label="New domain" field="domain-name" reason={whyNotWrite} />
      </PageHeader>
      {canWrite && (
        <form class="card inline" onSubmit={add} aria-label="Add a domain">
          <label>
            Domain name
            <input
              id="domain-name"
              required
              value={name}
              placeholder="example.com"
              onInput={(e) => setName(e.currentTarget.value)}
            />
          </label>
          <button type="submit">Add domain</button>
        </form>
      )}
      <Alert message={actionError ?? error} />
      {data && data.data.length === 0 && (
        <Empty
          title="No sending domain yet"
          first={canWrite ? { label: "Add your first domain", field: "domain-name" } : undefined}
        >
          Mail is sent from a domain you own. Add it: Mailroom lists the DNS records to publish (DKIM, SPF, the return
          path, DMARC), checks them, and then signs and delivers the mail sent from it.
        </Empty>
      )}
      {data?.data.map((domain) => (
        <DomainCard key={domain.id} domain={domain} pools={pools} canWrite={canWrite} act={act} sending={sending} />
      ))}
    </section>
  );
}

/** One domain's page: its card, with its title as the page's heading and who sends as it near the top. */
function DomainPage({ id }: { id: string }) {
  const {
    data: domain,
    error,
    reload,
  } = usePolled(() => api.get<Domain>(`/v1/domains/${encodeURIComponent(id)}`), [id]);
  const { act, actionError } = useAction(reload);
  const whyNotWrite = useWhyNot("domains:write", "add, verify, change or remove domains");
  const canWrite = !whyNotWrite;
  const sending = useSending();
  const pools = useIpPoolNames();
  return (
    <section aria-labelledby={domain ? `domain-${domain.id}` : undefined}>
      <p>
        <a href="#/domains">← All domains</a>
      </p>
      <Alert message={actionError ?? error} />
      {domain && (
        <DomainCard
          key={domain.id}
          domain={domain}
          pools={pools}
          canWrite={canWrite}
          act={act}
          sending={sending}
          page
        />
      )}
    </section>
  );
}

/**
 * The operator override (docs/domains.md#verifying-without-public-dns), as the CLI's `--verified` is: offered to
 * instance admins only, labelled an override wherever it stands, and lifted as easily.
 */
function OperatorOverride({ domain, act }: { domain: Domain; act: Act }) {
  const admin = useContext(AccessContext).person?.user.instance_admin ?? false;
  const set = (verified: boolean) =>
    act(() => api.post(`/v1/domains/${encodeURIComponent(domain.id)}/override`, { verified }));
  if (domain.verified_override)
    return (
      <p class="override-note">
        <span class="status status-override">operator override</span> Marked verified without its DNS records being
        found.{" "}
        {admin && (
          <button type="button" class="link" onClick={() => set(false)}>
            Lift the override: let DNS decide
          </button>
        )}
      </p>
    );
  if (!admin || domain.status === "verified") return null;
  return (
    <details class="override">
      <summary class="override-summary">Operator override (instance admins)</summary>
      <p class="hint">
        For a machine whose domains no public DNS serves (a lab, a test bench): Mailroom treats {domain.name} as
        verified and signs its mail without finding the records. Receivers still look them up in their own DNS. Prefer a
        local resolver in <code>[dns] servers</code> that serves the records above, so the check stays real.
      </p>
      <button type="button" onClick={() => set(true)}>
        Mark verified without DNS (override)
      </button>
    </details>
  );
}

/** The API's status values in words; the class keeps the value, for its colour. */
const STATUS_WORDS: Record<string, string> = {
  not_started: "not checked yet",
  pending: "waiting for DNS",
  verified: "verified",
  partially_verified: "partly verified",
  failed: "failed",
  temporary_failure: "DNS lookup failed, will retry",
};

/**
 * A domain's card. On its own page (`page`) it is the screen, its title in the page header (with Verify now), and
 * who sends as it (one DMARC summary, read for this domain only) comes after its health; in the list a link leads
 * there.
 */
function DomainCard({
  domain,
  pools,
  canWrite,
  act,
  sending,
  page = false,
}: {
  domain: Domain;
  /** The configured IP pools' names, read once for the screen. */
  pools: string[];
  canWrite: boolean;
  act: Act;
  sending: ReturnType<typeof useSending>;
  page?: boolean;
}) {
  const whyNot = useWhyNot("domains:write", "add, verify, change or remove domains");
  // A warning several records share (the server's hostname unset) is said once, naming them (issue 49 item 9).
  const warnings = new Map<string, string[]>();
  for (const r of domain.records)
    if (r.warning) warnings.set(r.warning, [...(warnings.get(r.warning) ?? []), r.record]);
  const title = (
    <>
      {domain.name} <span class={`status status-${domain.status}`}>{STATUS_WORDS[domain.status] ?? domain.status}</span>
    </>
  );
  const checked = domain.last_checked_at
    ? `Last checked ${when(domain.last_checked_at)}`
    : "Not checked yet: publish the records below, then verify.";
  const verify = (
    <Guarded why={whyNot} onClick={() => act(() => api.post(`/v1/domains/${encodeURIComponent(domain.id)}/verify`))}>
      Verify now
    </Guarded>
  );
  return (
    // On its own page the domain is the screen, under the one page header (its primary action: Verify now).
    <article class={page ? "domain-page" : "card"} aria-labelledby={`domain-${domain.id}`}>
      {page ? (
        <PageHeader id={`domain-${domain.id}`} title={title} description={checked}>
          {verify}
        </PageHeader>
      ) : (
        <>
          <h2 id={`domain-${domain.id}`}>{title}</h2>
          <p class="hint">{checked}</p>
        </>
      )}
      <div class="actions">
        {!page && verify}
        <label class="check">
          <input
            type="checkbox"
            disabled={!canWrite}
            checked={domain.receiving_enabled}
            onChange={(e) =>
              act(() =>
                api.patch(`/v1/domains/${encodeURIComponent(domain.id)}`, {
                  receiving_enabled: e.currentTarget.checked,
                }),
              )
            }
          />
          Receive mail for this domain
        </label>
      </div>
      <h3 class="records-title">DNS records to publish</h3>
      {[...warnings].map(([warning, records]) =>
        records.length > 1 ? (
          <p class="warning" key={warning}>
            {records.join(", ")}: {warning.replace("so this record names", "so these records name")}
          </p>
        ) : null,
      )}
      <div class="scroll">
        <table class="list records stack">
          <thead>
            <tr>
              <th scope="col">Record</th>
              <th scope="col">Type</th>
              <th scope="col">Name</th>
              <th scope="col">Value to publish</th>
              <th scope="col">DNS answered</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {domain.records.map((r) => (
              <tr key={`${r.type} ${r.name}`}>
                <td data-label="Record">{r.record}</td>
                <td data-label="Type">{r.type}</td>
                <td data-label="Name">
                  <div>
                    <code>{r.name}</code> <CopyButton text={r.name} label={`Copy the ${r.record} record's name`} />
                  </div>
                </td>
                <td data-label="Value to publish">
                  <div>
                    <code class="value">{r.priority !== undefined ? `${r.priority} ${r.value}` : r.value}</code>{" "}
                    <CopyButton
                      text={r.value}
                      label={`Copy the ${r.record} record's value`}
                      id={r.record === "DMARC" ? dmarcCopyId(domain.id) : undefined}
                    />
                    {r.warning && warnings.get(r.warning)!.length === 1 && <p class="warning">{r.warning}</p>}
                  </div>
                </td>
                <td data-label="DNS answered">
                  <div>
                    <Found found={r.found} expected={r.priority !== undefined ? `${r.priority} ${r.value}` : r.value} />
                  </div>
                </td>
                <td data-label="Status">
                  <span class={`status status-${r.status}`}>{STATUS_WORDS[r.status] ?? r.status}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <OperatorOverride domain={domain} act={act} />
      <PauseControl sending={sending} scope="domain" name={domain.name} what={`sending from ${domain.name}`} />
      <Providers domain={domain} canWrite={canWrite} act={act} />
      <HealthLine health={domain.health} name={domain.name} />
      {page ? (
        <WhoSendsAsYou domain={domain} />
      ) : (
        <p>
          <a href={`#/domains/${encodeURIComponent(domain.id)}`}>Who sends as {domain.name}</a>{" "}
          <span class="hint">— the receivers' DMARC reports of the last 7 days</span>
        </p>
      )}
      <DomainSettings domain={domain} pools={pools} canWrite={canWrite} act={act} page={page} />
    </article>
  );
}
