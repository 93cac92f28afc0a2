/**
 * Durability drill: the server process is killed with SIGKILL while a load of sends is being accepted and a
 * delivery is in flight, then started again on the same data directory.
 *
 * The guarantee under test: every id that got a 200 is in the store after the crash and ends delivered to the
 * smarthost. Delivery is at-least-once: a message the remote side took but whose answer the dead process never
 * recorded is delivered again after its lease expires — with the same Message-ID, so it can be recognised.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { tempDir } from "./helpers/app.ts";
import { runCli, startMailroom, type MailroomProcess } from "./helpers/process.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

let smtp: SmtpDouble;
let dataDir: string;
let env: Record<string, string>;
let server: MailroomProcess | undefined;

beforeAll(async () => {
  smtp = await startSmtpDouble();
  dataDir = tempDir("mailroom-crash-");
  env = {
    MAILROOM_DATA_DIR: dataDir,
    MAILROOM_HTTP_PORT: "0",
    MAILROOM_DELIVERY_DEFAULT_PROVIDER: "smtp",
    MAILROOM_SMARTHOST_HOST: "127.0.0.1",
    MAILROOM_SMARTHOST_PORT: String(smtp.port),
    MAILROOM_SMARTHOST_SECURITY: "none",
    MAILROOM_DELIVERY_LEASE: "2s",
    MAILROOM_DELIVERY_POLL_INTERVAL: "250ms",
    MAILROOM_LIMITS_KEY_REQUESTS_PER_MINUTE: "1000000",
    MAILROOM_LIMITS_ORG_REQUESTS_PER_MINUTE: "1000000",
    MAILROOM_DNS_SERVERS: "127.0.0.1:1",
    MAILROOM_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
  };
});

afterAll(async () => {
  server?.proc.kill("SIGKILL");
  await smtp.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const messageIdOf = (raw: Buffer) => /^Message-ID:\s*(<[^>]+>)/im.exec(raw.toString())?.[1];

test("SIGKILL during a load of sends loses no accepted message; delivery is at-least-once with a stable Message-ID", async () => {
  await runCli(["init"], env);
  await runCli(["domains", "add", "example.com", "--verified"], env);
  const { token: key } = JSON.parse(
    await runCli(["keys", "create", "--name", "drill", "--scope", "full_access", "--json"], env),
  );
  smtp.rules.set("held@dest.test", { reply: "hang-after-data" });

  server = await startMailroom(env);
  const send = async (to: string): Promise<string | undefined> => {
    try {
      const res = await fetch(`${server!.baseUrl}/v1/emails`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          from: "Drill <drill@example.com>",
          to,
          subject: "Crash drill",
          html: "<p>Do not lose me</p>",
        }),
      });
      return res.status === 200 ? ((await res.json()) as { id: string }).id : undefined;
    } catch {
      return undefined; // The connection died with the process: this request was never acknowledged.
    }
  };

  // A delivery in flight at the moment of the crash: the smarthost has the message but never answers.
  const heldId = await send("held@dest.test");
  expect(heldId).toBeDefined();
  await smtp.waitFor(1);

  const accepted: string[] = [heldId!];
  let killed = false;
  const senders = Array.from({ length: 16 }, async (_, lane) => {
    for (let i = 0; !killed; i++) {
      const id = await send(`lane${lane}-${i}@dest.test`);
      if (id) accepted.push(id);
    }
  });
  while (accepted.length < 200) await Bun.sleep(5);
  server.proc.kill("SIGKILL");
  killed = true;
  await Promise.all(senders);
  await server.exited;

  smtp.rules.delete("held@dest.test");
  server = await startMailroom(env);
  const statusOf = async (id: string) => {
    const res = await fetch(`${server!.baseUrl}/v1/emails/${id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { recipients: Array<{ status: string }> }).recipients[0]!.status;
  };
  const deadline = Date.now() + 20_000;
  let pending = [...accepted];
  while (pending.length && Date.now() < deadline) {
    const statuses = await Promise.all(pending.map(async (id) => [id, await statusOf(id)] as const));
    pending = statuses.filter(([, status]) => status !== "sent").map(([id]) => id);
    if (pending.length) await Bun.sleep(200);
  }
  expect(pending).toEqual([]);

  const receivedIds = smtp.received.map((m) => messageIdOf(m.raw));
  for (const id of accepted) expect(receivedIds).toContain(`<${id}@example.com>`);
  // The held message arrived twice — once before the crash, once after — under one Message-ID.
  expect(receivedIds.filter((m) => m === `<${heldId}@example.com>`)).toHaveLength(2);

  server.proc.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  server = undefined;
}, 60_000);
