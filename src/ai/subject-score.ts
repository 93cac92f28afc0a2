/**
 * Offline subject-line scoring: runs a subject (and, when given, its html or text body for the preview) against
 * SUBJECT_RULES and turns the rules that trip into a score and a list of findings.
 *
 * Invariant: pure and deterministic — no I/O, no clock, no randomness, so the same input always scores the same;
 * the score is an integer in 0..100; every finding names a rule of SUBJECT_RULES, and at most once.
 */
import { SUBJECT_RULES, type SubjectInput, type SubjectRule } from "./subject-rules.ts";
import type { SubjectFinding } from "./wire.ts";

export type { SubjectInput } from "./subject-rules.ts";

// The most serious problem is the one to read first; within a severity, table order keeps the output stable.
const SEVERITY_RANK: Record<SubjectRule["severity"], number> = { error: 0, warning: 1, info: 2 };

export function scoreSubject(input: SubjectInput): { score: number; findings: SubjectFinding[] } {
  const findings: SubjectFinding[] = [];
  let penalty = 0;
  for (const rule of SUBJECT_RULES) {
    const result = rule.check(input);
    if (result === undefined) continue;
    penalty += rule.weight;
    findings.push({ rule: rule.id, severity: rule.severity, message: result.message, fix: result.fix });
  }
  // Array.prototype.sort is stable, so findings of one severity keep the table's order.
  findings.sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
  const score = Math.min(100, Math.max(0, Math.round(100 - penalty)));
  return { score, findings };
}
