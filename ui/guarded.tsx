/**
 * A button the caller's role or key may not use: still in its place and reachable by Tab, marked disabled
 * (`aria-disabled`, so it keeps the focus a `disabled` button would lose), with the reason shown beside it on hover and
 * on focus and tied to it by `aria-describedby`. Invariant: its action never runs while a reason stands.
 */
import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";

export function Guarded({
  why,
  onClick,
  type = "button",
  class: className,
  label,
  disabled,
  children,
}: {
  /** The reason the caller may not use it (useWhyNot), or null when they may. */
  why: string | null;
  onClick?: () => void;
  type?: "button" | "submit";
  class?: string;
  /** The accessible name, when the text alone is ambiguous in a list. */
  label?: string;
  /** Disabled for another reason than the caller's rights (busy). */
  disabled?: boolean;
  children: ComponentChildren;
}) {
  const id = useId();
  if (!why)
    return (
      <button type={type} class={className} aria-label={label} disabled={disabled} onClick={onClick}>
        {children}
      </button>
    );
  return (
    <span class="guarded">
      <button
        type="button"
        class={className}
        aria-label={label}
        aria-disabled="true"
        aria-describedby={id}
        onClick={(e) => e.preventDefault()}
      >
        {children}
      </button>
      <span role="tooltip" id={id} class="why">
        {why}
      </span>
    </span>
  );
}
