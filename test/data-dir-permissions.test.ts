/**
 * Who may read what Mailroom keeps on disk (lib/private-files.ts): the data directory, the SQLite database with
 * its WAL and shared-memory files, the master key, the generated TLS pair and the backups — every message and
 * every secret — are the owner's alone, from a first `init` and `serve` on a directory that does not exist yet,
 * and after an upgrade from a version that made them readable by everyone.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { chmodSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./helpers/app.ts";
import { runCli, startMailroom, type MailroomProcess } from "./helpers/process.ts";

const root = tempDir("mailroom-permissions-");
const dataDir = join(root, "data");
const backup = join(root, "backup.db");
const env = { MAILROOM_DATA_DIR: dataDir, MAILROOM_HTTP_PORT: "0", MAILROOM_DNS_SERVERS: "127.0.0.1:1" };
let server: MailroomProcess | undefined;
let umask: number;

// The usual umask, which lets SQLite, fs and mkdir create files readable by group and others (0644, 0755):
// Mailroom must not depend on the operator's umask being stricter. Children inherit it.
beforeAll(() => {
  umask = process.umask(0o022);
});

afterEach(async () => {
  if (!server) return;
  server.proc.kill("SIGTERM");
  await server.exited;
  server = undefined;
});

afterAll(() => {
  process.umask(umask);
  rmSync(root, { recursive: true, force: true });
});

/** Every path under `dir` (itself included), with its permission bits. */
function modesUnder(dir: string): Map<string, number> {
  const modes = new Map<string, number>([[dir, statSync(dir).mode & 0o777]]);
  for (const entry of readdirSync(dir, { recursive: true }) as string[])
    modes.set(join(dir, entry), statSync(join(dir, entry)).mode & 0o777);
  return modes;
}

const octal = (modes: Map<string, number>) =>
  Object.fromEntries([...modes].map(([path, mode]) => [path.slice(root.length + 1), mode.toString(8)]));
const openToOthers = (modes: Map<string, number>) => new Map([...modes].filter(([, mode]) => (mode & 0o077) !== 0));

test("finding 10: after init, serve and a backup, nothing in the data directory or the backup is open to group or others", async () => {
  await runCli(["init"], env);
  server = await startMailroom(env);
  await runCli(["backup", backup], env);
  const modes = modesUnder(dataDir);
  modes.set(backup, statSync(backup).mode & 0o777);
  modes.set(`${backup}.secret.key`, statSync(`${backup}.secret.key`).mode & 0o777);
  // Each file that holds messages or secrets is there to be checked: the test cannot pass on an empty directory.
  for (const name of [
    "mailroom.db",
    "mailroom.db-wal",
    "mailroom.db-shm",
    "secret.key",
    "tls/smtp-key.pem",
    "tls/smtp-cert.pem",
  ]) {
    expect(octal(modes)).toHaveProperty([`data/${name}`]);
  }
  expect(octal(openToOthers(modes))).toEqual({});
  expect(modes.get(dataDir)).toBe(0o700);
  expect(modes.get(join(dataDir, "mailroom.db"))).toBe(0o600);
}, 60_000);

test("finding 10: the files of an install made readable by everyone are narrowed to their owner at the next start, and its directories reported", async () => {
  const olderDir = join(root, "older");
  const olderEnv = { ...env, MAILROOM_DATA_DIR: olderDir };
  await runCli(["init"], olderEnv);
  server = await startMailroom(olderEnv);
  server.proc.kill("SIGTERM");
  await server.exited;
  // As an older version left it: directories 0755, files 0644.
  for (const [path, mode] of modesUnder(olderDir)) chmodSync(path, mode & 0o100 ? 0o755 : 0o644);
  server = await startMailroom(olderEnv);
  // Directories Mailroom did not create this time are never changed (a data directory may be shared), only reported.
  const stillOpen = openToOthers(modesUnder(olderDir));
  expect([...stillOpen.keys()].sort()).toEqual([olderDir, join(olderDir, "tls")]);
  // The warnings are written before the ready line, but the two pipes are read independently.
  for (let i = 0; i < 100 && !server.stderr().includes(`chmod 700 ${join(olderDir, "tls")}`); i++) await Bun.sleep(50);
  expect(server.stderr()).toContain("narrowed permissions to the owner");
  expect(server.stderr()).toContain(`chmod 700 ${olderDir}`);
}, 60_000);
