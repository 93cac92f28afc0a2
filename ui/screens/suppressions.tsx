/**
 * Suppressions: search, add and remove — so an automatic suppression can be undone without SQL. Invariant: the
 * list shown is the server's; a change is followed by a reload, never patched locally.
 */
import { useState } from "preact/hooks";
import { api, query, type Page } from "../api.ts";
import { useWhyNot } from "../access.ts";
import { Guarded } from "../guarded.tsx";
import { useAction, usePolled } from "../hooks.ts";
import { when } from "../format.ts";
import type { Suppression as ClientSuppression } from "../../clients/node/src/types.ts";
import { Alert } from "../alert.tsx";
import { Empty } from "../empty.tsx";
import { PageHeader } from "../page-header.tsx";

type Suppression = Pick<ClientSuppression, "id" | "email" | "origin" | "reason" | "created_at">;

export function SuppressionsScreen() {
  const [search, setSearch] = useState("");
  const { data, error, reload } = usePolled(
    () => api.get<Page<Suppression>>(`/v1/suppressions${query({ limit: 100, search })}`),
    [search],
  );
  const [email, setEmail] = useState("");
  const [reason, setReason] = useState("");
  const { act, actionError } = useAction(reload);
  const whyNotWrite = useWhyNot("suppressions:write", "add or remove suppressions");
  const canWrite = !whyNotWrite;
  const add = (e: Event) => {
    e.preventDefault();
    void act(async () => {
      await api.post("/v1/suppressions", reason.trim() ? { email, reason } : { email });
      setEmail("");
      setReason("");
    });
  };

  return (
    <section aria-labelledby="supp-title">
      <PageHeader
        id="supp-title"
        title="Suppressions"
        description="Addresses Mailroom will not send to: bounced, complained, unsubscribed or added by hand."
      />
      <label class="search">
        Search addresses
        <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </label>
      {canWrite && (
        <form class="card" onSubmit={add} aria-label="Suppress an address">
          <h2>Suppress an address</h2>
          <label>
            Address
            <input
              id="suppress-address"
              type="email"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </label>
          <label>
            Reason (optional)
            <input value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          </label>
          <button type="submit">Suppress</button>
        </form>
      )}
      <Alert message={actionError ?? error} />
      {data &&
        data.data.length === 0 &&
        (search ? (
          <p>No suppressed addresses match.</p>
        ) : (
          <Empty
            title="No suppressed addresses"
            first={canWrite ? { label: "Suppress an address", field: "suppress-address" } : undefined}
          >
            Addresses that bounce or complain are added here on their own, and mail to them is not sent again; an
            address can also be added by hand, or removed once it works again.
          </Empty>
        ))}
      {data && data.data.length > 0 && (
        <div class="scroll">
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">Origin</th>
                <th scope="col">Reason</th>
                <th scope="col">Since</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((s) => (
                <tr key={s.id}>
                  <td>{s.email}</td>
                  <td>{s.origin}</td>
                  <td>{s.reason ?? "—"}</td>
                  <td>{when(s.created_at)}</td>
                  <td>
                    <Guarded
                      why={whyNotWrite}
                      onClick={() => act(() => api.del(`/v1/suppressions/${encodeURIComponent(s.id)}`))}
                      label={`Remove ${s.email}`}
                    >
                      Remove
                    </Guarded>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
