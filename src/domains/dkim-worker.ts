/**
 * The DKIM signing thread. RSA-2048 costs about a millisecond per message; on the event loop that would cap
 * delivery near a thousand messages a second while the machine's other cores idle. Each request
 * `{id, raw, options}` (mailauth's dkimSign options) is answered `{id, signatures, error}`.
 * Invariant: a request is always answered, with an error text when signing failed.
 */
import { dkimSign } from "mailauth";

declare const self: Worker;

self.onmessage = async (event: MessageEvent<{ id: number; raw: Uint8Array; options: Parameters<typeof dkimSign>[1] }>) => {
  const { id, raw, options } = event.data;
  try {
    const result = await dkimSign(Buffer.from(raw), options);
    const failure = result.errors[0] as { message?: string } | undefined;
    postMessage({ id, signatures: result.signatures, error: failure ? String(failure.message ?? failure) : null });
  } catch (error) {
    postMessage({ id, signatures: "", error: String((error as Error)?.message ?? error) });
  }
};
