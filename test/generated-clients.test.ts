/**
 * The client libraries' types are the OpenAPI document's (issue 42, docs/architecture.md#client-libraries): each
 * generated file — the four libraries' request and response types and the Node client's wire vocabulary — is what
 * `npm run generate` writes from the document the server publishes now, so a schema changed on the server without
 * its clients fails here, naming the file and the command that writes it again.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { COMMAND, generateFiles, relativePath } from "../scripts/generate/index.ts";

test("every generated client file is what `npm run generate` writes from the OpenAPI document", async () => {
  const stale: string[] = [];
  const files = await generateFiles();
  for (const { path, text } of files) {
    const committed = existsSync(path) ? readFileSync(path, "utf8") : null;
    if (committed !== text) stale.push(`${relativePath(path)} ${committed === null ? "is missing" : "differs"}`);
  }
  if (stale.length) throw new Error(`${stale.join("; ")}: run \`${COMMAND}\` and commit the result`);
  expect(files.map(({ path }) => relativePath(path))).toEqual([
    "clients/node/src/generated.ts",
    "clients/python/mailroom/generated.py",
    "clients/go/generated.go",
    "clients/ruby/lib/mailroom/generated.rb",
    "clients/node/src/wire.ts",
  ]);
}, 30_000);
