/**
 * The lifecycle's `apply` (deliveries/lifecycle.ts) is the only writer of a recipient's status: no other file of
 * `src/` updates `deliveries` with a `status`, in the query builder or in raw SQL, and only acceptance
 * (the inserts of emails/repo.ts) inserts delivery rows.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = join(import.meta.dir, "..");
const THE_WRITER = "deliveries/lifecycle.ts";
const ACCEPTANCE = "emails/repo.ts";

/** The builder's `.update(deliveries)…set({… status …})` up to its `.where(`, or raw `UPDATE deliveries SET … status`. */
function statusWrites(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/\.update\(\s*(?:\w+\.)?deliveries\s*\)/g)) {
    const rest = source.slice(match.index);
    const statement = rest.slice(0, rest.indexOf(".where(") >= 0 ? rest.indexOf(".where(") : undefined);
    if (/\.set\(\s*\{[\s\S]*?\bstatus\s*[:,}]/.test(statement)) found.push(statement.split("\n")[0]!);
  }
  for (const match of source.matchAll(/UPDATE\s+"?deliveries"?\s+SET\b[^;`]*?\bstatus\b/gi)) found.push(match[0]);
  return found;
}

const inserts = (source: string) => [...source.matchAll(/\.insert\(\s*(?:\w+\.)?deliveries\s*\)/g)].length;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("one writer of a recipient's status", () => {
  test("the check finds a status written beside the lifecycle, in the builder and in raw SQL", () => {
    expect(statusWrites(`tx.update(deliveries).set({ status: "failed", nextAttemptAt: null }).where(x)`)).toHaveLength(
      1,
    );
    expect(statusWrites(`tx.update(tables.deliveries)\n  .set({\n    attempts: 1,\n    status,\n  })`)).toHaveLength(1);
    expect(
      statusWrites("sql`UPDATE deliveries SET next_attempt_at = NULL, status = 'failed' WHERE id = ${id}`"),
    ).toHaveLength(1);
    expect(
      statusWrites(`tx.update(deliveries).set({ leaseOwner: owner }).where(eq(deliveries.status, "queued"))`),
    ).toEqual([]);
  });

  test("no file of src/ but deliveries/lifecycle.ts writes deliveries.status, and only acceptance inserts deliveries", () => {
    const offenders: string[] = [];
    for (const path of sourceFiles(SRC)) {
      const name = relative(SRC, path);
      const source = readFileSync(path, "utf8");
      if (name !== THE_WRITER) offenders.push(...statusWrites(source).map((write) => `${name}: ${write}`));
      if (name !== ACCEPTANCE && inserts(source) > 0) offenders.push(`${name}: inserts deliveries`);
    }
    expect(offenders).toEqual([]);
  });
});
