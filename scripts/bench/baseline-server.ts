/**
 * The naive baseline of the acceptance benchmark: Elysia + bun:sqlite with synchronous=FULL and one INSERT (one
 * transaction, one fsync) per request. No validation, no MIME — only the durable write a correct service needs.
 */
import { Database } from "bun:sqlite";
import { Elysia } from "elysia";

const db = new Database(process.argv[2]!, { create: true });
db.exec("PRAGMA journal_mode = WAL");
db.exec("PRAGMA synchronous = FULL");
db.exec("CREATE TABLE IF NOT EXISTS emails (id TEXT PRIMARY KEY, body TEXT NOT NULL, created_at TEXT NOT NULL)");
const insert = db.query("INSERT INTO emails (id, body, created_at) VALUES (?, ?, ?)");

const app = new Elysia().post("/v1/emails", ({ body }) => {
  const id = Bun.randomUUIDv7();
  insert.run(id, JSON.stringify(body), new Date().toISOString());
  return { id, message: "Email sent." };
});
const server = app.listen({ hostname: "127.0.0.1", port: 0 });
process.stdout.write(`baseline ready http=127.0.0.1:${server.server!.port}\n`);
