/**
 * The request log (docs/logs-and-mcp.md#the-request-log): every API request the organisation's keys made, newest
 * first, filtered by status, method, endpoint and key; one request (`#/logs/<id>`) with what was sent and what was
 * answered side by side — stacked on a phone — as the server stored them, secrets already "[redacted]". The header
 * shows the organisation's usage (`GET /v1/usage`) to a caller that may read it. Invariant: the screen shows the
 * server's log and changes nothing; it never re-reads a secret, since the server never kept one.
 */
import { useContext, useState } from "preact/hooks";
import type { Log, LogList, LogListItem, Usage } from "../../clients/node/src/generated.ts";
import { AccessContext, useCan } from "../access.ts";
import { Alert } from "../alert.tsx";
import { api, query, type Page } from "../api.ts";
import { CopyButton } from "../copy.tsx";
import { Empty } from "../empty.tsx";
import { when } from "../format.ts";
import { usePolled } from "../hooks.ts";
import { PageHeader } from "../page-header.tsx";
import { usePagedList } from "../paging.tsx";

const METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE"] as const;

/** A status the API takes as a filter (100–599), or undefined while the field holds anything else. */
const statusFilter = (text: string) => (/^[1-5]\d\d$/.test(text.trim()) ? Number(text.trim()) : undefined);

/** The class of a status's pill: green 2xx, amber 4xx, red 5xx. */
const statusClass = (status: number) =>
  status < 300 ? "status-success" : status < 500 ? "status-pending" : "status-failed";

export function LogsScreen({ id }: { id?: string }) {
  return id ? <LogDetail id={id} /> : <LogListScreen />;
}

/** The keys' names by id, when the caller may list keys; otherwise ids are shown as they are. */
function useKeyNames(): Map<string, string> {
  const canReadKeys = useCan("api_keys:read");
  const { data } = usePolled(
    () =>
      canReadKeys
        ? api.get<Page<{ id: string; name: string }>>(`/v1/api-keys${query({ limit: 100 })}`)
        : Promise.resolve({ object: "list" as const, data: [] }),
    [canReadKeys],
    60_000,
  );
  return new Map((data?.data ?? []).map((key) => [key.id, key.name]));
}

/** The organisation's usage as figures (Resend's `usage.get`): today's and this month's mail, and the request limit. */
function UsageFigures() {
  const { data } = usePolled(() => api.get<Usage>("/v1/usage"), [], 60_000);
  if (!data) return null;
  const { daily, monthly } = data.emails;
  return (
    <dl class="figures" aria-label="Usage">
      <div>
        <dt>Emails today</dt>
        <dd>
          <span class="figure">{daily.used}</span>
          <span class="hint">{daily.limit === null ? "no daily quota" : `of ${daily.limit} a day`}</span>
        </dd>
      </div>
      <div>
        <dt>This month</dt>
        <dd>
          <span class="figure">{monthly.used}</span>
          <span class="hint">{monthly.received} received</span>
        </dd>
      </div>
      <div>
        <dt>Request limit</dt>
        <dd>
          <span class="figure">{data.rate_limit.limit}</span>
          <span class="hint">requests per {data.rate_limit.duration}</span>
        </dd>
      </div>
    </dl>
  );
}

