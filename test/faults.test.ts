/**
 * Faults the service must survive (issue: hardening): the data directory's file system fills up. Acceptance then
 * answers 503 service_unavailable (HTTP) and 452 4.3.1 (SMTP), nothing is half-written, and it recovers by itself
 * when space returns. A delivery made while the store refuses writes is recorded once it takes them again, not
 * made a second time. A real small tmpfs when this process may mount one (root, as in CI); otherwise SQLite's own
 * size cap (`max_page_count`), which fails writes with the same SQLITE_FULL. The data directory holds the
 * embedded store, so this drill runs on SQLite whichever engine the suite runs on.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SqliteStore } from "../src/db/sqlite.ts";
import { createLogger } from "../src/lib/logger.ts";
import type { DeliveryJob, Provider } from "../src/providers/types.ts";
import { createTestApp, tempDir, type TestApp } from "./helpers/app.ts";
import { authPlain, smtpChat } from "./helpers/smtp-chat.ts";

interface DiskFiller {
  kind: string;
  fill(): void;
  free(): void;
}

let mountPoint: string | undefined;
let t: TestApp;
let filler: DiskFiller;
let smtpsPort: number;
const errorLog: string[] = [];

/** Delivers at once, like capture, unless held: then each attempt waits until `release()`. Counts attempts. */
function holdableProvider() {
  const attempts = new Map<string, number>();
  let held: { entered: PromiseWithResolvers<void>; released: PromiseWithResolvers<void> } | undefined;
  const provider: Provider = {
    name: "holdable",
    async deliver(job: DeliveryJob) {
      attempts.set(job.deliveryId, (attempts.get(job.deliveryId) ?? 0) + 1);
      if (held) {
        held.entered.resolve();
        await held.released.promise;
      }
      return { outcome: "delivered", response: "250 2.0.0 Held by the test, then delivered" };
    },
    async close() {},
  };
  return {
    provider,
    attempts,
    /** Holds the attempts from now on; answers a promise that resolves once one is waiting. */
    hold() {
      held = { entered: Promise.withResolvers(), released: Promise.withResolvers() };
      return held.entered.promise;
    },
    release() {
      held?.released.resolve();
      held = undefined;
    },
  };
}
const delivery = holdableProvider();

/** Mounts an 8 MiB tmpfs when allowed; undefined otherwise. */
function mountSmallDisk(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const dir = tempDir("mailroom-full-disk-");
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", dir]);
  if (mounted.status === 0) return dir;
  rmSync(dir, { recursive: true, force: true });
  return undefined;
}

