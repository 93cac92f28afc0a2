/** How the screens show values: one way for every screen, so the same time or size reads the same everywhere. */

/** A stored ISO time in the reader's locale and time zone. */
export const when = (iso: string) => new Date(iso).toLocaleString();

/** A stored ISO time as the hour and minute of the reader's clock ("14:05"), for times within the next hours. */
export const clockTime = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });

/** A byte count as people read it. */
export const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * A rate (0..1) as a percentage, to two decimals at most, so a complaint threshold reads as itself (0.001 → 0.1 %,
 * 0.0025 → 0.25 %); the no-break space keeps the sign with its number in narrow cells.
 */
export const rate = (r: number) => `${Number((r * 100).toFixed(2))}\u00a0%`;
