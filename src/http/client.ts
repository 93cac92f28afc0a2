/** Who is at the other end of a request, as far as the socket and the request tell: for sign-ins, audit and tracking. */

/** Elysia's `server`, which knows each request's peer (null when the app is driven without a listener, as in tests). */
export type RequestServer = { requestIP(request: Request): { address: string } | null } | null;

export interface ClientFacts {
  ip: string | null;
  userAgent: string | null;
}

export function clientOf(request: Request, server: RequestServer): ClientFacts {
  return { ip: server?.requestIP(request)?.address ?? null, userAgent: request.headers.get("user-agent") };
}
