/**
 * Migration 46 (docs/teams.md#system-mail) on the suite's engine: mail that an earlier version marked with the tag
 * `mailroom:private` becomes system mail of the tag's kind and loses the tag, so `emails.system_mail` is the one
 * marker; every other message stays the organisation's, its tags untouched.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import pg from "pg";
import { MIGRATIONS } from "../src/db/migrations/index.ts";
import { freshSchema, postgresUrl } from "./helpers/postgres.ts";

const before = MIGRATIONS.filter((m) => m.version < 46);
const step = MIGRATIONS.find((m) => m.version === 46)!;

const MESSAGES = [
  ["reset", '[{"name":"mailroom:private","value":"password_link"}]'],
  ["invite", '[{"name":"mailroom:private","value":"invitation"}]'],
  ["own", '[{"name":"category","value":"welcome"}]'],
  ["untagged", "[]"],
] as const;

const ORGANIZATION = "INSERT INTO organizations (id, name, created_at) VALUES ('org', 'o', 'now')";
const insert = (id: string, tags: string) =>
  `INSERT INTO emails (id, organization_id, source, mode, message_id, from_header, envelope_from, to_addresses, cc_addresses, bcc_addresses, reply_to, subject, tags, status, size, created_at, updated_at) VALUES ('${id}', 'org', 'api', 'live', '<${id}@example.com>', 'a@example.com', 'a@example.com', '[]', '[]', '[]', '[]', 's', '${tags}', 'queued', 1, 'now', 'now')`;

const EXPECTED = [
  { id: "invite", system_mail: "invitation", tags: [] },
  { id: "own", system_mail: null, tags: [{ name: "category", value: "welcome" }] },
  { id: "reset", system_mail: "password_link", tags: [] },
  { id: "untagged", system_mail: null, tags: [] },
];

describe("migration 46 (system_mail)", () => {
  test("turns the private tag into the column, and leaves the organisation's own mail alone", async () => {
    if (process.env.MAILROOM_TEST_STORE === "postgres") {
      const client = new pg.Client({ connectionString: postgresUrl() });
      await client.connect();
      const schema = freshSchema("migration46");
      try {
        await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
        for (const migration of before) await client.query(migration.postgres as string);
        await client.query(ORGANIZATION);
        for (const [id, tags] of MESSAGES) await client.query(insert(id, tags));
        await client.query(step.postgres as string);
        const { rows } = await client.query("SELECT id, system_mail, tags FROM emails ORDER BY id");
        expect(rows).toEqual(EXPECTED);
      } finally {
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
        await client.end();
      }
      return;
    }
    const sqlite = new Database(":memory:");
    for (const { sqlite: migration } of before)
      typeof migration === "string" ? sqlite.exec(migration) : migration(sqlite);
    sqlite.exec(ORGANIZATION);
    for (const [id, tags] of MESSAGES) sqlite.exec(insert(id, tags));
    sqlite.exec(step.sqlite as string);
    const rows = sqlite.query("SELECT id, system_mail, tags FROM emails ORDER BY id").all() as Array<{
      tags: string;
    }>;
    expect(rows.map((row) => ({ ...row, tags: JSON.parse(row.tags) }))).toEqual(EXPECTED);
  });
});
