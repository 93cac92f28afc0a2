/**
 * Composing a broadcast (docs/broadcasts.md#in-the-admin-ui): name, from, subject, reply-to, segment, topic, html or a
 * template, a preview as one chosen contact of the segment (broadcast-preview.tsx), and the draft's actions — save,
 * send now or at a time (broadcast-send.tsx), duplicate, delete. Invariants: nothing is sent before the confirmation
 * naming the segment's size is accepted, and the confirmation follows a save, so what is sent is what was shown; a
 * control the caller may not use stays in place, disabled, with the reason (ui/guarded.tsx).
 */
import { useState } from "preact/hooks";
import { useCan, useWhyNot } from "../access.ts";
import { Alert } from "../alert.tsx";
import { api, type Page } from "../api.ts";
import { Guarded } from "../guarded.tsx";
import { describe, usePolled } from "../hooks.ts";
import { PageHeader } from "../page-header.tsx";
import type { Broadcast, Topic } from "../../clients/node/src/generated.ts";
import type { TemplateSummary } from "./template-form.ts";
import { BroadcastPreview } from "./broadcast-preview.tsx";
import { SendConfirmation } from "./broadcast-send.tsx";
import { broadcastPath, useSegments } from "./broadcast-common.tsx";

export interface ComposeForm {
  name: string;
  from: string;
  subject: string;
  reply_to: string;
  segment_id: string;
  topic_id: string;
  content: "html" | "template";
  html: string;
  template_id: string;
}

const formOf = (b?: Broadcast): ComposeForm => ({
  name: b?.name ?? "",
  from: b?.from ?? "",
  subject: b?.subject ?? "",
  reply_to: b?.reply_to?.join(", ") ?? "",
  segment_id: b?.segment_id ?? "",
  topic_id: b?.topic_id ?? "",
  content: b?.template ? "template" : "html",
  html:
    b?.html ??
    '<p>Hello {{{FIRST_NAME|there}}},</p>\n\n<p><a href="{{{RESEND_UNSUBSCRIBE_URL}}}">Unsubscribe</a></p>\n',
  template_id: b?.template?.id ?? "",
});

/** The body create and update take: empty fields left out; html or a template, never both. */
function bodyOf(f: ComposeForm) {
  const replyTo = f.reply_to
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    name: f.name.trim() || "Untitled broadcast",
    ...(f.from.trim() && { from: f.from.trim() }),
    ...(f.subject.trim() && { subject: f.subject }),
    ...(replyTo.length > 0 && { reply_to: replyTo }),
    ...(f.segment_id && { segment_id: f.segment_id }),
    topic_id: f.topic_id || null,
    ...(f.content === "html" ? { html: f.html } : f.template_id ? { template: { id: f.template_id } } : {}),
  };
}

