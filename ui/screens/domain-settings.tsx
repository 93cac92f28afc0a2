/**
 * A sending domain's deliverability settings, on its card (docs/deliverability.md): the tracking domain (a CNAME record, then
 * links under the sender's own name), the TLS policy of direct delivery (with, on the domain's page, its DANE status per
 * destination: dane-status.tsx), the Ed25519 DKIM signature, and the IP pool
 * direct delivery leaves from (only once the server has one). Each is said in words — what it does, what it adds to
 * the records — and changed with `PATCH /v1/domains/:id`. Invariant: only a key or person allowed domains:write sees
 * the controls; others read the setting as text.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { Domain } from "../../clients/node/src/types.ts";
import { api, type IpPool, type Page } from "../api.ts";
import { DaneStatus, requireTlsId } from "./dane-status.tsx";

type Settings = Pick<Domain, "id" | "name" | "records" | "tracking_subdomain" | "tls" | "dkim" | "ip_pool">;
type Act = (action: () => Promise<unknown>) => Promise<boolean>;

const patch = (domain: Settings, body: unknown) => api.patch(`/v1/domains/${encodeURIComponent(domain.id)}`, body);

/** The Ed25519 key's DKIM record (`k=ed25519`), once the setting added it. */
const ed25519Record = (domain: Settings) =>
  domain.records.find((r) => r.record === "DKIM" && /(^|;)\s*k=ed25519\s*(;|$)/i.test(r.value));

/**
 * The names of the configured IP pools, read once per screen (they change only with the configuration, at a restart)
 * and handed to every card, so a list of domains asks once. Empty until known; a failed read leaves it empty, as on a
 * server without pools, since the setting is then only hidden.
 */
export function useIpPoolNames(): string[] {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    api.get<Page<IpPool>>("/v1/ip-pools").then(
      (pools) => setNames(pools.data.map((pool) => pool.name)),
      () => undefined,
    );
  }, []);
  return names;
}

export function DomainSettings({
  domain,
  pools,
  canWrite,
  act,
  page = false,
}: {
  domain: Settings;
  /** The configured IP pools' names (`useIpPoolNames`). */
  pools: string[];
  canWrite: boolean;
  act: Act;
  /** On the domain's own page: its DANE status per destination follows its TLS setting (read for one domain only). */
  page?: boolean;
}) {
  return (
    <div class="settings" role="group" aria-label={`Delivery settings of ${domain.name}`}>
      <TrackingDomain domain={domain} canWrite={canWrite} act={act} />
      <RequireTls domain={domain} canWrite={canWrite} act={act} />
      {page && <DaneStatus domain={domain} canWrite={canWrite} />}
      <Ed25519 domain={domain} canWrite={canWrite} act={act} />
      {/* A domain still naming a pool the configuration dropped shows it, so it can be set back to none. */}
      {(pools.length > 0 || domain.ip_pool !== null) && (
        <IpPoolSetting domain={domain} pools={pools} canWrite={canWrite} act={act} />
      )}
    </div>
  );
}

/** A setting as a key that may not change it sees it: its name, its value in words, and what it means. */
function ReadOnlySetting({
  label,
  value,
  children,
}: {
  label: string;
  value: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <div class="setting">
      <p class="setting-line">
        <strong>{label}:</strong> {value}
      </p>
      {children}
    </div>
  );
}

/** A setting that is on or off, saved as it is switched, with what it means below it. */
function SwitchSetting({
  id,
  label,
  checked,
  onChange,
  children,
}: {
  id?: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => unknown;
  children: ComponentChildren;
}) {
  return (
    <div class="setting">
      <label class="check">
        <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} />
        {label}
      </label>
      {children}
    </div>
  );
}

function TrackingDomain({ domain, canWrite, act }: { domain: Settings; canWrite: boolean; act: Act }) {
  const current = domain.tracking_subdomain;
  const [label, setLabel] = useState(current ?? "");
  const record = domain.records.find((r) => r.record === "Tracking");
  const host = current ? `${current}.${domain.name}` : `${label.trim() || "links"}.${domain.name}`;
  const id = `tracking-${domain.id}`;
  const state = !current
    ? "none: links in its mail point at this server's own name."
    : record?.status === "verified"
      ? `https://${host} — its CNAME record is found, and links in its mail use it.`
      : `https://${host} — links use it once its CNAME record above is found.`;
  const explained = (
    <p class="hint setting-line">
      Adds a CNAME record <code>{host}</code> → {record ? <code>{record.value}</code> : "this server's name"} to the
      records above. Once DNS shows it, the open pixels, click links and unsubscribe links of mail from {domain.name}{" "}
      use <code>https://{host}/…</code> instead of this server's name. HTTPS for that name is yours to serve: your proxy
      (or <code>[http] tls_cert</code>) needs a certificate for it.
    </p>
  );
  if (!canWrite)
    return (
      <ReadOnlySetting label="Tracking domain" value={state}>
        {explained}
      </ReadOnlySetting>
    );
  const save = (e: Event) => {
    e.preventDefault();
    void act(() => patch(domain, { tracking_subdomain: label.trim() || null }));
  };
  const remove = () =>
    act(async () => {
      await patch(domain, { tracking_subdomain: null });
      setLabel("");
    });
  return (
    <form class="setting" onSubmit={save} aria-label={`Tracking domain of ${domain.name}`}>
      <p class="setting-line">
        <strong>Tracking domain:</strong> {state}
      </p>
      <div class="actions">
        <label for={id}>
          Tracking subdomain
          <span class="suffixed">
            <input
              id={id}
              class="subdomain-field"
              value={label}
              placeholder="links"
              autocomplete="off"
              spellcheck={false}
              onInput={(e) => setLabel(e.currentTarget.value)}
            />
            <span class="suffix">.{domain.name}</span>
          </span>
        </label>
        <button type="submit" disabled={!label.trim() || label.trim().toLowerCase() === current}>
          Save tracking domain
        </button>
        {current && (
          <button type="button" onClick={() => void remove()}>
            Remove tracking domain
          </button>
        )}
      </div>
      {explained}
    </form>
  );
}

