/**
 * The import graph of src/ and the layer order it must keep. `bun scripts/import-graph.ts` prints the figures
 * (files, imports, cycles, upward imports, largest files); test/layers.test.ts fails on any cycle or upward import.
 *
 * The layers, lowest first. A module may import its own folder and any folder listed before its own, never one
 * listed after it: the composition root stands above the rooms, and a room only knows the rooms below it. A folder
 * missing from the list is an error, so a new area has to be placed on purpose. Type-only imports count too: a
 * type that points upward is a dependency a reader has to follow upward.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const LAYERS = [
  // Pure helpers and the vocabulary every layer shares.
  "lib",
  "thread-entries",
  "errors",
  "shape-check",
  "config",
  "access",
  // The store, and the mechanisms built on it that know no area.
  "db",
  "events",
  "audit",
  "idempotency",
  "limits",
  "threads",
  "jobs",
  "queue",
  // What routes use to speak HTTP.
  "http",
  // The organisation's settings: its limits, quotas, retention and what it stores, read over HTTP.
  "organizations",
  // People who sign in, their organisations and roles, their sessions.
  "people",
  // The areas, each above the ones it calls.
  "providers",
  "suppressions",
  // The audience (contacts, segments, topics): sending with a topic and broadcasts ask it.
  "contacts",
  "deliveries",
  "domains",
  // Reputation: guardrails over delivery outcomes, reports receivers send about a domain, blocklists.
  "reputation",
  "keys",
  "templates",
  // Topic preferences and unsubscribing, above the audience (contacts) whose choices they change.
  "preferences",
  "tracking",
  "emails",
  // Broadcasts: a segment's contacts, each sent a message through the outgoing funnel (emails).
  "broadcasts",
  // An organisation's rules for its received mail, which the incoming funnel reads.
  "inbound-routes",
  "inbound",
  "webhooks",
  "ai",
  // What callers learn of their own use: the request log, usage figures.
  "logs",
  "usage",
  // The MCP server: agents calling the API's routes as tools.
  "mcp",
  // Front ends and the root; the command line's groups (cli/) stand below the main.ts that dispatches to them.
  "smtp",
  // The CPU pool's task table (it names every area's work, the relay's included) and the admin UI's bundle and routes.
  "cpu",
  "admin-ui",
  "server",
  "cli",
  "main",
] as const;

export interface ImportGraph {
  /** Relative to src/, e.g. `emails/service.ts`. */
  files: string[];
  edges: Map<string, Set<string>>;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;

function listSources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listSources(path, out);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

export function readGraph(srcDir: string): ImportGraph {
  const root = resolve(srcDir);
  const paths = listSources(root);
  const edges = new Map<string, Set<string>>();
  for (const path of paths) {
    const targets = new Set<string>();
    for (const match of readFileSync(path, "utf8").matchAll(IMPORT)) {
      const target = resolveImport(path, (match[1] ?? match[2])!);
      if (target?.startsWith(`${root}/`)) targets.add(relative(root, target));
    }
    edges.set(relative(root, path), targets);
  }
  return { files: [...edges.keys()].sort(), edges };
}

/** `emails/service.ts` → `emails`; a file at the top of src/ is its own layer (`errors.ts` → `errors`). */
export const folderOf = (file: string) => (file.includes("/") ? file.split("/")[0]! : file.replace(/\.tsx?$/, ""));

export interface UpwardImport {
  from: string;
  to: string;
}

/** Imports from a folder to a folder listed after it (or to a folder the list does not place). */
export function upwardImports(graph: ImportGraph): UpwardImport[] {
  const rank = (folder: string) => (LAYERS as readonly string[]).indexOf(folder);
  const found: UpwardImport[] = [];
  for (const [from, targets] of graph.edges) {
    for (const to of targets) {
      const source = folderOf(from);
      const target = folderOf(to);
      if (source === target) continue;
      if (rank(source) < 0 || rank(target) < 0 || rank(target) > rank(source)) found.push({ from, to });
    }
  }
  return found;
}

/** Strongly connected components of more than one file, or of one file importing itself (Tarjan). */
export function fileCycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.edges.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.edges.get(file)?.has(file)) cycles.push(component.sort());
  };
  for (const file of graph.files) if (!index.has(file)) visit(file);
  return cycles;
}

/** Pairs of folders that import each other. */
export function folderCycles(graph: ImportGraph): Array<[string, string]> {
  const between = new Set<string>();
  for (const [from, targets] of graph.edges) {
    for (const to of targets) if (folderOf(from) !== folderOf(to)) between.add(`${folderOf(from)} ${folderOf(to)}`);
  }
  const pairs: Array<[string, string]> = [];
  for (const pair of between) {
    const [a, b] = pair.split(" ") as [string, string];
    if (a < b && between.has(`${b} ${a}`)) pairs.push([a, b]);
  }
  return pairs.sort();
}

if (import.meta.main) {
  const srcDir = join(import.meta.dir, "..", "src");
  const graph = readGraph(srcDir);
  const imports = [...graph.edges.values()].reduce((sum, targets) => sum + targets.size, 0);
  const upward = upwardImports(graph);
  const lines = graph.files
    .map((file) => ({ file, lines: readFileSync(join(srcDir, file), "utf8").split("\n").length }))
    .sort((a, b) => b.lines - a.lines);
  console.log(`files ${graph.files.length}, imports between them ${imports}`);
  console.log(`file cycles ${fileCycles(graph).length}`);
  for (const cycle of fileCycles(graph)) console.log(`  ${cycle.join(" ⇄ ")}`);
  console.log(`folder pairs importing each other ${folderCycles(graph).length}`);
  for (const [a, b] of folderCycles(graph)) console.log(`  ${a} ⇄ ${b}`);
  console.log(`upward imports ${upward.length}`);
  for (const { from, to } of upward) console.log(`  ${from} → ${to}`);
  console.log("largest files");
  for (const { file, lines: count } of lines.slice(0, 8)) console.log(`  ${String(count).padStart(5)} ${file}`);
}
