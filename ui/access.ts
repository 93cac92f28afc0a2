/**
 * The signed-in key's scopes, for every screen: `useCan("domains:write")` decides whether a control that changes
 * something is offered at all, and `useReadsContent()` whether a message's content is (a viewer reads records only).
 * Invariant: a control the key may not use is hidden or disabled, never a 403 page.
 */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Access } from "./api.ts";

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
