/**
 * What a fuzz target reports: the violation log (the first few per property, so one run shows every kind it found,
 * with the seed and how to replay), the description of an input cut to a readable size, and the leak check — what
 * must never appear in a response body or a reply (stack frames, paths, SQL engine and JS error names).
 */

export interface Violation {
  property: string;
  caseIndex: number;
  input: string;
  observed: string;
}

/** Collects property violations (the first few per property), so one run reports every kind it found. */
export class Violations {
  readonly list: Violation[] = [];
  private readonly perProperty = new Map<string, number>();
  constructor(
    readonly target: string,
    readonly seed: number,
    private readonly keepPerProperty = 3,
  ) {}

  add(property: string, caseIndex: number, input: unknown, observed: unknown): void {
    const seen = this.perProperty.get(property) ?? 0;
    this.perProperty.set(property, seen + 1);
    if (seen >= this.keepPerProperty) return;
    this.list.push({ property, caseIndex, input: describe(input), observed: describe(observed) });
    console.error(
      `fuzz ${this.target} seed=${this.seed} case=${caseIndex} VIOLATION ${property}\n  input: ${describe(input)}\n  observed: ${describe(observed)}`,
    );
  }

  get count(): number {
    return [...this.perProperty.values()].reduce((a, b) => a + b, 0);
  }

  /** The assertion message: seed, how to replay, and each recorded violation. */
  report(): string {
    if (!this.list.length) return `fuzz ${this.target} seed=${this.seed}: no violations`;
    const counts = [...this.perProperty].map(([p, n]) => `${p}×${n}`).join(", ");
    const lines = this.list.map(
      (v) => `- [${v.property}] case=${v.caseIndex}\n    input: ${v.input}\n    observed: ${v.observed}`,
    );
    return `fuzz ${this.target} seed=${this.seed}: ${this.count} violation(s) (${counts}). Replay: FUZZ_SEED=${this.seed} (one case: FUZZ_CASE=<case>)\n${lines.join("\n")}`;
  }
}

/** JSON-ish description of an input or observation, cut so a report stays readable. */
export function describe(value: unknown, max = 1200): string {
  let text: string;
  if (typeof value === "string") text = JSON.stringify(value);
  else if (value instanceof Uint8Array)
    text = `bytes(${value.length}) ${JSON.stringify(Buffer.from(value.subarray(0, 300)).toString("latin1"))}`;
  else {
    try {
      text = JSON.stringify(value, (_k, v) =>
        v instanceof Uint8Array
          ? `bytes(${v.length}) ${Buffer.from(v.subarray(0, 200)).toString("latin1")}`
          : typeof v === "string" && v.length > 300
            ? `${v.slice(0, 300)}…(${v.length} chars)`
            : v,
      );
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
}

// ---------------------------------------------------------------------------------------------------------------
// Leaks

/** What must never appear in a response body or reply text: stack frames, paths, SQL engine and JS error names. */
export function internalsIn(text: string, dataDir: string): string | null {
  const needles = [
    "    at ",
    "/work/",
    "node_modules",
    ".ts:",
    "SQLITE",
    "TypeError",
    "RangeError",
    "URIError",
    "SyntaxError",
    "ReferenceError",
  ];
  if (dataDir && text.includes(dataDir)) return dataDir;
  for (const needle of needles) if (text.includes(needle)) return needle;
  if (/\bsqlite\b/i.test(text)) return "sqlite";
  return null;
}
