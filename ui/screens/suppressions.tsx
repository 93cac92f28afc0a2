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
import { CreateForm, RecordTable } from "../collection.tsx";
import { Empty } from "../empty.tsx";
import { PageHeader, StartAction } from "../page-header.tsx";

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
  const add = () =>
    void act(async () => {
      await api.post("/v1/suppressions", reason.trim() ? { email, reason } : { email });
      setEmail("");
      setReason("");
    });

  return (
    <section aria-labelledby="supp-title">
      <PageHeader
        id="supp-title"
        title="Suppressions"
        description="Addresses Mailroom will not send to: bounced, complained, unsubscribed or added by hand."
      >
        <StartAction label="Add an address" field="suppress-address" reason={whyNotWrite} />
      </PageHeader>
      <label class="search">
        Search addresses
        <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </label>
      {canWrite && (
        <CreateForm title="Suppress an address" submit="Suppress" why={whyNotWrite} onCreate={add} inline={false}>
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
        </CreateForm>
      )}
      <Alert message={actionError ?? error} />
      <RecordTable
        items={data?.data}
        columns={[
          { label: "Address", cell: (s) => s.email },
          { label: "Origin", cell: (s) => s.origin },
          { label: "Reason", cell: (s) => s.reason ?? "—" },
          { label: "Since", cell: (s) => when(s.created_at) },
          {
            label: "Actions",
            hidden: true,
            cell: (s) => (
              <Guarded
                why={whyNotWrite}
                onClick={() => act(() => api.del(`/v1/suppressions/${encodeURIComponent(s.id)}`))}
                label={`Remove ${s.email}`}
              >
                Remove
              </Guarded>
            ),
          },
        ]}
        empty={
          search ? (
            <p>No suppressed addresses match.</p>
          ) : (
            <Empty
              title="No suppressed addresses"
              first={canWrite ? { label: "Suppress an address", field: "suppress-address" } : undefined}
            >
              Addresses that bounce or complain are added here on their own, and mail to them is not sent again; an
              address can also be added by hand, or removed once it works again.
            </Empty>
          )
        }
      />
    </section>
  );
}
