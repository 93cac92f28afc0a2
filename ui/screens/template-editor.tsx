/**
 * The template editor (name, alias, subject, from, engine, source, text, variables) with a live preview: as the
 * user types, the source is checked by `POST /v1/templates/validate` (problems listed at their line and column, a
 * click puts the caret there) and, when it has none, rendered by `POST /v1/templates/:id/render` with the sample
 * values.
 *
 * The API renders saved versions only, so the preview saves the draft's content first. That is safe by the
 * service's own invariant: a draft never sends — sends use the published version until Publish. Invariants: every
 * write goes through one queue, in the order the user made it (an older autosave never lands after a newer save);
 * the rendered HTML is shown only in an iframe with `sandbox=""`, with remote resources taken out.
 */
import type { RefObject } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { useWhyNot } from "../access.ts";
import { Guarded } from "../guarded.tsx";
import { Alert } from "../alert.tsx";
import { api } from "../api.ts";
import { describe } from "../hooks.ts";
import {
  type Engine,
  type Template,
  type Problem,
  type Rendered,
  type Form,
  formOf,
  typedValue,
  standIn,
  bodyOf,
  contentOf,
  same,
  offsetOf,
} from "./template-form.ts";
import { RenderedPreview, PublishState } from "./template-preview.tsx";
import { PageHeader } from "../page-header.tsx";
import { TemplateVariables } from "./template-variables.tsx";

const DEBOUNCE_MS = 400;
const FIELD_LABELS: Record<Problem["field"], string> = { subject: "Subject", html: "Source", text: "Text" };

