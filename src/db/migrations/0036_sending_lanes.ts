/**
 * Sending lanes (docs/operations.md#sending-lanes): every message and each of its recipients is `transactional` (the
 * API, SMTP, templates) or `broadcast` (a broadcast's fan-out); the worker claims transactional work first.
 * - `emails.lane` and `deliveries.lane` (copied onto the recipient so that a claim, a pause and the queue's counts
 *   read one table); every message so far was transactional.
 * - The due index leads with the lane: a claim reads each lane's due rows by a range of it, so 100,000 broadcast
 *   recipients due do not stand in front of one password reset.
 * - Pauses gain scope `lane`. SQLite cannot change a CHECK constraint in place: `sending_pauses` (which nothing
 *   refers to) is made again with the wider check and its rows copied.
 * - The guardrails judge the broadcast lane apart (docs/deliverability.md#guardrails): its health and the time it
 *   counts from, per organisation, beside the organisation's own.
 */
import type { Database } from "bun:sqlite";

const columns = (millis: string, json: string) => `
ALTER TABLE emails ADD COLUMN lane TEXT NOT NULL DEFAULT 'transactional';
ALTER TABLE deliveries ADD COLUMN lane TEXT NOT NULL DEFAULT 'transactional';
DROP INDEX deliveries_due;
CREATE INDEX deliveries_due ON deliveries(lane, next_attempt_at) WHERE next_attempt_at IS NOT NULL;
ALTER TABLE organizations ADD COLUMN broadcast_health ${json};
ALTER TABLE organizations ADD COLUMN broadcast_health_since ${millis} NOT NULL DEFAULT 0;
`;

const SCOPES = "scope IN ('organization', 'domain', 'provider', 'lane')";

export function sqlite(db: Database): void {
  const table = db
    .query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'sending_pauses'")
    .get()!.sql;
  const rebuilt = table
    .replace(/^CREATE TABLE "?sending_pauses"?/, "CREATE TABLE sending_pauses_rebuilt")
    .replace(/scope IN \('organization', 'domain', 'provider'\)/, SCOPES);
  if (rebuilt === table) throw new Error("sending_pauses: the scope check was not found");
  db.exec(rebuilt);
  db.exec("INSERT INTO sending_pauses_rebuilt SELECT * FROM sending_pauses");
  db.exec("DROP TABLE sending_pauses");
  db.exec("ALTER TABLE sending_pauses_rebuilt RENAME TO sending_pauses");
  db.exec(columns("INTEGER", "TEXT"));
}

export const postgres = `
ALTER TABLE sending_pauses DROP CONSTRAINT sending_pauses_scope_check;
ALTER TABLE sending_pauses ADD CONSTRAINT sending_pauses_scope_check CHECK (${SCOPES});
${columns("BIGINT", "JSONB")}
`;
