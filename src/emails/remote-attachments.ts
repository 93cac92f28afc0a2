/**
 * Attachments given by `path` (docs/sending.md): fetched at acceptance, before the message is composed, through the same
 * public-address guard as webhook endpoints (`[webhooks] allow_private_networks` opens both).
 *
 * - Each request goes to the address the guard checked (no second lookup); a redirect is followed only to a URL
 *   that passes the guard in its turn, at most `MAX_REDIRECTS` times.
 * - Bytes are counted as they arrive (lib/capped-body.ts) against the budget the caller gives (what the message
 *   size limit leaves after the inline attachments, and after the batch's other downloads), so a URL that streams
 *   without end is cut off there, never buffered.
 * - One deadline covers every fetch of a message, redirects and bodies included.
 * Invariant: a message whose attachment cannot be fetched whole is refused — 413 `payload_too_large` past the size
 * limit, else 400 `validation_error` naming the attachment — and nothing is stored.
 */
import { AppError, validationError } from "../errors.ts";
import { BodyTooLarge, readCappedBody } from "../lib/capped-body.ts";
import { EndpointRefused, pinnedRequest, type EndpointGuard } from "../lib/endpoint-guard.ts";
import type { AttachmentInput } from "./model.ts";

const MAX_REDIRECTS = 3;

export interface AttachmentFetcherOptions {
  guard: EndpointGuard;
  /** For all of one message's fetches together. */
  timeoutMs: number;
  /** Extra trusted CA certificates (PEM); tests use it for a server with its own CA. */
  ca?: string;
}

/**
 * Fills in every attachment given by `path`, together at most `maxFetchedBytes`; attachments given by `content` pass
 * as they are. Throws AppError.
 */
export type AttachmentFetcher = (attachments: AttachmentInput[], maxFetchedBytes: number) => Promise<AttachmentInput[]>;

export function createAttachmentFetcher(options: AttachmentFetcherOptions): AttachmentFetcher {
  const { guard } = options;

  /** GET without following redirects, to the checked address under the URL's own name. */
  const get = async (url: URL, signal: AbortSignal): Promise<Response> => {
    const target = pinnedRequest(await guard.resolve(url));
    return fetch(target.url, {
      headers: { host: target.host },
      redirect: "manual",
      // Connect directly: a proxy from the environment would make its own lookup of the name.
      proxy: false,
      signal,
      tls: { serverName: target.serverName, ...(options.ca && { ca: options.ca }) },
    });
  };

  const download = async (raw: string, limit: number, signal: AbortSignal): Promise<Buffer> => {
    let url = guard.parse(raw);
    for (let hop = 0; ; hop++) {
      const response = await get(url, signal);
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel().catch(() => {});
        if (hop === MAX_REDIRECTS) throw new EndpointRefused(`it redirected more than ${MAX_REDIRECTS} times`);
        url = guard.parse(new URL(location, url).href);
        continue;
      }
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        throw new EndpointRefused(`it answered ${response.status}`);
      }
      return readCappedBody(response, limit);
    }
  };

  return async (attachments, maxFetchedBytes) => {
    if (!attachments.some((attachment) => attachment.path !== undefined)) return attachments;
    const signal = AbortSignal.timeout(options.timeoutMs);
    let budget = maxFetchedBytes;
    const fetched: AttachmentInput[] = [];
    // One at a time: the budget left for each is what the ones before it did not use.
    for (const [i, attachment] of attachments.entries()) {
      if (attachment.path === undefined) {
        fetched.push(attachment);
        continue;
      }
      const { path, ...rest } = attachment;
      let content: Buffer;
      try {
        content = await download(path, Math.max(budget, 0), signal);
      } catch (error) {
        if (error instanceof BodyTooLarge) {
          throw new AppError(
            "payload_too_large",
            `Attachment ${i} (path) would take the message past its size limit (for a batch: its downloads together).`,
          );
        }
        const reason =
          error instanceof EndpointRefused
            ? error.reason
            : signal.aborted
              ? `no answer within ${options.timeoutMs / 1000} s`
              : "the URL could not be fetched";
        throw validationError([{ path: `attachments.${i}.path`, message: `could not be fetched: ${reason}` }]);
      }
      budget -= content.length;
      fetched.push({ ...rest, content });
    }
    return fetched;
  };
}
