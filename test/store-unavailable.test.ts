/**
 * The store goes away under a running server (PostgreSQL stopped hard on a cluster of this test's own): requests
 * answer 503 service_unavailable with Retry-After, nothing internal, and the server recovers by itself once the
 * database is back — no restart.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { urlInSchema } from "../src/db/postgres/adapter.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { peer, runs } from "./helpers/peers.ts";

const server = peer(
  "PostgreSQL server",
  () => runs("bash", ["-c", "ls /usr/lib/postgresql/*/bin/initdb"]),
  "apt-get install postgresql",
);

let cluster: { url: string; dir: string; pgCtl: string[] } | undefined;
let t: TestApp | undefined;

function startCluster() {
  const started = Bun.spawnSync(["scripts/test-postgres.sh"], {
    cwd: `${import.meta.dir}/..`,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (started.exitCode !== 0) throw new Error(`scripts/test-postgres.sh failed: ${started.stderr}`);
  const err = started.stderr.toString();
  return {
    url: started.stdout.toString().trim(),
    dir: /^cluster: (.+)$/m.exec(err)![1]!,
    pgCtl: /^pg_ctl: (.+)$/m.exec(err)![1]!.trim().split(/\s+/),
  };
}
const pgCtl = (...args: string[]) => {
  const result = Bun.spawnSync([...cluster!.pgCtl, "-D", cluster!.dir, ...args], { stdout: "ignore", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`pg_ctl ${args.join(" ")}: ${result.stderr}`);
};

afterAll(async () => {
  await t?.close();
  if (cluster) {
    Bun.spawnSync([...cluster.pgCtl, "-D", cluster.dir, "-m", "immediate", "stop"]);
    rmSync(cluster.dir, { recursive: true, force: true });
  }
});

describe.skipIf(!server.available)("PostgreSQL stopped under a running server", () => {
  test("sends answer 503 with Retry-After while it is down, and succeed again once it is back", async () => {
    cluster = startCluster();
    t = await createTestApp({ store: { url: urlInSchema(cluster.url, "unavailable") } });
    await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
    const send = () =>
      t!.json("POST", "/v1/emails", {
        body: { from: "hi@example.com", to: "a@dest.test", subject: "Hi", html: "<p>Hi</p>" },
      });
    expect((await send()).status).toBe(200);

    pgCtl("-m", "immediate", "stop");
    for (const res of [await send(), await t.json("GET", "/v1/emails")]) {
      expect(res.status).toBe(503);
      expect(res.body.name).toBe("service_unavailable");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(JSON.stringify(res.body)).not.toMatch(/postgres|ECONNREFUSED|connect|terminat/i);
    }

    pgCtl("-l", `${cluster.dir}/server.log`, "-w", "start");
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await send()).status;
      if (status !== 200) await Bun.sleep(100);
    }
    expect(status).toBe(200);
    expect((await t.json("GET", "/v1/emails")).body.data).toHaveLength(2);
  }, 30_000);
});
