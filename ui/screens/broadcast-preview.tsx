/**
 * A broadcast's preview as one contact of its segment would receive it: the contact chosen from the segment's first
 * 100, the subject and html filled in the browser by ui/personalize.ts (the server's rules, docs/broadcasts.md#personalisation;
 * the server has no route that personalises for a contact), a template rendered first by `POST /templates/:id/render`.
 * Invariant: the html is shown only in the sandboxed frame of ui/preview.tsx, remote resources taken out.
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { Alert } from "../alert.tsx";
import { api, type Page } from "../api.ts";
import { describe, usePolled } from "../hooks.ts";
import { Preview } from "../preview.tsx";
import { personalize, type PreviewContact } from "../personalize.ts";
import type { Contact, ContactProperty } from "../../clients/node/src/generated.ts";
import type { ComposeForm } from "./broadcast-compose.tsx";

type Rendered = { subject: string | null; html: string };

export function BroadcastPreview({ form }: { form: ComposeForm }) {
  const segment = form.segment_id;
  const members = usePolled(
    async () =>
      segment
        ? (await api.get<Page<Contact>>(`/v1/segments/${encodeURIComponent(segment)}/contacts?limit=100`)).data
        : [],
    [segment],
  );
  const properties = usePolled(
    async () => (await api.get<Page<ContactProperty>>("/v1/contact-properties?limit=100")).data,
    [],
  );
  const [chosen, setChosen] = useState("");
  const [contact, setContact] = useState<Contact | null>(null);
  const [template, setTemplate] = useState<Rendered | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The first member until the user chooses another.
  const contactId = chosen || members.data?.[0]?.id || "";
  useEffect(() => {
    setContact(null);
    if (contactId)
      api
        .get<Contact>(`/v1/contacts/${encodeURIComponent(contactId)}`)
        .then(setContact)
        .catch((e) => setError(describe(e)));
  }, [contactId]);
  useEffect(() => {
    setTemplate(null);
    if (form.content !== "template" || !form.template_id) return;
    api
      .post<Rendered>(`/v1/templates/${encodeURIComponent(form.template_id)}/render`, { variables: {} })
      .then(setTemplate)
      .catch((e) => setError(describe(e)));
  }, [form.content, form.template_id]);

  const fallbacks = useMemo(
    () => new Map((properties.data ?? []).map((p) => [p.key, p.fallback_value] as const)),
    [properties.data],
  );
  const filled = useMemo(() => {
    if (!contact) return null;
    // A contact's get shows a property's fallback where it has no value of its own: that one is not its own.
    const own: PreviewContact["properties"] = {};
    for (const [key, v] of Object.entries(contact.properties ?? {}))
      if (v.value !== fallbacks.get(key)) own[key] = { value: v.value };
    const as = { ...contact, properties: own };
    const html = form.content === "html" ? form.html : (template?.html ?? "");
    const subject = form.subject || (form.content === "template" ? (template?.subject ?? "") : "");
    return { subject: personalize(subject, as, fallbacks, false), html: personalize(html, as, fallbacks, true) };
  }, [contact, fallbacks, form.html, form.subject, form.content, template]);

  return (
    <div class="card template-preview" role="region" aria-label="Preview">
      <h2>Preview</h2>
      {!segment ? (
        <p class="hint">Choose a segment to preview the broadcast as one of its contacts.</p>
      ) : members.data?.length === 0 ? (
        <p class="hint">The segment has no contacts yet: add some to preview the broadcast as one of them.</p>
      ) : (
        <label>
          Preview as
          <select value={contactId} onChange={(e) => setChosen(e.currentTarget.value)}>
            {members.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.first_name || c.last_name
                  ? `${[c.first_name, c.last_name].filter(Boolean).join(" ")} <${c.email}>`
                  : c.email}
              </option>
            ))}
          </select>
        </label>
      )}
      <Alert message={error ?? members.error} />
      {filled && (
        <>
          <p class="template-subject">
            <span class="hint">Subject</span>{" "}
            <strong data-testid="preview-subject">{filled.subject || "(none yet)"}</strong>
          </p>
          <p class="hint">
            Filled in your browser by the rules the server sends with; the unsubscribe link leads to {contact!.email}'s
            own preference page in the real copy.
          </p>
          <Preview html={filled.html} title="Broadcast preview" />
        </>
      )}
    </div>
  );
}
