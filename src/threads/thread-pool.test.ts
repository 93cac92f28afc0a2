import { afterEach, describe, expect, test } from "bun:test";
import { createThreadPool, OVERRUN, type RunOptions, type Task, type ThreadPool } from "./thread-pool.ts";

const THREAD = new URL("../../test/helpers/pool-thread.ts", import.meta.url);
let pool: ThreadPool | undefined;
afterEach(() => pool?.close());

const as = (tenant: string, budgetMs = 5_000): RunOptions => ({ tenant, budgetMs });
const busy = (value: string, ms = 30): Task => ({ kind: "busy", ms, value }) as Task;

describe("the CPU pool's engine", () => {
  test("a task past its budget is answered OVERRUN; its thread is replaced and the next task runs", async () => {
    pool = createThreadPool(THREAD, 1);
    const started = performance.now();
    const stuck = pool.run({ kind: "forever" }, as("a", 300));
    const next = pool.run(busy("next"), as("a"));
    expect((await stuck).error).toBe(OVERRUN);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(await next).toMatchObject({ value: "next", error: null });
  });

  test("the budget counts from when the task's own work begins, not while its thread loads", async () => {
    pool = createThreadPool(THREAD, 1);
    expect(await pool.run({ kind: "slow_start", ms: 600 } as Task, as("a", 200))).toMatchObject({ error: null });
  });

  test("tenants take rounds: one tenant's queued tasks do not all run before another's", async () => {
    pool = createThreadPool(THREAD, 1);
    const done: string[] = [];
    const run = (tenant: string, value: string) =>
      pool!.run(busy(value), as(tenant)).then((answer) => done.push(answer.value as string));
    const all = [
      ...["a1", "a2", "a3", "a4", "a5"].map((value) => run("a", value)),
      ...["b1", "b2"].map((value) => run("b", value)),
      run("c", "c1"),
    ];
    await Promise.all(all);
    expect(done).toEqual(["a1", "b1", "c1", "a2", "b2", "a3", "a4", "a5"]);
  });

  test("a thread that dies fails only the task it held; the others run on its replacement", async () => {
    pool = createThreadPool(THREAD, 1);
    const crashed = pool.run({ kind: "crash" }, as("a"));
    const after = pool.run(busy("after"), as("b"));
    expect((await crashed).error).toContain("worker thread failed");
    expect(await after).toMatchObject({ value: "after", error: null });
  });

  test("closing settles the running and the waiting tasks", async () => {
    pool = createThreadPool(THREAD, 1);
    const running = pool.run({ kind: "forever" }, as("a"));
    const waiting = pool.run(busy("waiting"), as("b"));
    await Bun.sleep(100);
    expect(pool.waiting()).toBe(1);
    pool.close();
    for (const answer of await Promise.all([running, waiting])) expect(answer.error).toBe("the CPU pool stopped");
  });
});
