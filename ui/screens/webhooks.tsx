/**
 * Webhooks: add and remove endpoints, the events sent to one with their attempts, replay and a test event.
 * Invariant: the signing secret is shown once, from the create or rotate answer that carries it; it is never
 * fetched again or kept.
 */
import { useEffect, useState } from "preact/hooks";
import { useWhyNot } from "../access.ts";
import { Guarded } from "../guarded.tsx";
import { api, query, type Page } from "../api.ts";
import { useAction, usePolled } from "../hooks.ts";
import { when } from "../format.ts";
import { ShownOnce } from "../copy.tsx";
import { Alert } from "../alert.tsx";
import { CreateForm } from "../collection.tsx";
import { Empty } from "../empty.tsx";
import type { WebhookAttempt, WebhookDeliveryEvent, WebhookEndpoint } from "../../clients/node/src/types.ts";
import { EVENT_TYPES, type EventType } from "../../clients/node/src/wire.ts";
import { PageHeader, StartAction } from "../page-header.tsx";

const DEFAULT_EVENTS: EventType[] = [
  "email.delivered",
  "email.delivery_delayed",
  "email.bounced",
  "email.complained",
  "email.failed",
];

type Webhook = Pick<WebhookEndpoint, "id" | "endpoint" | "events" | "status" | "disabled_reason">;
type Delivery = Pick<
  WebhookDeliveryEvent,
  "id" | "type" | "status" | "attempt_count" | "last_status_code" | "last_error" | "created_at"
>;
type Attempt = Pick<WebhookAttempt, "id" | "sent_at" | "http_status_code" | "error" | "duration_ms">;

