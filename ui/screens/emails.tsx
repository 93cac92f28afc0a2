/**
 * Emails: the list (filters, cursor paging with after/has_more, polling) and one email's detail (addresses, tags,
 * attachments, recipients with their provider, event timeline, HTML preview, text, headers, raw download).
 * Invariants: the email's HTML is shown only through preview.tsx (a sandboxed frame that loads nothing remote unless
 * the user asks); someone who reads no message content (a viewer) is offered none of it, and told why.
 */
import { useState } from "preact/hooks";
import { api, query, type Page } from "../api.ts";
import { RawDownload } from "../download.tsx";
import { describe, usePolled } from "../hooks.ts";
import { usePagedList } from "../paging.tsx";
import { Preview } from "../preview.tsx";
import { Alert } from "../alert.tsx";
import { Empty } from "../empty.tsx";
import { when } from "../format.ts";
import { Attachments } from "../attachments.tsx";
import { CopyButton } from "../copy.tsx";
import { TestAddresses } from "../test-addresses.tsx";
import { useReadsContent, useWhyNotContent } from "../access.ts";
import type { Email as ClientEmail, EmailAttachment } from "../../clients/node/src/types.ts";
import { EMAIL_STATUSES } from "../../clients/node/src/wire.ts";
import { PageHeader } from "../page-header.tsx";

type EmailSummary = Pick<ClientEmail, "id" | "from" | "to" | "subject" | "status" | "created_at" | "mode">;

/** Test-mode mail (a test key's, docs/keys-and-limits.md#test-keys-are-a-sandbox) said in words beside its status. */
export function TestModeMark({ mode }: { mode: "live" | "test" }) {
  return mode === "test" ? (
    <span class="status status-test" title="Sent with a test key: captured, never delivered">
      test mode
    </span>
  ) : null;
}
type EmailRecord = EmailSummary &
  Pick<ClientEmail, "html" | "text" | "recipients" | "events" | "cc" | "bcc" | "reply_to" | "tags">;

