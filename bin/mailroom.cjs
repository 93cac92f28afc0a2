#!/usr/bin/env node
// `npx mailroom …` from a clone: runs the CLI from the sources with the repository's Bun (the `bun` package), in the
// caller's directory, exactly as the built executable `dist/mailroom` would run. Plain Node, so npx can start it.
"use strict";
const { spawnSync } = require("node:child_process");
const { join } = require("node:path");

const root = join(__dirname, "..");
const bun = join(root, "node_modules", ".bin", process.platform === "win32" ? "bun.exe" : "bun");
const result = spawnSync(bun, [join(root, "src", "main.ts"), ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, MAILROOM_CLI_NAME: "npx mailroom" },
});
if (result.error) {
  console.error(`mailroom: cannot start Bun (${result.error.message}); run npm install in ${root} first`);
  process.exit(1);
}
process.exit(result.status ?? 1);
