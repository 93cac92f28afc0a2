/**
 * The PostgreSQL test peer: a server the suite may use, at MAILROOM_TEST_PG_URL (scripts/test-postgres.sh starts
 * a throwaway cluster on loopback and prints it). Missing: tests that need it skip, and fail under CI=true.
 */
import { peer } from "./peers.ts";

export function postgresUrl(): string {
  const url = process.env.MAILROOM_TEST_PG_URL;
  if (!url) throw new Error("MAILROOM_TEST_STORE=postgres needs MAILROOM_TEST_PG_URL (start one with: export MAILROOM_TEST_PG_URL=$(scripts/test-postgres.sh))");
  return url;
}

export const postgresPeer = () =>
  peer("PostgreSQL", () => Boolean(process.env.MAILROOM_TEST_PG_URL), "apt-get install postgresql && export MAILROOM_TEST_PG_URL=$(scripts/test-postgres.sh)");
