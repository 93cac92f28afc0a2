/**
 * Idempotency keys (docs/sending.md), for any operation of any front end: kept 24 h per API key and operation, in the
 * store, so every instance sharing it sees them. A request first takes the key with an in-flight marker (committed
 * before the work starts); the operation's result replaces the marker in the same transaction as what the
 * operation wrote, so "done" and "key remembered" are never separated; a failed request removes its marker. A
 * marker left by an instance that died is taken over after IN_FLIGHT_TIMEOUT_MS. What a result looks like on the
 * wire is the front end's business (http/idempotent.ts, smtp/relay.ts). Invariant: one key and body → at most one
 * operation.
 */
import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { AppError } from "../errors.ts";
import type { Clock } from "../lib/clock.ts";

const RETENTION_MS = 24 * 3_600_000;
/** `response_status` of a key whose request is still running; any other value means its result is stored. */
const IN_FLIGHT = 0;
const COMPLETED = 200;
/** A request holds its key at most this long; a marker older than this was left by an instance that died. */
const IN_FLIGHT_TIMEOUT_MS = 120_000;

export interface IdempotencyClaim {
  apiKeyId: string;
  endpoint: string;
  key: string;
  requestHash: string;
}

export type IdempotencyOutcome =
  | { kind: "replay"; result: unknown }
  | { kind: "claimed"; claim: IdempotencyClaim; release: () => Promise<void> };

export interface Idempotency {
  /** Takes a key: a replay of the stored response, or a claim to proceed with (release it if the request fails). */
  begin(apiKeyId: string, endpoint: string, key: string, request: unknown): Promise<IdempotencyOutcome>;
  /** Records the operation's result inside the transaction that made it. */
  record(tx: Db, claim: IdempotencyClaim, result: unknown): Promise<void>;
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
  return createHash("sha256")
    .update(Buffer.isBuffer(request) ? request : canonicalJson(request))
    .digest("hex");
}

export function validateIdempotencyKey(key: string): void {
  if (key.length < 1 || key.length > 256 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new AppError(
      "invalid_idempotency_key",
      "Idempotency-Key must be 1 to 256 printable ASCII characters without spaces.",
    );
  }
}

export function createIdempotency(deps: { db: Db; writer: Writer; clock: Clock }): Idempotency {
  const { db, writer, clock } = deps;
  const { idempotencyKeys } = tablesOf(db);
  const keyOf = (claim: Pick<IdempotencyClaim, "apiKeyId" | "endpoint" | "key">) =>
    and(
      eq(idempotencyKeys.apiKeyId, claim.apiKeyId),
      eq(idempotencyKeys.endpoint, claim.endpoint),
      eq(idempotencyKeys.key, claim.key),
    );
  const concurrent = () =>
    new AppError(
      "concurrent_idempotent_requests",
      "A request with this Idempotency-Key is still being processed; retry after it completes.",
    );

  return {
    async begin(apiKeyId, endpoint, key, request) {
      validateIdempotencyKey(key);
      const claim: IdempotencyClaim = { apiKeyId, endpoint, key, requestHash: hashRequest(request) };
      const release = () =>
        writer
          .write(
            async (tx) =>
              void (await tx
                .delete(idempotencyKeys)
                .where(and(keyOf(claim), eq(idempotencyKeys.responseStatus, IN_FLIGHT)))),
          )
          .catch(() => {});
      return writer.write(async (tx): Promise<IdempotencyOutcome> => {
        const now = clock.now();
        const marker = { ...claim, responseStatus: IN_FLIGHT, responseBody: "", createdAt: now };
        // On PostgreSQL a concurrent insert of the same key waits for the other transaction, then does nothing.
        const inserted = await tx
          .insert(idempotencyKeys)
          .values(marker)
          .onConflictDoNothing()
          .returning({ key: idempotencyKeys.key });
        if (inserted.length) return { kind: "claimed", claim, release };
        const existing = (await first(tx.select().from(idempotencyKeys).where(keyOf(claim))))!;
        const expired = existing.createdAt < now - RETENTION_MS;
        const abandoned = existing.responseStatus === IN_FLIGHT && existing.createdAt < now - IN_FLIGHT_TIMEOUT_MS;
        if (!expired && !abandoned) {
          if (existing.responseStatus === IN_FLIGHT) throw concurrent();
          if (existing.requestHash !== claim.requestHash)
            throw new AppError(
              "invalid_idempotent_request",
              "This Idempotency-Key was used with a different request body.",
            );
          return { kind: "replay", result: JSON.parse(existing.responseBody) };
        }
        // Taken over only if nobody else took it since it was read.
        const taken = await tx
          .update(idempotencyKeys)
          .set(marker)
          .where(
            and(
              keyOf(claim),
              eq(idempotencyKeys.createdAt, existing.createdAt),
              eq(idempotencyKeys.responseStatus, existing.responseStatus),
            ),
          )
          .returning({ key: idempotencyKeys.key });
        if (!taken.length) throw concurrent();
        return { kind: "claimed", claim, release };
      });
    },

    async record(tx, claim, result) {
      await tx
        .update(idempotencyKeys)
        .set({
          requestHash: claim.requestHash,
          responseStatus: COMPLETED,
          responseBody: JSON.stringify(result),
          createdAt: clock.now(),
        })
        .where(keyOf(claim));
    },

    async prune() {
      await writer.write(
        async (tx) =>
          void (await tx.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, clock.now() - RETENTION_MS))),
      );
    },
  };
}
