/**
 * Contact properties (docs/contacts.md): the fields contacts may carry beyond their names — the list, a form to
 * create one (key, type, fallback) and delete. Invariant: a property exists before any contact uses it and a value
 * must match its type (the server's rules, said here), so a key and type are chosen once and only deleted, never edited.
 */
import { useState } from "preact/hooks";
import { useCan, useWhyNot } from "../access.ts";
import { api, query, type Page } from "../api.ts";
import { Alert } from "../alert.tsx";
import { CreateForm, RecordTable } from "../collection.tsx";
import { Empty } from "../empty.tsx";
import { when } from "../format.ts";
import { Guarded } from "../guarded.tsx";
import { useAction } from "../hooks.ts";
import { PageHeader, StartAction } from "../page-header.tsx";
import { usePagedList } from "../paging.tsx";
import type { ContactProperty } from "../../clients/node/src/generated.ts";

export function PropertiesScreen() {
  const why = useWhyNot("contacts:write", "change properties");
  const canWrite = useCan("contacts:write");
  const { data, error, reload, pager } = usePagedList(
    (after) => api.get<Page<ContactProperty>>(`/v1/contact-properties${query({ limit: 20, after })}`),
    [],
  );
  const blank = { key: "", type: "string" as ContactProperty["type"], fallback: "" };
  const [form, setForm] = useState(blank);
  const { act, actionError } = useAction(reload);
  const create = () => {
    const fallback = form.fallback.trim();
    void act(async () => {
      await api.post("/v1/contact-properties", {
        key: form.key.trim(),
        type: form.type,
        ...(fallback && { fallback_value: form.type === "number" ? Number(fallback) : fallback }),
      });
      setForm(blank);
    });
  };
  const remove = (p: ContactProperty) => {
    if (!confirm(`Delete the property ${p.key}?`)) return;
    void act(() => api.del(`/v1/contact-properties/${encodeURIComponent(p.id)}`));
  };
  return (
    <section aria-labelledby="properties-title">
      <PageHeader
        id="properties-title"
        title="Properties"
        description="The fields your contacts may carry beyond their names: a plan, a city, a count."
      >
        <StartAction label="New property" field="property-key" reason={why} />
      </PageHeader>
      <CreateForm
        title="Create a property"
        submit="Create property"
        why={why}
        onCreate={create}
        error={actionError}
        hint="A key and its type are fixed once created. The fallback answers for a contact who has no value of it."
      >
        <label>
          Key
          <input
            id="property-key"
            required
            maxLength={100}
            pattern="[A-Za-z][A-Za-z0-9_]*"
            title="Letters, digits and underscores, starting with a letter"
            value={form.key}
            onInput={(e) => setForm({ ...form, key: e.currentTarget.value })}
          />
        </label>
        <label>
          Type
          <select
            value={form.type}
            onChange={(e) => setForm({ ...form, type: e.currentTarget.value as ContactProperty["type"] })}
          >
            <option value="string">Text</option>
            <option value="number">Number</option>
          </select>
        </label>
        <label>
          Fallback (optional)
          <input
            type={form.type === "number" ? "number" : "text"}
            step="any"
            value={form.fallback}
            onInput={(e) => setForm({ ...form, fallback: e.currentTarget.value })}
          />
        </label>
      </CreateForm>
      <Alert message={error} />
      <RecordTable
        items={data?.data}
        columns={[
          { label: "Key", cell: (p) => <code>{p.key}</code> },
          { label: "Type", cell: (p) => (p.type === "number" ? "Number" : "Text") },
          { label: "Fallback", cell: (p) => (p.fallback_value === null ? "—" : String(p.fallback_value)) },
          { label: "Created", cell: (p) => when(p.created_at) },
          {
            label: "Actions",
            hidden: true,
            cell: (p) => (
              <Guarded why={why} label={`Delete ${p.key}`} onClick={() => remove(p)}>
                Delete
              </Guarded>
            ),
          },
        ]}
        empty={
          <Empty
            title="No properties yet"
            first={canWrite ? { label: "Create a property", field: "property-key" } : undefined}
          >
            A property is a field every contact may carry — a plan, a city, a count — each value checked against its
            type. Create it here before a contact, an import or the API gives it a value.
          </Empty>
        }
      />
      {pager}
    </section>
  );
}
