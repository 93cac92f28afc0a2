/**
 * A thread entry for the CPU pool engine's own tests (src/threads/thread-pool.test.ts): tasks that take a given
 * time, never end, or kill their thread, so budgets, rounds and failures can be watched without the product's work.
 */
import { serveTasks } from "../../src/threads/thread-loop.ts";

type TestTask =
  | { kind: "busy"; ms: number; value: string }
  | { kind: "forever" }
  | { kind: "crash" }
  | { kind: "slow_start"; ms: number };

serveTasks<TestTask>({
  // Stands for loading modules: not counted against the task's budget.
  prepare: async (task) => {
    if (task.kind === "slow_start") await Bun.sleep(task.ms);
  },
  perform: async (task) => {
    if (task.kind === "forever") for (;;);
    if (task.kind === "crash") {
      // Uncaught, so the thread itself fails (its `error` event), not only the task.
      setTimeout(() => {
        throw new Error("boom");
      });
      return new Promise(() => {});
    }
    if (task.kind === "busy") {
      const until = performance.now() + task.ms;
      while (performance.now() < until);
      return task.value;
    }
    return "started late";
  },
});
