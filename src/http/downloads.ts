/**
 * What the download routes share (received mail, sent attachments): who asks — a signed link when the query carries
 * one, else the API key or session — and how a file is handed out so a browser never runs it as this origin's page.
 */
import type { DownloadAccess } from "../access.ts";
import { authenticateRequest, type AuthDeps } from "./auth.ts";

export async function downloadAccess(
  deps: AuthDeps,
  request: Request,
  set: { headers: Record<string, unknown> },
  query: Record<string, string | undefined>,
): Promise<DownloadAccess> {
  if (query.signature !== undefined || query.expires !== undefined) {
    return {
      link: { path: new URL(request.url).pathname, expires: query.expires ?? "", signature: query.signature ?? "" },
    };
  }
  return { actor: await authenticateRequest(deps, request, set) };
}

/** A file name safe inside a quoted Content-Disposition parameter, with the full name as RFC 5987 `filename*`. */
function disposition(kind: "inline" | "attachment", filename: string | null): string {
  if (!filename) return kind;
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** An attachment's bytes: the sender's content, sandboxed and never sniffed into something executable. */
export function fileResponse(file: {
  content: Buffer;
  contentType: string;
  filename: string | null;
  disposition: "inline" | "attachment";
}): Response {
  return new Response(file.content, {
    headers: {
      "content-type": file.contentType,
      "content-disposition": disposition(file.disposition, file.filename),
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox; default-src 'none'",
    },
  });
}
