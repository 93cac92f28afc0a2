/**
 * A fixture on bun:test's hooks: started once before the tests of the file (or of the describe it is called in), or
 * before each test with `each`, and always stopped after them. `bind` hands it to the file's own variables, so that
 * test bodies name what they use (`t`, `smtp`, `clock`) directly; the getter answers the running one, for helpers
 * that act on it.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "bun:test";

export function setUpFixture<T>(options: {
  start: () => Promise<T>;
  stop: (value: T) => Promise<void>;
  bind: (value: T) => void;
  /** A fresh one for each test, rather than one for all. */
  each?: boolean;
}): () => T {
  let current: T | undefined;
  const [before, after] = options.each ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    current = await options.start();
    options.bind(current);
  });
  after(async () => {
    const value = current;
    current = undefined;
    if (value !== undefined) await options.stop(value);
  });
  return () => {
    if (current === undefined) throw new Error("a fixture is used outside the tests it was started for");
    return current;
  };
}

/** Closes each of `things` in turn, as a fixture's `stop` does with an app and its peers. */
export async function closeAll(...things: Array<{ close(): Promise<void> | void }>): Promise<void> {
  for (const thing of things) await thing.close();
}
