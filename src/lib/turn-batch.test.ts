import { expect, test } from "bun:test";
import { perTurn } from "./turn-batch.ts";

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