export function TemplateEditor({ idOrAlias }: { idOrAlias: string }) {
  const whyNotWrite = useWhyNot("templates:write", "create, change or publish templates");
  const canWrite = !whyNotWrite;
  const [template, setTemplate] = useState<Template | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  // The form as the server holds it: what `dirty` and the autosave compare with.
  const saved = useRef<Form | null>(null);
  const [samples, setSamples] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Problem[]>([]);
  const [rendered, setRendered] = useState<Rendered | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [busy, setBusy] = useState(false);
  const [caret, setCaret] = useState({ line: 1, column: 1 });
  const refs: Record<Problem["field"], RefObject<HTMLInputElement | HTMLTextAreaElement>> = {
    subject: useRef(null),
    html: useRef(null),
    text: useRef(null),
  };
  const writes = useRef<Promise<unknown>>(Promise.resolve());
  const generation = useRef(0);

  /** Runs `write` after every write queued before it; its failure is the caller's, never the next write's. */
  const serial = <T,>(write: () => Promise<T>): Promise<T> => {
    const run = writes.current.then(write, write);
    writes.current = run.catch(() => undefined);
    return run;
  };
  const id = template?.id;

  const load = async () => {
    const loaded = await api.get<Template>(`/v1/templates/${encodeURIComponent(idOrAlias)}`);
    // Opened by alias: the address becomes the id, which a later change of alias cannot break.
    if (loaded.id !== idOrAlias) history.replaceState(null, "", `#/templates/${encodeURIComponent(loaded.id)}`);
    return loaded;
  };
  useEffect(() => {
    load()
      .then((loaded) => {
        const initial = formOf(loaded);
        saved.current = initial;
        setTemplate(loaded);
        setForm(initial);
      })
      .catch((err) => setLoadError(describe(err)));
  }, []);

  // Only the publish state is refreshed after a write: the fields stay as the user is typing them.
  const refreshState = async () => {
    const fresh = await load();
    setTemplate(fresh);
  };

  const content = form && JSON.stringify(contentOf(form));
  const sampleValues = useMemo(() => {
    const values: Record<string, string | number> = {};
    for (const v of form?.variables ?? []) {
      const typed = samples[v.key.trim()];
      if (v.key.trim()) values[v.key.trim()] = typed ? typedValue(v.type, typed) : standIn(v);
    }
    return values;
  }, [form?.variables, samples]);
  const sampleKey = JSON.stringify(sampleValues);

  // The live preview: validate, save the content when it changed (the render reads the saved draft), render.
  useEffect(() => {
    if (!form || !id) return;
    const mine = ++generation.current;
    const timer = setTimeout(() => {
      const typed = form;
      const current = contentOf(typed);
      void serial(async () => {
        if (mine !== generation.current) return;
        try {
          // Checking a source is for whoever may change it: a read-only key's source is the saved one.
          if (canWrite) {
            const check = await api.post<{ errors: Problem[] }>("/v1/templates/validate", {
              engine: current.engine,
              html: current.html,
              subject: current.subject ?? undefined,
              text: current.text ?? undefined,
            });
            if (mine !== generation.current) return;
            setProblems(check.errors);
            if (check.errors.length) return;
          }
          if (canWrite && !same(current, contentOf(saved.current!))) {
            await api.patch(`/v1/templates/${encodeURIComponent(id)}`, current);
            const { engine, subject, html, text, variables } = typed;
            saved.current = { ...saved.current!, engine, subject, html, text, variables };
            // Only the publish state line; a failure here leaves it stale until the next write, the preview goes on.
            void refreshState().catch(() => undefined);
          }
          const result = await api.post<Rendered>(`/v1/templates/${encodeURIComponent(id)}/render`, {
            variables: sampleValues,
          });
          if (mine !== generation.current) return;
          setRendered(result);
          setPreviewError(null);
        } catch (err) {
          if (mine === generation.current) setPreviewError(describe(err));
        }
      });
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [content, sampleKey, id]);

  if (loadError)
    return (
      <section aria-labelledby="template-title">
        <p>
          <a href="#/templates">← All templates</a>
        </p>
        <PageHeader id="template-title" title="Template" />
        <Alert message={loadError} />
      </section>
    );
  if (!form || !template) return <p class="loading">Loading the template…</p>;

  const dirty = !same(bodyOf(form), bodyOf(saved.current!));
  const set = (patch: Partial<Form>) => {
    setNotice(null);
    setForm({ ...form, ...patch });
  };
  /**
   * Saves every field, then `then` (publish, duplicate) — in the write queue, after any autosave before it, so
   * what is published or copied is what the user sees. Undefined when it failed (the error is shown).
   */
  const act = async <T,>(label: string, then?: () => Promise<T>): Promise<T | undefined> => {
    setActionError(null);
    setNotice(null);
    setBusy(true);
    const typed = form;
    try {
      const result = await serial(async () => {
        await api.patch(`/v1/templates/${encodeURIComponent(template.id)}`, bodyOf(typed));
        saved.current = typed;
        return then?.();
      });
      await refreshState();
      setNotice(label);
      return result;
    } catch (err) {
      setActionError(describe(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  const save = (e: Event) => {
    e.preventDefault();
    void act("Draft saved. Sends keep using the published version until you publish.");
  };
  const publish = () =>
    act("Published: sends use this version from now on.", () =>
      api.post(`/v1/templates/${encodeURIComponent(template.id)}/publish`),
    );
  const duplicate = async () => {
    const copy = await act("", () =>
      api.post<{ id: string }>(`/v1/templates/${encodeURIComponent(template.id)}/duplicate`),
    );
    if (copy) location.hash = `#/templates/${encodeURIComponent(copy.id)}`;
  };
  const remove = async () => {
    setActionError(null);
    // A preview waiting for its turn (or its debounce) would render a template about to be gone: a 404.
    generation.current++;
    try {
      await serial(() => api.del(`/v1/templates/${encodeURIComponent(template.id)}`));
      location.hash = "#/templates";
    } catch (err) {
      setActionError(describe(err));
    }
  };

  const goTo = (problem: Problem) => {
    const el = refs[problem.field].current;
    if (!el) return;
    const at = offsetOf(el.value, problem.line, problem.column);
    el.focus();
    el.setSelectionRange(at, at);
    if (el instanceof HTMLTextAreaElement) {
      const lineHeight = parseFloat(getComputedStyle(el).lineHeight) || 20;
      el.scrollTop = Math.max(0, (problem.line - 3) * lineHeight);
    }
    trackCaret(el);
  };
  const trackCaret = (el: HTMLInputElement | HTMLTextAreaElement) => {
    const before = el.value.slice(0, el.selectionStart ?? 0).split("\n");
    setCaret({ line: before.length, column: before.at(-1)!.length + 1 });
  };
  const declared = form.variables.filter((v) => v.key.trim());

  return (
    <section aria-labelledby="template-title">
      <p>
        <a href="#/templates">← All templates</a>
      </p>
      <PageHeader id="template-title" title={template.name} description={<PublishState template={template} />} />
      {whyNotWrite && <p class="hint">{whyNotWrite}</p>}
      <div class="template-editor">
        <form class="template-fields" onSubmit={save} aria-label="Template">
          <div class="template-row">
            <label>
              Name
              <input
                required
                value={form.name}
                readOnly={!canWrite}
                onInput={(e) => set({ name: e.currentTarget.value })}
              />
            </label>
            <label>
              Alias
              <input
                value={form.alias}
                readOnly={!canWrite}
                placeholder="optional, e.g. welcome"
                onInput={(e) => set({ alias: e.currentTarget.value })}
              />
            </label>
          </div>
          <label>
            Subject
            <input
              ref={refs.subject as RefObject<HTMLInputElement>}
              value={form.subject}
              readOnly={!canWrite}
              onInput={(e) => set({ subject: e.currentTarget.value })}
            />
          </label>
          <div class="template-row">
            <label>
              From
              <input
                value={form.from}
                readOnly={!canWrite}
                placeholder="optional, e.g. Acme <hi@acme.test>"
                onInput={(e) => set({ from: e.currentTarget.value })}
              />
            </label>
            <label>
              Engine
              <select
                value={form.engine}
                disabled={!canWrite}
                onChange={(e) => set({ engine: e.currentTarget.value as Engine })}
              >
                <option value="handlebars">Handlebars (HTML)</option>
                <option value="mjml">MJML + Handlebars</option>
              </select>
            </label>
          </div>
          <label>
            {form.engine === "mjml" ? "MJML source" : "HTML source"}
            <textarea
              ref={refs.html as RefObject<HTMLTextAreaElement>}
              class="source code"
              rows={14}
              spellcheck={false}
              readOnly={!canWrite}
              value={form.html}
              aria-describedby="source-caret"
              onInput={(e) => {
                set({ html: e.currentTarget.value });
                trackCaret(e.currentTarget);
              }}
              onKeyUp={(e) => trackCaret(e.currentTarget)}
              onClick={(e) => trackCaret(e.currentTarget)}
            />
          </label>
          <p class="hint" id="source-caret">
            Line {caret.line}, column {caret.column}. {"{{name}}"} is HTML-escaped, {"{{{name}}}"} is not.
          </p>
          <div aria-live="polite">
            {problems.length > 0 && (
              <div class="template-problems">
                <h2>
                  {problems.length} problem{problems.length === 1 ? "" : "s"}
                </h2>
                <ul aria-label="Problems">
                  {problems.map((p) => (
                    <li key={`${p.field}:${p.line}:${p.column}`}>
                      <button type="button" class="link" onClick={() => goTo(p)}>
                        {FIELD_LABELS[p.field]}, line {p.line}, column {p.column}: {p.message}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
          <label>
            Text (optional: made from the HTML when empty)
            <textarea
              ref={refs.text as RefObject<HTMLTextAreaElement>}
              class="source"
              rows={5}
              readOnly={!canWrite}
              value={form.text}
              onInput={(e) => set({ text: e.currentTarget.value })}
            />
          </label>

          <TemplateVariables
            variables={form.variables}
            canWrite={canWrite}
            onChange={(variables) => set({ variables })}
          />

          {!canWrite && (
            <div class="actions">
              <Guarded why={whyNotWrite}>Save draft</Guarded>
              <Guarded why={whyNotWrite}>Publish</Guarded>
            </div>
          )}
          {canWrite && (
            <div class="actions">
              <button type="submit" disabled={busy}>
                Save draft
              </button>
              <button type="button" disabled={busy} onClick={publish}>
                Publish
              </button>
              <button type="button" disabled={busy} onClick={duplicate}>
                Duplicate
              </button>
              {confirmingDelete ? (
                <>
                  <button type="button" class="danger" onClick={remove}>
                    Confirm delete {template.name}
                  </button>
                  <button type="button" onClick={() => setConfirmingDelete(false)}>
                    Keep
                  </button>
                </>
              ) : (
                <button type="button" disabled={busy} onClick={() => setConfirmingDelete(true)}>
                  Delete
                </button>
              )}
              <span class="hint">{dirty ? "Unsaved changes" : "Draft saved"}</span>
            </div>
          )}
          {notice && (
            <p role="status" class="notice-text">
              {notice}
            </p>
          )}
          <Alert message={actionError} />
        </form>

        <div class="template-preview">
          <h2>Preview</h2>
          <p class="hint">
            {canWrite
              ? "Updates as you type; the draft is saved for it (sends use the published version)."
              : "The saved draft."}
          </p>
          {declared.length > 0 && (
            <fieldset class="template-samples">
              <legend>Sample values</legend>
              <p class="hint">An empty one previews as its fallback, or as [its name].</p>
              {declared.map((v) => (
                <label key={v.key}>
                  {v.key.trim()}
                  <input
                    type={v.type === "number" ? "number" : "text"}
                    value={samples[v.key.trim()] ?? ""}
                    placeholder={String(standIn(v))}
                    onInput={(e) => setSamples({ ...samples, [v.key.trim()]: e.currentTarget.value })}
                  />
                </label>
              ))}
            </fieldset>
          )}
          {problems.length > 0 && rendered && (
            <p class="warning">The preview shows the last version without problems.</p>
          )}
          <Alert message={previewError && `Preview: ${previewError}`} />
          {rendered && <RenderedPreview rendered={rendered} name={form.name} />}
        </div>
      </div>
    </section>
  );
}
