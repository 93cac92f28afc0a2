/**
 * The scheduling shell shared by the delivery worker and the webhook dispatcher: a poll timer plus wake-ups that
 * coalesce (many in one turn → one pump on the next), active only between `start()` and `stop()`.
 * Invariant: once `stop()` is called, neither the timer nor a wake-up starts a pump; a caller's own `runOnce()`
 * still may (tests and drills drive the loop by hand).
 */

export interface Poller {
  start(): void;
  /** Pumps on the next turn, once however often it is called in this one; ignored unless started. */
  wake(): void;
  stop(): void;
  readonly stopping: boolean;
}

export function createPoller(pump: () => unknown, pollMs: number): Poller {
  let timer: ReturnType<typeof setInterval> | undefined;
  let started = false;
  let stopping = false;
  let wakePending = false;
  const wake = () => {
    if (!started || stopping || wakePending) return;
    wakePending = true;
    setImmediate(() => {
      wakePending = false;
      if (started && !stopping) pump();
    });
  };
  return {
    start() {
      started = true;
      stopping = false;
      timer = setInterval(pump, pollMs);
      wake();
    },
    wake,
    stop() {
      stopping = true;
      started = false;
      if (timer) clearInterval(timer);
      timer = undefined;
    },
    get stopping() {
      return stopping;
    },
  };
}
