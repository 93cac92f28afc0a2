/**
 * The import graph keeps its shape (scripts/import-graph.ts states the layer order): no module imports a folder
 * above its own, and no files or folders import each other in a circle. A failure names each offending import.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { fileCycles, folderCycles, folderOf, LAYERS, readGraph, upwardImports } from "../scripts/import-graph.ts";

const graph = readGraph(join(import.meta.dir, "..", "src"));

describe("layers of src/", () => {
  test("every folder and top-level module has a place in the layer order", () => {
    const unplaced = [...new Set(graph.files.map(folderOf))].filter(
      (folder) => !(LAYERS as readonly string[]).includes(folder),
    );
    expect(unplaced).toEqual([]);
  });

  test("no module imports a folder above its own", () => {
    expect(upwardImports(graph).map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
  });

  test("no files import each other in a circle", () => {
    expect(fileCycles(graph).map((cycle) => cycle.join(" ⇄ "))).toEqual([]);
  });

  test("no two folders import each other", () => {
    expect(folderCycles(graph).map(([a, b]) => `${a} ⇄ ${b}`)).toEqual([]);
  });

  test("the check sees a planted upward import and a planted cycle", () => {
    const planted = {
      files: ["lib/a.ts", "server/app.ts", "emails/x.ts", "emails/y.ts"],
      edges: new Map([
        ["lib/a.ts", new Set(["server/app.ts"])],
        ["server/app.ts", new Set<string>()],
        ["emails/x.ts", new Set(["emails/y.ts"])],
        ["emails/y.ts", new Set(["emails/x.ts"])],
      ]),
    };
    expect(upwardImports(planted)).toEqual([{ from: "lib/a.ts", to: "server/app.ts" }]);
    expect(fileCycles(planted)).toEqual([["emails/x.ts", "emails/y.ts"]]);
  });
});
