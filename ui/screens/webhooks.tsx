/**
 * Webhooks: endpoints, the events sent to one with their attempts, replay and a test event. Invariant: the
 * signing secret is never fetched or shown here (only the create and rotate answers carry it).
 */
import { useState } from "preact/hooks";
import { api, query, type Page } from "../api.ts";
import { describe, usePolled } from "../hooks.ts";
import { when } from "./emails.tsx";

interface Webhook {
  id: string;
  endpoint: string;
  events: string[];
  status: string;
  disabled_reason: string | null;
}
interface Delivery {
  id: string;
  type: string;
  status: string;
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
}
interface Attempt {
  id: string;
  sent_at: string;
  http_status_code: number | null;
  error: string | null;
  duration_ms: number;
}

function Attempts({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) {
  const { data, error } = usePolled(() => api.get<{ attempts?: Attempt[] }>(`/v1/webhooks/${encodeURIComponent(webhookId)}/events/${encodeURIComponent(deliveryId)}`), [webhookId, deliveryId]);
  if (error) return <p class="error">{error}</p>;
  if (!data) return null;
  if (!data.attempts?.length) return <p class="hint">No attempt yet.</p>;
  return (
    <ul class="attempts">
      {data.attempts.map((a) => (
        <li>
          {when(a.sent_at)}: {a.http_status_code ?? "no answer"} {a.error ?? ""} ({a.duration_ms} ms)
        </li>
      ))}
    </ul>
  );
}

function Events({ webhook }: { webhook: Webhook }) {
  const base = `/v1/webhooks/${encodeURIComponent(webhook.id)}`;
  const { data, error, reload } = usePolled(() => api.get<Page<Delivery>>(`${base}/events${query({ limit: 20 })}`), [webhook.id]);
  const [open, setOpen] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const act = async (action: () => Promise<unknown>) => {
    setActionError(null);
    try {
      await action();
      void reload();
    } catch (err) {
      setActionError(describe(err));
    }
  };
  return (
    <>
      <div class="actions">
        <button type="button" onClick={() => act(() => api.post(`${base}/test`, {}))}>
          Send a test event
        </button>
      </div>
      {(error || actionError) && (
        <p role="alert" class="error">
          {actionError ?? error}
        </p>
      )}
      {data && data.data.length === 0 && <p>No events sent yet.</p>}
      <ul class="events">
        {data?.data.map((d) => (
          <li>
            <strong>{d.type}</strong> <span class={`status status-${d.status}`}>{d.status}</span> · {d.attempt_count} attempt(s) · {when(d.created_at)}{" "}
            <button type="button" aria-expanded={open === d.id} onClick={() => setOpen(open === d.id ? null : d.id)}>
              Attempts
            </button>{" "}
            <button type="button" onClick={() => act(() => api.post(`${base}/events/${encodeURIComponent(d.id)}/replay`))}>
              Replay
            </button>
            {open === d.id && <Attempts webhookId={webhook.id} deliveryId={d.id} />}
          </li>
        ))}
      </ul>
    </>
  );
}

export function WebhooksScreen() {
  const { data, error } = usePolled(() => api.get<Page<Webhook>>(`/v1/webhooks${query({ limit: 100 })}`), []);
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {data && data.data.length === 0 && <p>No endpoints. Add one with POST /v1/webhooks.</p>}
      {data?.data.map((w) => (
        <article class="card" aria-label={w.endpoint}>
          <h2>
            <code>{w.endpoint}</code> <span class={`status status-${w.status}`}>{w.status}</span>
          </h2>
          {w.disabled_reason && <p class="warning">{w.disabled_reason}</p>}
          <p class="hint">{w.events.join(", ")}</p>
          <Events webhook={w} />
        </article>
      ))}
    </section>
  );
}
