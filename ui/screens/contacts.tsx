/**
 * Contacts (docs/contacts.md): the organisation's audience, searched by the start of an address or by a name
 * (docs/contacts.md#search), paged newest first, and a form to add one; a contact's own page is
 * screens/contact-detail.tsx. Invariant: the list shown is the server's; a change is followed by a reload, never
 * patched locally; a search is one page (the server's answer has no cursor), so its pager is not offered.
 */
import { useState } from "preact/hooks";
import { useCan, useWhyNot } from "../access.ts";
import { api, query, type Page } from "../api.ts";
import { Alert } from "../alert.tsx";
import { CreateForm, RecordTable } from "../collection.tsx";
import { Empty } from "../empty.tsx";
import { when } from "../format.ts";
import { useAction } from "../hooks.ts";
import { PageHeader, StartAction } from "../page-header.tsx";
import { usePagedList } from "../paging.tsx";
import type { Contact } from "../../clients/node/src/generated.ts";
import { ContactDetail, fullName, Subscribed } from "./contact-detail.tsx";

export type ContactSummary = Pick<Contact, "id" | "email" | "first_name" | "last_name" | "unsubscribed" | "created_at">;

export function ContactsScreen({ id }: { id?: string }) {
  if (id) return <ContactDetail id={id} />;
  return <ContactList />;
}

function AddContact({ onAdded }: { onAdded: () => Promise<void> }) {
  const why = useWhyNot("contacts:write", "add contacts");
  const [form, setForm] = useState({ email: "", first_name: "", last_name: "" });
  const { act, actionError } = useAction(onAdded);
  const add = () =>
    void act(async () => {
      await api.post("/v1/contacts", {
        email: form.email.trim(),
        ...(form.first_name.trim() && { first_name: form.first_name.trim() }),
        ...(form.last_name.trim() && { last_name: form.last_name.trim() }),
      });
      setForm({ email: "", first_name: "", last_name: "" });
    });
  return (
    <CreateForm title="Add a contact" submit="Add contact" why={why} onCreate={add} error={actionError}>
      <label>
        Address
        <input
          id="contact-email"
          type="email"
          required
          value={form.email}
          onInput={(e) => setForm({ ...form, email: e.currentTarget.value })}
        />
      </label>
      <label>
        First name (optional)
        <input value={form.first_name} onInput={(e) => setForm({ ...form, first_name: e.currentTarget.value })} />
      </label>
      <label>
        Last name (optional)
        <input value={form.last_name} onInput={(e) => setForm({ ...form, last_name: e.currentTarget.value })} />
      </label>
    </CreateForm>
  );
}

function ContactList() {
  const [draft, setDraft] = useState("");
  const [search, setSearch] = useState("");
  const canWrite = useCan("contacts:write");
  const whyNotWrite = useWhyNot("contacts:write", "add contacts");
  const { data, error, reload, pager, restart } = usePagedList(
    (after) =>
      api.get<Page<ContactSummary>>(`/v1/contacts${query(search ? { limit: 50, search } : { limit: 20, after })}`),
    [search],
  );
  const find = (e: Event) => {
    e.preventDefault();
    setSearch(draft.trim());
    restart();
  };

  return (
    <section aria-labelledby="contacts-title">
      <PageHeader
        id="contacts-title"
        title="Contacts"
        description="The people your broadcasts and topic mail go to, each with their own choice of topics."
      >
        <StartAction label="New contact" field="contact-email" reason={whyNotWrite} />
        <a class="button" href="#/imports">
          Import a CSV
        </a>
      </PageHeader>
      <form class="filters inline-form" role="search" onSubmit={find}>
        <label>
          Search by address or name
          <input type="search" value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
        </label>
        <button type="submit">Search</button>
        {search && (
          <button
            type="button"
            onClick={() => {
              setDraft("");
              setSearch("");
              restart();
            }}
          >
            Show all
          </button>
        )}
      </form>
      <AddContact onAdded={reload} />
      <Alert message={error} />
      <RecordTable
        items={data?.data}
        columns={[
          { label: "Address", cell: (c) => <a href={`#/contacts/${encodeURIComponent(c.id)}`}>{c.email}</a> },
          { label: "Name", cell: fullName },
          { label: "Status", cell: (c) => <Subscribed unsubscribed={c.unsubscribed} /> },
          { label: "Added", cell: (c) => when(c.created_at) },
        ]}
        empty={
          search ? (
            <p>No contact's address starts with “{search}”, and no recent contact's name does.</p>
          ) : (
            <Empty
              title="No contacts yet"
              first={canWrite ? { label: "Add a contact", field: "contact-email" } : undefined}
            >
              A contact is a person you send broadcasts and topic mail to: their name, their properties, the segments
              they are in and the topics they chose. Add one here, import a CSV, or create them with{" "}
              <code>POST /v1/contacts</code>.
            </Empty>
          )
        }
      />
      {search ? data?.has_more && <p class="hint">More contacts match: type more of the address or name.</p> : pager}
    </section>
  );
}
