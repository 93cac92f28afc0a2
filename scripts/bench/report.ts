/**
 * The summary table of `npm run bench`: every benchmark script records its rows with `record`, into the file
 * named by BENCH_REPORT (set by scripts/bench.ts for the scripts it runs), and bench.ts prints them together at
 * the end. Run on its own, a script just prints its own lines.
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";

export interface Row {
  measure: string;
  result: string;
  target: string;
  /** null: recorded for comparison, no target of its own. */
  met: boolean | null;
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const check = (ok: boolean) => (ok ? "met" : "NOT met");

export function record(row: Row): void {
  if (process.env.BENCH_REPORT) appendFileSync(process.env.BENCH_REPORT, `${JSON.stringify(row)}\n`);
}

export function printReport(path: string): void {
  const rows: Row[] = existsSync(path)
    ? readFileSync(path, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  const width = (pick: (r: Row) => string, title: string) => Math.max(title.length, ...rows.map((r) => pick(r).length));
  const w = [width((r) => r.measure, "measure"), width((r) => r.result, "result"), width((r) => r.target, "target")];
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(w[i] ?? 7)).join(" | ")} |`;
  console.log(line(["measure", "result", "target", "met"]));
  console.log(line(w.map((n) => "-".repeat(n)).concat("-------")));
  for (const r of rows) console.log(line([r.measure, r.result, r.target, r.met === null ? "" : r.met ? "yes" : "NO"]));
}
