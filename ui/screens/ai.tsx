/**
 * AI: the subject scorer (score, findings with their fixes, the model's suggestions) and the writer (a draft from
 * a brief, optionally saved as a draft template). Invariants: a writer that cannot run (503 service_unavailable:
 * no model configured, or the model failing) is guidance saying what to do, not an error page — and without a model
 * (GET /v1/ai) the writer says so before anything is submitted, its button disabled with the reason; a draft's HTML is
 * shown only through emails.tsx's Preview; nothing here sends mail.
 */
import { useState } from "preact/hooks";
import { useWhyNot } from "../access.ts";
import { api, ApiError } from "../api.ts";
import { describe, usePolled } from "../hooks.ts";
import { Alert } from "../alert.tsx";
import { Preview } from "../preview.tsx";
import type { TemplateEngine } from "../../clients/node/src/wire.ts";
import { PageHeader } from "../page-header.tsx";

interface Finding {
  rule: string;
  severity: "error" | "warning" | "info";
  message: string;
  fix: string;
}
interface SubjectAnswer {
  score: number;
  findings: Finding[];
  suggestions: Array<{ subject: string; score: number }>;
  suggestions_unavailable?: string;
}
interface Draft {
  subject: string;
  html: string;
  text: string;
  engine: TemplateEngine;
  variables: string[];
  template_id: string | null;
}

/** What a failed call shows: a 503 is the server saying what is missing or down, so it is shown as guidance. */
type Failure = { guidance: string } | { error: string };
const failure = (e: unknown): Failure =>
  e instanceof ApiError && e.status === 503 ? { guidance: e.message } : { error: describe(e) };

function FailureNote({ failure, what }: { failure: Failure | null; what: string }) {
  if (!failure) return null;
  if ("error" in failure) return <Alert message={failure.error} />;
  return (
    <div class="card guidance" role="status">
      <p>
        <strong>{what} is unavailable right now.</strong> {failure.guidance}
      </p>
    </div>
  );
}

/** GET /v1/ai: whether a model is configured, so the writer can say so before anyone submits a brief. */
interface AiStatus {
  model_configured: boolean;
  model: string | null;
  message: string | null;
}

export function AiScreen() {
  const { data: status } = usePolled(() => api.get<AiStatus>("/v1/ai"), []);
  return (
    <section aria-labelledby="ai-title">
      <PageHeader
        id="ai-title"
        title="AI"
        description={
          <>
            Nothing here sends mail. Scoring works offline; suggestions and drafts come from{" "}
            {status?.model ? (
              <>
                the model <code>{status.model}</code>
              </>
            ) : (
              "the model set in [ai]"
            )}
            .
          </>
        }
      />
      <SubjectScorer />
      <Writer status={status} />
    </section>
  );
}

function SubjectScorer() {
  const [subject, setSubject] = useState("");
  const [body, setBody] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ subject: string; answer: SubjectAnswer } | null>(null);
  const [problem, setProblem] = useState<Failure | null>(null);

  const score = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const answer = await api.post<SubjectAnswer>("/v1/ai/subject", {
        subject,
        ...(body.trim() ? { text: body } : {}),
      });
      setResult({ subject, answer });
    } catch (err) {
      setProblem(failure(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="card">
      <h2 id="score-title">Score a subject</h2>
      <form class="ai-form" onSubmit={score} aria-labelledby="score-title">
        <label>
          Subject
          <input required maxLength={998} value={subject} onInput={(e) => setSubject(e.currentTarget.value)} />
        </label>
        <label>
          Body text (optional, for the preview line)
          <textarea rows={3} value={body} onInput={(e) => setBody(e.currentTarget.value)} />
        </label>
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? "Scoring…" : "Score subject"}
          </button>
        </div>
      </form>
      <FailureNote failure={problem} what="Scoring" />
      {result && (
        <div class="ai-result" aria-live="polite">
          <p class="score">
            <span class="score-value" data-testid="subject-score">
              {result.answer.score}
            </span>{" "}
            / 100 for “{result.subject}”
          </p>
          <meter
            class="score-meter"
            min={0}
            max={100}
            low={50}
            high={80}
            optimum={100}
            value={result.answer.score}
            aria-label="Subject score"
          >
            {result.answer.score} / 100
          </meter>
          <h3>Findings</h3>
          {result.answer.findings.length === 0 ? (
            <p>None: nothing to fix.</p>
          ) : (
            <ul class="findings" aria-label="Findings">
              {result.answer.findings.map((f) => (
                <li key={f.rule}>
                  <span class={`status severity-${f.severity}`}>{f.severity}</span> {f.message}
                  <span class="hint"> {f.fix}</span>
                </li>
              ))}
            </ul>
          )}
          <h3>Suggestions</h3>
          {result.answer.suggestions.length > 0 ? (
            <ol class="suggestions" aria-label="Suggestions">
              {result.answer.suggestions.map((s) => (
                <li key={s}>
                  {s.subject} <span class="hint">({s.score} / 100)</span>
                </li>
              ))}
            </ol>
          ) : (
            <p class="hint">{result.answer.suggestions_unavailable ?? "No suggestions."}</p>
          )}
        </div>
      )}
    </div>
  );
}

