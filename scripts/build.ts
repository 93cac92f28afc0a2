/**
 * Builds the single executable `dist/mailroom` with `bun build --compile`: code, embedded migrations (SQL strings)
 * and the docs assets (imported as files) all inside. Bytecode is compiled in for a faster cold start. The CPU
 * pool's thread and the SQLite content thread (db/content-thread.ts) are entry points too: a Worker in a compiled
 * executable must be bundled as one, and src/thread-entries.ts names them where both modes resolve the same paths.
 */
import { $ } from "bun";

const target = process.env.MAILROOM_BUILD_TARGET; // e.g. bun-linux-arm64 for cross builds; host by default
const args = [
  "build",
  "--compile",
  "--minify-syntax",
  "--minify-whitespace",
  "--bytecode",
  "--format=esm",
  "--sourcemap=none",
  "src/main.ts",
  "src/cpu/thread.ts",
  "src/db/content-thread.ts",
  "--outfile",
  "dist/mailroom",
];
if (target) args.push(`--target=${target}`);
await $`${process.execPath} ${args}`;
