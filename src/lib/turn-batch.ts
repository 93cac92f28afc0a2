/**
 * Batches of one event-loop turn: what callers hand over during a turn reaches the batch's consumer together, once
 * the turn's I/O callbacks ran (setImmediate). The shape of every group commit here — acceptances, rate-limit
 * checks, delivery records, the PostgreSQL adapter's writes: the next batch forms while the previous one is in
 * flight, so a busy process makes few large batches and an idle one answers without waiting for company.
 */
export function perTurn<T>(consume: (batch: T[]) => void): (item: T) => void {
  let waiting: T[] = [];
  return (item) => {
    if (waiting.length === 0)
      setImmediate(() => {
        const batch = waiting;
        waiting = [];
        consume(batch);
      });
    waiting.push(item);
  };
}

/**
 * Writes `batch` together; should that fail, each item is written again alone, so that one item's failure is its
 * own — unless `failsEvery(error)` says any write would fail the same way now (an unavailable store), when each item
 * fails at once. `written` hears each batch that was written, `failed` each item that could not be, alone.
 */
export async function writeTogetherOrAlone<T>(
  batch: T[],
  handlers: {
    write: (items: T[]) => Promise<unknown>;
    written: (items: T[]) => void;
    failed: (item: T, error: unknown) => unknown;
    failsEvery?: (error: unknown) => boolean;
  },
): Promise<void> {
  try {
    await handlers.write(batch);
  } catch (error) {
    if (batch.length === 1 || handlers.failsEvery?.(error))
      for (const item of batch) await handlers.failed(item, error);
    else for (const item of batch) await writeTogetherOrAlone([item], handlers);
    return;
  }
  handlers.written(batch);
}
