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
