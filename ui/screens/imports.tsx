/**
 * Imports (docs/contacts.md#imports): a CSV of contacts uploaded through the multipart route, with which column holds
 * what (read from the file's header line here, in the browser), what to do with addresses already known, and the
 * segments and topics every imported contact gets; then the imports' history with their live counts, each line
 * that failed and why. Invariant: the file goes to the server as it is (streamed there, never parsed whole here: only
 * its first 64 KiB are read, for the header); an import still running is looked at every 2 s until it ends.
 */
import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { useCan, useWhyNot } from "../access.ts";
import { api, query, type Page } from "../api.ts";
import { Alert } from "../alert.tsx";
import { Empty } from "../empty.tsx";
import { when } from "../format.ts";
import { Guarded } from "../guarded.tsx";
import { describe, usePolled } from "../hooks.ts";
import { PageHeader } from "../page-header.tsx";
import { usePagedList } from "../paging.tsx";
import type { ContactImport, ContactProperty, Segment, Topic } from "../../clients/node/src/generated.ts";

const STATUS = { queued: "Queued", in_progress: "In progress", completed: "Completed", failed: "Failed" } as const;
/**
 * How often a running import's counts are asked for: they move once a batch of 500 lines is written, and the server
 * looks for queued imports every 2 s; 30 requests a minute leave most of a key's budget (100) to the person.
 */
const LIVE_MS = 2_000;

/** The column names of a CSV's header line (RFC 4180: quoted names may hold commas and doubled quotes). */
export function headerColumns(text: string): string[] {
  const columns: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted) cell += c;
    else if (c === ",") {
      columns.push(cell.trim());
      cell = "";
    } else if (c === "\n" || c === "\r") break;
    else cell += c;
  }
  columns.push(cell.trim());
  return columns.filter((name) => name !== "");
}

const FIELDS = [
  { key: "email", label: "Address column" },
  { key: "first_name", label: "First name column" },
  { key: "last_name", label: "Last name column" },
  { key: "unsubscribed", label: "Unsubscribed column" },
] as const;

