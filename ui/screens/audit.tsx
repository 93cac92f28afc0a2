/**
 * The audit log (docs/teams.md): who changed what and every sign-in, newest first, filtered by action or by who acted
 * (a click on someone shows only their events). Invariant: what is shown is the server's log; the screen changes
 * nothing.
 */
import { useState } from "preact/hooks";
import { api, query, type Page } from "../api.ts";
import { Alert } from "../alert.tsx";
import { Empty } from "../empty.tsx";
import { when } from "../format.ts";
import { usePagedList } from "../paging.tsx";
import { PageHeader } from "../page-header.tsx";

interface AuditEvent {
  id: string;
  created_at: string;
  actor: { type: string; id: string | null; name: string | null };
  action: string;
  target: { type: string; id: string | null; name: string | null } | null;
  ip: string | null;
  changes: Record<string, unknown> | null;
}

const WHO: Record<string, string> = { user: "", api_key: "key ", cli: "", system: "" };

/** A change as one line: `setting: value` or `setting: from → to`. */
function describeChanges(changes: Record<string, unknown> | null): string {
  if (!changes) return "";
  return Object.entries(changes)
    .map(([name, value]) => {
      const moved = value as { from?: unknown; to?: unknown } | null;
      if (moved && typeof moved === "object" && "to" in moved)
        return `${name}: ${JSON.stringify(moved.from)} → ${JSON.stringify(moved.to)}`;
      return `${name}: ${JSON.stringify(value)}`;
    })
    .join("; ");
}

export function AuditScreen() {
  const [action, setAction] = useState("");
  const [actor, setActor] = useState<{ id: string; name: string } | null>(null);
  const { data, error, pager, restart } = usePagedList(
    (after) =>
      api.get<Page<AuditEvent>>(
        `/v1/audit-log${query({ limit: 50, after, action: action.trim(), actor_id: actor?.id })}`,
      ),
    [action, actor?.id],
  );
  const filtered = action.trim() !== "" || actor !== null;

  return (
    <section aria-labelledby="audit-title">
      <PageHeader
        id="audit-title"
        title="Audit log"
        description="Who changed what in this organisation, and every sign-in."
      />
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter the audit log">
        <label>
          Action
          <input
            id="audit-action"
            value={action}
            placeholder="e.g. api_key.created"
            onInput={(e) => {
              setAction(e.currentTarget.value);
              restart();
            }}
          />
        </label>
        {actor && (
          <button
            type="button"
            onClick={() => {
              setActor(null);
              restart();
            }}
          >
            Everyone, not only {actor.name}
          </button>
        )}
      </form>
      <Alert message={error} />
      {data &&
        data.data.length === 0 &&
        (filtered ? (
          <p>No event matches.</p>
        ) : (
          <Empty title="Nothing recorded yet" first={{ label: "Create an API key", href: "#/keys" }}>
            Every change to keys, domains, templates, webhooks, suppressions, members, pauses, the queue and the
            organisation's settings is recorded here, with every sign-in: who, what, when and from where.
          </Empty>
        ))}
      {data && data.data.length > 0 && (
        <div class="scroll">
          <table class="list stack">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">On</th>
                <th scope="col">Changes</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((event) => (
                <tr key={event.id}>
                  <td data-label="When">{when(event.created_at)}</td>
                  <td data-label="Who">
                    {event.actor.id ? (
                      <button
                        type="button"
                        class="link"
                        aria-label={`Only events by ${event.actor.name ?? event.actor.id}`}
                        onClick={() => {
                          setActor({ id: event.actor.id!, name: event.actor.name ?? event.actor.id! });
                          restart();
                        }}
                      >
                        {WHO[event.actor.type]}
                        {event.actor.name ?? event.actor.id}
                      </button>
                    ) : (
                      (event.actor.name ?? event.actor.type)
                    )}
                  </td>
                  <td data-label="Action">
                    <code>{event.action}</code>
                  </td>
                  <td data-label="On">
                    {event.target ? `${event.target.type} ${event.target.name ?? event.target.id ?? ""}` : "—"}
                  </td>
                  <td data-label="Changes">{describeChanges(event.changes) || "—"}</td>
                  <td data-label="From">{event.ip ?? "—"}</td>
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
