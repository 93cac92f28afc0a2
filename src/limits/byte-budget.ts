/**
 * Bytes per subject (a client network of the inbound MX) over any sliding 60 s window, kept in this instance's
 * memory: an abuse limit on what one sender may make this server read, parse and store, not an account's quota.
 * Bytes are counted by whole seconds, so they leave the window up to a second early.
 * Invariants: memory is bounded — at most one entry per second per subject, and at most `maxTracked` subjects
 * (the least recently seen go first); every byte spent is counted, refused messages' included (they were read).
 */
import type { Clock } from "../lib/clock.ts";
import { recentEntry, WINDOW_MS } from "./rate-limiter.ts";

/** Bytes spent per second, oldest first, and their sum. */
interface Spending {
  seconds: Array<{ second: number; bytes: number }>;
  total: number;
}

export interface ByteBudget {
  /** Counts bytes the subject sent now. */
  spend(subject: string, bytes: number): void;
  /**
   * Null when the subject may send `bytes` more now, else the seconds until it may: allowed while what it spent in
   * the window, plus `bytes`, stays within the budget — and always when it spent nothing but `own` (the bytes of the
   * message being judged), so one message the MX takes always fits, whatever the budget.
   */
  refusal(subject: string, bytes: number, own?: number): number | null;
}

export function createByteBudget(clock: Clock, bytesPerMinute: number, maxTracked = 10_000): ByteBudget {
  const subjects = new Map<string, Spending>();

  /** The subject's spending inside the window as of now, and the subject now the most recently seen. */
  const current = (subject: string): Spending => {
    const spending = recentEntry(subjects, subject, () => ({ seconds: [], total: 0 }), maxTracked);
    const oldest = Math.floor((clock.now() - WINDOW_MS) / 1000);
    while (spending.seconds.length && spending.seconds[0]!.second <= oldest)
      spending.total -= spending.seconds.shift()!.bytes;
    return spending;
  };

  return {
    spend(subject, bytes) {
      const spending = current(subject);
      const second = Math.floor(clock.now() / 1000);
      const last = spending.seconds.at(-1);
      if (last?.second === second) last.bytes += bytes;
      else spending.seconds.push({ second, bytes });
      spending.total += bytes;
    },
    refusal(subject, bytes, own = 0) {
      const spending = current(subject);
      if (spending.total <= own || spending.total + bytes <= bytesPerMinute) return null;
      // The window lets go of its oldest seconds first: wait until enough of them have left it.
      let left = spending.total;
      for (const { second, bytes: spent } of spending.seconds) {
        left -= spent;
        if (left + bytes <= bytesPerMinute)
          return Math.max(1, Math.ceil((second * 1000 + WINDOW_MS - clock.now()) / 1000));
      }
      return WINDOW_MS / 1000;
    },
  };
}
