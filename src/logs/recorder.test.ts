/**
 * The request log's writer (recorder.ts) on each way a store takes its rows: SQLite's content thread
 * (`appendRows`, off the event loop), an in-memory SQLite and PostgreSQL (multi-row inserts through the writer, the
 * bodies' JSON text into a TEXT or a JSONB column). Each must keep every row, bodies readable as the JSON recorded.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstOrganization, storeEngines } from "../../test/helpers/postgres.ts";
import { rawRows } from "../db/dialect.ts";
import { openSqliteStore } from "../db/sqlite.ts";
import type { Store } from "../db/store.ts";
import { systemClock } from "../lib/clock.ts";
import { silentLogger } from "../lib/logger.ts";
import { createMetrics } from "../lib/metrics.ts";
import { CONTENT_THREAD } from "../thread-entries.ts";
import { createRequestRecorder } from "./recorder.ts";

const dataDir = mkdtempSync(join(tmpdir(), "mailroom-recorder-"));
// The content thread needs a file: the helper's SQLite is in memory, which writes through the writer instead.
const engines: Array<[string, () => Promise<Store>]> = [
  ...storeEngines("rl"),
  [
    "SQLite, the content thread",
    async () => (onFile = openSqliteStore(join(dataDir, "m.db"), silentLogger, { contentThread: CONTENT_THREAD })),
  ],
];
let onFile: Store | undefined;
afterAll(async () => {
  await onFile?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.each(engines)("%s", (_, open) => {
  test("every recorded request is a row, bodies redacted and read back as JSON, in the order they came", async () => {
    const store = await open();
    if (store.engine === "sqlite") expect(Boolean(store.appendRows)).toBe(_ === "SQLite, the content thread");
    const organization = await firstOrganization(store);
    const recorder = createRequestRecorder({
      writer: store,
      clock: systemClock,
      logger: silentLogger,
      metrics: createMetrics(),
      enabled: true,
    });
    // More than one batch (500) and one multi-row insert (500): every path's boundaries are crossed.
    for (let i = 0; i < 1_203; i++)
      recorder.record({
        organizationId: organization.id,
        apiKeyId: "key-1",
        mode: "live",
        endpoint: "/emails",
        method: "POST",
        status: 200,
        userAgent: "test",
        requestBody: { subject: `n° ${i}`, password: "hunter2", nested: [{ a: 1 }] },
        responseBody: i % 2 ? { id: `e${i}` } : undefined,
      });
    await recorder.stop();
    const rows = await rawRows<{ request_body: unknown; response_body: unknown }>(
      store.db,
      sql`SELECT request_body, response_body FROM request_logs ORDER BY id`,
    );
    expect(rows.length).toBe(1_203);
    const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);
    expect(json(rows[7]!.request_body)).toEqual({ subject: "n° 7", password: "[redacted]", nested: [{ a: 1 }] });
    expect(json(rows[7]!.response_body)).toEqual({ id: "e7" });
    expect(rows[8]!.response_body).toBeNull();
    expect(json(rows[1_202]!.request_body)).toMatchObject({ subject: "n° 1202" });
  });
});