beforeAll(async () => {
  mountPoint = mountSmallDisk();
  const dataDir = mountPoint ? join(mountPoint, "data") : undefined;
  if (dataDir) mkdirSync(dataDir);
  t = await createTestApp(
    {
      ...(dataDir ? { "": { data_dir: dataDir } } : {}),
      smtp: { submission_port: 0, smtps_port: 0 },
      inbound: { port: 0 },
      store: { url: "" },
    },
    {
      liveProvider: delivery.provider,
      logger: createLogger("error", (line) => errorLog.push(line)),
    },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  smtpsPort = (await t.app.start()).find((l) => l.name === "smtps")!.port;
  const { sqlite } = t.app.services.store as SqliteStore;
  if (mountPoint) {
    const ballast = join(mountPoint, "ballast");
    filler = {
      kind: "tmpfs",
      fill() {
        const fd = openSync(ballast, "w");
        const chunk = Buffer.alloc(64 * 1024, 1);
        try {
          for (;;) writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
        } finally {
          closeSync(fd);
        }
      },
      free: () => rmSync(ballast),
    };
  } else {
    filler = {
      kind: "max_page_count",
      fill: () =>
        void sqlite.exec(
          `PRAGMA max_page_count = ${(sqlite.query("PRAGMA page_count").get() as { page_count: number }).page_count}`,
        ),
      free: () => void sqlite.exec("PRAGMA max_page_count = 1073741823"),
    };
  }
  console.log(`full-disk test uses ${filler.kind}`);
});

afterAll(async () => {
  await t?.close();
  if (mountPoint) {
    // Lazy: SQLite's prepared statements may hold the database file until this process exits.
    spawnSync("umount", ["-l", mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  }
});

const message = (i: number) => ({
  from: "hi@example.com",
  to: `r${i}@dest.test`,
  subject: `Message ${i}`,
  html: `<p>${"x".repeat(20_000)}</p>`,
});

describe("the data directory's file system is full", () => {
  test("acceptance answers 503 / 452 4.3.1, stores nothing half-written, and recovers when space returns", async () => {
    const accepted: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { status, body } = await t.json("POST", "/v1/emails", { body: message(i) });
      expect(status).toBe(200);
      accepted.push(body.id);
    }
    filler.fill();

    // A little room may be left in pages SQLite already holds; keep sending until the disk is the limit.
    let refused: { status: number; body: any; headers: Headers } | undefined;
    for (let i = 3; i < 200 && !refused; i++) {
      const answer = await t.json("POST", "/v1/emails", { body: message(i) });
      if (answer.status === 200) accepted.push(answer.body.id);
      else refused = answer;
    }
    expect(refused).toBeDefined();
    // Pages freed by the refused transaction may still take a smaller message: fill those too, with small ones, so
    // that what follows meets a full disk whatever the sizes of the pages left.
    for (let i = 200; i < 600; i++) {
      const small = await t.json("POST", "/v1/emails", {
        body: { from: "hi@example.com", to: `s${i}@dest.test`, subject: "small", text: "x" },
      });
      if (small.status !== 200) break;
      accepted.push(small.body.id);
    }
    expect([refused!.status, refused!.body.name]).toEqual([503, "service_unavailable"]);
    expect(refused!.body.message).toContain("storage is full");
    expect(refused!.headers.get("retry-after")).toBe("30");
    expect(JSON.stringify(refused!.body)).not.toMatch(/SQLITE|disk I\/O|\.db/);

    const ca = readFileSync(join(t.config.data_dir, "tls", "smtp-cert.pem"), "utf8");
    const chat = await smtpChat(smtpsPort, { tls: true, ca });
    expect((await chat.send("EHLO client.test")).code).toBe(250);
    expect((await chat.send(authPlain("apikey", t.liveKey))).code).toBe(235);
    expect((await chat.send("MAIL FROM:<hi@example.com>")).code).toBe(250);
    expect((await chat.send("RCPT TO:<smtp@dest.test>")).code).toBe(250);
    expect((await chat.send("DATA")).code).toBe(354);
    const full = await chat.data(
      `From: hi@example.com\r\nTo: smtp@dest.test\r\nSubject: full\r\n\r\n${"y".repeat(70).concat("\r\n").repeat(300)}`,
    );
    expect([full.code, full.lines[0]!.split(" ")[0]]).toEqual([452, "4.3.1"]);

    // Nothing half-written: exactly the answered messages exist, each with its delivery row; the file is sound.
    const { sqlite } = t.app.services.store as SqliteStore;
    const ids = (sqlite.query("SELECT id FROM emails").all() as Array<{ id: string }>).map((row) => row.id).sort();
    expect(ids).toEqual([...accepted].sort());
    expect((sqlite.query("SELECT count(*) AS n FROM deliveries").get() as { n: number }).n).toBe(accepted.length);

    filler.free();
    const again = await t.json("POST", "/v1/emails", { body: message(1000) });
    expect(again.status).toBe(200);
    const smtpAgain = await (async () => {
      expect((await chat.send("MAIL FROM:<hi@example.com>")).code).toBe(250);
      expect((await chat.send("RCPT TO:<smtp@dest.test>")).code).toBe(250);
      expect((await chat.send("DATA")).code).toBe(354);
      return chat.data("From: hi@example.com\r\nTo: smtp@dest.test\r\nSubject: back\r\n\r\nBack.\r\n");
    })();
    expect(smtpAgain.code).toBe(250);
    chat.close();
    expect((sqlite.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check).toBe("ok");

    // Everything accepted is delivered (capture) once the worker runs.
    await t.app.services.worker.runOnce();
    for (const id of [...accepted, again.body.id]) {
      const { body } = await t.json("GET", `/v1/emails/${id}`);
      expect(body.status).toBe("delivered");
    }
  });
});

describe("the store refuses writes while a delivery is out", () => {
  /**
   * Sends message `i`, holds its delivery in the provider, makes the store refuse every write (SQLite's query_only:
   * a deterministic stand-in for the full disk, where the result's few pages might still fit after a message no
   * longer did), lets the delivery finish and waits until its record has been refused. Answers the email's id and
   * what was logged since; `allowWrites()` ends the fault.
   */
  async function refuseTheRecordOfADelivery(i: number) {
    const { sqlite } = t.app.services.store as SqliteStore;
    const waiting = delivery.hold();
    const { status, body } = await t.json("POST", "/v1/emails", { body: message(i) });
    expect(status).toBe(200);
    await waiting;
    sqlite.exec("PRAGMA query_only = ON");
    const logged = errorLog.length;
    const since = () => errorLog.slice(logged).join("\n");
    delivery.release();
    for (let tries = 0; tries < 100 && !since().includes("could not record a result"); tries++) await Bun.sleep(20);
    expect(since()).toContain("could not record a result; trying again until the store takes it");
    return { id: body.id as string, since, allowWrites: () => void sqlite.exec("PRAGMA query_only = OFF") };
  }

  test("a delivery whose result the store refuses is recorded once it takes writes again, and is not made twice", async () => {
    const { id, allowWrites } = await refuseTheRecordOfADelivery(2000);
    expect((await t.json("GET", `/v1/emails/${id}`)).body.status).toBe("queued");

    allowWrites();
    // runOnce waits for the jobs in flight, this one among them: its record is retried, not its attempt.
    await t.app.services.worker.runOnce();
    expect((await t.json("GET", `/v1/emails/${id}`)).body.status).toBe("delivered");
    expect([...delivery.attempts.values()].filter((n) => n !== 1)).toEqual([]);
  });

  test("stop() does not wait for a store that refuses a result: the lease is left to expire", async () => {
    const { id, since, allowWrites } = await refuseTheRecordOfADelivery(3000);
    // The record's retries run until the store takes it: without stop() cutting them short this would not return.
    await t.app.services.worker.stop();
    expect(since()).toContain("result not recorded; the job runs again once its lease expires");
    allowWrites();
    expect((await t.json("GET", `/v1/emails/${id}`)).body.status).toBe("queued");
  });
});
