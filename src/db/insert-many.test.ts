/**
 * `insertMany` (prepared.ts): PostgreSQL's multi-row inserts written without drizzle's builder must store exactly
 * what the builder would — JSON values, nulls, columns left to their defaults — and hand the shapes it does not
 * speak for to the builder. On SQLite it is the builder. Each engine the suite has.
 */
import { describe, expect, test } from "bun:test";
import { asc, sql } from "drizzle-orm";
import { firstOrganization, storeEngines } from "../../test/helpers/postgres.ts";
import { insertMany } from "./prepared.ts";
import { tablesOf } from "./store.ts";

const engines = storeEngines("im");

describe.each(engines)("%s", (_, open) => {
  test("rows as given, JSON and nulls kept, left-out columns defaulted; other shapes through the builder", async () => {
    const store = await open();
    const { id: organizationId } = await firstOrganization(store);
    const row = (n: number) => ({
      id: `r${String(n).padStart(3, "0")}`,
      organizationId,
      mode: "live" as const,
      createdAt: "2026-12-07T00:00:00.000Z",
      endpoint: "/emails",
      method: "POST",
      responseStatus: 200 + n,
      userAgent: n % 2 ? null : `agent ${n}`,
      requestBody: { n, list: [1, "two", { three: null }], quote: `it's "${n}"` },
      responseBody: n % 3 ? null : [n],
    });
    await store.write(async (tx) => {
      const { requestLogs } = tablesOf(tx);
      // Twice the same shape (its text kept), then one of another count.
      await insertMany(tx, requestLogs, [row(1), row(2), row(3)]);
      await insertMany(tx, requestLogs, [row(4), row(5), row(6)]);
      await insertMany(tx, requestLogs, [row(7)]);
      // A row that leaves out a column another gives, and a value written in SQL: the builder's.
      const { userAgent: _, ...withoutAgent } = row(8);
      await insertMany(tx, requestLogs, [withoutAgent, row(9)]);
      await insertMany(tx, requestLogs, [{ ...row(10), endpoint: sql`'/from-sql'` }]);
    });
    const { requestLogs } = tablesOf(store.db);
    const stored = await store.db.select().from(requestLogs).orderBy(asc(requestLogs.id));
    expect(stored.length).toBe(10);
    for (const [i, got] of stored.entries()) {
      const n = i + 1;
      const want = row(n);
      expect(got).toEqual({
        ...want,
        apiKeyId: null,
        userAgent: n === 8 ? null : want.userAgent,
        endpoint: n === 10 ? "/from-sql" : "/emails",
      });
    }
  });
});
