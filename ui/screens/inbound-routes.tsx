/**
 * Inbound routes (docs/inbound.md#routes): the organisation's rules for its received mail in the order they are
 * tried, created and changed (inbound-route-form.tsx), reordered by dragging a route or from the keyboard (its handle
 * takes the arrow keys; Move up and Move down are buttons), and an address tested against them — which route decides
 * and why, and whether the MX takes mail for it at all. Invariant: the order shown is the server's (every move is a
 * PATCH of the route's position, then the list is read again); a control the caller may not use is disabled with
 * the reason on hover and focus, never a refusal after the fact.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { useWhyNot } from "../access.ts";
import { api, type Page } from "../api.ts";
import { useAction, usePolled } from "../hooks.ts";
import { Alert } from "../alert.tsx";
import { Empty } from "../empty.tsx";
import { Guarded } from "../guarded.tsx";
import { useFormAction } from "../field.tsx";
import { PageHeader } from "../page-header.tsx";
import type { InboundRouteTest } from "../../clients/node/src/generated.ts";
import { ACTIONS, type Route, RouteForm } from "./inbound-route-form.tsx";

/** What a route matches, in words. */
export function matchText(route: Route): string {
  const who = route.match.recipient ?? "any recipient";
  const header = route.match.header;
  return header ? `${who}, with ${header.name} containing “${header.contains}”` : who;
}

/** What a route does, in words. */
function actionText(route: Route): string {
  switch (route.action) {
    case "forward":
      return `Store and forward to ${route.forward_to.join(", ")}`;
    case "webhook":
      return `Store; notify ${route.webhook_ids.length} chosen webhook${route.webhook_ids.length === 1 ? "" : "s"}`;
    default:
      return ACTIONS.find((a) => a.value === route.action)!.label;
  }
}

/** Why the deciding route matched the tested address. */
function why(route: Route, recipient: string): string[] {
  const reasons = [
    route.match.recipient === null
      ? "it takes any recipient"
      : route.match.recipient.startsWith("*@")
        ? `its recipient ${route.match.recipient} covers every address of that domain`
        : `its recipient is ${recipient}`,
  ];
  if (route.match.header)
    reasons.push(`the message's ${route.match.header.name} contains “${route.match.header.contains}”`);
  if (route.position > 1)
    reasons.push(
      route.position === 2
        ? "route 1, above it, does not match"
        : `routes 1–${route.position - 1}, above it, do not match`,
    );
  return reasons;
}

