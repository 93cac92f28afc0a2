/**
 * Segments (docs/contacts.md): named groups of contacts (Resend's audiences) — the list, a form to create one, and a
 * segment's page with its members (paged), rename and delete. Invariant: deleting a segment never deletes its
 * contacts (the server's rule, said beside the button); every change is followed by a reload of the server's list.
 */
import { useEffect, useState } from "preact/hooks";
import { useCan, useWhyNot } from "../access.ts";
import { api, query, type Page } from "../api.ts";
import { Alert } from "../alert.tsx";
import { CreateForm, RecordTable } from "../collection.tsx";
import { Empty } from "../empty.tsx";
import { when } from "../format.ts";
import { Guarded } from "../guarded.tsx";
import { useAction, usePolled } from "../hooks.ts";
import { PageHeader, StartAction } from "../page-header.tsx";
import { usePagedList } from "../paging.tsx";
import type { Segment } from "../../clients/node/src/generated.ts";
import { fullName, Subscribed } from "./contact-detail.tsx";
import type { ContactSummary } from "./contacts.tsx";

const path = (id: string) => `/v1/segments/${encodeURIComponent(id)}`;

export function SegmentsScreen({ id }: { id?: string }) {
  return id ? <SegmentDetail id={id} /> : <SegmentList />;
}

function SegmentList() {
  const why = useWhyNot("contacts:write", "create segments");
  const canWrite = useCan("contacts:write");
  const { data, error, reload, pager } = usePagedList(
    (after) => api.get<Page<Segment>>(`/v1/segments${query({ limit: 20, after })}`),
    [],
  );
  const [name, setName] = useState("");
  const { act, actionError } = useAction(reload);
  const create = () =>
    void act(async () => {
      await api.post("/v1/segments", { name: name.trim() });
      setName("");
    });
  return (
    <section aria-labelledby="segments-title">
      <PageHeader
        id="segments-title"
        title="Segments"
        description="Named groups of contacts a broadcast goes to (Resend's audiences)."
      >
        <StartAction label="New segment" field="segment-name" reason={why} />
      </PageHeader>
      <CreateForm title="Create a segment" submit="Create segment" why={why} onCreate={create} error={actionError}>
        <label>
          Name
          <input
            id="segment-name"
            required
            maxLength={200}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </label>
      </CreateForm>
      <Alert message={error} />
      <RecordTable
        items={data?.data}
        columns={[
          { label: "Name", cell: (s) => <a href={`#/segments/${encodeURIComponent(s.id)}`}>{s.name}</a> },
          { label: "Id", cell: (s) => <code>{s.id}</code> },
          { label: "Created", cell: (s) => when(s.created_at) },
        ]}
        empty={
          <Empty
            title="No segments yet"
            first={canWrite ? { label: "Create a segment", field: "segment-name" } : undefined}
          >
            A segment is a group of contacts — customers, a beta list, one city — that a broadcast is sent to. Create
            one, then add contacts to it from a contact's page or from an import.
          </Empty>
        }
      />
      {pager}
    </section>
  );
}

function SegmentDetail({ id }: { id: string }) {
  const why = useWhyNot("contacts:write", "change segments");
  const { data: segment, error, reload } = usePolled(() => api.get<Segment>(path(id)), [id]);
  const members = usePagedList(
    (after) => api.get<Page<ContactSummary>>(`${path(id)}/contacts${query({ limit: 20, after })}`),
    [id],
  );
  const [name, setName] = useState("");
  useEffect(() => setName(segment?.name ?? ""), [segment?.name]);
  const { act, actionError } = useAction(reload);
  const rename = (e: Event) => {
    e.preventDefault();
    if (why) return;
    void act(() => api.patch(path(id), { name: name.trim() }));
  };
  const remove = () => {
    if (!segment || !confirm(`Delete the segment ${segment.name}? Its contacts stay.`)) return;
    void act(async () => {
      await api.del(path(id));
      location.hash = "#/segments";
    });
  };
  return (
    <section aria-labelledby="segment-title">
      <p>
        <a href="#/segments">← Segments</a>
      </p>
      <PageHeader id="segment-title" title={segment?.name ?? "Segment"} description={<code>{id}</code>} />
      <Alert message={error} />
      <form class="card" onSubmit={rename} aria-label="Rename the segment">
        <div class="inline-form">
          <label>
            Name
            <input
              required
              maxLength={200}
              value={name}
              disabled={!!why}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          </label>
          <Guarded why={why} type="submit">
            Rename
          </Guarded>
          <Guarded why={why} onClick={remove}>
            Delete segment
          </Guarded>
        </div>
        <p class="hint">Deleting a segment keeps its contacts; only the group goes.</p>
        <Alert message={actionError} />
      </form>
      <h2>Members</h2>
      <Alert message={members.error} />
      <RecordTable
        items={members.data?.data}
        columns={[
          { label: "Address", cell: (c) => <a href={`#/contacts/${encodeURIComponent(c.id)}`}>{c.email}</a> },
          { label: "Name", cell: fullName },
          { label: "Status", cell: (c) => <Subscribed unsubscribed={c.unsubscribed} /> },
        ]}
        empty={
          <p>
            No contact is in this segment yet. Add one from its page under <a href="#/contacts">Contacts</a>, or import
            a CSV into this segment under <a href="#/imports">Imports</a>.
          </p>
        }
      />
      {members.pager}
    </section>
  );
}
