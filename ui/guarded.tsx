/**
 * Controls a role or key may not use (docs/teams.md#roles): shown, disabled, and saying why on hover and on focus —
 * never hidden without a word, never a click that fails afterwards. Invariant: a refused control stays in the tab
 * order (`aria-disabled`, not `disabled`, which takes it out and hides its reason from the keyboard), does nothing
 * when pressed, and names its reason as its description, so a screen reader says it too.
 */
import type { ComponentChildren, JSX } from "preact";
import { useContext, useId } from "preact/hooks";
import { AccessContext } from "./access.ts";
import { session } from "./api.ts";

/** What each scope lets one do, in the words a refusal uses: "Your role (viewer) may not <this>". */
const DOES: Record<string, string> = {
  "emails:send": "send mail",
  "emails:write": "change or cancel mail",
  "domains:write": "add, verify, change or remove domains",
  "templates:write": "create, change or publish templates",
  "webhooks:write": "add, change, test or replay webhooks",
  "suppressions:write": "add or remove suppressions",
  "deliveries:write": "retry, cancel or release deliveries, or pause sending",
  "api_keys:write": "create or revoke API keys",
  "members:write": "invite, change or remove members",
  "organization:write": "change the organisation's settings",
  "inbound:write": "change received mail",
  "contacts:write": "change contacts",
  "ai:use": "use the AI writer",
};

const ASK = "an owner or admin can give you a role that does";

/** Why the signed-in person or key may not use `scope`, in a sentence; null when they may. */
export function useWhyNot(scope: string): string | null {
  const access = useContext(AccessContext);
  if (access.scopes.has(scope)) return null;
  const does = DOES[scope] ?? `use "${scope}"`;
  if (access.person) {
    const chosen = session.organization();
    const role =
      (access.person.organizations.find((o) => o.id === chosen) ?? access.person.organizations[0])?.role ?? "none";
    return `Your role (${role}) may not ${does}: ${ASK}.`;
  }
  if (access.mode === "test") return `Test keys are a sandbox: they may not ${does}. Sign in with a live key for this.`;
  return `This API key lacks the "${scope}" scope, needed to ${does}.`;
}

/** Why message content (html, text, raw, attachments) is not offered; null when it is. */
export function useWhyNotContent(): string | null {
  const access = useContext(AccessContext);
  return access.readsContent
    ? null
    : "Viewers read records, not message content: mail holds other people's password-reset links. An owner or admin can give you the developer role.";
}

type ButtonProps = Omit<JSX.HTMLAttributes<HTMLButtonElement>, "disabled" | "class"> & {
  /** Why it may not be used (a role's or key's reason); null: usable. */
  reason: string | null;
  class?: string;
  /** Disabled for another reason the control itself shows (nothing to act on, a request running). */
  disabled?: boolean;
  children: ComponentChildren;
};

/** A button, usable, or disabled with `reason` on hover and focus. */
export function Guarded({ reason, children, onClick, class: className, disabled, ...rest }: ButtonProps) {
  const id = useId();
  if (!reason)
    return (
      <button type="button" {...rest} class={className} disabled={disabled} onClick={onClick}>
        {children}
      </button>
    );
  return (
    <span class="guarded">
      <button
        {...rest}
        type="button"
        class={className}
        aria-disabled="true"
        aria-describedby={id}
        onClick={(event) => event.preventDefault()}
      >
        {children}
      </button>
      <span role="tooltip" id={id} class="why-not">
        {reason}
      </span>
    </span>
  );
}
