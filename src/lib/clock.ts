/** Time source injected into every service, so retries, windows and schedules are testable without sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private current = Date.parse("2026-11-22T10:00:00.000Z")) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
