/**
 * Pausing and resuming sending, on the screens that show what a pause concerns: the organisation's on the overview,
 * a domain's on its card. Invariant: a pause or a resume is confirmed first, in words that say what it holds or
 * sends; the state shown is the server's (`GET /v1/sending`), reloaded after a change; a key without the queue's
 * scopes sees nothing of it, one that may read but not change sees the state with the controls disabled.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { PauseScope, SendingState } from "../clients/node/src/types.ts";
import { api } from "./api.ts";
import { useCan, useWhyNot } from "./access.ts";
import { Guarded } from "./guarded.tsx";
import { Alert } from "./alert.tsx";
import { when } from "./format.ts";
import { useAction, usePolled } from "./hooks.ts";

/** The pauses that apply, polled while the screen shows; null while loading or when the key may not read them. */
export function useSending() {
  const canRead = useCan("deliveries:read");
  return usePolled(async () => (canRead ? api.get<SendingState>("/v1/sending") : null), [canRead]);
}

export function PauseControl({
  sending,
  scope,
  name,
  what,
}: {
  sending: ReturnType<typeof useSending>;
  scope: PauseScope;
  name?: string;
  /** How the confirmation names it: "all sending", "example.com". */
  what: string;
}) {
  const whyNotWrite = useWhyNot("deliveries:write", "retry, cancel or release deliveries, or pause sending");
  const { act, actionError } = useAction(sending.reload);
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState("");
  // The confirmation takes the focus where the button was: its reason field for a pause, else its button.
  const confirmation = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (confirming) confirmation.current?.querySelector<HTMLElement>("input, button")?.focus();
  }, [confirming]);
  if (!sending.data) return null;
  const pause = sending.data.pauses.find((p) => p.scope === scope && (p.name ?? undefined) === name);
  const target = name === undefined ? { scope } : { scope, name };
  const done = () => {
    setConfirming(false);
    setReason("");
  };

  return (
    <div class="pause" role="group" aria-label={`Sending: ${what}`}>
      {pause ? (
        <p class="warning">
          Sending paused since {when(pause.paused_at)}
          {pause.reason ? ` — ${pause.reason}` : ""}: mail is accepted and held until it is resumed.
        </p>
      ) : null}
      {confirming ? (
        <span class="confirm" ref={confirmation}>
          {!pause && (
            <label>
              Reason (optional)
              <input value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
            </label>
          )}
          <button
            type="button"
            class={pause ? undefined : "danger"}
            onClick={() =>
              act(async () => {
                if (pause) await api.post("/v1/sending/resume", target);
                else
                  await api.post("/v1/sending/pause", { ...target, ...(reason.trim() && { reason: reason.trim() }) });
                done();
              })
            }
          >
            {pause ? `Resume ${what}: send what it held` : `Pause ${what}: hold its mail`}
          </button>{" "}
          <button type="button" onClick={done}>
            Keep
          </button>
        </span>
      ) : (
        <Guarded why={whyNotWrite} onClick={() => setConfirming(true)}>
          {pause ? `Resume ${what}` : `Pause ${what}`}
        </Guarded>
      )}
      <Alert message={actionError} />
    </div>
  );
}
