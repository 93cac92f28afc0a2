/**
 * Where links Mailroom mails or prints point (docs/security.md#links): `[http] public_url`, else
 * `https://<[server] hostname>` — what the operator configured, never a request's Host header, which anyone sending
 * a request chooses (a password link built from it would carry the token to the sender's own site).
 */
import type { Config } from "./options.ts";

/** The base of mailed links, without a trailing slash; null when neither setting is given (nothing is then mailed). */
export function publicLinkBase(config: Pick<Config, "http" | "server">): string | null {
  const publicUrl = config.http.public_url.replace(/\/+$/, "");
  if (publicUrl) return publicUrl;
  const hostname = config.server.hostname.trim().replace(/\.$/, "");
  return hostname ? `https://${hostname}` : null;
}
