/**
 * The Node client's and the UI's wire types are the server's (issue 25): clients/node/src/wire.ts is what
 * scripts/wire-types.ts prints from the server's lists and request schemas, so a value added on one side only fails
 * here until the file is written again.
 */
import { test } from "bun:test";
import { readFileSync } from "node:fs";
import { WIRE_FILE, wireTypes } from "../scripts/wire-types.ts";

test("clients/node/src/wire.ts is what the server's definitions print", async () => {
  const checkedIn = readFileSync(WIRE_FILE, "utf8");
  const printed = await wireTypes();
  if (checkedIn !== printed) throw new Error("clients/node/src/wire.ts is stale: run `bun scripts/wire-types.ts`");
});
