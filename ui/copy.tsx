/** Copying to the clipboard: a button that says when it has copied, and a secret shown once beside one. */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";

/** A secret the server shows once (a new key's token, a webhook's signing secret), to copy before it is gone. */
export function ShownOnce({
  children,
  secret,
  copyLabel,
  testId,
  onDone,
}: {
  children: ComponentChildren;
  secret: string;
  copyLabel: string;
  testId: string;
  onDone: () => void;
}) {
  return (
    <div class="card notice" role="status">
      <p>{children} Copy it now: it is not shown again.</p>
      <p>
        <code class="token" data-testid={testId}>
          {secret}
        </code>{" "}
        <CopyButton text={secret} label={copyLabel} />
      </p>
      <button type="button" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

/** `id`: for a step elsewhere that brings the reader to this value (it focuses the button). */
export function CopyButton({ text, label, id }: { text: string; label: string; id?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <button type="button" id={id} onClick={copy} aria-label={label}>
      {copied ? "Copied" : "Copy"}
    </button>
  );
}
