/**
 * A rolling restart (issue 48, docs/operations.md#upgrades): two `mailroom serve` instances (the built executable) on
 * one PostgreSQL take mail from eight concurrent senders while each instance in turn is stopped with SIGTERM — it
 * drains — and started again, as an upgrade replaces them one at a time. The senders, like a load balancer, send to
 * the instances that are up.
 *
 * Under test: mail is accepted throughout (before, during and after each replacement), every message that got a 200
 * is delivered to the SMTP server, and exactly once — a drained instance finishes or gives back what it claimed,
 * nothing is sent twice.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { tempDir } from "./helpers/app.ts";
import { freshStoreUrl, postgresPeer } from "./helpers/postgres.ts";
import { cliKey, runCli, startMailroom, type MailroomProcess } from "./helpers/process.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

const pg = postgresPeer();
const SENDERS = 8;

let smtp: SmtpDouble;
const dataDirs: string[] = [];
const started: MailroomProcess[] = [];
let shared: Record<string, string>;

const envFor = (dataDir: string) => ({ ...shared, MAILROOM_DATA_DIR: dataDir });
const messageIdOf = (raw: Buffer) => /^Message-ID:\s*<([^@>]+)@/im.exec(raw.toString())?.[1];

beforeAll(async () => {
  if (!pg.available) return;
  smtp = await startSmtpDouble();
  shared = {
    MAILROOM_STORE_URL: freshStoreUrl("rolling"),
    MAILROOM_HTTP_PORT: "0",
    MAILROOM_DELIVERY_DEFAULT_PROVIDER: "smtp",
    MAILROOM_SMARTHOST_HOST: "127.0.0.1",
    MAILROOM_SMARTHOST_PORT: String(smtp.port),
    MAILROOM_SMARTHOST_SECURITY: "none",
    MAILROOM_DELIVERY_POLL_INTERVAL: "250ms",
    MAILROOM_LIMITS_KEY_REQUESTS_PER_MINUTE: "1000000",
    MAILROOM_LIMITS_ORG_REQUESTS_PER_MINUTE: "1000000",
    MAILROOM_DNS_SERVERS: "127.0.0.1:1",
    MAILROOM_SECRET_KEY: Buffer.alloc(32, 5).toString("base64"),
  };
  for (let i = 0; i < 2; i++) dataDirs.push(tempDir("mailroom-rolling-"));
});

afterAll(async () => {
  for (const instance of started) instance.proc.kill("SIGKILL");
  await Promise.all(started.map((instance) => instance.exited));
  await smtp?.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!pg.available)("a rolling restart on PostgreSQL", () => {
  test("replacing each instance in turn under load loses nothing and sends nothing twice", async () => {
    const env = envFor(dataDirs[0]!);
    await runCli(["init"], env, true);
    await runCli(["domains", "add", "example.com", "--verified"], env, true);
    const key = await cliKey(env, "rolling");
    const start = async (i: number) => {
      const instance = await startMailroom(envFor(dataDirs[i]!), { binary: true });
      started.push(instance);
      return instance;
    };
    /** The instances a balancer would send to now: a stopping one leaves this list before its SIGTERM. */
    const up: Array<MailroomProcess | null> = [await start(0), await start(1)];

    const accepted: string[] = [];
    /** Accepted messages counted by the phase of the drill they were accepted in. */
    const byPhase = [0, 0, 0, 0, 0];
    let phase = 0;
    let stopping = false;
    const send = async (target: MailroomProcess, to: string) => {
      try {
        const res = await fetch(`${target.baseUrl}/v1/emails`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ from: "Roll <roll@example.com>", to, subject: "Rolling", html: "<p>One of each</p>" }),
        });
        if (res.status !== 200) return;
        accepted.push(((await res.json()) as { id: string }).id);
        byPhase[phase]!++;
      } catch {
        // The instance stopped with this request: it was never acknowledged.
      }
    };
    const senders = Array.from({ length: SENDERS }, async (_, lane) => {
      for (let i = 0; !stopping; i++) {
        const targets = up.filter((instance): instance is MailroomProcess => instance !== null);
        await send(targets[(lane + i) % targets.length]!, `lane${lane}-${i}@dest${lane % 4}.test`);
      }
    });
    const replace = async (i: number) => {
      const old = up[i]!;
      up[i] = null;
      phase++;
      old.proc.kill("SIGTERM");
      expect(await old.exited).toBe(0);
      up[i] = await start(i);
      phase++;
    };
    const drill = (async () => {
      await Bun.sleep(3_000);
      await replace(0);
      await Bun.sleep(3_000);
      await replace(1);
      await Bun.sleep(3_000);
      stopping = true;
    })();
    await Promise.all([...senders, drill]);
    console.log("rolling restart: accepted by phase", byPhase.join(" "));
    // Accepted before, while each instance was replaced, and after.
    expect(byPhase.every((count) => count > 0)).toBe(true);
    expect(accepted.length).toBeGreaterThan(40);

    const deadline = Date.now() + 30_000;
    const undelivered = () => {
      const sent = new Set(smtp.received.map((m) => messageIdOf(m.raw)));
      return accepted.filter((id) => !sent.has(id));
    };
    while (Date.now() < deadline && undelivered().length) await Bun.sleep(250);
    expect(undelivered()).toEqual([]);

    const counts = new Map<string, number>();
    for (const message of smtp.received) {
      const id = messageIdOf(message.raw)!;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
    expect(counts.size).toBe(accepted.length);
  }, 120_000);
});
