/**
 * URLs with their credentials hidden, for showing a configured URL (`print-config`) or logging one: the password of
 * the userinfo, a userinfo that is a bare token, and the values of query parameters whose names say they hold a
 * secret become `***`; everything else is shown as written, so the reader can still tell which server it is.
 * Invariant: what comes out never contains a credential that was in the input; a value that is not a URL with an
 * authority (`scheme://…`) comes out whole as REDACTED, since nothing in it can be told apart (`user:pw@host` without
 * a scheme parses as a URL whose scheme is `user`).
 */

export const REDACTED = "<redacted>";
const MASK = "***";

/** Parameter names that carry credentials: `password`, `sslpassword`, `api_key`, `apikey`, `access_token`, `X-Amz-Signature`, … */
const SECRET_PARAMETER = /pass|secret|token|key|auth|sig|credential|session/i;

export function redactUrlCredentials(raw: string): string {
  if (!raw) return raw;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) return REDACTED;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return REDACTED;
  }
  // A password hides behind the user name. Over http a user name alone (`https://sk-123@host`) is itself the
  // token; a database's user name alone is a role, its password given elsewhere.
  const before = url.href;
  if (url.password) url.password = MASK;
  else if (url.username && /^https?:$/.test(url.protocol)) url.username = MASK;
  if (url.search) {
    const parameters = url.search
      .slice(1)
      .split("&")
      .map((pair) => {
        const equals = pair.indexOf("=");
        const name = decodeName(equals < 0 ? pair : pair.slice(0, equals));
        return equals >= 0 && SECRET_PARAMETER.test(name) ? `${pair.slice(0, equals)}=${MASK}` : pair;
      });
    url.search = parameters.join("&");
  }
  // Unchanged, it is shown as written (parsing adds a trailing slash to `https://host`).
  return url.href === before ? raw : url.href;
}

function decodeName(encoded: string): string {
  try {
    return decodeURIComponent(encoded.replace(/\+/g, " "));
  } catch {
    return encoded;
  }
}
