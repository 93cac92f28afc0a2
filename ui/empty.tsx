/**
 * An empty list's screen: what the list is for, and its first step — a new installation's screens must not look
 * broken, and each one says what to do next.
 */
import type { ComponentChildren } from "preact";

/** `first`: the first action — a link, or the id of the field that starts it (a button then puts the focus there). */
export function Empty({
  title,
  children,
  first,
}: {
  title: string;
  children: ComponentChildren;
  first?: { label: string; href: string } | { label: string; field: string };
}) {
  return (
    <div class="card empty" role="region" aria-label={title}>
      <h2>{title}</h2>
      <p>{children}</p>
      {first &&
        ("href" in first ? (
          <p>
            <a href={first.href}>{first.label}</a>
          </p>
        ) : (
          <p>
            <button type="button" onClick={() => document.getElementById(first.field)?.focus()}>
              {first.label}
            </button>
          </p>
        ))}
    </div>
  );
}