function RequireTls({ domain, canWrite, act }: { domain: Settings; canWrite: boolean; act: Act }) {
  const enforced = domain.tls === "enforced";
  const explained = (
    <p class="hint setting-line">
      Off (opportunistic, the default): mail is encrypted whenever the receiving server offers TLS, and sent in the
      clear when it does not. On (enforced): mail sent straight to the receiving servers goes only over TLS with a
      certificate valid for the server's name; otherwise it waits, then bounces with the reason.
    </p>
  );
  if (!canWrite)
    return (
      <ReadOnlySetting label="TLS" value={enforced ? "required (enforced)" : "when offered (opportunistic)"}>
        {explained}
      </ReadOnlySetting>
    );
  return (
    <SwitchSetting
      id={requireTlsId(domain.id)}
      label="Require TLS"
      checked={enforced}
      onChange={(checked) => act(() => patch(domain, { tls: checked ? "enforced" : "opportunistic" }))}
    >
      {explained}
    </SwitchSetting>
  );
}

function Ed25519({ domain, canWrite, act }: { domain: Settings; canWrite: boolean; act: Act }) {
  const on = domain.dkim.ed25519;
  const record = ed25519Record(domain);
  const waiting = on && record?.status !== "verified";
  const explained = (
    <p class="hint setting-line">
      Signs mail with an Ed25519 key (RFC 8463) beside the RSA one. Turning it on adds a second DKIM record above; the
      signature is added once DNS shows that record, so no receiver sees a signature it cannot verify.
      {waiting && " Waiting for that record: mail is signed with RSA alone until then."}
    </p>
  );
  if (!canWrite)
    return (
      <ReadOnlySetting label="Ed25519 signature" value={on ? "on" : "off"}>
        {explained}
      </ReadOnlySetting>
    );
  return (
    <SwitchSetting
      label="Ed25519 signature"
      checked={on}
      onChange={(checked) => act(() => patch(domain, { dkim: { ed25519: checked } }))}
    >
      {explained}
    </SwitchSetting>
  );
}

function IpPoolSetting({
  domain,
  pools,
  canWrite,
  act,
}: {
  domain: Settings;
  pools: string[];
  canWrite: boolean;
  act: Act;
}) {
  const current = domain.ip_pool;
  const [choice, setChoice] = useState(current ?? "");
  const id = `ip-pool-${domain.id}`;
  const names = current !== null && !pools.includes(current) ? [...pools, current] : pools;
  const state =
    current === null
      ? "none: direct delivery of its mail leaves from the machine's own address."
      : `${current}${pools.includes(current) ? "" : " (no longer configured)"} — direct delivery of its mail leaves from that pool's addresses.`;
  const explained = (
    <p class="hint setting-line">
      Mail from {domain.name} sent straight to the receivers' mail servers leaves from the pool's addresses in turn,
      each greeting with its own name and held to its warm-up; a relay or SES sends from its own addresses.{" "}
      <a href="#/deliverability">Each address's warm-up and today's messages</a>
    </p>
  );
  if (!canWrite)
    return (
      <ReadOnlySetting label="IP pool" value={state}>
        {explained}
      </ReadOnlySetting>
    );
  const save = (e: Event) => {
    e.preventDefault();
    void act(() => patch(domain, { ip_pool: choice || null }));
  };
  return (
    <form class="setting" onSubmit={save} aria-label={`IP pool of ${domain.name}`}>
      <p class="setting-line">
        <strong>IP pool:</strong> {state}
      </p>
      <div class="actions">
        <label for={id}>
          IP pool
          <select id={id} value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
            <option value="">None (the machine's own address)</option>
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
                {pools.includes(name) ? "" : " (no longer configured)"}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={choice === (current ?? "")}>
          Save IP pool
        </button>
      </div>
      {explained}
    </form>
  );
}
