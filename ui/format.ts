/** How the screens show values: one way for every screen, so the same time reads the same everywhere. */

/** A stored ISO time in the reader's locale and time zone. */
export const when = (iso: string) => new Date(iso).toLocaleString();
