/**
 * Reads a JSON request body within the size limit. Invariant: a body over the limit is refused (413) before it is
 * buffered whole, and anything that is not JSON is a 400 `validation_error`, never a 500.
 */
import { AppError, validationError, type ErrorDetail } from "../errors.ts";

export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > maxBytes) throw new AppError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw new AppError("validation_error", "Send the body as JSON with Content-Type: application/json.", { details: [{ path: "", message: "Content-Type must be application/json" }] });
  }
  const bytes = await readLimited(request, maxBytes);
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new AppError("validation_error", "The request body is not valid JSON.", { details: [{ path: "", message: "invalid JSON" }] });
  }
}

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new AppError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** `unknown field` problems for every key of `body` outside `known`. */
export function unknownFields(body: Record<string, unknown>, known: readonly string[]): ErrorDetail[] {
  return Object.keys(body)
    .filter((key) => !known.includes(key))
    .map((path) => ({ path, message: "unknown field" }));
}

/**
 * Reads a body that must be a JSON object. With `known`, fields outside it are refused; with `optional`, a request
 * without a body reads as `{}`.
 */
export async function readJsonObject(request: Request, maxBytes: number, options: { known?: readonly string[]; optional?: boolean } = {}): Promise<Record<string, unknown>> {
  if (options.optional && !request.headers.get("content-type") && (request.headers.get("content-length") ?? "0") === "0") return {};
  const body = await readJsonBody(request, maxBytes);
  if (!body || typeof body !== "object" || Array.isArray(body)) throw validationError([{ path: "", message: "the body must be a JSON object" }]);
  const object = body as Record<string, unknown>;
  if (options.known) {
    const unknown = unknownFields(object, options.known);
    if (unknown.length) throw validationError(unknown);
  }
  return object;
}
