/** Human durations of the config and of SMTP "try again in N" hints, as milliseconds. */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `250ms`, `30s`, `5m`, `2h`, `3d`; returns undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!]!);
}

export function formatDuration(ms: number): string {
  for (const unit of ["d", "h", "m", "s"] as const) {
    const size = UNIT_MS[unit]!;
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
