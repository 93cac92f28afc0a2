/**
 * The CLI's one place of output (src/cli/output.ts; issue 49: "CLI stderr runs into stdout's last line"). Bun writes
 * to a pipe without blocking: what a full pipe does not take is queued and written later, so a line written to
 * stderr meanwhile landed inside stdout's last line, and `fail`'s exit dropped the queued rest — with a slow reader,
 * 3,000 lines and an error arrived as 624 lines, the last one cut, and no error at all. Here a program writes through
 * `out` and ends with `fail`, its stdout and stderr on one pipe read after a pause (as `2>&1 | less`, a container's
 * log, or CI does), and on two: every line arrives whole, in order, the error last.
 */
import { afterAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./helpers/app.ts";

const LINES = 3_000;
const dir = tempDir("mailroom-cli-output-");
const program = join(dir, "program.ts");
writeFileSync(
  program,
  `import { fail, out } from ${JSON.stringify(join(import.meta.dir, "..", "src", "cli", "output.ts"))};
for (let i = 0; i < ${LINES}; i++) out(\`\${i} ${"x".repeat(99)}\`);
fail("the last word");
`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `command` in sh with the program's path and bun's as $1 and $2; its stdout, stderr and exit code. */
async function shell(command: string) {
  const proc = Bun.spawn(["sh", "-c", command, "sh", program, process.execPath], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { stdout, stderr, code: await proc.exited };
}

const expected = Array.from({ length: LINES }, (_, i) => `${i} ${"x".repeat(99)}`);

test("on one pipe read late: every line whole and in order, the error last", async () => {
  // More than a pipe holds (64 KiB on Linux) waits while the reader sleeps.
  const run = await shell(`"$2" "$1" 2>&1 | (sleep 1; cat); echo "exit $?"`);
  expect(run.stdout.split("\n")).toEqual([...expected, "mailroom: the last word", "exit 0", ""]);
});

test("on two pipes, stdout read late: all of stdout, the error on stderr, exit 1", async () => {
  const run = await shell(`{ "$2" "$1"; echo "exit $?" >&2; } | (sleep 1; cat)`);
  expect(run.stdout.split("\n")).toEqual([...expected, ""]);
  expect(run.stderr).toBe("mailroom: the last word\nexit 1\n");
});

test("a reader that goes away early ends nothing badly: the error is still said", async () => {
  const run = await shell(`"$2" "$1" | head -n 1`);
  expect(run.stdout).toBe(`${expected[0]}\n`);
  expect(run.stderr).toBe("mailroom: the last word\n");
});
