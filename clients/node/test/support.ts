/**
 * What every test file shares: the built library (built here first when dist is missing or older than the sources,
 * since the harness runs `bun test` and nothing else), the harness's environment, unique names, and polling.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export type Library = typeof import("@mailroom/node");

export const PACKAGE_DIR = join(import.meta.dir, "..");

/** Everything the build reads: when any of it is newer than the oldest output, dist is stale. */
function newestInput(): number {
  const inputs = [
    ...readdirSync(join(PACKAGE_DIR, "src")).map((name) => join(PACKAGE_DIR, "src", name)),
    join(PACKAGE_DIR, "package.json"),
    join(PACKAGE_DIR, "tsconfig.build.json"),
    join(PACKAGE_DIR, "tsconfig.build.cjs.json"),
    join(PACKAGE_DIR, "scripts", "build.mjs"),
  ];
  return Math.max(...inputs.map((path) => statSync(path).mtimeMs));
}

const OUTPUTS = ["dist/esm/index.js", "dist/cjs/index.js", "dist/cjs/package.json", "dist/types/index.d.ts"].map(
  (path) => join(PACKAGE_DIR, path),
);

function oldestOutput(): number {
  return OUTPUTS.every(existsSync) ? Math.min(...OUTPUTS.map((path) => statSync(path).mtimeMs)) : -Infinity;
}

let building: Promise<Library> | undefined;

/** Builds dist when missing or stale (once per test process), then imports the ES module build by package name. */
export function loadLibrary(): Promise<Library> {
  building ??= (async () => {
    if (oldestOutput() < newestInput()) {
      const result = Bun.spawnSync([process.execPath, join(PACKAGE_DIR, "scripts", "build.mjs")], {
        cwd: PACKAGE_DIR,
        stdout: "pipe",
        stderr: "pipe",
      });
      if (result.exitCode !== 0)
        throw new Error(
          `the build failed (${result.exitCode}):\n${result.stdout.toString()}\n${result.stderr.toString()}`,
        );
    }
    return import("@mailroom/node");
  })();
  return building;
}

/** True under the harness (test/clients.test.ts), which starts the server and passes its coordinates. */
export const live = Boolean(process.env.MAILROOM_BASE_URL && process.env.MAILROOM_API_KEY);
if (!live)
  console.warn(
    "MAILROOM_BASE_URL and MAILROOM_API_KEY are not set: the tests against a server are skipped (run them through test/clients.test.ts).",
  );

export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (the harness test/clients.test.ts sets it)`);
  return value;
}

/** A short name unique to this run, for everything a test creates. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The bare address of `Name <addr>`. */
export const addressOf = (from: string): string => from.match(/<([^>]+)>/)?.[1] ?? from;

/**
 * Calls `probe` until it returns something other than undefined, or fails after `timeoutMs` with the last state
 * `describe` reports.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 15_000,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(intervalMs);
  }
}

/** Unwraps a `{data, error}` answer that must have succeeded, showing the error when it did not. */
export function ok<T>(response: { data: T | null; error: unknown }): T {
  if (response.error) throw new Error(`expected success, got ${JSON.stringify(response.error)}`);
  return response.data as T;
}
