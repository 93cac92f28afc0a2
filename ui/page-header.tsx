/**
 * One page header for every screen: the title (the section's name, or the record's), a line saying what the screen is
 * for, and its primary action at the right (below the title on a phone). Invariant: the title is the page's only h1,
 * with the id the screen's `aria-labelledby` names.
 */
import type { ComponentChildren } from "preact";
import { Guarded } from "./guarded.tsx";

export function PageHeader({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: ComponentChildren;
  description?: ComponentChildren;
  /** The primary action (and at most one secondary), drawn at the header's right. */
  children?: ComponentChildren;
}) {
  return (
    <header class="page-header">
      <div class="page-title">
        <h1 id={id}>{title}</h1>
        {description && <p class="page-description">{description}</p>}
      </div>
      {children && <div class="page-actions">{children}</div>}
    </header>
  );
}

/**
 * A header action whose form is on the same screen: takes the focus to the form's first field (and scrolls it into
 * view), so the primary action reads the same on every screen whether it opens a form or runs at once. For a role
 * or key that may not (`reason`), it stays, disabled, saying why (guarded.tsx).
 */
export function StartAction({ label, field, reason = null }: { label: string; field: string; reason?: string | null }) {
  return (
    <Guarded why={reason} class="primary" onClick={() => document.getElementById(field)?.focus()}>
      {label}
    </Guarded>
  );
}
