/**
 * What a screen of records shares (contacts, segments, topics, properties, suppressions, templates, API keys,
 * members, webhooks): the card form that creates one, and the list with its empty state. Invariants: the form's
 * submit is guarded (guarded.tsx) and its action never runs while a reason stands, even on Enter; every cell carries
 * its column's name, so a list that stacks on a phone (style.css, `table.stack`) labels each value with the header
 * it stood under.
 */
import type { ComponentChildren } from "preact";
import { Alert } from "./alert.tsx";
import { Guarded } from "./guarded.tsx";

/**
 * A card that creates one record: `title` is both its heading and the form's accessible name; the fields sit in
 * one row (`inline`, wrapping on a phone) or one under another; `hint` says the rule the server will apply, and
 * `error` the server's words when it refused.
 */
export function CreateForm({
  title,
  heading = title,
  submit,
  why,
  onCreate,
  disabled,
  inline = true,
  hint,
  error,
  children,
}: {
  title: string;
  /** The visible heading, when it says more than the form's name (a test key's form). */
  heading?: ComponentChildren;
  /** The submit button's words. */
  submit: string;
  /** Why the caller may not create one (useWhyNot), or null. */
  why: string | null;
  onCreate: () => void;
  /** The submit is unavailable for another reason than rights (nothing chosen yet). */
  disabled?: boolean;
  inline?: boolean;
  hint?: ComponentChildren;
  error?: string | null;
  children: ComponentChildren;
}) {
  const create = (e: Event) => {
    e.preventDefault();
    if (!why && !disabled) onCreate();
  };
  const button = (
    <Guarded why={why} type="submit" disabled={disabled}>
      {submit}
    </Guarded>
  );
  return (
    <form class="card" onSubmit={create} aria-label={title}>
      <h2>{heading}</h2>
      {inline ? (
        <div class="inline-form">
          {children}
          {button}
        </div>
      ) : (
        <>
          {children}
          {button}
        </>
      )}
      {hint && <p class="hint">{hint}</p>}
      <Alert message={error ?? null} />
    </form>
  );
}

/** One column of a list: its header (`hidden` when the header only names it for a screen reader) and its cell. */
export type Column<T> = { label: string; hidden?: boolean; cell: (item: T) => ComponentChildren };

/**
 * A list of records, one row each, or `empty` when there are none (an Empty that says what the list is for, or a
 * line for a search that found nothing); nothing before the first answer.
 */
export function RecordTable<T extends { id: string }>({
  items,
  columns,
  empty,
}: {
  items: T[] | undefined;
  columns: Column<T>[];
  empty?: ComponentChildren;
}) {
  if (!items) return null;
  if (items.length === 0) return <>{empty}</>;
  return (
    <div class="scroll">
      <table class="list stack">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col">
                {c.hidden ? <span class="visually-hidden">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              {columns.map((c) => (
                <td key={c.label} data-label={c.label}>
                  {c.cell(item)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
