/**
 * The PostgreSQL test peer: a server the suite may use, at MAILROOM_TEST_PG_URL (scripts/test-postgres.sh starts
 * a throwaway cluster on loopback and prints it). Missing: tests that need it skip, and fail under CI=true.
 */
import { afterAll } from "bun:test";
import { openPostgresStore, urlInSchema } from "../../src/db/postgres/adapter.ts";
import { openSqliteStore } from "../../src/db/sqlite.ts";
import type { Store } from "../../src/db/store.ts";
import { systemClock } from "../../src/lib/clock.ts";
import { newId } from "../../src/lib/ids.ts";
import { silentLogger } from "../../src/lib/logger.ts";
import { createOrganizationService } from "../../src/organizations/service.ts";
import { peer } from "./peers.ts";

export function postgresUrl(): string {
  const url = process.env.MAILROOM_TEST_PG_URL;
  if (!url)
    throw new Error(
      "MAILROOM_TEST_STORE=postgres needs MAILROOM_TEST_PG_URL (start one with: export MAILROOM_TEST_PG_URL=$(scripts/test-postgres.sh))",
    );
  return url;
}

export const postgresPeer = () =>
  peer(
    "PostgreSQL",
    () => Boolean(process.env.MAILROOM_TEST_PG_URL),
    "apt-get install postgresql && export MAILROOM_TEST_PG_URL=$(scripts/test-postgres.sh)",
  );

/** A schema name no other store of the run uses. */
export const freshSchema = (prefix: string) => `${prefix}_${newId().replace(/-/g, "")}`;

/** The URL of a new, empty store: a fresh schema of the test PostgreSQL (or of `base`). */
export const freshStoreUrl = (prefix: string, base = postgresUrl()) => urlInSchema(base, freshSchema(prefix));

/**
 * The engines a store test runs on, as `describe.each` takes them: an in-memory SQLite, and PostgreSQL (a fresh
 * schema) when the suite has one. Every store opened is closed once the file's tests are done.
 */
export function storeEngines(prefix: string, poolSize = 2): Array<[string, () => Promise<Store>]> {
  const opened: Store[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
  });
  const kept = (open: () => Store | Promise<Store>) => async () => {
    const store = await open();
    opened.push(store);
    return store;
  };
  const url = process.env.MAILROOM_TEST_PG_URL;
  return [
    ["SQLite", kept(() => openSqliteStore(":memory:"))],
    ...(url
      ? [
          [
            "PostgreSQL",
            kept(() => openPostgresStore({ url: freshStoreUrl(prefix, url), poolSize, logger: silentLogger })),
          ] as [string, () => Promise<Store>],
        ]
      : []),
  ];
}

/** The store's first organisation, made with the defaults a test needs no opinion on. */
export async function firstOrganization(store: Store): Promise<{ id: string }> {
  return createOrganizationService({
    db: store.db,
    writer: store,
    clock: systemClock,
    defaults: { requestsPerMinute: 600, contentRetentionMs: 86_400_000, metadataRetentionMs: 86_400_000 },
  }).ensureDefault();
}
