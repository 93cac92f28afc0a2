/**
 * HTTP side of idempotency: reads the `Idempotency-Key` header, replays a stored response with
 * `Idempotent-Replayed: true`, or runs the operation with a claim that the service records atomically.
 */
import type { Actor } from "../keys/model.ts";
import type { Idempotency, IdempotencyClaim } from "../emails/idempotency.ts";

interface ResponseSetter {
  status?: number | string;
  headers: Record<string, string | number>;
}

export async function withIdempotency<T>(
  idempotency: Idempotency,
  request: Request,
  actor: Actor,
  endpoint: string,
  body: unknown,
  set: ResponseSetter,
  run: (claim: IdempotencyClaim | undefined) => Promise<T>,
): Promise<T | unknown> {
  const key = request.headers.get("idempotency-key");
  if (key === null || actor.keyId === null) return run(undefined);
  const outcome = await idempotency.begin(actor.keyId, endpoint, key, body);
  if (outcome.kind === "replay") {
    set.status = outcome.status;
    set.headers["idempotent-replayed"] = "true";
    return outcome.body;
  }
  try {
    return await run(outcome.claim);
  } catch (error) {
    // Nothing was stored: the key is free for a retry.
    await outcome.release();
    throw error;
  }
}