function Attempts({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) {
  const { data, error } = usePolled(
    () =>
      api.get<{ attempts?: Attempt[]; payload?: { data?: Record<string, unknown> } }>(
        `/v1/webhooks/${encodeURIComponent(webhookId)}/events/${encodeURIComponent(deliveryId)}`,
      ),
    [webhookId, deliveryId],
  );
  if (error) return <p class="error">{error}</p>;
  if (!data) return null;
  // Which message and recipient the event is about, from its payload (an email event's email_id and to).
  const about = data.payload?.data ?? {};
  const emailId = typeof about.email_id === "string" ? about.email_id : null;
  const to = Array.isArray(about.to) ? about.to.join(", ") : typeof about.to === "string" ? about.to : null;
  const subject = (
    <p class="hint about">
      {emailId && (
        <>
          About <a href={`#/emails/${encodeURIComponent(emailId)}`}>email {emailId}</a>
        </>
      )}
      {to && <> to {to}</>}
    </p>
  );
  if (!data.attempts?.length)
    return (
      <>
        {(emailId || to) && subject}
        <p class="hint">No attempt yet.</p>
      </>
    );
  return (
    <>
      {(emailId || to) && subject}
      <ul class="attempts">
        {data.attempts.map((a) => (
          <li key={a.id}>
            {when(a.sent_at)}: {a.http_status_code ?? "no answer"} {a.error ?? ""} ({a.duration_ms} ms)
          </li>
        ))}
      </ul>
    </>
  );
}

/** How long after it was made a pending event is looked at again soon, and how soon. */
const FRESH_EVENT_MS = 30_000;
const FOLLOW_UP_MS = 1_000;

function Events({ webhook }: { webhook: Webhook }) {
  const base = `/v1/webhooks/${encodeURIComponent(webhook.id)}`;
  const { data, error, reload } = usePolled(
    () => api.get<Page<Delivery>>(`${base}/events${query({ limit: 20 })}`),
    [webhook.id],
  );
  const [open, setOpen] = useState<string | null>(null);
  const { act, actionError } = useAction(reload);
  // An event just sent is usually delivered within the second: look again soon rather than show it pending until the
  // next poll, while its attempts (read on their own) already say 200. Only for recent ones, so that an endpoint
  // retrying for hours does not spend the key's request budget.
  const fresh = data?.data.some(
    (d) => d.status === "pending" && Date.now() - Date.parse(d.created_at) < FRESH_EVENT_MS,
  );
  useEffect(() => {
    if (!fresh) return;
    const timer = setTimeout(() => void reload(), FOLLOW_UP_MS);
    return () => clearTimeout(timer);
  }, [data]);
  const whyNotWrite = useWhyNot("webhooks:write", "add, change, test or replay webhooks");
  const canWrite = !whyNotWrite;
  return (
    <>
      {canWrite && (
        <div class="actions">
          <button type="button" onClick={() => act(() => api.post(`${base}/test`, {}))}>
            Send a test event
          </button>
        </div>
      )}
      <Alert message={actionError ?? error} />
      {data && data.data.length === 0 && <p>No events sent yet.</p>}
      <ul class="events">
        {data?.data.map((d) => (
          <li key={d.id}>
            <strong>{d.type}</strong> <span class={`status status-${d.status}`}>{d.status}</span> · {d.attempt_count}{" "}
            attempt(s) · {when(d.created_at)}{" "}
            <button type="button" aria-expanded={open === d.id} onClick={() => setOpen(open === d.id ? null : d.id)}>
              Attempts
            </button>{" "}
            <Guarded
              why={whyNotWrite}
              onClick={() => act(() => api.post(`${base}/events/${encodeURIComponent(d.id)}/replay`))}
            >
              Replay
            </Guarded>
            {open === d.id && <Attempts webhookId={webhook.id} deliveryId={d.id} />}
          </li>
        ))}
      </ul>
    </>
  );
}

function AddEndpoint({ onAdded }: { onAdded: (secret: { endpoint: string; secret: string }) => void }) {
  const [endpoint, setEndpoint] = useState("");
  const [events, setEvents] = useState<string[]>(DEFAULT_EVENTS);
  const { act, actionError } = useAction(async () => {});
  const add = () => {
    void act(async () => {
      const created = await api.post<{ endpoint: string; signing_secret: string }>("/v1/webhooks", {
        endpoint: endpoint.trim(),
        events,
      });
      onAdded({ endpoint: created.endpoint, secret: created.signing_secret });
      setEndpoint("");
    });
  };
  return (
    // Drawn only for a key or role that may add one (WebhooksScreen), so no reason stands here.
    <CreateForm
      title="Add an endpoint"
      submit="Add endpoint"
      why={null}
      onCreate={add}
      disabled={events.length === 0}
      inline={false}
      error={actionError}
    >
      <label>
        Endpoint URL
        <input
          id="endpoint-url"
          type="url"
          required
          value={endpoint}
          placeholder="https://app.example.com/webhooks/mailroom"
          onInput={(e) => setEndpoint(e.currentTarget.value)}
        />
      </label>
      <fieldset>
        <legend>Events</legend>
        {EVENT_TYPES.map((type) => (
          <label key={type} class="check">
            <input
              type="checkbox"
              checked={events.includes(type)}
              onChange={(e) =>
                setEvents(e.currentTarget.checked ? [...events, type] : events.filter((x) => x !== type))
              }
            />
            {type}
          </label>
        ))}
      </fieldset>
    </CreateForm>
  );
}

export function WebhooksScreen() {
  const { data, error, reload } = usePolled(() => api.get<Page<Webhook>>(`/v1/webhooks${query({ limit: 100 })}`), []);
  const { act, actionError } = useAction(reload);
  const whyNotWrite = useWhyNot("webhooks:write", "add, change, test or replay webhooks");
  const canWrite = !whyNotWrite;
  const [secret, setSecret] = useState<{ endpoint: string; secret: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const rotate = (w: Webhook) =>
    act(async () => {
      const rotated = await api.post<{ signing_secret: string }>(
        `/v1/webhooks/${encodeURIComponent(w.id)}/signing-secret/rotate`,
      );
      setSecret({ endpoint: w.endpoint, secret: rotated.signing_secret });
    });
  return (
    <section aria-labelledby="webhooks-title">
      <PageHeader
        id="webhooks-title"
        title="Webhooks"
        description="Endpoints Mailroom posts events to, signed, with every attempt."
      >
        <StartAction label="New endpoint" field="endpoint-url" reason={whyNotWrite} />
      </PageHeader>
      {canWrite && (
        <AddEndpoint
          onAdded={(added) => {
            setSecret(added);
            void reload();
          }}
        />
      )}
      {secret && (
        <ShownOnce
          secret={secret.secret}
          copyLabel="Copy the signing secret"
          testId="signing-secret"
          onDone={() => setSecret(null)}
        >
          Signing secret for <code>{secret.endpoint}</code>: verify each request with it (Standard Webhooks).
        </ShownOnce>
      )}
      <Alert message={actionError ?? error} />
      {data && data.data.length === 0 && (
        <Empty
          title="No webhook endpoints yet"
          first={canWrite ? { label: "Add your first endpoint", field: "endpoint-url" } : undefined}
        >
          An endpoint gets a signed POST (Standard Webhooks) for each event it chooses — delivered, bounced, complained,
          received and more — retried until it answers 2xx.
        </Empty>
      )}
      {data?.data.map((w) => (
        <article key={w.id} class="card" aria-label={w.endpoint}>
          <h2>
            <code>{w.endpoint}</code> <span class={`status status-${w.status}`}>{w.status}</span>
          </h2>
          {w.disabled_reason && <p class="warning">{w.disabled_reason}</p>}
          <p class="hint">{w.events.join(", ")}</p>
          <div class="actions">
            <Guarded why={whyNotWrite} onClick={() => rotate(w)}>
              Rotate signing secret
            </Guarded>
            {confirming === w.id ? (
              <>
                <button
                  type="button"
                  class="danger"
                  onClick={() => act(() => api.del(`/v1/webhooks/${encodeURIComponent(w.id)}`))}
                >
                  Confirm remove {w.endpoint}
                </button>
                <button type="button" onClick={() => setConfirming(null)}>
                  Keep
                </button>
              </>
            ) : (
              <Guarded why={whyNotWrite} onClick={() => setConfirming(w.id)} label={`Remove ${w.endpoint}`}>
                Remove
              </Guarded>
            )}
          </div>
          <Events webhook={w} />
        </article>
      ))}
    </section>
  );
}
