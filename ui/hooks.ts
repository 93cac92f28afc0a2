/** Small hooks shared by the screens: polling while the page is visible, and async loading with its error. */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "./api.ts";

/**
 * How often a visible screen refreshes itself; hidden tabs do not poll. Every poll is a request on the key's
 * budget (100 a minute by default), and a screen may poll several lists (one per webhook endpoint): 10 s leaves
 * room for the user's own actions.
 */
export const POLL_MS = 10_000;

/**
 * Loads with `load` now, whenever `deps` change, and every `everyMs` while the document is visible. A failed refresh
 * keeps the last data and shows the error; `reload` refreshes on demand (after a change the user made).
 */
export function usePolled<T>(load: () => Promise<T>, deps: unknown[], everyMs = POLL_MS) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;
  const generation = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const value = await loadRef.current();
      // A slower answer for older filters must not overwrite the newer one.
      if (mine !== generation.current) return;
      setData(value);
      setError(null);
    } catch (e) {
      if (mine === generation.current) setError(describe(e));
    }
  }, []);
  useEffect(() => {
    setData(null);
    void reload();
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void reload();
    }, everyMs);
    return () => clearInterval(timer);
  }, deps);
  return { data, error, reload };
}

export function describe(e: unknown): string {
  // The server's refusal names who was refused and why: a person's role, a key's scope, or the test sandbox.
  if (e instanceof ApiError) return e.message;
  return e instanceof Error ? e.message : String(e);
}

/**
 * Runs a change the user asked for, then refreshes with `reload`; a refusal is kept as `actionError` for the screen
 * to show beside the control rather than as a broken page.
 */
export function useAction(reload: () => Promise<void>) {
  const [actionError, setActionError] = useState<string | null>(null);
  const act = async (action: () => Promise<unknown>): Promise<boolean> => {
    setActionError(null);
    try {
      await action();
      void reload();
      return true;
    } catch (err) {
      setActionError(describe(err));
      return false;
    }
  };
  return { act, actionError };
}
