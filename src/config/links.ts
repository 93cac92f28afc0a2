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

/**
 * Where a link the CLI prints points, and the setting it came from, said beside the link: the CLI's shell may carry
 * another `MAILROOM_HTTP_PORT` than the server's, so a guessed address is named a guess (docs/security.md#links).
 */
export function printedLinkBase(config: Pick<Config, "http" | "server">): { base: string; source: string } {
  const base = publicLinkBase(config);
  if (base && config.http.public_url.trim()) return { base, source: "from [http] public_url" };
  if (base) return { base, source: "from [server] hostname, as https://<hostname>" };
  const host = config.http.host === "0.0.0.0" || config.http.host === "::" ? "127.0.0.1" : config.http.host;
  return {
    base: `http://${host}:${config.http.port}`,
    source:
      "a guess from this command's own [http] host and port: neither [http] public_url nor [server] hostname is set; if people reach the server elsewhere, set [http] public_url",
  };
}
