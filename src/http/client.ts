/**
 * Who is at the other end of a request, as far as the socket and the request tell: for sign-ins, audit and tracking;
 * and the name it asked for (Host), by which a domain's tracking host is told apart.
 */

/** Elysia's `server`, which knows each request's peer (null when the app is driven without a listener, as in tests). */
export type RequestServer = { requestIP(request: Request): { address: string } | null } | null;

export interface ClientFacts {
  ip: string | null;
  userAgent: string | null;
}

export function clientOf(request: Request, server: RequestServer): ClientFacts {
  return { ip: server?.requestIP(request)?.address ?? null, userAgent: request.headers.get("user-agent") };
}

/** The name a request's Host header gives, lower case, without its port or final dot; null for an address or none. */
export function hostNameOf(request: Request): string | null {
  const header = request.headers.get("host");
  if (!header || header.startsWith("[")) return null;
  const name = header.replace(/:\d+$/, "").toLowerCase().replace(/\.$/, "");
  return name.includes(".") && !/^[\d.]+$/.test(name) ? name : null;
}
