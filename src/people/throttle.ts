/**
 * Guessing a person's password or code, capped (docs/teams.md#sign-in-throttling). Each attempt at a factor of an
 * account is counted before it is checked, in one conditional write, so that attempts sent at once cannot all be
 * checked: past a factor's free attempts every further one locks the factor for a while, and an attempt while it is
 * locked is refused (429, `Retry-After`) without being checked. A right answer clears the count.
 *
 * Invariants: the counts of a known account live in the store (`sign_in_throttles`), shared by every instance; an
 * address nobody has is counted in this instance's memory by the same rule (so that a 429 does not tell whether an
 * account exists), at most `MAX_UNKNOWN` of them, the longest quiet forgotten first — guessing addresses cannot fill
 * the store.
 */
import { and, eq } from "drizzle-orm";
import { lockedForUpdate } from "../db/dialect.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import { AppError } from "../errors.ts";

export type Factor = "password" | "totp";

export interface ThrottlePolicy {
  /** The attempt that brings the count to this locks the factor (it is itself still checked). */
  lockAt: number;
  /** How long the `failures`-th attempt locks the factor for. */
  lockMs(failures: number): number;
  /** Failures older than this, with no lock standing, are forgotten. */
  forgetAfterMs: number;
}

export const POLICIES: Record<Factor, ThrottlePolicy> = {
  // Five tries free, then 30 s doubling to 15 minutes: a person who mistypes is not locked out; a guesser gets a few
  // dozen guesses an hour.
  password: {
    lockAt: 5,
    lockMs: (failures) => Math.min(15 * 60_000, 30_000 * 2 ** Math.min(failures - 5, 10)),
    forgetAfterMs: 15 * 60_000,
  },
  // Ten wrong codes lock the factor for 15 minutes; each code tried after that locks it again. A day without a
  // wrong code forgets them: a six-digit code is guessed only at about one try in fifteen minutes.
  totp: { lockAt: 10, lockMs: () => 15 * 60_000, forgetAfterMs: 86_400_000 },
};

export interface ThrottleState {
  failures: number;
  lastFailedAt: number;
  lockedUntil: number;
}

export type AttemptDecision = { allowed: true; state: ThrottleState } | { allowed: false; retryAfterMs: number };

/** Counts an attempt at `now`, or refuses it while the factor is locked (pure: the callers store the state). */
export function beginAttempt(
  previous: ThrottleState | undefined,
  now: number,
  policy: ThrottlePolicy,
): AttemptDecision {
  if (previous && previous.lockedUntil > now) return { allowed: false, retryAfterMs: previous.lockedUntil - now };
  const forgotten = !previous || now - previous.lastFailedAt > policy.forgetAfterMs;
  const failures = (forgotten ? 0 : previous.failures) + 1;
  const lockedUntil = failures >= policy.lockAt ? now + policy.lockMs(failures) : 0;
  return { allowed: true, state: { failures, lastFailedAt: now, lockedUntil } };
}

/** The answer to an attempt refused unchecked: 429 with the seconds until the factor may be tried again. */
export function lockedOut(factor: Factor, retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
  return new AppError(
    "rate_limit_exceeded",
    factor === "totp"
      ? `Too many wrong codes: two-step sign-in for this account is locked; try again in ${wait}.`
      : `Too many failed sign-ins for this account: try again in ${wait}.`,
    { retryAfter: seconds },
  );
}

/** Counts an attempt at `factor` of `userId` in `tx` (the row held until commit); throws the 429 while locked. */
export async function countAttempt(tx: Db, userId: string, factor: Factor, now: number): Promise<ThrottleState> {
  const { signInThrottles } = tablesOf(tx);
  const key = and(eq(signInThrottles.userId, userId), eq(signInThrottles.factor, factor));
  await tx
    .insert(signInThrottles)
    .values({ userId, factor, failures: 0, lastFailedAt: 0, lockedUntil: 0 })
    .onConflictDoNothing();
  const row = await first(lockedForUpdate(tx, tx.select().from(signInThrottles).where(key)));
  const decision = beginAttempt(
    row && { failures: row.failures, lastFailedAt: Number(row.lastFailedAt), lockedUntil: Number(row.lockedUntil) },
    now,
    POLICIES[factor],
  );
  if (!decision.allowed) throw lockedOut(factor, decision.retryAfterMs);
  await tx.update(signInThrottles).set(decision.state).where(key);
  return decision.state;
}

/** A right answer: the factor's count starts again. */
export async function clearAttempts(tx: Db, userId: string, factor: Factor): Promise<void> {
  const { signInThrottles } = tablesOf(tx);
  await tx.delete(signInThrottles).where(and(eq(signInThrottles.userId, userId), eq(signInThrottles.factor, factor)));
}

const MAX_UNKNOWN = 10_000;

/** The same rule for addresses no account has, in memory: their attempts always fail, so nothing ever clears them. */
export function createUnknownAccountThrottle() {
  const states = new Map<string, ThrottleState>();
  return {
    count(email: string, now: number): void {
      const decision = beginAttempt(states.get(email), now, POLICIES.password);
      if (!decision.allowed) throw lockedOut("password", decision.retryAfterMs);
      states.delete(email);
      states.set(email, decision.state);
      if (states.size > MAX_UNKNOWN) states.delete(states.keys().next().value!);
    },
  };
}
