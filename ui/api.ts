/**
 * The UI's only way to the server: the public /v1 API with the signed-in key as a Bearer token. Owns the key's
 * storage. Invariant: the key lives in sessionStorage alone (gone when the tab closes), never in localStorage.
 */

const KEY = "mailroom.api_key";

export const session = {
  key: (): string | null => sessionStorage.getItem(KEY),
  signIn: (key: string) => sessionStorage.setItem(KEY, key),
  signOut: () => sessionStorage.removeItem(KEY),
};

/** An API failure with the contract's error body (name, message, statusCode). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
    message: string,
  ) {
    super(message);
  }
}

async function request(method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${session.key() ?? ""}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) {
    const error = (await res.json().catch(() => ({}))) as { name?: string; message?: string };
    throw new ApiError(res.status, error.name ?? "error", error.message ?? `${method} ${path} answered ${res.status}`);
  }
  return res;
}

export const api = {
  get: async <T>(path: string): Promise<T> => (await request("GET", path)).json() as Promise<T>,
  post: async <T>(path: string, body?: unknown): Promise<T> => (await request("POST", path, body ?? {})).json() as Promise<T>,
  patch: async <T>(path: string, body: unknown): Promise<T> => (await request("PATCH", path, body)).json() as Promise<T>,
  del: async <T>(path: string): Promise<T> => (await request("DELETE", path)).json() as Promise<T>,
  blob: async (path: string): Promise<Blob> => (await request("GET", path)).blob(),
};

/** A query string from the set values only. */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

export interface Page<T> {
  object: "list";
  data: T[];
  has_more?: boolean;
}

/** The screens a key may open: probed with a cheap GET each; 403 insufficient_scope means "not allowed". */
export const AREAS = [
  { id: "emails", label: "Emails", probe: "/v1/emails?limit=1" },
  { id: "domains", label: "Domains", probe: "/v1/domains?limit=1" },
  { id: "keys", label: "API keys", probe: "/v1/api-keys?limit=1" },
  { id: "suppressions", label: "Suppressions", probe: "/v1/suppressions?limit=1" },
  { id: "webhooks", label: "Webhooks", probe: "/v1/webhooks?limit=1" },
] as const;
export type AreaId = (typeof AREAS)[number]["id"];

/**
 * Which areas the key may read. Throws ApiError 401 for a key the server does not accept, so sign-in can say so.
 */
export async function probeAccess(): Promise<Set<AreaId>> {
  const allowed = new Set<AreaId>();
  const results = await Promise.allSettled(AREAS.map((area) => api.get(area.probe)));
  results.forEach((result, i) => {
    const area = AREAS[i]!;
    if (result.status === "fulfilled") allowed.add(area.id);
    else if (result.reason instanceof ApiError && result.reason.status === 401) throw result.reason;
    else if (!(result.reason instanceof ApiError && result.reason.errorName === "insufficient_scope")) throw result.reason;
  });
  return allowed;
}
