/**
 * Templates: the list (cursor paging, draft or published, a new template); an id in the route opens the editor
 * (template-editor.tsx).
 */
import { useState } from "preact/hooks";
import { useWhyNot } from "../access.ts";
import { Alert } from "../alert.tsx";
import { CreateForm, RecordTable } from "../collection.tsx";
import { Empty } from "../empty.tsx";
import { api, query, type Page } from "../api.ts";
import { when } from "../format.ts";
import { describe } from "../hooks.ts";
import { usePagedList } from "../paging.tsx";
import { TemplateEditor } from "./template-editor.tsx";
import type { Engine, TemplateSummary } from "./template-form.ts";
import { PageHeader, StartAction } from "../page-header.tsx";

/** What a new template starts with: the API requires a source, and an MJML one must have its root. */
const STARTERS: Record<Engine, string> = {
  handlebars: "<p>Hello</p>\n",
  mjml: "<mjml>\n  <mj-body>\n    <mj-section>\n      <mj-column>\n        <mj-text>Hello</mj-text>\n      </mj-column>\n    </mj-section>\n  </mj-body>\n</mjml>\n",
};

export function TemplatesScreen({ id }: { id?: string }) {
  // A new id (duplicate, or another template) is a new editor: nothing of the previous one's state carries over.
  return id ? <TemplateEditor key={id} idOrAlias={id} /> : <TemplateList />;
}

/** Published with later edits? The summary has no flag, but publishing sets both times and only an edit moves `updated_at` on. */
const changedSincePublished = (t: TemplateSummary) => t.published_at !== null && t.updated_at > t.published_at;

function TemplateList() {
  const whyNotWrite = useWhyNot("templates:write", "create, change or publish templates");
  const canWrite = !whyNotWrite;
  const { data, error, pager } = usePagedList(
    (after) => api.get<Page<TemplateSummary>>(`/v1/templates${query({ limit: 20, after })}`),
    [],
  );
  const [find, setFind] = useState("");
  const [name, setName] = useState("");
  const [engine, setEngine] = useState<Engine>("handlebars");
  const [actionError, setActionError] = useState<string | null>(null);

  // The API has no search by name; a template is found by its id or alias (the editor loads either).
  const open = (e: Event) => {
    e.preventDefault();
    if (find.trim()) location.hash = `#/templates/${encodeURIComponent(find.trim())}`;
  };
  const create = async () => {
    setActionError(null);
    try {
      const created = await api.post<{ id: string }>("/v1/templates", {
        name: name.trim(),
        engine,
        html: STARTERS[engine],
      });
      location.hash = `#/templates/${encodeURIComponent(created.id)}`;
    } catch (err) {
      setActionError(describe(err));
    }
  };

  return (
    <section aria-labelledby="templates-title">
      <PageHeader
        id="templates-title"
        title="Templates"
        description="Saved messages with variables, sent by id or alias."
      >
        <StartAction label="Create template" field="template-name" reason={whyNotWrite} />
      </PageHeader>
      <form class="filters" onSubmit={open} aria-label="Open a template">
        <label>
          ID or alias
          <input type="search" value={find} onInput={(e) => setFind(e.currentTarget.value)} />
        </label>
        <button type="submit">Open</button>
      </form>
      {canWrite && (
        <CreateForm
          title="New template"
          submit="Create template"
          why={whyNotWrite}
          onCreate={() => void create()}
          inline={false}
        >
          <label>
            Name
            <input id="template-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label>
            Engine
            <select value={engine} onChange={(e) => setEngine(e.currentTarget.value as Engine)}>
              <option value="handlebars">Handlebars (HTML)</option>
              <option value="mjml">MJML + Handlebars</option>
            </select>
          </label>
        </CreateForm>
      )}
      <Alert message={actionError ?? error} />
      <RecordTable
        items={data?.data}
        columns={[
          { label: "Name", cell: (t) => <a href={`#/templates/${encodeURIComponent(t.id)}`}>{t.name}</a> },
          { label: "Alias", cell: (t) => (t.alias ? <code>{t.alias}</code> : "—") },
          { label: "Engine", cell: (t) => t.engine },
          {
            label: "State",
            cell: (t) => (
              <>
                <span class={`status status-${t.status}`}>{t.status}</span>
                {changedSincePublished(t) && <span class="hint"> · draft changed</span>}
              </>
            ),
          },
          { label: "Updated", cell: (t) => when(t.updated_at) },
        ]}
        empty={
          <Empty
            title="No templates yet"
            first={canWrite ? { label: "Create your first template", field: "template-name" } : undefined}
          >
            A template keeps a message's subject, HTML and text with <code>{"{{variables}}"}</code>, published in
            versions; a send names it with <code>template: {"{id, variables}"}</code>.
          </Empty>
        }
      />
      {pager}
    </section>
  );
}
