/**
 * The scale target's reads use their indexes, never a scan (docs/contacts.md#scale), on either engine: every
 * statement that a page of contacts (the first, and after a cursor), a look-up by address and the topic check at
 * send make is captured as the services run it, and explained — SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN
 * with sequential scans priced out, so that a plan without an index would still show one. The timings at a million
 * contacts are scripts/bench-contacts.ts's rows.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { insertTopic } from "../src/contacts/audience-repo.ts";
import { engineOf } from "../src/db/dialect.ts";
import { tablesOf } from "../src/db/store.ts";
import { newId } from "../src/lib/ids.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";

/** This organisation's contacts; another organisation holds four times as many. */
const CONTACTS = 1_500;
const address = (i: number) => `member${i}@scale.test`;
let t: TestApp;
let topicId: string;
let cursor: string;
/** The statements the database ran since the last `take()`, as drizzle logs them. */
const ran: Array<{ query: string; params: unknown[] }> = [];

beforeAll(async () => {
  t = await createTestApp();
  if (engineOf(t.app.services.store.db) === "sqlite") {
    // Before any contact statement is prepared: a prepared statement keeps the logger it was made with.
    (t.app.services.store.db as unknown as { session: { logger: unknown } }).session.logger = {
      logQuery: (query: string, params: unknown[]) => ran.push({ query, params }),
    };
  } else {
    // On PostgreSQL a statement is built once per process and bound to each connection (db/prepared.ts), so it
    // keeps the logger of whichever app built it first: the pool itself records what this app runs.
    const pool = (t.app.services.store.db as unknown as { $client: { query: (...args: any[]) => unknown } }).$client;
    const query = pool.query.bind(pool);
    pool.query = (config: any, values?: unknown[]) => {
      if (typeof config === "string") ran.push({ query: config, params: values ?? [] });
      else if (config?.text) ran.push({ query: config.text, params: config.values ?? values ?? [] });
      return query(config, values);
    };
  }
  const at = new Date().toISOString();
  topicId = newId();
  await t.app.services.writer.write((tx) =>
    insertTopic(tx, {
      id: topicId,
      organizationId: t.organizationId,
      name: "News",
      description: null,
      defaultSubscription: "opt_in",
      visibility: "public",
      createdAt: at,
      updatedAt: at,
    }),
  );
  // Another organisation's contacts too, as an installation holds them, and more of them: a plan that reads every
  // organisation's contacts and keeps this one's (PostgreSQL's choice when one organisation holds them all, at no
  // cost then) is then told from one that reads only this one's.
  const other = newId();
  await t.app.services.writer.write(async (tx) => {
    await tx.insert(tablesOf(tx).organizations).values({ id: other, name: "Other", createdAt: at });
  });
  const ids: string[] = [];
  for (let start = 0; start < 5 * CONTACTS; start += 500) {
    // Interleaved in time (ids), as organisations' contacts are.
    const organizationId = start % 2500 === 0 ? t.organizationId : other;
    await t.app.services.writer.write(async (tx) => {
      const { contacts, contactTopics } = tablesOf(tx);
      const rows = Array.from({ length: 500 }, (_, k) => ({
        id: newId(),
        organizationId,
        email: address(start + k),
        firstName: null,
        lastName: null,
        unsubscribed: false,
        properties: {},
        createdAt: at,
        updatedAt: at,
      }));
      if (organizationId === t.organizationId) ids.push(...rows.map((row) => row.id));
      await tx.insert(contacts).values(rows);
      if (organizationId !== t.organizationId) return;
      await tx
        .insert(contactTopics)
        .values(
          rows
            .slice(0, 50)
            .map((row) => ({ contactId: row.id, topicId, subscription: "opt_out" as const, updatedAt: at })),
        );
    });
  }
  cursor = ids[CONTACTS / 2]!;
  // The tables read, not the database: on PostgreSQL a bare ANALYZE takes every schema of the suite's cluster
  // (thousands by the end of a run; it outlasted the hook's 30 s in a whole-suite run).
  // SQLite's ANALYZE takes one table at a time.
  const analyze = (table: string) => t.app.services.store.query(sql.raw(`ANALYZE ${table}`));
  for (const table of ["contacts", "contact_topics", "contact_segments"]) await analyze(table);
});
afterAll(() => t.close());

const take = () => ran.splice(0, ran.length);