function TestAddress({ onResult }: { onResult: (result: InboundRouteTest | null) => void }) {
  const [recipient, setRecipient] = useState("");
  const [headerName, setHeaderName] = useState("");
  const [headerValue, setHeaderValue] = useState("");
  const [result, setResult] = useState<InboundRouteTest | null>(null);
  const { run, error, busy } = useFormAction();
  const submit = (e: Event) =>
    run(e, async () => {
      const name = headerName.trim();
      const answer = await api.post<InboundRouteTest>("/v1/inbound/routes/test", {
        recipient: recipient.trim(),
        ...(name && { headers: { [name]: headerValue } }),
      });
      setResult(answer);
      onResult(answer);
    });
  const domain = result?.recipient.slice(result.recipient.lastIndexOf("@") + 1);
  return (
    <form class="card" onSubmit={submit} aria-label="Test an address">
      <h2>Test an address</h2>
      <div class="filters">
        <label>
          Recipient
          <input
            id="test-recipient"
            type="email"
            required
            value={recipient}
            placeholder="support@example.com"
            onInput={(e) => setRecipient(e.currentTarget.value)}
          />
        </label>
        <label>
          Header
          <input
            value={headerName}
            placeholder="X-Priority (optional)"
            onInput={(e) => setHeaderName(e.currentTarget.value)}
          />
        </label>
        <label>
          Its value
          <input value={headerValue} onInput={(e) => setHeaderValue(e.currentTarget.value)} />
        </label>
      </div>
      <div class="actions">
        <button type="submit" disabled={busy}>
          Test
        </button>
      </div>
      <Alert message={error} />
      <div role="status" aria-label="Test result">
        {result && (
          <div class="route-test">
            {result.route ? (
              <>
                <p>
                  <strong>
                    Route {result.route.position} decides for {result.recipient}:
                  </strong>{" "}
                  {actionText(result.route)}
                  {result.route.spam_threshold !== null &&
                    `, refusing spam scored ${result.route.spam_threshold} or more`}
                  .
                </p>
                <ul>
                  {why(result.route, result.recipient).map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                </ul>
              </>
            ) : (
              <p>
                <strong>No route matches {result.recipient}:</strong> its mail is stored and announced by email.received
                (the default).
              </p>
            )}
            {!result.receiving && (
              <p class="warning">
                The MX does not take mail for {domain} for this organisation: turn on receiving for the domain in{" "}
                <a href="#/domains">Domains</a> first.
              </p>
            )}
          </div>
        )}
      </div>
    </form>
  );
}

export function InboundRoutesScreen() {
  const { data, error, reload } = usePolled(() => api.get<Page<Route>>("/v1/inbound/routes?limit=100"), []);
  const { act, actionError } = useAction(reload);
  // Routes decide where a domain's mail goes, as turning receiving on does: the same right (docs/inbound.md#routes).
  const whyNot = useWhyNot("domains:write", "change inbound routes");
  const canWrite = whyNot === null;
  const [editing, setEditing] = useState<Route | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [matched, setMatched] = useState<string | null>(null);
  const [moved, setMoved] = useState<string>("");
  const refocus = useRef<string | null>(null);
  const routes = data?.data ?? [];

  // The focus follows a moved route to its new place once the list is read again — once: a later poll must not take
  // the focus from wherever the person has gone since.
  useEffect(() => {
    const handle = refocus.current && document.getElementById(`route-handle-${refocus.current}`);
    if (!handle) return;
    refocus.current = null;
    handle.focus();
  }, [data]);

  const move = (route: Route, position: number) => {
    if (position < 1 || position > routes.length || position === route.position) return;
    void act(async () => {
      await api.patch(`/v1/inbound/routes/${encodeURIComponent(route.id)}`, { position });
      refocus.current = route.id;
      setMoved(`Route ${matchText(route)} moved to position ${position}.`);
    });
  };

  return (
    <section aria-labelledby="routes-title">
      <PageHeader
        id="routes-title"
        title="Inbound routes"
        description="What becomes of mail to your receiving domains: the first matching route, from the top, decides."
      >
        <Guarded
          why={whyNot}
          class="primary"
          onClick={() => {
            setEditing(null);
            document.getElementById("route-recipient")?.focus();
          }}
        >
          New route
        </Guarded>
      </PageHeader>
      {canWrite && (
        <RouteForm
          key={editing?.id ?? "new"}
          editing={editing}
          onDone={() => {
            setEditing(null);
            void reload();
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      <Alert message={actionError ?? error} />
      <p class="visually-hidden" role="status">
        {moved}
      </p>
      {data && routes.length === 0 && (
        <Empty
          title="No inbound routes yet"
          first={canWrite ? { label: "Add your first route", field: "route-recipient" } : undefined}
        >
          Without routes every message to a receiving domain is stored and announced by email.received. A route can
          forward support@ to a helpdesk, drop noreply@, notify one webhook, or refuse spam over an rspamd score.
        </Empty>
      )}
      {routes.length > 0 && (
        <ol class="routes" aria-label="Routes, in the order they are tried">
          {routes.map((route) => (
            <li
              key={route.id}
              class={`card route${over === route.id && dragged !== route.id ? " drop-target" : ""}${matched === route.id ? " matched" : ""}`}
              aria-label={`Route ${route.position}: ${matchText(route)}`}
              draggable={canWrite}
              onDragStart={(e) => {
                setDragged(route.id);
                e.dataTransfer?.setData("text/plain", route.id);
              }}
              onDragOver={(e) => {
                if (!dragged) return;
                e.preventDefault();
                setOver(route.id);
              }}
              onDragLeave={() => setOver(null)}
              onDrop={(e) => {
                e.preventDefault();
                const from = routes.find((r) => r.id === dragged);
                setDragged(null);
                setOver(null);
                if (from) move(from, route.position);
              }}
              onDragEnd={() => {
                setDragged(null);
                setOver(null);
              }}
              onKeyDown={(e) => {
                // The handle takes the arrow keys: the keyboard's way to drag.
                if (!canWrite || !(e.target as HTMLElement).classList.contains("drag-handle")) return;
                if (e.key === "ArrowUp" || e.key === "ArrowDown") {
                  e.preventDefault();
                  move(route, route.position + (e.key === "ArrowUp" ? -1 : 1));
                }
              }}
            >
              <div class="route-head">
                {canWrite ? (
                  <button
                    type="button"
                    id={`route-handle-${route.id}`}
                    class="drag-handle"
                    aria-label={`Move route ${route.position} (${matchText(route)}): drag it, or press the up and down arrow keys`}
                  >
                    {`${route.position} ⠿`}
                  </button>
                ) : (
                  <span class="route-position">{route.position}</span>
                )}
                <div class="route-what">
                  <strong>{matchText(route)}</strong>
                  <span>
                    {actionText(route)}
                    {route.spam_threshold !== null && ` · refuses spam scored ${route.spam_threshold} or more`}
                  </span>
                  {matched === route.id && <span class="status status-success">decides for the tested address</span>}
                </div>
              </div>
              <div class="actions">
                <Guarded
                  why={whyNot}
                  label={`Move route ${route.position} up`}
                  onClick={() => move(route, route.position - 1)}
                >
                  Move up
                </Guarded>
                <Guarded
                  why={whyNot}
                  label={`Move route ${route.position} down`}
                  onClick={() => move(route, route.position + 1)}
                >
                  Move down
                </Guarded>
                <Guarded
                  why={whyNot}
                  label={`Change route ${route.position}`}
                  onClick={() => {
                    setEditing(route);
                    setTimeout(() => document.getElementById("route-recipient")?.focus());
                  }}
                >
                  Change
                </Guarded>
                {confirming === route.id ? (
                  <>
                    <button
                      type="button"
                      class="danger"
                      onClick={() =>
                        act(async () => {
                          await api.del(`/v1/inbound/routes/${encodeURIComponent(route.id)}`);
                          setConfirming(null);
                        })
                      }
                    >
                      Confirm remove route {route.position}
                    </button>
                    <button type="button" onClick={() => setConfirming(null)}>
                      Keep
                    </button>
                  </>
                ) : (
                  <Guarded
                    why={whyNot}
                    label={`Remove route ${route.position}`}
                    onClick={() => setConfirming(route.id)}
                  >
                    Remove
                  </Guarded>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
      <TestAddress onResult={(result) => setMatched(result?.route?.id ?? null)} />
    </section>
  );
}
