/**
 * Bundles the admin UI (ui/) into strings. Imported by src/admin-ui/routes.ts as a Bun macro, so it runs when that module is
 * transpiled — by `bun run`/`bun test` from the sources and once by `bun build --compile` — and the executable
 * carries the bundle as string literals. Invariant: the bundle is self-contained (no external import, no CDN).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const UI_DIR = join(import.meta.dir, "..", "..", "ui");

/** The minified JavaScript of ui/main.tsx with Preact inlined. */
export function uiScript(): string {
  // A macro may not call Bun.build (the bundler would wait on itself); the CLI in a child process may.
  // --production: minified, and JSX compiled for production (the development runtime adds source details to
  // every element: 90.5 → 74.1 KB).
  const result = Bun.spawnSync(
    [
      process.execPath,
      "build",
      join(UI_DIR, "main.tsx"),
      "--production",
      "--target=browser",
      "--format=esm",
      `--tsconfig-override=${join(UI_DIR, "tsconfig.json")}`,
    ],
    { stderr: "pipe" },
  );
  if (!result.success) throw new Error(`the admin UI did not build: ${result.stderr.toString()}`);
  return result.stdout.toString();
}

/** The UI's stylesheet, as written (plain CSS, no framework). */
export function uiStyle(): string {
  return readFileSync(join(UI_DIR, "style.css"), "utf8");
}
