/**
 * `npm run generate`: writes the four client libraries' request and response types from the OpenAPI document
 * (docs/architecture.md#client-libraries) — clients/node/src/generated.ts, clients/python/mailroom/generated.py,
 * clients/go/generated.go and clients/ruby/lib/mailroom/generated.rb — and the Node client's wire vocabulary
 * (clients/node/src/wire.ts, scripts/wire-types.ts). test/generated-clients.test.ts generates the same files in
 * memory and fails while a committed one differs, so a schema changed on the server cannot leave a client behind.
 *
 * Each library keeps its hand-written parts (transport, retries, errors, webhook verification, the client's own
 * conveniences) in its other files, which name these types.
 */
import { join, relative } from "node:path";
import { WIRE_FILE, wireTypes } from "../wire-types.ts";
import { readDocument } from "./document.ts";
import { emitGo } from "./go.ts";
import { buildModel } from "./model.ts";
import { emitPython } from "./python.ts";
import { emitRuby } from "./ruby.ts";
import { emitTypeScript } from "./typescript.ts";

const ROOT = join(import.meta.dir, "../..");

export const OUTPUTS = {
  typescript: join(ROOT, "clients/node/src/generated.ts"),
  python: join(ROOT, "clients/python/mailroom/generated.py"),
  go: join(ROOT, "clients/go/generated.go"),
  ruby: join(ROOT, "clients/ruby/lib/mailroom/generated.rb"),
};

/** `text` as Biome formats it for `path`, so the written file passes `biome check`. */
async function biomeFormat(path: string, text: string): Promise<string> {
  const biome = Bun.spawn([join(ROOT, "node_modules/.bin/biome"), "format", `--stdin-file-path=${path}`], {
    cwd: ROOT,
    stdin: new TextEncoder().encode(text),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, errors, code] = await Promise.all([
    new Response(biome.stdout).text(),
    new Response(biome.stderr).text(),
    biome.exited,
  ]);
  if (code !== 0) throw new Error(`biome format failed: ${errors}`);
  return out;
}

/** Every generated file: its absolute path and the text `npm run generate` writes there. */
export async function generateFiles(): Promise<Array<{ path: string; text: string }>> {
  const model = buildModel(await readDocument());
  return [
    { path: OUTPUTS.typescript, text: await biomeFormat(OUTPUTS.typescript, emitTypeScript(model)) },
    { path: OUTPUTS.python, text: emitPython(model) },
    { path: OUTPUTS.go, text: emitGo(model) },
    { path: OUTPUTS.ruby, text: emitRuby(model) },
    { path: WIRE_FILE, text: await wireTypes() },
  ];
}

/** The command that writes the files again, for the test's message. */
export const COMMAND = "npm run generate";

export const relativePath = (path: string) => relative(ROOT, path);

if (import.meta.main) {
  for (const { path, text } of await generateFiles()) {
    await Bun.write(path, text);
    console.log(`wrote ${relativePath(path)}`);
  }
}