export function BroadcastCompose({ draft, onSent }: { draft?: Broadcast; onSent?: () => void }) {
  const whyWrite = useWhyNot("contacts:write", "change broadcasts");
  const whyNotBroadcast = useWhyNot("contacts:write", "send broadcasts");
  const whyNotMail = useWhyNot("emails:send", "send broadcasts");
  const whySend = whyNotBroadcast ?? whyNotMail;
  const readsTemplates = useCan("templates:read");
  const [id, setId] = useState(draft?.id ?? null);
  const [form, setForm] = useState(() => formOf(draft));
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ count: number } | null>(null);
  const [sendAt, setSendAt] = useState("");
  const [busy, setBusy] = useState(false);
  const segments = useSegments();
  const topics = usePolled(async () => (await api.get<Page<Topic>>("/v1/topics?limit=100")).data, []);
  const templates = usePolled(
    async () => (readsTemplates ? (await api.get<Page<TemplateSummary>>("/v1/templates?limit=100")).data : []),
    [readsTemplates],
  );
  const set = (change: Partial<ComposeForm>) => {
    setForm({ ...form, ...change });
    setConfirming(null);
    setNotice(null);
  };

  /** Creates the draft, or saves its changes; answers its id. */
  const save = async (): Promise<string> => {
    if (id) {
      await api.patch(broadcastPath(id), bodyOf(form));
      return id;
    }
    const made = await api.post<{ id: string }>("/v1/broadcasts", bodyOf(form));
    setId(made.id);
    history.replaceState(null, "", `#/broadcasts/${encodeURIComponent(made.id)}`);
    return made.id;
  };
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await action();
    } catch (e) {
      setError(describe(e));
    } finally {
      setBusy(false);
    }
  };
  const onSave = (e: Event) => {
    e.preventDefault();
    if (whyWrite) return;
    void run(async () => {
      await save();
      setNotice("Draft saved.");
    });
  };
  const askToSend = () => {
    if (whySend) return;
    if (!form.segment_id) {
      setError("Choose the segment it goes to first.");
      return;
    }
    void run(async () => {
      await save();
      const { contacts } = await api.get<{ contacts: number }>(
        `/v1/segments/${encodeURIComponent(form.segment_id)}/count`,
      );
      setConfirming({ count: contacts });
    });
  };
  const send = () =>
    void run(async () => {
      const sent = id!;
      await api.post(`${broadcastPath(sent)}/send`, sendAt ? { scheduled_at: new Date(sendAt).toISOString() } : {});
      setConfirming(null);
      // A new draft's address was replaced in place (no hashchange): say it now, so the page opens as sent.
      if (onSent) onSent();
      else dispatchEvent(new HashChangeEvent("hashchange"));
    });
  const duplicate = () =>
    void run(async () => {
      const copy = await api.post<{ id: string }>(`${broadcastPath(id!)}/duplicate`);
      location.hash = `#/broadcasts/${encodeURIComponent(copy.id)}`;
    });
  const remove = () => {
    if (!confirm(`Delete the draft ${form.name || "Untitled broadcast"}?`)) return;
    void run(async () => {
      await api.del(broadcastPath(id!));
      location.hash = "#/broadcasts";
    });
  };
  const segmentName = segments.data?.find((s) => s.id === form.segment_id)?.name ?? "the segment";

  return (
    <section aria-labelledby="broadcast-title">
      <p>
        <a href="#/broadcasts">← Broadcasts</a>
      </p>
      <PageHeader
        id="broadcast-title"
        title={id ? form.name || "Untitled broadcast" : "New broadcast"}
        description={
          <>
            <span class="status status-draft">Draft</span> Nothing is sent until you send it and confirm.
          </>
        }
      />
      <div class="template-editor">
        <form class="card template-fields" onSubmit={onSave} aria-label="Compose the broadcast">
          <fieldset disabled={!!whyWrite} class="template-fields">
            <label>
              Name
              <input value={form.name} maxLength={255} onInput={(e) => set({ name: e.currentTarget.value })} />
            </label>
            <label>
              From
              <input
                value={form.from}
                placeholder="News <news@example.com>"
                onInput={(e) => set({ from: e.currentTarget.value })}
              />
            </label>
            <label>
              Subject
              <input value={form.subject} onInput={(e) => set({ subject: e.currentTarget.value })} />
            </label>
            <label>
              Reply-to (optional, comma-separated)
              <input value={form.reply_to} onInput={(e) => set({ reply_to: e.currentTarget.value })} />
            </label>
            <div class="template-row">
              <label>
                Segment
                <select value={form.segment_id} onChange={(e) => set({ segment_id: e.currentTarget.value })}>
                  <option value="">Choose a segment</option>
                  {segments.data?.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Topic (optional)
                <select value={form.topic_id} onChange={(e) => set({ topic_id: e.currentTarget.value })}>
                  <option value="">No topic: everyone subscribed</option>
                  {topics.data?.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                    </option>
                  ))}
                </select>
              </label>
            </div>
            <label>
              Content
              <select
                value={form.content}
                onChange={(e) => set({ content: e.currentTarget.value as ComposeForm["content"] })}
              >
                <option value="html">HTML</option>
                <option value="template">A saved template</option>
              </select>
            </label>
            {form.content === "html" ? (
              <label>
                HTML
                <textarea
                  class="source"
                  rows={10}
                  value={form.html}
                  onInput={(e) => set({ html: e.currentTarget.value })}
                />
                <span class="hint">
                  Variables: <code>{"{{{FIRST_NAME|fallback}}}"}</code>, <code>{"{{{LAST_NAME}}}"}</code>,{" "}
                  <code>{"{{{EMAIL}}}"}</code>, a property's <code>{"{{{key}}}"}</code> and{" "}
                  <code>{"{{{RESEND_UNSUBSCRIBE_URL}}}"}</code>.
                </span>
              </label>
            ) : (
              <label>
                Template
                <select value={form.template_id} onChange={(e) => set({ template_id: e.currentTarget.value })}>
                  <option value="">Choose a template</option>
                  {templates.data?.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                      {t.status === "draft" ? " (not published)" : ""}
                    </option>
                  ))}
                </select>
                <span class="hint">Its published version is sent, then personalised for each contact.</span>
              </label>
            )}
            <label>
              Send at (optional; empty sends now)
              <input type="datetime-local" value={sendAt} onInput={(e) => setSendAt(e.currentTarget.value)} />
            </label>
          </fieldset>
          <div class="actions">
            <Guarded why={whyWrite} type="submit" disabled={busy}>
              Save draft
            </Guarded>
            {confirming === null && (
              <Guarded why={whySend} class="primary" onClick={askToSend} disabled={busy}>
                {sendAt ? "Schedule…" : "Send…"}
              </Guarded>
            )}
            {id && (
              <Guarded why={whyWrite} onClick={duplicate} disabled={busy}>
                Duplicate
              </Guarded>
            )}
            {id && (
              <Guarded why={whyWrite} class="danger" onClick={remove} disabled={busy}>
                Delete draft
              </Guarded>
            )}
          </div>
          {confirming && (
            <SendConfirmation
              name={form.name || "Untitled broadcast"}
              count={confirming.count}
              segment={segmentName}
              at={sendAt ? new Date(sendAt) : null}
              busy={busy}
              onConfirm={send}
              onKeep={() => setConfirming(null)}
            />
          )}
          {notice && (
            <p class="hint" role="status">
              {notice}
            </p>
          )}
          <Alert message={error} />
        </form>
        <BroadcastPreview form={form} />
      </div>
    </section>
  );
}