function LogListScreen() {
  const [status, setStatus] = useState("");
  const [method, setMethod] = useState("");
  const [endpoint, setEndpoint] = useState("");
  const [keyId, setKeyId] = useState("");
  const keys = useKeyNames();
  const canReadKeys = useCan("api_keys:read");
  const showsUsage = useCan("organization:read");
  const path = endpoint.trim() === "" ? undefined : endpoint.trim().startsWith("/") ? endpoint.trim() : undefined;
  const filters = { status: statusFilter(status), method, endpoint: path, api_key_id: keyId || undefined };
  const { data, error, pager, restart } = usePagedList(
    (after) => api.get<LogList>(`/v1/logs${query({ limit: 50, after, ...filters })}`),
    [filters.status, method, path, keyId],
  );
  const page = data as LogList | null;
  const filtered = Object.values(filters).some((v) => v !== undefined && v !== "");
  const set = (setter: (value: string) => void) => (e: { currentTarget: { value: string } }) => {
    setter(e.currentTarget.value);
    restart();
  };
  const keyName = (id: string | null) => (id ? (keys.get(id) ?? id) : "—");
  // A person's requests are not recorded; a key's are, this screen's own reads included.
  const signedInKey = useContext(AccessContext).keyId;

  return (
    <section aria-labelledby="logs-title">
      <PageHeader
        id="logs-title"
        title="Logs"
        description={
          <>
            Every API request this organisation's keys made: what was sent and what was answered, secrets replaced.
            {page && ` Kept ${page.retention_days} days.`}
          </>
        }
      />
      {signedInKey && (
        <p class="hint">
          Signed in with the key {keyName(signedInKey)}: this screen's own reads are its requests, so they appear here
          too.
        </p>
      )}
      {showsUsage && <UsageFigures />}
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter the requests">
        <label>
          Status
          <input
            id="logs-status"
            inputMode="numeric"
            value={status}
            placeholder="e.g. 422"
            aria-invalid={status.trim() !== "" && filters.status === undefined}
            onInput={set(setStatus)}
          />
        </label>
        <label>
          Method
          <select value={method} onChange={set(setMethod)}>
            <option value="">Any</option>
            {METHODS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
        <label>
          Endpoint
          <input
            value={endpoint}
            placeholder="/emails"
            spellcheck={false}
            aria-invalid={endpoint.trim() !== "" && path === undefined}
            onInput={set(setEndpoint)}
          />
        </label>
        {canReadKeys ? (
          <label>
            Key
            <select id="logs-key" value={keyId} onChange={set(setKeyId)}>
              <option value="">Any</option>
              {[...keys].map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label>
            Key id
            <input value={keyId} spellcheck={false} onInput={set(setKeyId)} />
          </label>
        )}
      </form>
      {status.trim() !== "" && filters.status === undefined && (
        <p class="hint">A status is three digits, 100 to 599: it is not applied yet.</p>
      )}
      {endpoint.trim() !== "" && path === undefined && (
        <p class="hint">An endpoint starts with "/", as the entries name it: /emails, /domains/…</p>
      )}
      <Alert message={error} />
      {page &&
        page.data.length === 0 &&
        (filtered ? (
          <p>No request matches.</p>
        ) : (
          <Empty
            title="No API request recorded yet"
            first={
              canReadKeys
                ? { label: "Create an API key", href: "#/keys" }
                : { label: "Read the API reference", href: "/docs" }
            }
          >
            The log keeps every API request your keys make — the endpoint, the status, and the request and answer with
            keys, passwords and attachment content replaced — for {page.retention_days} days (
            <code>[retention] logs</code>), so a refused send or a malformed batch can be looked at afterwards.{" "}
            {page.recording
              ? "Send a request with a key and it appears here."
              : "Recording is off on this server ([http] request_log = false): what was kept is listed here."}{" "}
            What people change in this admin is in the audit log.
          </Empty>
        ))}
      {page && page.data.length > 0 && (
        <div class="scroll">
          <table class="list stack logs-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Request</th>
                <th scope="col">Status</th>
                <th scope="col">Key</th>
                <th scope="col">User agent</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((entry: LogListItem) => (
                <tr key={entry.id}>
                  <td data-label="When">{when(entry.created_at)}</td>
                  <td data-label="Request">
                    <a href={`#/logs/${encodeURIComponent(entry.id)}`}>
                      <code>
                        {entry.method} {entry.endpoint}
                      </code>
                    </a>
                  </td>
                  <td data-label="Status">
                    <span class={`status ${statusClass(entry.response_status)}`}>{entry.response_status}</span>
                  </td>
                  <td data-label="Key">
                    {entry.api_key_id && keyId !== entry.api_key_id ? (
                      <button
                        type="button"
                        class="link"
                        aria-label={`Only requests by ${keyName(entry.api_key_id)}`}
                        onClick={() => {
                          setKeyId(entry.api_key_id!);
                          restart();
                        }}
                      >
                        {keyName(entry.api_key_id)}
                      </button>
                    ) : (
                      keyName(entry.api_key_id)
                    )}
                  </td>
                  <td data-label="User agent">{entry.user_agent ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pager}
    </section>
  );
}

/** A stored body as the server kept it: JSON indented, or why there is none. */
function Body({ title, id, body }: { title: string; id: string; body: unknown }) {
  return (
    <section class="log-body" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {body === null || body === undefined ? (
        <p class="hint">No JSON body.</p>
      ) : (
        // Focusable so a keyboard scrolls a long body; wraps so a phone never scrolls sideways.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus to be scrolled by keys
        <pre class="json" tabIndex={0} role="region" aria-label={`${title} body`}>
          {JSON.stringify(body, null, 2)}
        </pre>
      )}
    </section>
  );
}

function LogDetail({ id }: { id: string }) {
  // One request's entry never changes: read once.
  const { data: entry, error } = usePolled(() => api.get<Log>(`/v1/logs/${encodeURIComponent(id)}`), [id], 3_600_000);
  const keys = useKeyNames();
  return (
    <section aria-labelledby="log-title">
      <p>
        <a href="#/logs">← All requests</a>
      </p>
      <Alert message={error} />
      {entry && (
        <>
          <PageHeader
            id="log-title"
            title={
              <>
                <code>
                  {entry.method} {entry.endpoint}
                </code>{" "}
                <span class={`status ${statusClass(entry.response_status)}`}>{entry.response_status}</span>
              </>
            }
          />
          <dl class="facts">
            <dt>When</dt>
            <dd>{when(entry.created_at)}</dd>
            <dt>Key</dt>
            <dd>{entry.api_key_id ? (keys.get(entry.api_key_id) ?? entry.api_key_id) : "—"}</dd>
            <dt>User agent</dt>
            <dd>{entry.user_agent ?? "—"}</dd>
            <dt>ID</dt>
            <dd>
              <code>{entry.id}</code> <CopyButton text={entry.id} label="Copy the request's id" />
            </dd>
          </dl>
          <div class="log-bodies">
            <Body title="Request" id="log-request" body={entry.request_body} />
            <Body title="Response" id="log-response" body={entry.response_body} />
          </div>
        </>
      )}
    </section>
  );
}