/** The plan of `query` as lines of text. */
async function planOf(query: string, params: unknown[]): Promise<string[]> {
  const client = (t.app.services.store.db as unknown as { $client: unknown }).$client;
  if (engineOf(t.app.services.store.db) === "sqlite") {
    const sqlite = client as import("bun:sqlite").Database;
    const rows = sqlite.query(`EXPLAIN QUERY PLAN ${query}`).all(...(params as never[])) as Array<{ detail: string }>;
    return rows.map((row) => row.detail);
  }
  const pool = client as import("pg").Pool;
  const connection = await pool.connect();
  try {
    await connection.query("BEGIN");
    // Priced out, not forbidden: a statement no index can serve still shows its Seq Scan.
    await connection.query("SET LOCAL enable_seqscan = off");
    const rows = (await connection.query(`EXPLAIN ${query}`, params)).rows as Array<{ "QUERY PLAN": string }>;
    return rows.map((row) => row["QUERY PLAN"]);
  } finally {
    await connection.query("ROLLBACK");
    connection.release();
  }
}

/** The contact tables' statements of `run`, each with its plan. */
async function plansOf(run: () => Promise<unknown>) {
  take();
  await run();
  const statements = take().filter((s) => /\b"?(contacts|contact_topics|contact_segments)"?\b/.test(s.query));
  expect(statements.length).toBeGreaterThan(0);
  return Promise.all(
    statements.map(async (s) => ({ query: s.query, plan: (await planOf(s.query, s.params)).join("\n") })),
  );
}

const SCAN_SQLITE = /^\s*SCAN "?(contacts|contact_topics|contact_segments)"?\b|USE TEMP B-TREE FOR ORDER BY/m;
const SCAN_POSTGRES = /Seq Scan on (contacts|contact_topics|contact_segments)\b|\bSort\b/;

/**
 * A page reads the organisation's contacts in id order from an index and stops at its limit. SQLite reads
 * `contacts_page`; PostgreSQL, pricing the two, may read the primary key (id order) and keep this organisation's:
 * as cheap when the organisations' contacts are interleaved, as here (docs/contacts.md#scale).
 */
const PAGE =
  /SEARCH contacts USING INDEX contacts_page \(organization_id=\?|Limit[^\n]*\n\s+->\s+Index Scan Backward using (contacts_page|contacts_pkey) on contacts/;
const BY_ADDRESS =
  /SEARCH contacts USING INDEX contacts_email \(organization_id=\? AND email=\?\)|Index Scan using contacts_email on contacts[^\n]*\n\s+Index Cond: \(\(organization_id = /;

describe("the scale target's reads use their indexes", () => {
  test.each([
    ["the first page of contacts", PAGE, () => t.app.services.contacts.list(t.operator, { limit: 100 })],
    ["a page after a cursor", PAGE, () => t.app.services.contacts.list(t.operator, { limit: 100, after: cursor })],
    ["a contact by address", BY_ADDRESS, () => t.app.services.contacts.get(t.operator, address(2600))],
    [
      "the topic check at send",
      BY_ADDRESS,
      () => t.app.services.contacts.subscribedTo(t.organizationId, topicId, [address(7), "nobody@scale.test"]),
    ],
  ] as const)("%s", async (_, index, run) => {
    const sqlite = engineOf(t.app.services.store.db) === "sqlite";
    const plans = await plansOf(run);
    for (const { query, plan } of plans) {
      expect({ query, plan }).not.toEqual({ query, plan: expect.stringMatching(sqlite ? SCAN_SQLITE : SCAN_POSTGRES) });
    }
    expect(plans.map((p) => p.plan).join("\n")).toMatch(index);
  });

  test("the topic check reads each contact's choice by contact_topics' key", async () => {
    const plans = await plansOf(() => t.app.services.contacts.subscribedTo(t.organizationId, topicId, [address(7)]));
    const sqlite = engineOf(t.app.services.store.db) === "sqlite";
    expect(plans.map((p) => p.plan).join("\n")).toMatch(
      sqlite
        ? /SEARCH "?contact_topics"? USING (COVERING )?(PRIMARY KEY|INDEX \w+) \((contact_id=\? AND topic_id=\?|topic_id=\? AND contact_id=\?)\)/
        : /Scan using contact_topics_\w+ on contact_topics[^\n]*\n\s+Index Cond: \([^\n]*contact_id = contacts\.id\)/,
    );
  });
});
