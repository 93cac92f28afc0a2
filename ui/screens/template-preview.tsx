/**
 * What the template editor shows beside its form: the rendered preview (in a sandboxed iframe, remote resources
 * taken out) and the template's publish state.
 */
import { useState } from "preact/hooks";
import { saveBlob } from "../download.tsx";
import { when } from "../format.ts";
import { Preview } from "../preview.tsx";
import type { Rendered, Template } from "./template-form.ts";
export function RenderedPreview({ rendered, name }: { rendered: Rendered; name: string }) {
  const [view, setView] = useState<"html" | "text">("html");
  const download = () => saveBlob(new Blob([rendered.html], { type: "text/html" }), `${name || "template"}.html`);
  return (
    <>
      <p class="template-subject">
        <span class="hint">Subject</span> <strong data-testid="preview-subject">{rendered.subject ?? "(none)"}</strong>
      </p>
      <div role="group" aria-label="Preview view" class="tabs">
        <button type="button" aria-pressed={view === "html"} onClick={() => setView("html")}>
          HTML
        </button>
        <button type="button" aria-pressed={view === "text"} onClick={() => setView("text")}>
          Text
        </button>
        <button type="button" onClick={download}>
          Download HTML
        </button>
      </div>
      {view === "html" ? (
        <Preview html={rendered.html} title="Template preview" />
      ) : (
        <pre class="text">{rendered.text}</pre>
      )}
    </>
  );
}

/** The publish state in words, inline: the editor's page header carries it under the template's name. */
export function PublishState({ template }: { template: Template }) {
  if (template.status === "draft")
    return <>Draft: not published yet. Sends refuse this template until it is published.</>;
  return (
    <>
      <span class="status status-published">published</span> {when(template.published_at!)}: sends use the published
      version.
      {template.has_unpublished_versions && " The draft has changes that sends do not use until you publish again."}
    </>
  );
}
