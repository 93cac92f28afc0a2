/**
 * Retry timing for temporary failures: a table of delays (the last one repeats), SMTP "try again in N" hints,
 * and the maximum age after which a message stops being retried. Pure and clock-free: callers pass `now`.
 */

export interface RetryPolicy {
  /** Delays in ms after the 1st, 2nd, … failed attempt; the last repeats. */
  schedule: readonly number[];
  /** Retrying stops this long after the message became due. */
  maxAgeMs: number;
}

export type RetryDecision = { retryAt: number } | { giveUp: true };

/** Delay after `failedAttempts` failures (1-based), from the table. */
export function scheduledDelay(policy: RetryPolicy, failedAttempts: number): number {
  const index = Math.min(Math.max(failedAttempts, 1), policy.schedule.length) - 1;
  return policy.schedule[index]!;
}

/**
 * Decides the next attempt after a temporary failure. A server's own hint wins over the table — it knows when it
 * will accept (greylisting) — but never beyond the maximum age; the last attempt happens at the maximum age.
 */
export function planRetry(
  policy: RetryPolicy,
  input: { now: number; dueSince: number; failedAttempts: number; hintMs?: number },
): RetryDecision {
  const deadline = input.dueSince + policy.maxAgeMs;
  if (input.now >= deadline) return { giveUp: true };
  const delay = input.hintMs ?? scheduledDelay(policy, input.failedAttempts);
  return { retryAt: Math.min(input.now + Math.max(delay, 1000), deadline) };
}
