/**
 * The audit log (docs/teams.md): who changed what and every sign-in, newest first, filtered by action or by who acted
 * (a click on someone shows only their events). Invariant: what is shown is the server's log; the screen changes
 * nothing.
 */
import { useContext, useState } from "preact/hooks";
import { AccessContext } from "../access.ts";
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

/** The API's snake_case for a setting, whatever an older record wrote (`dailyQuota` → `daily_quota`). */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A value as a person reads it: a list as its items with spaces to wrap at, nothing as "none". */
const shown = (value: unknown): string =>
  value === null || value === undefined
    ? "none"
    : Array.isArray(value)
      ? value.map(shown).join(", ") || "none"
      : JSON.stringify(value);

/** Each change as one line: `setting: value` or `setting: from → to`, keys in snake_case. */
function describeChanges(changes: Record<string, unknown> | null): string[] {
  if (!changes) return [];
  return Object.entries(changes).map(([name, value]) => {
    const moved = value as { from?: unknown; to?: unknown } | null;
    if (moved && typeof moved === "object" && "to" in moved)
      return `${snake(name)}: ${shown(moved.from)} → ${shown(moved.to)}`;
    return `${snake(name)}: ${shown(value)}`;
  });
}

/** An action that breaks only after its dots and underscores, never mid-word (`organization.<wbr>updated`). */
const Action = ({ action }: { action: string }) => (
  <code class="audit-action">
    {action.split(/(?<=[._])/).map((part, i) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, in order
      <span key={i}>
        {part}
        <wbr />
      </span>
    ))}
  </code>
);

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
  // Organisations by name: an older record kept only the id; the person's memberships name it.
  const organizations = useContext(AccessContext).person?.organizations ?? [];
  const targetName = (target: NonNullable<AuditEvent["target"]>) =>
    target.name ??
    (target.type === "organization" ? organizations.find((o) => o.id === target.id)?.name : undefined) ??
    target.id ??
    "";

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
          <table class="list stack audit-table">
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
                    <Action action={event.action} />
                  </td>
                  <td data-label="On">
                    {event.target ? `${event.target.type.replace(/_/g, " ")} ${targetName(event.target)}` : "—"}
                  </td>
                  <td data-label="Changes" class="audit-changes">
                    {event.changes ? (
                      <ul class="plain">
                        {describeChanges(event.changes).map((line) => (
                          <li key={line}>{line}</li>
                        ))}
                      </ul>
                    ) : (
                      "—"
                    )}
                  </td>
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
