/**
 * Runs Mailroom as a separate process (the built executable or `bun src/main.ts`) on a data directory, waits for
 * its `mailroom ready` line — never a fixed sleep — and parses the bound listeners from it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
export const BINARY = join(ROOT, "dist", "mailroom");

export interface MailroomProcess {
  proc: ReturnType<typeof Bun.spawn>;
  /** Listener name → port, from the ready line. */
  ports: Record<string, number>;
  baseUrl: string;
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  exited: Promise<number>;
}

/** The command to run Mailroom: the executable when `binary` (it must be built), else the sources. */
export function mailroomCommand(binary: boolean): string[] {
  if (binary) {
    if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run npm run build first`);
    return [BINARY];
  }
  return [process.execPath, join(ROOT, "src", "main.ts")];
}

/** Runs a CLI command to completion; returns its stdout, throws with stderr on failure. */
export async function runCli(args: string[], env: Record<string, string>, binary = false): Promise<string> {
  const { stdout, stderr, code } = await runCommand([...mailroomCommand(binary), ...args], {
    env: { ...cleanEnv(), ...env },
  });
  if (code !== 0) throw new Error(`mailroom ${args.join(" ")} exited ${code}: ${stderr}`);
  return stdout;
}

/** Runs `cmd` to its end (stdin closed unless given): what it printed on each stream, and its exit code. */
export async function runCommand(cmd: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const proc = Bun.spawn(cmd, { ...options, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, code };
}

/** The environment without any MAILROOM_* of the developer's shell. */
export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("MAILROOM_") && v !== undefined) env[k] = v;
  return env;
}

/**
 * Starts `mailroom serve` (or `args`, e.g. `[]` for no command at all) with `env` on top of a clean environment, in
 * `cwd` when given.
 */
export async function startMailroom(
  env: Record<string, string>,
  options: { binary?: boolean; timeoutMs?: number; cwd?: string; args?: string[] } = {},
): Promise<MailroomProcess> {
  // The SMTP relay listens too: ephemeral ports unless the test chooses (defaults are 587 and 465).
  const listeners = { MAILROOM_SMTP_SUBMISSION_PORT: "0", MAILROOM_SMTP_SMTPS_PORT: "0", MAILROOM_INBOUND_PORT: "0" };
  const proc = Bun.spawn([...mailroomCommand(options.binary ?? false), ...(options.args ?? ["serve"])], {
    env: { ...cleanEnv(), ...listeners, ...env },
    cwd: options.cwd,
    stdout: "pipe",
    stderr: "pipe",
  });
  let out = "";
  let err = "";
  const decoder = new TextDecoder();
  (async () => {
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) err += decoder.decode(chunk);
  })();
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ready line within ${options.timeoutMs ?? 15_000} ms; stdout: ${out}; stderr: ${err}`)),
      options.timeoutMs ?? 15_000,
    );
    (async () => {
      for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
        out += decoder.decode(chunk);
        const line = out.split("\n").find((l) => l.startsWith("mailroom ready"));
        if (line) {
          clearTimeout(timer);
          resolve(line);
        }
      }
      clearTimeout(timer);
      reject(new Error(`mailroom exited before it was ready; stdout: ${out}; stderr: ${err}`));
    })();
  });
  const line = await ready;
  const ports: Record<string, number> = {};
  for (const [, name, port] of line.matchAll(/(\w+)=[^\s]*:(\d+)/g)) ports[name!] = Number(port);
  return {
    proc,
    ports,
    baseUrl: `http://127.0.0.1:${ports.http}`,
    stdout: () => out,
    stderr: () => err,
    exited: proc.exited,
  };
}

/**
 * An executable that delivers to a smarthost double on loopback and to webhook receivers on loopback, with its own
 * data directory and no DNS to ask; `extra` adds or overrides variables.
 */
export function smarthostEnv(
  dataDir: string,
  smarthostPort: number,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    MAILROOM_DATA_DIR: dataDir,
    MAILROOM_HTTP_PORT: "0",
    MAILROOM_DNS_SERVERS: "127.0.0.1:1",
    MAILROOM_DELIVERY_DEFAULT_PROVIDER: "smtp",
    MAILROOM_SMARTHOST_HOST: "127.0.0.1",
    MAILROOM_SMARTHOST_PORT: String(smarthostPort),
    MAILROOM_SMARTHOST_SECURITY: "none",
    MAILROOM_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "true",
    ...extra,
  };
}

/** A key made by the CLI on the executable's store (`keys create --json` answers its token); full_access unless `args` give scopes. */
export async function cliKey(env: Record<string, string>, name: string, ...args: string[]): Promise<string> {
  const scopes = args.includes("--scope") ? [] : ["--scope", "full_access"];
  return JSON.parse(await runCli(["keys", "create", "--name", name, ...scopes, ...args, "--json"], env, true))
    .token as string;
}
