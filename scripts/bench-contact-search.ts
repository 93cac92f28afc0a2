/**
 * The admin UI's contact search (docs/contacts.md#search), recorded in the performance table:
 *   (cs) `GET /v1/contacts?search=` through the service, on a real SQLite file with BENCH_SEARCH_CONTACTS contacts
 *        (default 200,000; the issue's scale is 1,000,000), one search at a time, each kind of term in turn: the start
 *        of an address (a range of contacts_email), a first name (the newest 10,000 read through contacts_page),
 *        and a term that matches nothing (the whole window read: the slowest case). Target: the list pages', p99 ≤ 20 ms.
 *        On SQLite a statement runs on the event loop, so beside it the longest the loop was held (a 1 ms timer's
 *        largest gap) is printed: the window is read in slices, so it stays a slice's cost, not the window's.
 * BENCH_SEARCH_QUERIES (default 300) sets each kind's searches.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { operatorActor } from "../src/access.ts";
import { buildConfig } from "../src/config/load.ts";
import { chunks } from "../src/db/prepared.ts";
import { tablesOf } from "../src/db/store.ts";
import { newId } from "../src/lib/ids.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { createServices } from "../src/server/app.ts";
import { check, fmt, record } from "./bench/report.ts";

const CONTACTS = Number(process.env.BENCH_SEARCH_CONTACTS ?? 200_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 300);
const FIRST = ["ann", "bob", "cara", "dan", "eve", "finn", "gail", "hugo", "ines", "jon", "kai", "lena"];
const LAST = ["lee", "diaz", "smith", "novak", "okafor", "ivanova", "berg", "moreau"];

const dataDir = mkdtempSync(join(tmpdir(), "mailroom-bench-search-"));
const config = buildConfig({}, {}, { "": { data_dir: dataDir } });
const services = await createServices(config, {
  logger: silentLogger,
  secretKey: Buffer.alloc(32, 5).toString("base64"),
});
const org = await services.organizations.ensureDefault();
const actor = operatorActor(org.id);

const seeded = performance.now();
const at = new Date().toISOString();
for (const part of chunks(
  Array.from({ length: CONTACTS }, (_, i) => i),
  500,
)) {
  await services.writer.write(async (tx) => {
    await tx.insert(tablesOf(tx).contacts).values(
      part.map((i) => ({
        id: newId(),
        organizationId: org.id,
        email: `${FIRST[i % FIRST.length]}.${LAST[i % LAST.length]}${i}@dest${i % 50}.test`,
        firstName: FIRST[i % FIRST.length]!,
        lastName: LAST[i % LAST.length]!,
        unsubscribed: false,
        properties: {},
        createdAt: at,
        updatedAt: at,
      })),
    );
  });
}
console.log(`(cs) ${fmt(CONTACTS)} contacts seeded in ${fmt((performance.now() - seeded) / 1000, 1)} s`);

const random = (n: number) => Math.floor(Math.random() * n);
const KINDS = {
  "start of an address": () => `${FIRST[random(FIRST.length)]}.${LAST[random(LAST.length)]}${random(CONTACTS)}`,
  "a first name": () => FIRST[random(FIRST.length)]!,
  "a term that matches nothing": () => `zz${random(1_000_000)}`,
};
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((xs.length * p) / 100) - 1]!;
let worst = 0;
let tick = performance.now();
let held = 0;
const monitor = setInterval(() => {
  const now = performance.now();
  held = Math.max(held, now - tick);
  tick = now;
}, 1);
for (const [kind, term] of Object.entries(KINDS)) {
  for (let i = 0; i < 20; i++) await services.contacts.list(actor, { limit: 50, search: term() }); // warm-up
  const times: number[] = [];
  tick = performance.now();
  held = 0;
  for (let i = 0; i < QUERIES; i++) {
    // One request at a time, each arriving as I/O does: between two searches the loop turns.
    await new Promise((resolve) => setTimeout(resolve, 2));
    tick = performance.now();
    const started = performance.now();
    await services.contacts.list(actor, { limit: 50, search: term() });
    times.push(performance.now() - started);
  }
  const p99 = percentile(times, 99);
  worst = Math.max(worst, p99);
  console.log(
    `(cs) search by ${kind}: p50 ${fmt(percentile(times, 50), 2)} ms, p99 ${fmt(p99, 2)} ms, loop held at most ${fmt(held, 1)} ms (${QUERIES} searches)   [p99 ≤ 20 ms: ${check(p99 <= 20)}]`,
  );
}
clearInterval(monitor);
record({
  measure: `contact search (admin UI), ${fmt(CONTACTS)} contacts: address start, first name, no match — worst p99`,
  result: `p99 ${fmt(worst, 2)} ms`,
  target: "p99 ≤ 20 ms",
  met: worst <= 20,
});

await services.closeProviders();
await services.store.close();
rmSync(dataDir, { recursive: true, force: true });
