/**
 * An event-loop watchdog for tests: how long the loop was held, at worst, while some work ran. Everything of a
 * process shares its event loop (HTTP, SMTP, the queue, timers), so a stall here is a stall for every client.
 *
 * A timer asks to run every `tickMs`; whenever it runs late, the delay is a stall (the loop was busy with
 * something else). `stop()` also counts the time since the last tick, so work that ran synchronously just before
 * it — with no tick after it — is measured too. Invariant: the longest stall reported is never less than the
 * longest stretch the loop was held, less one tick.
 */

export interface LoopWatchdog {
  /** Stops watching and returns the longest stall seen, in ms. */
  stop(): number;
}

export function watchEventLoop(tickMs = 10): LoopWatchdog {
  let last = performance.now();
  let longest = 0;
  const note = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last - tickMs);
    last = now;
  };
  const timer = setInterval(note, tickMs);
  return {
    stop() {
      clearInterval(timer);
      note();
      return Math.max(0, longest);
    },
  };
}