export function EmailsScreen() {
  const [filters, setFilters] = useState({ status: "", to: "", from: "" });
  const [draft, setDraft] = useState(filters);
  const { data, error, pager, restart } = usePagedList(
    (after) => api.get<Page<EmailSummary>>(`/v1/emails${query({ limit: 20, after, ...filters })}`),
    [filters],
  );

  const apply = (e: Event) => {
    e.preventDefault();
    setFilters(draft);
    restart();
  };

  return (
    <section aria-labelledby="emails-title">
      <PageHeader
        id="emails-title"
        title="Emails"
        description="Every message sent through the API or SMTP, with each recipient's fate. Mailroom's own mail about people's accounts (invitations, password links) is not listed."
      />
      <form class="filters" onSubmit={apply}>
        <label>
          Status
          <select value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value })}>
            <option value="">Any</option>
            {EMAIL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          To
          <input type="search" value={draft.to} onInput={(e) => setDraft({ ...draft, to: e.currentTarget.value })} />
        </label>
        <label>
          From
          <input
            type="search"
            value={draft.from}
            onInput={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
          />
        </label>
        <button type="submit">Filter</button>
      </form>
      <Alert message={error} />
      {data &&
        data.data.length === 0 &&
        (filters.status || filters.to || filters.from ? (
          <p>No emails match.</p>
        ) : (
          <Empty title="No email yet" first={{ label: "How to send: the API docs", href: "/docs" }}>
            Every message sent through the API, the SMTP relay or the CLI shows here, with each recipient's status and
            its events. Send one with <code>POST /v1/emails</code> and an API key, to anyone or to a test address below.
          </Empty>
        ))}
      {data && data.data.length > 0 && (
        <div class="scroll">
          <table class="list stack">
            <thead>
              <tr>
                <th scope="col">Subject</th>
                <th scope="col">To</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((email) => (
                <tr key={email.id}>
                  <td data-label="Subject">
                    <a href={`#/emails/${encodeURIComponent(email.id)}`}>{email.subject || "(no subject)"}</a>
                  </td>
                  <td data-label="To">{email.to.join(", ")}</td>
                  <td data-label="Status">
                    <span class={`status status-${email.status}`}>{email.status}</span>{" "}
                    <TestModeMark mode={email.mode} />
                  </td>
                  <td data-label="Created">{when(email.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pager}
      <TestAddresses />
    </section>
  );
}

export function EmailDetail({ id }: { id: string }) {
  const readsContent = useReadsContent();
  const whyNotContent = useWhyNotContent();
  const { data: email, error } = usePolled(() => api.get<EmailRecord>(`/v1/emails/${encodeURIComponent(id)}`), [id]);
  const { data: attachments } = usePolled(
    async () =>
      readsContent
        ? api.get<Page<EmailAttachment>>(`/v1/emails/${encodeURIComponent(id)}/attachments${query({ limit: 100 })}`)
        : null,
    [id],
  );
  const [view, setView] = useState<"html" | "text" | "headers">("html");
  const [headers, setHeaders] = useState<string | null>(null);

  const rawPath = `/v1/emails/${encodeURIComponent(id)}/raw`;
  const showHeaders = async () => {
    setView("headers");
    if (headers !== null) return;
    try {
      const raw = await (await api.blob(rawPath)).text();
      // The header block ends at the first empty line (RFC 5322 §2.1).
      setHeaders(raw.split(/\r?\n\r?\n/, 1)[0]!);
    } catch (e) {
      setHeaders(describe(e));
    }
  };

  return (
    <section aria-labelledby="email-title">
      <p>
        <a href="#/emails">← All emails</a>
      </p>
      <Alert message={error} />
      {email && (
        <>
          <PageHeader id="email-title" title={email.subject || "(no subject)"}>
            <RawDownload path={rawPath} filename={`${id}.eml`} reason={whyNotContent} />
          </PageHeader>
          <dl class="facts">
            <dt>ID</dt>
            <dd>
              <code>{email.id}</code> <CopyButton text={email.id} label="Copy the email's id" />
            </dd>
            <dt>From</dt>
            <dd>{email.from}</dd>
            <dt>To</dt>
            <dd>{email.to.join(", ")}</dd>
            {email.cc.length > 0 && (
              <>
                <dt>Cc</dt>
                <dd>{email.cc.join(", ")}</dd>
              </>
            )}
            {email.bcc.length > 0 && (
              <>
                <dt>Bcc</dt>
                <dd>{email.bcc.join(", ")}</dd>
              </>
            )}
            {email.reply_to.length > 0 && (
              <>
                <dt>Reply-To</dt>
                <dd>{email.reply_to.join(", ")}</dd>
              </>
            )}
            {email.tags.length > 0 && (
              <>
                <dt>Tags</dt>
                <dd>
                  <ul class="tags" aria-label="Tags">
                    {email.tags.map((tag) => (
                      <li key={tag.name}>
                        <code>
                          {tag.name}: {tag.value}
                        </code>
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            )}
            <dt>Status</dt>
            <dd>
              <span class={`status status-${email.status}`}>{email.status}</span>{" "}
              {email.mode === "test" && (
                <>
                  <TestModeMark mode={email.mode} /> sent with a test key: captured here, never delivered to anyone
                </>
              )}
            </dd>
            <dt>Created</dt>
            <dd>{when(email.created_at)}</dd>
          </dl>

          {attachments && attachments.data.length > 0 && (
            <>
              <h2>Attachments</h2>
              <Attachments files={attachments.data} />
            </>
          )}

          <h2>Recipients</h2>
          <div class="scroll">
            <table class="list stack">
              <thead>
                <tr>
                  <th scope="col">Address</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Last response</th>
                </tr>
              </thead>
              <tbody>
                {email.recipients.map((r) => (
                  <tr key={r.email}>
                    <td data-label="Address">{r.email}</td>
                    <td data-label="Status">
                      <span class={`status status-${r.status}`}>{r.status}</span>
                    </td>
                    <td data-label="Attempts">{r.attempts}</td>
                    <td data-label="Provider">{r.provider ?? "—"}</td>
                    <td data-label="Last response">{r.last_response ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          <h2>Timeline</h2>
          <ol class="timeline" aria-label="Event timeline">
            {email.events.map((ev) => (
              <li key={`${ev.type} ${ev.created_at}`}>
                <time dateTime={ev.created_at}>{when(ev.created_at)}</time> <strong>{ev.type}</strong>
                {ev.recipient ? ` — ${ev.recipient}` : ""}
              </li>
            ))}
          </ol>

          <h2>Content</h2>
          {!readsContent && (
            <p class="hint">
              Viewers don't see message content — its HTML, text, headers, raw message or attachments — because mail
              holds other people's password-reset links. An owner or admin can give you the developer role.
            </p>
          )}
          {readsContent && (
            <div role="group" aria-label="Content view" class="tabs">
              <button
                type="button"
                aria-pressed={view === "html"}
                onClick={() => setView("html")}
                disabled={email.html === null}
              >
                HTML
              </button>
              <button type="button" aria-pressed={view === "text"} onClick={() => setView("text")}>
                Text
              </button>
              <button type="button" aria-pressed={view === "headers"} onClick={showHeaders}>
                Headers
              </button>
            </div>
          )}
          {readsContent && view === "html" && email.html !== null && <Preview html={email.html} />}
          {readsContent && (view === "text" || (view === "html" && email.html === null)) && (
            <pre class="text">{email.text ?? "(no text part)"}</pre>
          )}
          {readsContent && view === "headers" && (
            <pre class="text" role="region" aria-label="Headers">
              {headers ?? "Loading…"}
            </pre>
          )}
        </>
      )}
    </section>
  );
}
