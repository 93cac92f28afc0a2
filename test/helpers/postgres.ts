/**
 * The PostgreSQL test peer: a server the suite may use, at MAILROOM_TEST_PG_URL (scripts/test-postgres.sh starts
 * a throwaway cluster on loopback and prints it). Missing: tests that need it skip, and fail under CI=true.
 */
import { urlInSchema } from "../../src/db/postgres/adapter.ts";
import { newId } from "../../src/lib/ids.ts";
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
