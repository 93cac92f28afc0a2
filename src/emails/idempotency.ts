/**
 * Idempotency keys (DESIGN §1): kept 24 h per API key and endpoint. The in-flight marker lives in memory (a
 * crash ends the request anyway); the completed response is written in the same transaction as the messages it
 * created, so "200 sent" and "key remembered" are never separated. Invariant: one key and body → at most one send.
 */
import { createHash } from "node:crypto";
import { and, eq, gte, lt } from "drizzle-orm";
import { first, tablesOf, type Db } from "../db/store.ts";
import { AppError } from "../errors.ts";
import type { Clock } from "../lib/clock.ts";

const RETENTION_MS = 24 * 3_600_000;

export interface IdempotencyClaim {
  apiKeyId: string;
  endpoint: string;
  key: string;
  requestHash: string;
}

export type IdempotencyOutcome =
  | { kind: "replay"; status: number; body: unknown }
  | { kind: "claimed"; claim: IdempotencyClaim; release: () => void };

export interface Idempotency {
  /** Checks a key: a replay of the stored response, or a claim to proceed with (release it when done). */
  begin(apiKeyId: string, endpoint: string, key: string, request: unknown): Promise<IdempotencyOutcome>;
  /** Records the response inside the transaction that made it. */
  record(tx: Db, claim: IdempotencyClaim, status: number, body: unknown): Promise<void>;
  /** Forgets keys older than 24 h. */
  prune(): Promise<void>;
}

/** JSON with sorted keys, so the same body hashes the same whatever its key order or spacing. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function hashRequest(request: unknown): string {
  return createHash("sha256").update(Buffer.isBuffer(request) ? request : canonicalJson(request)).digest("hex");
}

export function validateIdempotencyKey(key: string): void {
  if (key.length < 1 || key.length > 256 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new AppError("invalid_idempotency_key", "Idempotency-Key must be 1 to 256 printable ASCII characters without spaces.");
  }
}

export function createIdempotency(deps: { db: Db; clock: Clock }): Idempotency {
  const { db, clock } = deps;
  const { idempotencyKeys } = tablesOf(db);
  const inFlight = new Set<string>();
  return {
    async begin(apiKeyId, endpoint, key, request) {
      validateIdempotencyKey(key);
      const requestHash = hashRequest(request);
      const slot = `${apiKeyId}\n${endpoint}\n${key}`;
      if (inFlight.has(slot)) throw new AppError("concurrent_idempotent_requests", "A request with this Idempotency-Key is still being processed; retry after it completes.");
      // Taken before the look-up: a second request arriving while it runs finds the key in flight.
      inFlight.add(slot);
      let stored;
      try {
        stored = await first(
          db
            .select()
            .from(idempotencyKeys)
            .where(
              and(
                eq(idempotencyKeys.apiKeyId, apiKeyId),
                eq(idempotencyKeys.endpoint, endpoint),
                eq(idempotencyKeys.key, key),
                gte(idempotencyKeys.createdAt, clock.now() - RETENTION_MS),
              ),
            ),
        );
      } catch (error) {
        inFlight.delete(slot);
        throw error;
      }
      if (stored) {
        inFlight.delete(slot);
        if (stored.requestHash !== requestHash) throw new AppError("invalid_idempotent_request", "This Idempotency-Key was used with a different request body.");
        return { kind: "replay", status: stored.responseStatus, body: JSON.parse(stored.responseBody) };
      }
      return { kind: "claimed", claim: { apiKeyId, endpoint, key, requestHash }, release: () => inFlight.delete(slot) };
    },

    async record(tx, claim, status, body) {
      await tx.insert(idempotencyKeys)
        .values({ ...claim, responseStatus: status, responseBody: JSON.stringify(body), createdAt: clock.now() })
        .onConflictDoUpdate({
          target: [idempotencyKeys.apiKeyId, idempotencyKeys.endpoint, idempotencyKeys.key],
          set: { requestHash: claim.requestHash, responseStatus: status, responseBody: JSON.stringify(body), createdAt: clock.now() },
        });
    },

    async prune() {
      await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, clock.now() - RETENTION_MS));
    },
  };
}
