/**
 * The group-commit writer: writes queued in one turn share a transaction; each rolls back alone; a failed COMMIT
 * or a transaction the engine rolled back by itself (disk full) fails every write of the batch — a promise never
 * resolves for a write that is not on disk.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { AppError } from "../errors.ts";
import { openSqliteStore as openStore, type SqliteStore as Store } from "./sqlite.ts";

let store: Store;
let writer: Store;
beforeEach(() => {
  writer = store = openStore(":memory:");
});
afterEach(() => store.close());

const organizations = () =>
  (store.sqlite.query("SELECT id FROM organizations ORDER BY id").all() as Array<{ id: string }>).map((row) => row.id);
const insertOrg = (id: string) => async () =>
  void store.sqlite.query("INSERT INTO organizations (id, name, created_at) VALUES (?, 'x', 'now')").run(id);

describe("the group-commit writer", () => {
  test("writes of one turn share a transaction; a failing write rolls back alone and the others commit", async () => {
    const results = await Promise.allSettled([
      writer.write(insertOrg("a")),
      writer.write(async () => {
        await insertOrg("b")();
        throw new Error("this write fails after its insert");
      }),
      writer.write(insertOrg("c")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(organizations()).toEqual(["a", "c"]);
  });

  test("a failed COMMIT rejects every write of the batch and stores none", async () => {
    const results = await Promise.allSettled([
      writer.write(insertOrg("a")),
      // A deferred foreign key is checked at COMMIT: this write passes, the COMMIT fails.
      writer.write(async () => {
        store.sqlite.exec("PRAGMA defer_foreign_keys = ON");
        store.sqlite
          .query(
            "INSERT INTO api_keys (id, organization_id, name, mode, token_prefix, token_hash, scopes, created_at) VALUES ('k', 'missing', 'n', 'live', 'p', 'h', '[]', 'now')",
          )
          .run();
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(organizations()).toEqual([]);
    // The writer goes on working after the failure.
    await writer.write(insertOrg("d"));
    expect(organizations()).toEqual(["d"]);
  });

  test("a full store fails the whole batch with service_unavailable, even writes that had succeeded, and recovers", async () => {
    const pages = (store.sqlite.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    store.sqlite.exec(`PRAGMA max_page_count = ${pages}`);
    const big = (id: string) => async () =>
      void store.sqlite
        .query("INSERT INTO organizations (id, name, created_at) VALUES (?, ?, 'now')")
        .run(id, "x".repeat(200_000));
    const results = await Promise.allSettled([writer.write(insertOrg("small")), writer.write(big("big"))]);
    for (const result of results) {
      expect(result.status).toBe("rejected");
      const reason = (result as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(AppError);
      expect([reason.name, reason.condition]).toEqual(["service_unavailable", "storage_full"]);
    }
    expect(organizations()).toEqual([]);
    store.sqlite.exec("PRAGMA max_page_count = 1073741823");
    await writer.write(big("big"));
    expect(organizations()).toEqual(["big"]);
  });
});
