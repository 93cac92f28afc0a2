/**
 * A real rspamd (Debian's) for a test, on loopback: a configuration of its own in a temporary directory — Debian's
 * rules, with only the normal worker, bound to 127.0.0.1 on a free port, DNS to a closed port (nothing leaves the
 * machine), no redis, a short TLD list and no hyperscan so it starts in a second or two. `stop()` ends it (and only
 * it); a test may stop it to see mail received without it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { tempDir } from "./app.ts";
import { RSPAMD_PATH } from "./peers.ts";

export interface Rspamd {
  url: string;
  stop(): Promise<void>;
}

/** A port free on loopback now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startRspamd(): Promise<Rspamd> {
  const dir = tempDir("mailroom-rspamd-");
  const local = join(dir, "local.d");
  for (const sub of [local, join(dir, "db"), join(dir, "run"), join(dir, "log")]) mkdirSync(sub, { recursive: true });
  const port = await freePort();
  writeFileSync(join(dir, "tld.dat"), "com\norg\nnet\ntest\nexample\n");
  writeFileSync(join(local, "worker-normal.inc"), `bind_socket = "127.0.0.1:${port}";\ncount = 1;\n`);
  writeFileSync(join(local, "worker-controller.inc"), "enabled = false;\n");
  writeFileSync(join(local, "worker-proxy.inc"), "enabled = false;\n");
  writeFileSync(join(local, "worker-fuzzy.inc"), "enabled = false;\n");
  writeFileSync(join(local, "logging.inc"), 'type = "console";\nlevel = "error";\n');
  writeFileSync(
    join(local, "options.inc"),
    `dns { nameserver = ["127.0.0.1:9"]; timeout = 0.2s; retransmits = 1; }\nurl_tld = "${join(dir, "tld.dat")}";\ndisable_hyperscan = true;\n`,
  );
  const child: ChildProcess = spawn(
    RSPAMD_PATH,
    [
      "-f",
      // Tests run as root in containers; rspamd otherwise refuses to start workers as root.
      "--insecure",
      "-c",
      "/etc/rspamd/rspamd.conf",
      `--var=LOCAL_CONFDIR=${dir}`,
      `--var=DBDIR=${join(dir, "db")}`,
      `--var=RUNDIR=${join(dir, "run")}`,
      `--var=LOGDIR=${join(dir, "log")}`,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const up = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(1000) })
      .then((response) => response.ok)
      .catch(() => false);
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`rspamd did not start: ${errors}`);
    }
    await Bun.sleep(200);
  }
  let stopped = false;
  return {
    url,
    async stop() {
      if (stopped) return;
      stopped = true;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      await Promise.race([exited, Bun.sleep(5000).then(() => child.kill("SIGKILL"))]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
