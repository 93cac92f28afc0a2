/**
 * The code cites the repository's own notes (docs/), never a document a clone lacks: every `docs/<page>.md` a
 * source file names exists, every `#anchor` after it is one of that page's headings (as GitHub makes anchors of
 * them), and no source cites the product contract, which lives outside the repository, by its section numbers.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dir, "..");
const SOURCES = [
  "src",
  "ui",
  "test",
  "scripts",
  "clients/node/src",
  "clients/python/mailroom",
  "clients/ruby/lib",
  "clients/go",
];

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist") continue;
    if (statSync(path).isDirectory()) files(path, out);
    else if (/\.(ts|tsx|py|rb|go|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces made hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

const anchors = new Map<string, Set<string>>();
function anchorsOf(page: string): Set<string> {
  if (!anchors.has(page)) {
    const text = readFileSync(join(ROOT, "docs", page), "utf8");
    anchors.set(page, new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!.trim()))));
  }
  return anchors.get(page)!;
}

describe("citations of docs/", () => {
  const sources = SOURCES.flatMap((dir) => files(join(ROOT, dir)));

  test("every cited page and heading exists", () => {
    const broken: string[] = [];
    let cited = 0;
    for (const file of sources) {
      for (const match of readFileSync(file, "utf8").matchAll(/docs\/([\w-]+\.md)(#[\w-]+)?/g)) {
        cited++;
        const [, page, anchor] = match;
        const where = relative(ROOT, file);
        if (!existsSync(join(ROOT, "docs", page!))) broken.push(`${where}: docs/${page} does not exist`);
        else if (anchor && !anchorsOf(page!).has(anchor.slice(1)))
          broken.push(`${where}: docs/${page}${anchor} names no heading of the page`);
      }
    }
    expect(broken).toEqual([]);
    // Not a test that cannot fail: the code does cite its notes (some two hundred times).
    expect(cited).toBeGreaterThan(100);
  });

  test("no source cites the old contract's section numbers", () => {
    // This file names the pattern it looks for, so it is the one source left out.
    const old = sources.filter((file) => file !== import.meta.path && /DESIGN\s*§/.test(readFileSync(file, "utf8")));
    expect(old.map((file) => relative(ROOT, file))).toEqual([]);
  });
});
