/**
 * Builds the package with TypeScript: dist/esm (ES modules) with dist/types (declarations), and dist/cjs (CommonJS,
 * marked by its own package.json, with declarations beside it for require()). `--check` only type-checks the
 * sources and the tests. Runs under Node or Bun; tsc is found in the nearest node_modules up the tree.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function findTsc() {
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", "typescript", "bin", "tsc");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir)
      throw new Error(
        "TypeScript not found: install it (npm install --save-dev typescript) in this package or above it.",
      );
  }
}

const tsc = findTsc();

function run(project) {
  const result = spawnSync(process.execPath, [tsc, "-p", join(root, project)], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv.includes("--check")) {
  run("tsconfig.json");
} else {
  rmSync(join(root, "dist"), { recursive: true, force: true });
  run("tsconfig.build.json");
  run("tsconfig.build.cjs.json");
  mkdirSync(join(root, "dist", "cjs"), { recursive: true });
  writeFileSync(join(root, "dist", "cjs", "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
}
