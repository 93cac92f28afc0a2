/**
 * HTTP side of idempotency: reads the `Idempotency-Key` header, replays a stored result as the same answer with
 * `Idempotent-Replayed: true`, or runs the operation with a claim that the service records atomically. Only
 * results are stored, so a replay is always the first answer's 200; `answer` turns a result into the body, for the
 * first answer and its replays alike.
 */
import type { Actor } from "../access.ts";
import type { Idempotency, IdempotencyClaim } from "../idempotency/service.ts";

interface ResponseSetter {
  headers: Record<string, unknown>;
}

export async function withIdempotency<T, A>(
  idempotency: Idempotency,
  request: Request,
  actor: Actor,
  operation: string,
  body: unknown,
  set: ResponseSetter,
  answer: (result: unknown) => A,
  run: (claim: IdempotencyClaim | undefined) => Promise<T>,
): Promise<A> {
  const key = request.headers.get("idempotency-key");
  if (key === null || actor.keyId === null) return answer(await run(undefined));
  const outcome = await idempotency.begin(actor.keyId, operation, key, body);
  if (outcome.kind === "replay") {
    set.headers["idempotent-replayed"] = "true";
    return answer(outcome.result);
  }
  try {
    return answer(await run(outcome.claim));
  } catch (error) {
    // Nothing was stored: the key is free for a retry.
    await outcome.release();
    throw error;
  }
}
