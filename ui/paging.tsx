/**
 * Cursor paging over the API's lists (newest first, `after` the last id seen, `has_more`): the page shown, polled
 * like every screen, and the Newer/Older controls. Invariant: the way back is the stack of cursors that led here,
 * so Newer returns exactly to the page the user came from.
 */
import { useState } from "preact/hooks";
import type { Page } from "./api.ts";
import { usePolled } from "./hooks.ts";

export function usePagedList<T extends { id: string }>(
  load: (after: string | undefined) => Promise<Page<T>>,
  deps: unknown[],
) {
  // Cursors of the pages before this one; undefined is the newest page.
  const [cursors, setCursors] = useState<Array<string | undefined>>([]);
  const [after, setAfter] = useState<string | undefined>(undefined);
  const polled = usePolled(() => load(after), [after, ...deps]);
  const older = () => {
    const last = polled.data?.data.at(-1);
    if (!last) return;
    setCursors([...cursors, after]);
    setAfter(last.id);
  };
  const newer = () => {
    setAfter(cursors.at(-1));
    setCursors(cursors.slice(0, -1));
  };
  /** Back to the newest page (new filters). */
  const restart = () => {
    setAfter(undefined);
    setCursors([]);
  };
  const pager = (
    <div class="pager">
      <button type="button" onClick={newer} disabled={cursors.length === 0}>
        Newer
      </button>
      <button type="button" onClick={older} disabled={!polled.data?.has_more}>
        Older
      </button>
    </div>
  );
  return { ...polled, pager, restart };
}
