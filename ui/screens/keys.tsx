/**
 * API keys: list, create (a preset or chosen scopes, optionally one sending domain) and revoke. Invariants: a new
 * key's token is held only in this screen's state and shown once; nothing stores it. Revoking is offered only for
 * keys within the signed-in person's or key's own rights (docs/teams.md), the rule the server applies.
 */
import { useContext, useEffect, useRef, useState } from "preact/hooks";
import { api, query, type Page } from "../api.ts";
import { AccessContext, useWhyNot } from "../access.ts";
import { Guarded } from "../guarded.tsx";
import { describe, usePolled } from "../hooks.ts";
import { ShownOnce } from "../copy.tsx";
import { when } from "../format.ts";
import { Alert } from "../alert.tsx";
import { CreateForm, RecordTable } from "../collection.tsx";
import { Empty } from "../empty.tsx";
import type { ApiKey as ClientApiKey } from "../../clients/node/src/types.ts";
import { SCOPES } from "../../clients/node/src/wire.ts";
import { PageHeader, StartAction } from "../page-header.tsx";

type ApiKey = Pick<
  ClientApiKey,
  "id" | "name" | "mode" | "token_prefix" | "scopes" | "domains" | "daily_quota" | "created_at" | "last_used_at"
>;

export function KeysScreen() {
  const { data, error, reload } = usePolled(() => api.get<Page<ApiKey>>(`/v1/api-keys${query({ limit: 100 })}`), []);
  const [name, setName] = useState("");
  const [permission, setPermission] = useState("full_access");
  const [scopes, setScopes] = useState<string[]>([]);
  const [domain, setDomain] = useState("");
  const [dailyQuota, setDailyQuota] = useState("");
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const whyNotWrite = useWhyNot("api_keys:write", "create or revoke API keys");
  const canWrite = !whyNotWrite;
  const access = useContext(AccessContext);
  const testKey = access.mode === "test";
  // A key holds no more than its maker: a developer's "full access" is everything their role allows, and the scopes
  // offered are the ones they hold.
  const grantable = SCOPES.filter((s) => access.scopes.has(s));
  const holdsAll = grantable.length === SCOPES.length;
  const [actionError, setActionError] = useState<string | null>(null);
  // The signed-in key's own row holds its scopes as granted (the server weighs those); /current answers only the
  // ones a test key may use now. A person's are their role's.
  const own = access.keyId ? data?.data.find((key) => key.id === access.keyId) : undefined;
  const held = new Set(own?.scopes ?? access.scopes);
  const within = (key: ApiKey) =>
    (access.mode === "live" || key.mode === "test") &&
    key.scopes.every((s) => held.has(s)) &&
    (access.domains === null || key.domains?.every((d) => access.domains!.includes(d)) === true);
  const someBeyond = canWrite && (data?.data.some((key) => !within(key)) ?? false);

  const create = async () => {
    setActionError(null);
    const body: Record<string, unknown> = { name };
    if (permission === "custom") body.scopes = scopes;
    else if (permission === "full_access" && !holdsAll) body.scopes = grantable;
    else body.permission = permission;
    if (domain.trim()) body.domain_id = domain.trim();
    if (dailyQuota.trim()) body.daily_quota = Number(dailyQuota);
    try {
      const key = await api.post<{ token: string; name: string }>("/v1/api-keys", body);
      setCreated({ name: key.name, token: key.token });
      setName("");
      setDailyQuota("");
      void reload();
    } catch (err) {
      setActionError(describe(err));
    }
  };
  const revoke = async (id: string) => {
    setActionError(null);
    try {
      await api.del(`/v1/api-keys/${encodeURIComponent(id)}`);
      setConfirming(null);
      void reload();
    } catch (err) {
      setActionError(describe(err));
    }
  };

  return (
    <section aria-labelledby="keys-title">
      <PageHeader
        id="keys-title"
        title="API keys"
        description="Keys let applications send and read through the API; each holds only the scopes it was given."
      >
        <StartAction label="New key" field="key-name" reason={whyNotWrite} />
      </PageHeader>
      {canWrite && (
        <CreateForm
          title="Create a key"
          heading={testKey ? "Create a test key" : "Create a key"}
          submit="Create key"
          why={whyNotWrite}
          onCreate={() => void create()}
          inline={false}
        >
          {testKey && (
            <p class="hint">
              This key is a test key, so the keys it creates are test keys: their mail is captured, never delivered.
            </p>
          )}
          <label>
            Name
            <input id="key-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label>
            Permission
            <select value={permission} onChange={(e) => setPermission(e.currentTarget.value)}>
              <option value="full_access">{holdsAll ? "Full access" : "Everything your role allows"}</option>
              <option value="sending_access">Sending only</option>
              <option value="custom">Chosen scopes</option>
            </select>
          </label>
          {permission === "custom" && (
            <fieldset>
              <legend>Scopes</legend>
              {grantable.map((s) => (
                <label key={s} class="check">
                  <input
                    type="checkbox"
                    checked={scopes.includes(s)}
                    onChange={(e) =>
                      setScopes(e.currentTarget.checked ? [...scopes, s] : scopes.filter((x) => x !== s))
                    }
                  />
                  {s}
                </label>
              ))}
            </fieldset>
          )}
          <label>
            Sending domain (optional)
            <input value={domain} placeholder="any domain" onInput={(e) => setDomain(e.currentTarget.value)} />
          </label>
          <label>
            Daily quota (optional)
            <input
              type="number"
              min={1}
              value={dailyQuota}
              placeholder="no quota of its own"
              onInput={(e) => setDailyQuota(e.currentTarget.value)}
            />
            <span class="hint">Messages per UTC day this key may send; the organisation's quota applies as well.</span>
          </label>
        </CreateForm>
      )}
      {created && (
        <ShownOnce
          secret={created.token}
          copyLabel="Copy the new key"
          testId="new-token"
          onDone={() => setCreated(null)}
        >
          Key <strong>{created.name}</strong> created.
        </ShownOnce>
      )}
      <Alert message={actionError ?? error} />
      {someBeyond && (
        <p class="hint">
          A key that holds rights you do not — an owner's full-access key, for one — can be revoked only by someone who
          holds them all.
        </p>
      )}
      <RecordTable
        items={data?.data}
        columns={[
          { label: "Name", cell: (key) => key.name },
          {
            label: "Key",
            cell: (key) => (
              <>
                <code>{key.token_prefix}…</code> {key.mode === "test" ? "(test)" : ""}
              </>
            ),
          },
          {
            label: "Scopes",
            cell: (key) =>
              `${key.scopes.length === SCOPES.length ? "full access" : key.scopes.join(", ")}${
                key.domains ? ` · ${key.domains.join(", ")}` : ""
              }${key.daily_quota === null ? "" : ` · ${key.daily_quota} a day`}`,
          },
          { label: "Last used", cell: (key) => (key.last_used_at ? when(key.last_used_at) : "never") },
          {
            label: "Actions",
            hidden: true,
            cell: (key) =>
              canWrite && !within(key) ? (
                <span class="hint">Beyond your rights</span>
              ) : confirming === key.id ? (
                <ConfirmRevoke name={key.name} onConfirm={() => revoke(key.id)} onKeep={() => setConfirming(null)} />
              ) : (
                <Guarded why={whyNotWrite} onClick={() => setConfirming(key.id)} label={`Revoke ${key.name}`}>
                  Revoke
                </Guarded>
              ),
          },
        ]}
        empty={
          <Empty title="No API keys yet" first={canWrite ? { label: "Create a key", field: "key-name" } : undefined}>
            A key lets an application send and read through the API (Resend's SDKs work unchanged), holding only the
            scopes it is given and, if you choose, one sending domain. Its token is shown once, when it is created.
          </Empty>
        }
      />
    </section>
  );
}

/** Takes the focus in place of the Revoke button that asked, so a keyboard user confirms with Enter. */
function ConfirmRevoke({ name, onConfirm, onKeep }: { name: string; onConfirm: () => void; onKeep: () => void }) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <>
      <button type="button" ref={confirm} class="danger" onClick={onConfirm}>
        Confirm revoke {name}
      </button>{" "}
      <button type="button" onClick={onKeep}>
        Keep
      </button>
    </>
  );
}
