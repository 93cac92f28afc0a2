/**
 * The confirmation before a broadcast is sent (docs/broadcasts.md#in-the-admin-ui): it names the segment and how many
 * contacts it holds now, and when it goes. Invariant: it takes the focus on its confirming button when it appears, so
 * a keyboard user confirms with Enter or steps to Keep editing; nothing is sent until that button is pressed.
 */
import { useEffect, useRef } from "preact/hooks";
import { when } from "../format.ts";

export function SendConfirmation({
  name,
  count,
  segment,
  at,
  busy,
  onConfirm,
  onKeep,
}: {
  name: string;
  /** The segment's contacts now (GET /segments/:id/count). */
  count: number;
  segment: string;
  /** When it is scheduled for; null: now. */
  at: Date | null;
  busy: boolean;
  onConfirm: () => void;
  onKeep: () => void;
}) {
  const confirm = useRef<HTMLButtonElement>(null);
  const disabled = busy || count === 0;
  // A disabled button cannot take the focus: it takes it as soon as it may be pressed (the save before is done).
  useEffect(() => {
    if (!disabled) confirm.current?.focus();
  }, [disabled]);
  const contacts = `${count} contact${count === 1 ? "" : "s"}`;
  return (
    <div class="confirm-send" role="alertdialog" aria-label="Confirm the send" aria-describedby="confirm-send-what">
      <p id="confirm-send-what">
        <strong>
          Send “{name}” to {contacts} of {segment} {at ? `at ${when(at.toISOString())}` : "now"}?
        </strong>{" "}
        Contacts who unsubscribed, left its topic or are suppressed when they are reached get nothing. It goes out in
        the broadcast lane, after transactional mail.
      </p>
      <p class="actions">
        <button type="button" ref={confirm} class="primary" disabled={disabled} onClick={onConfirm}>
          {at ? `Schedule for ${contacts}` : `Send to ${contacts}`}
        </button>
        <button type="button" onClick={onKeep}>
          Keep editing
        </button>
      </p>
      {count === 0 && <p class="hint">The segment has no contacts: add some before sending.</p>}
    </div>
  );
}