function Writer({ status }: { status: AiStatus | null }) {
  const noModel = status !== null && !status.model_configured;
  const whyNotSave = useWhyNot("templates:write", "create, change or publish templates");
  const canSave = !whyNotSave;
  const [form, setForm] = useState({ brief: "", tone: "", audience: "", format: "html" as "html" | "mjml" });
  const [save, setSave] = useState(false);
  const [templateName, setTemplateName] = useState("");
  const [busy, setBusy] = useState(false);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [problem, setProblem] = useState<Failure | null>(null);
  const [view, setView] = useState<"html" | "text">("html");

  const write = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    setDraft(null);
    const body: Record<string, unknown> = { brief: form.brief, format: form.format };
    if (form.tone.trim()) body.tone = form.tone.trim();
    if (form.audience.trim()) body.audience = form.audience.trim();
    if (canSave && save) body.save_as_template = { name: templateName.trim() };
    try {
      setDraft(await api.post<Draft>("/v1/ai/write", body));
      setView("html");
    } catch (err) {
      setProblem(failure(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="card">
      <h2 id="write-title">Write a draft</h2>
      {noModel && (
        <div class="card guidance" id="writer-needs-model">
          <p>
            <strong>The writer needs a model.</strong> {status.message}
          </p>
        </div>
      )}
      <form class="ai-form" onSubmit={write} aria-labelledby="write-title">
        <label>
          Brief
          <textarea
            required
            rows={4}
            maxLength={4000}
            value={form.brief}
            onInput={(e) => setForm({ ...form, brief: e.currentTarget.value })}
          />
        </label>
        <p class="hint">Placeholders such as {"{{first_name}}"} in the brief are kept in the draft.</p>
        <div class="filters">
          <label>
            Tone
            <input
              maxLength={200}
              placeholder="e.g. warm"
              value={form.tone}
              onInput={(e) => setForm({ ...form, tone: e.currentTarget.value })}
            />
          </label>
          <label>
            Audience
            <input
              maxLength={200}
              placeholder="e.g. new customers"
              value={form.audience}
              onInput={(e) => setForm({ ...form, audience: e.currentTarget.value })}
            />
          </label>
          <label>
            Format
            <select
              value={form.format}
              onChange={(e) => setForm({ ...form, format: e.currentTarget.value === "mjml" ? "mjml" : "html" })}
            >
              <option value="html">HTML</option>
              <option value="mjml">MJML</option>
            </select>
          </label>
        </div>
        {canSave && (
          <>
            <label class="check">
              <input type="checkbox" checked={save} onChange={(e) => setSave(e.currentTarget.checked)} />
              Save as a draft template
            </label>
            {save && (
              <label>
                Template name
                <input
                  required
                  maxLength={200}
                  value={templateName}
                  onInput={(e) => setTemplateName(e.currentTarget.value)}
                />
              </label>
            )}
          </>
        )}
        <div class="actions">
          <button
            type="submit"
            disabled={busy || noModel}
            aria-describedby={noModel ? "writer-needs-model" : undefined}
          >
            {busy ? "Writing…" : "Write draft"}
          </button>
          {busy && <span role="status">The model may take a while.</span>}
        </div>
      </form>
      <FailureNote failure={problem} what="The writer" />
      {draft && (
        <div class="ai-result" role="region" aria-labelledby="draft-title">
          <h3 id="draft-title">Draft</h3>
          <dl class="facts">
            <dt>Subject</dt>
            <dd data-testid="draft-subject">{draft.subject}</dd>
            <dt>Variables</dt>
            <dd>{draft.variables.length ? draft.variables.map((v) => `{{${v}}}`).join(", ") : "none"}</dd>
            {draft.template_id && (
              <>
                <dt>Saved as</dt>
                <dd>
                  <a href={`#/templates/${encodeURIComponent(draft.template_id)}`}>Open the draft template</a>
                </dd>
              </>
            )}
          </dl>
          <div role="group" aria-label="Draft view" class="tabs">
            <button type="button" aria-pressed={view === "html"} onClick={() => setView("html")}>
              {draft.engine === "mjml" ? "MJML" : "HTML"}
            </button>
            <button type="button" aria-pressed={view === "text"} onClick={() => setView("text")}>
              Text
            </button>
          </div>
          {view === "text" ? (
            <pre class="text">{draft.text}</pre>
          ) : draft.engine === "mjml" ? (
            <>
              {/* MJML is source, not HTML: it becomes responsive HTML when a template renders it. */}
              <p class="hint">MJML source; it renders to HTML when saved as a template and sent or previewed there.</p>
              <pre class="text">{draft.html}</pre>
            </>
          ) : (
            <Preview html={draft.html} />
          )}
        </div>
      )}
    </div>
  );
}