function Upload({ onUploaded }: { onUploaded: (id: string) => void }) {
  const why = useWhyNot("contacts:write", "import contacts");
  const lists = usePolled(
    async () => {
      const [properties, segments, topics] = await Promise.all([
        api.get<Page<ContactProperty>>(`/v1/contact-properties${query({ limit: 100 })}`),
        api.get<Page<Segment>>(`/v1/segments${query({ limit: 100 })}`),
        api.get<Page<Topic>>(`/v1/topics${query({ limit: 100 })}`),
      ]);
      return { properties: properties.data, segments: segments.data, topics: topics.data };
    },
    [],
    60_000,
  );
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<string[]>([]);
  /** The person's own choices of a column per field; the rest follow `chosen`'s defaults. */
  const [map, setMap] = useState<Record<string, string>>({});
  const [onConflict, setOnConflict] = useState<"upsert" | "skip">("upsert");
  const [segments, setSegments] = useState<string[]>([]);
  const [topics, setTopics] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    const found = chosen ? headerColumns(await chosen.slice(0, 64 * 1024).text()) : [];
    setColumns(found);
    setMap({});
  };
  // Each field starts on the column of its own name, when the file has one — the properties' too, whichever of the
  // file and the property list came first (read once at the choice, a list still loading left them unchosen).
  const names = [...FIELDS.map((f) => f.key), ...(lists.data?.properties.map((p) => p.key) ?? [])];
  const chosen: Record<string, string> = {
    ...Object.fromEntries(names.filter((n) => columns.includes(n)).map((n) => [n, n])),
    ...map,
  };
  const upload = async (e: Event) => {
    e.preventDefault();
    if (why || !file) return;
    setBusy(true);
    setError(null);
    const columnMap: Record<string, unknown> = {};
    const properties: Record<string, { column: string }> = {};
    for (const [key, column] of Object.entries(chosen)) {
      if (!column) continue;
      if (FIELDS.some((f) => f.key === key)) columnMap[key] = column;
      else properties[key] = { column };
    }
    if (Object.keys(properties).length > 0) columnMap.properties = properties;
    const form = new FormData();
    form.append("file", file, file.name);
    form.append("column_map", JSON.stringify(columnMap));
    form.append("on_conflict", onConflict);
    if (segments.length) form.append("segments", JSON.stringify(segments.map((id) => ({ id }))));
    if (topics.length) form.append("topics", JSON.stringify(topics.map((id) => ({ id, subscription: "opt_in" }))));
    try {
      const { id } = await api.upload<{ id: string }>("/v1/contacts/imports", form);
      onUploaded(id);
      setFile(null);
      setColumns([]);
      (e.target as HTMLFormElement).reset();
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  const toggle = (list: string[], set: (next: string[]) => void, id: string, on: boolean) =>
    set(on ? [...list, id] : list.filter((x) => x !== id));
  const columnSelect = (key: string, label: string) => (
    <label key={key}>
      {label}
      <select value={chosen[key] ?? ""} onChange={(e) => setMap({ ...map, [key]: e.currentTarget.value })}>
        <option value="">{key === "email" ? "email (the default)" : "None"}</option>
        {columns.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <form class="card" onSubmit={upload} aria-label="Import a CSV">
      <h2>Import a CSV</h2>
      <p class="hint">
        One contact a line, with a header line naming the columns; up to 512 MiB. An address already a contact is
        updated or skipped, as chosen below.
      </p>
      <div class="inline-form">
        <label>
          CSV file
          <input
            id="import-file"
            type="file"
            accept=".csv,text/csv"
            required
            disabled={!!why}
            onChange={(e) => void choose(e.currentTarget.files?.[0] ?? null)}
          />
        </label>
        <label>
          Addresses already known
          <select value={onConflict} onChange={(e) => setOnConflict(e.currentTarget.value as "upsert" | "skip")}>
            <option value="upsert">Update them from the file</option>
            <option value="skip">Leave them as they are</option>
          </select>
        </label>
      </div>
      {columns.length > 0 && (
        <fieldset>
          <legend>Which column holds what</legend>
          <div class="inline-form">
            {FIELDS.map((f) => columnSelect(f.key, f.label))}
            {lists.data?.properties.map((p) => columnSelect(p.key, `Property ${p.key}`))}
          </div>
        </fieldset>
      )}
      {lists.data && lists.data.segments.length > 0 && (
        <fieldset>
          <legend>Add every imported contact to</legend>
          {lists.data.segments.map((s) => (
            <label key={s.id} class="check">
              <input
                type="checkbox"
                checked={segments.includes(s.id)}
                onChange={(e) => toggle(segments, setSegments, s.id, e.currentTarget.checked)}
              />
              {s.name}
            </label>
          ))}
        </fieldset>
      )}
      {lists.data && lists.data.topics.length > 0 && (
        <fieldset>
          <legend>Subscribe every imported contact to</legend>
          {lists.data.topics.map((t) => (
            <label key={t.id} class="check">
              <input
                type="checkbox"
                checked={topics.includes(t.id)}
                onChange={(e) => toggle(topics, setTopics, t.id, e.currentTarget.checked)}
              />
              {t.name}
            </label>
          ))}
        </fieldset>
      )}
      <div class="actions">
        <Guarded why={why} type="submit" disabled={busy}>
          {busy ? "Uploading…" : "Import"}
        </Guarded>
      </div>
      <Alert message={error} />
    </form>
  );
}

function Counts({ job }: { job: ContactImport }) {
  const c = job.counts;
  return (
    <span>
      {c.total} read: {c.created} created, {c.updated} updated, {c.skipped} skipped,{" "}
      <span class={c.failed ? "error" : undefined}>{c.failed} failed</span>
    </span>
  );
}

function Failures({ job }: { job: ContactImport }) {
  return (
    <div role="region" aria-label={`Lines that failed in the import of ${when(job.created_at)}`}>
      {job.error && <p class="error">{job.error}</p>}
      {job.errors.length > 0 && (
        <ul>
          {job.errors.map((e) => (
            <li key={e.line}>
              Line {e.line}: {e.message}
            </li>
          ))}
        </ul>
      )}
      {job.counts.failed > job.errors.length && (
        <p class="hint">
          The first {job.errors.length} failed lines are kept; {job.counts.failed} failed in all.
        </p>
      )}
    </div>
  );
}

export function ImportsScreen() {
  const canWrite = useCan("contacts:write");
  const { data, error, reload, pager } = usePagedList(
    (after) => api.get<Page<ContactImport>>(`/v1/contacts/imports${query({ limit: 20, after })}`),
    [],
  );
  const [open, setOpen] = useState<string | null>(null);
  const live = data?.data.some((job) => job.status === "queued" || job.status === "in_progress");
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => void reload(), LIVE_MS);
    return () => clearInterval(timer);
  }, [live]);
  return (
    <section aria-labelledby="imports-title">
      <PageHeader
        id="imports-title"
        title="Imports"
        description="Contacts brought in from a CSV file, with their progress and each line that failed."
      />
      <Upload
        onUploaded={(id) => {
          setOpen(id);
          void reload();
        }}
      />
      <Alert message={error} />
      {data && data.data.length === 0 && (
        <Empty
          title="No imports yet"
          first={canWrite ? { label: "Choose a CSV file", field: "import-file" } : undefined}
        >
          An import brings contacts in from a CSV file — an export of another tool, a spreadsheet — with their names,
          properties, segments and topics. Its counts move as it runs, and every line that fails says why.
        </Empty>
      )}
      {data && data.data.length > 0 && (
        <div class="scroll">
          <table class="list stack" aria-label="Imports">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Status</th>
                <th scope="col">Counts</th>
                <th scope="col">
                  <span class="visually-hidden">Lines that failed</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((job) => (
                <Fragment key={job.id}>
                  <tr>
                    <td data-label="Started">{when(job.created_at)}</td>
                    <td data-label="Status">
                      <span class={`status status-${job.status}`}>{STATUS[job.status]}</span>
                    </td>
                    <td data-label="Counts">
                      <Counts job={job} />
                    </td>
                    <td data-label="Failed lines">
                      {(job.errors.length > 0 || job.error) && (
                        <button
                          type="button"
                          aria-expanded={open === job.id}
                          onClick={() => setOpen(open === job.id ? null : job.id)}
                        >
                          {open === job.id ? "Hide what failed" : "Show what failed"}
                        </button>
                      )}
                    </td>
                  </tr>
                  {open === job.id && (job.errors.length > 0 || job.error) && (
                    <tr>
                      <td colSpan={4} class="whole">
                        <Failures job={job} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pager}
    </section>
  );
}
