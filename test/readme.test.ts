/**
 * The README's examples as a newcomer runs them, pasted in order into a fresh shell: the key variable they use is
 * exported before its first use and is the one every client library reads, and an example naming a domain adds it
 * first (a fresh install has none).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SIMULATED_OUTCOMES, TEST_ADDRESSES } from "../src/providers/simulator.ts";
import { TEST_ADDRESS_LIST } from "../ui/test-address-list.ts";

const ROOT = join(import.meta.dir, "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const shellBlocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);

test("one name for the key everywhere: the README's examples and the four client libraries read MAILROOM_API_KEY", () => {
  expect(README).not.toContain("$MAILROOM_KEY");
  expect(README).toContain("$MAILROOM_API_KEY");
  for (const file of [
    "clients/node/src/mailroom.ts",
    "clients/python/mailroom/client.py",
    "clients/go/example_test.go",
    "clients/go/README.md",
  ])
    expect(readFileSync(join(ROOT, file), "utf8")).toContain("MAILROOM_API_KEY");
  expect(readFileSync(join(ROOT, "clients/ruby/lib/mailroom/client.rb"), "utf8")).toContain(
    'ENV.fetch("MAILROOM_API_KEY"',
  );
});

test("the key variable is exported before the first example that uses it", () => {
  const first = shellBlocks.findIndex((block) => block.includes("$MAILROOM_API_KEY"));
  const before = shellBlocks.slice(0, first + 1).join("\n");
  expect(before.indexOf("export MAILROOM_API_KEY=")).toBeGreaterThanOrEqual(0);
  expect(before.indexOf("export MAILROOM_API_KEY=")).toBeLessThan(before.indexOf("$MAILROOM_API_KEY"));
});

test("an example that names a domain adds it first", () => {
  for (const block of shellBlocks)
    for (const match of block.matchAll(/"domain_id": "([^"]+)"/g))
      expect(block.slice(0, match.index)).toMatch(new RegExp(`/v1/domains[^\n]*\n?[^\n]*"name": "${match[1]}"`));
});

test("the README's test addresses are exactly the simulator's", () => {
  const listed = [...README.matchAll(/^\| `(\w+)@simulator\.mailroom\.test` \|/gm)].map((match) => match[1]);
  expect(listed).toEqual([...SIMULATED_OUTCOMES]);
});

test("the README, the simulator and the admin UI say the same about every test address, word for word", () => {
  const readme = Object.fromEntries(
    [...README.matchAll(/^\| `(\w+)@simulator\.mailroom\.test` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]),
  );
  expect(readme).toEqual({ ...TEST_ADDRESSES });
  expect(Object.fromEntries(TEST_ADDRESS_LIST)).toEqual({ ...TEST_ADDRESSES });
});
