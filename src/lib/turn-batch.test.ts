import { expect, test } from "bun:test";
import { perTurn, writeTogetherOrAlone } from "./turn-batch.ts";

test("what is handed over in one turn reaches the consumer together; the next turn's is a batch of its own", async () => {
  const batches: number[][] = [];
  const add = perTurn<number>((batch) => batches.push(batch));
  add(1);
  add(2);
  await Promise.resolve();
  add(3);
  expect(batches).toEqual([]);
  await new Promise((resolve) => setImmediate(resolve));
  add(4);
  await new Promise((resolve) => setImmediate(resolve));
  expect(batches).toEqual([[1, 2, 3], [4]]);
});

test("a batch that fails is written again item by item, so that only the failing item fails; a failure every write would share fails them all at once", async () => {
  const writes: number[][] = [];
  const outcome: string[] = [];
  const handlers = {
    write: async (items: number[]) => {
      writes.push(items);
      if (items.includes(2)) throw new Error(items.length > 1 ? "batch" : "two");
    },
    written: (items: number[]) => outcome.push(...items.map((item) => `${item} written`)),
    failed: (item: number, error: unknown) => outcome.push(`${item} ${(error as Error).message}`),
  };
  await writeTogetherOrAlone([1, 2, 3], handlers);
  expect(writes).toEqual([[1, 2, 3], [1], [2], [3]]);
  expect(outcome).toEqual(["1 written", "2 two", "3 written"]);

  writes.length = 0;
  outcome.length = 0;
  await writeTogetherOrAlone([1, 2, 3], { ...handlers, failsEvery: () => true });
  expect(writes).toEqual([[1, 2, 3]]);
  expect(outcome).toEqual(["1 batch", "2 batch", "3 batch"]);
});
