/**
 * The form that creates an inbound route or changes one (docs/inbound.md#routes): what it matches (a recipient or
 * `*@domain`, a header's content), its action with what that action needs (addresses to forward to, the webhooks to
 * notify) and a spam threshold. Invariant: it sends only the fields its action uses, so the server's rule "an
 * action is given only what it uses" never refuses a form a person filled in.
 */
import { useState } from "preact/hooks";
import { api, type Page } from "../api.ts";
import { usePolled } from "../hooks.ts";
import { Alert } from "../alert.tsx";
import { useFormAction } from "../field.tsx";
import type { InboundRoute } from "../../clients/node/src/generated.ts";

export type Route = InboundRoute;
export type RouteAction = Route["action"];

/** Each action, and what it does, as the select and the list say it. */
export const ACTIONS: ReadonlyArray<{ value: RouteAction; label: string }> = [
  { value: "store", label: "Store (the default)" },
  { value: "webhook", label: "Store, and notify only chosen webhooks" },
  { value: "forward", label: "Store, and forward a copy" },
  { value: "reject", label: "Reject (550 5.7.1)" },
  { value: "drop", label: "Drop (accept, keep nothing)" },
];

interface Webhook {
  id: string;
  endpoint: string;
  events: string[];
}

/** The body for POST or PATCH from the form's fields. */
function body(fields: {
  recipient: string;
  headerName: string;
  headerContains: string;
  action: RouteAction;
  forwardTo: string;
  webhookIds: string[];
  threshold: string;
}) {
  const name = fields.headerName.trim();
  return {
    match: {
      recipient: fields.recipient.trim() || null,
      header: name ? { name, contains: fields.headerContains.trim() } : null,
    },
    action: fields.action,
    forward_to:
      fields.action === "forward"
        ? fields.forwardTo
            .split(/[\s,;]+/)
            .map((a) => a.trim())
            .filter(Boolean)
        : [],
    webhook_ids: fields.action === "webhook" ? fields.webhookIds : [],
    spam_threshold: fields.threshold.trim() === "" ? null : Number(fields.threshold),
  };
}

/**
 * Creates a route (`editing` null; it goes last) or changes `editing`. `onDone` runs after the server accepted it;
 * `onCancel` leaves an edit unchanged.
 */
export function RouteForm({
  editing,
  onDone,
  onCancel,
}: {
  editing: Route | null;
  onDone: (route: Route) => void;
  onCancel: () => void;
}) {
  const [recipient, setRecipient] = useState(editing?.match.recipient ?? "");
  const [headerName, setHeaderName] = useState(editing?.match.header?.name ?? "");
  const [headerContains, setHeaderContains] = useState(editing?.match.header?.contains ?? "");
  const [action, setAction] = useState<RouteAction>(editing?.action ?? "store");
  const [forwardTo, setForwardTo] = useState((editing?.forward_to ?? []).join(", "));
  const [webhookIds, setWebhookIds] = useState<string[]>(editing?.webhook_ids ?? []);
  const [threshold, setThreshold] = useState(editing?.spam_threshold == null ? "" : String(editing.spam_threshold));
  const { run, error, busy } = useFormAction();
  const webhooks = usePolled(() => api.get<Page<Webhook>>("/v1/webhooks?limit=100"), [], 60_000);

  const reset = () => {
    setRecipient("");
    setHeaderName("");
    setHeaderContains("");
    setAction("store");
    setForwardTo("");
    setWebhookIds([]);
    setThreshold("");
  };
  const submit = (e: Event) =>
    run(e, async () => {
      const fields = body({ recipient, headerName, headerContains, action, forwardTo, webhookIds, threshold });
      const saved = editing
        ? await api.patch<Route>(`/v1/inbound/routes/${encodeURIComponent(editing.id)}`, fields)
        : await api.post<Route>("/v1/inbound/routes", fields);
      if (!editing) reset();
      onDone(saved);
    });

  const title = editing ? `Change route ${editing.position}` : "New route";
  return (
    <form class="card route-form" onSubmit={submit} aria-label={title}>
      <h2>{title}</h2>
      <p class="hint">
        A route matches a recipient, a header, or both; an empty match takes every message. The first matching route,
        from the top, decides.
      </p>
      <div class="filters">
        <label>
          Recipient
          <input
            id="route-recipient"
            value={recipient}
            placeholder="support@example.com or *@example.com"
            maxLength={320}
            onInput={(e) => setRecipient(e.currentTarget.value)}
          />
        </label>
        <label>
          Header name
          <input
            value={headerName}
            placeholder="X-Priority (optional)"
            maxLength={100}
            onInput={(e) => setHeaderName(e.currentTarget.value)}
          />
        </label>
        <label>
          …contains
          <input
            value={headerContains}
            required={headerName.trim() !== ""}
            maxLength={500}
            onInput={(e) => setHeaderContains(e.currentTarget.value)}
          />
        </label>
      </div>
      <div class="filters">
        <label>
          Action
          <select value={action} onChange={(e) => setAction(e.currentTarget.value as RouteAction)}>
            {ACTIONS.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Spam threshold
          <input
            type="number"
            step="any"
            value={threshold}
            placeholder="rspamd score, e.g. 10 (optional)"
            onInput={(e) => setThreshold(e.currentTarget.value)}
          />
        </label>
      </div>
      {action === "forward" && (
        <label>
          Forward to <span class="hint">(up to 10 addresses, separated by commas)</span>
          <input
            required
            value={forwardTo}
            placeholder="desk@helpdesk.example"
            onInput={(e) => setForwardTo(e.currentTarget.value)}
          />
        </label>
      )}
      {action === "webhook" && (
        <fieldset>
          <legend>Webhooks to notify</legend>
          {webhooks.data?.data.length === 0 && (
            <p class="hint">
              No webhook yet: <a href="#/webhooks">add one</a> subscribed to email.received first.
            </p>
          )}
          {webhooks.data?.data.map((w) => (
            <label key={w.id} class="check">
              <input
                type="checkbox"
                checked={webhookIds.includes(w.id)}
                onChange={(e) =>
                  setWebhookIds(
                    e.currentTarget.checked ? [...webhookIds, w.id] : webhookIds.filter((id) => id !== w.id),
                  )
                }
              />
              {w.endpoint}
            </label>
          ))}
        </fieldset>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {editing ? "Save route" : "Add route"}
        </button>
        {editing && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      <Alert message={error ?? webhooks.error} />
    </form>
  );
}
