/**
 * One configuration for a clone: `npm start` and `npx mailroom` (both run with MAILROOM_CLI_NAME="npx mailroom") read
 * the same defaults and the same `mailroom.toml`, so the CLI run beside the server sees the server's settings; a
 * command the CLI prints carries the `--config` it was given.
 */
import { afterAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./helpers/app.ts";
import { cleanEnv, runCommand } from "./helpers/process.ts";

const ROOT = join(import.meta.dir, "..");
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `npx mailroom …` as a clone runs it (bin/mailroom.cjs), in `cwd`: what it printed, and its exit code. */
const npx = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  runCommand(["node", join(ROOT, "bin", "mailroom.cjs"), ...args], { cwd, env: { ...cleanEnv(), ...env } });

/** As `npx`, for a command that must succeed: its output. */
async function npxMailroom(args: string[], cwd: string, env: Record<string, string> = {}) {
  const { stdout, stderr, code } = await npx(args, cwd, env);
  if (code !== 0) throw new Error(`npx mailroom ${args.join(" ")} exited ${code}: ${stderr}`);
  return stdout;
}

const fresh = () => {
  const dir = tempDir("mailroom-cli-config-");
  dirs.push(dir);
  return dir;
};

test("a clone's CLI shows the ports npm start listens on", async () => {
  const shown = await npxMailroom(["print-config"], fresh());
  expect(shown).toContain("submission_port = 2587");
  expect(shown).toContain("smtps_port = 2465");
  expect(shown).toMatch(/\[inbound\][^[]*\nport = 2525\n/);
});

test("mailroom.toml in the working directory is read when no other file is named; a value in it beats the clone's default", async () => {
  const dir = fresh();
  writeFileSync(join(dir, "mailroom.toml"), '[smtp]\nsubmission_port = 3587\n\n[dns]\nservers = ["127.0.0.1:5353"]\n');
  const shown = await npxMailroom(["print-config"], dir);
  expect(shown).toContain("submission_port = 3587");
  expect(shown).toContain('servers = [ "127.0.0.1:5353" ]');
  // The environment still wins over the file.
  expect(await npxMailroom(["print-config"], dir, { MAILROOM_SMTP_SUBMISSION_PORT: "4587" })).toContain(
    "submission_port = 4587",
  );
});

test("the commands the CLI prints carry the --config it was given", async () => {
  const dir = fresh();
  const file = join(dir, "my settings.toml");
  writeFileSync(file, `data_dir = "${join(dir, "data")}"\n`);
  const printed = await npxMailroom(["--config", file, "init"], fresh());
  expect(printed).toContain(`npx mailroom --config '${file}' keys create --name production --scope sending_access`);
});

test("print-config refuses a sealed secret that does not open, as serve does, instead of showing it as redacted", async () => {
  const { stdout, stderr, code } = await npx(["print-config"], fresh(), { MAILROOM_AI_API_KEY: "sealed:v1:garbage" });
  expect(code).toBe(2);
  expect(stdout).toBe("");
  expect(stderr).toStartWith("mailroom: configuration: ai.api_key: the sealed value does not open");
});

test("secrets seal with nothing on stdin says how to run it, as this CLI is run", async () => {
  const { stderr, code } = await npx(["secrets", "seal"], fresh());
  expect(code).toBe(1);
  expect(stderr).toContain('printf %s "$PASSWORD" | npx mailroom secrets seal');
});
