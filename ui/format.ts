/** How the screens show values: one way for every screen, so the same time or size reads the same everywhere. */

/** A stored ISO time in the reader's locale and time zone. */
export const when = (iso: string) => new Date(iso).toLocaleString();

/** A byte count as people read it. */
export const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
