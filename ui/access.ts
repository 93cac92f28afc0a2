/**
 * The signed-in key's scopes, for every screen: `useCan("domains:write")` decides whether a control that changes
 * something is offered at all, and `useReadsContent()` whether a message's content is (a viewer reads records only).
 * Invariant: a control the key may not use is hidden or disabled (with `useWhyNot`'s reason), never a 403 page.
 */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { session, type Access } from "./api.ts";

export const AccessContext = createContext<Access>({
  mode: "live",
  scopes: new Set(),
  keyId: null,
  domains: null,
  readsContent: false,
  person: null,
  removedFrom: null,
});

export function useCan(scope: string): boolean {
  return useContext(AccessContext).scopes.has(scope);
}

/** Whether messages' html, text, raw MIME and attachments are offered: the server says (a viewer's are not). */
export function useReadsContent(): boolean {
  return useContext(AccessContext).readsContent;
}

/**
 * Why the caller may not use a control that needs `scope`, in words for its hover and focus, or null when they may:
 * a person is told their role in this organisation, a key that it lacks the scope.
 */
export function useWhyNot(scope: string, doing: string): string | null {
  const access = useContext(AccessContext);
  if (access.scopes.has(scope)) return null;
  if (!access.person && access.mode === "test")
    return `Test keys are a sandbox and cannot ${doing}: sign in with a live key for this.`;
  if (!access.person) return `This API key cannot ${doing}: it lacks the ${scope} scope.`;
  const current =
    access.person.organizations.find((o) => o.id === session.organization()) ?? access.person.organizations[0];
  return `Your role${current ? ` (${current.role})` : ""} cannot ${doing}: ask an owner or admin.`;
}

/** Why message content (html, text, raw, attachments) is not offered, for a disabled control; null when it is. */
export function useWhyNotContent(): string | null {
  return useReadsContent()
    ? null
    : "Viewers read records, not message content: mail holds other people's password-reset links. An owner or admin can give you the developer role.";
}
