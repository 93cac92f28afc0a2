/**
 * Where the worker threads' entry modules are. Kept at the top of src/ on purpose: in the compiled executable every
 * module's `import.meta.url` is the bundle's, which sits where src/ sits, so a path relative to this file is right
 * both from source and from `dist/mailroom` (scripts/build.ts bundles both entries).
 */
/** The CPU pool's thread (cpu/thread.ts): signing, composition, templates and parsing off the event loop. */
export const CPU_THREAD = new URL("./cpu/thread.ts", import.meta.url);
/** SQLite's content thread (db/content-thread.ts): large bodies written and read off the event loop. */
export const CONTENT_THREAD = new URL("./db/content-thread.ts", import.meta.url);
