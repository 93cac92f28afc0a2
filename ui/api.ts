/**
 * The UI's only way to the server: the public /v1 API, as a signed-in person (the HttpOnly session cookie the
 * browser sends by itself, with the organisation chosen in `Mailroom-Organization`) or with an API key as a Bearer
 * token. Owns the key's storage. Invariant: a key lives in sessionStorage alone (gone when the tab closes), never in
 * localStorage; the session's token is never readable here at all.
 */

import type { Scope } from "../clients/node/src/wire.ts";

const KEY = "mailroom.api_key";
const ORGANIZATION = "mailroom.organization";
/** The organisation this tab last worked in, `{id, name}`: so a reload can name one the person was removed from. */
const WORKED_IN = "mailroom.worked_in";

export const session = {
  key: (): string | null => sessionStorage.getItem(KEY),
  signIn: (key: string) => sessionStorage.setItem(KEY, key),
  signOut: () => sessionStorage.removeItem(KEY),
  /** The organisation a signed-in person works in (null: their first). */
  organization: (): string | null => sessionStorage.getItem(ORGANIZATION),
  chooseOrganization: (id: string) => sessionStorage.setItem(ORGANIZATION, id),
};

/** An API failure with the contract's error body (name, message, statusCode, and details when given). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
    message: string,
    readonly details: Array<{ path: string; message: string }> = [],
  ) {
    super(message);
  }
}

async function request(method: string, path: string, body?: unknown): Promise<Response> {
  return send(method, path, body === undefined ? undefined : JSON.stringify(body), body !== undefined);
}

async function send(
  method: string,
  path: string,
  body: string | FormData | undefined,
  json: boolean,
): Promise<Response> {
  const key = session.key();
  const organization = session.organization();
  const headers: Record<string, string> = key
    ? { authorization: `Bearer ${key}` }
    : organization
      ? { "mailroom-organization": organization }
      : {};
  // A FormData body sets its own multipart content type, with its boundary.
  if (json) headers["content-type"] = "application/json";
  const res = await fetch(path, { method, headers, body });
  if (!res.ok) {
    const error = (await res.json().catch(() => ({}))) as {
      name?: string;
      message?: string;
      details?: Array<{ path: string; message: string }>;
    };
    throw new ApiError(
      res.status,
      error.name ?? "error",
      error.message ?? `${method} ${path} answered ${res.status}`,
      error.details,
    );
  }
  return res;
}

export const api = {
  get: async <T>(path: string): Promise<T> => (await request("GET", path)).json() as Promise<T>,
  post: async <T>(path: string, body?: unknown): Promise<T> =>
    (await request("POST", path, body ?? {})).json() as Promise<T>,
  patch: async <T>(path: string, body: unknown): Promise<T> =>
    (await request("PATCH", path, body)).json() as Promise<T>,
  del: async <T>(path: string): Promise<T> => (await request("DELETE", path)).json() as Promise<T>,
  blob: async (path: string): Promise<Blob> => (await request("GET", path)).blob(),
  /** A multipart form (a file upload: contact imports). */
  upload: async <T>(path: string, form: FormData): Promise<T> =>
    (await send("POST", path, form, false)).json() as Promise<T>,
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

/**
 * An `[ip_pools.<name>]` of direct delivery as `GET /v1/ip-pools` shows it (docs/deliverability.md; the server's `PoolState` in
 * src/providers/sending-ips.ts, declared here so the UI compiles without the server's sources).
 */
export interface IpPool {
  name: string;
  /** The pool's warm-up, in days: "30d". */
  warmup: string;
  addresses: IpPoolAddress[];
}

export interface IpPoolAddress {
  address: string;
  /** The name it greets with (its PTR name); null: `[mx] ehlo_name`. */
  ehlo_name: string | null;
  /** Day of its warm-up (1: the day it first sent); null before it sent, or once warm-up is over. */
  warmup_day: number | null;
  /** Today's cap per destination provider while warming up; null: uncapped. */
  daily_cap: number | null;
  /** Messages delivered today (UTC), per destination provider: gmail, outlook, yahoo, other, or a configured one. */
  today: Record<string, number>;
  /** Providers whose rate is halved after a throttling reply, with the rate in force and until when. */
  backed_off: Array<{ provider: string; messages_per_minute: number; until: string }>;
}

/** What the signed-in key or person may do, as the server says (`GET /v1/api-keys/current`). */
export interface Access {
  mode: "live" | "test";
  scopes: ReadonlySet<string>;
  /** The signed-in key's id and the sending domains it is restricted to (null: a person, or any domain). */
  keyId: string | null;
  domains: readonly string[] | null;
  /** Whether messages' content (html, text, raw, attachments) is readable: a viewer reads records only. */
  readsContent: boolean;
  /** The signed-in person and their organisations; null for an API key. */
  person: Me | null;
  /**
   * The name of the organisation this tab worked in until the person was removed from it (null: not removed). The
   * tab has left it: the screens show the person's first remaining organisation, or none.
   */
  removedFrom: string | null;
}

export interface Me {
  object: "session";
  user: { id: string; email: string; name: string; instance_admin: boolean; totp_enabled: boolean };
  organizations: Array<{ id: string; name: string; role: string }>;
}

/** The screens, in navigation order, and the scope each needs to open. */
export const AREAS = [
  { id: "overview", label: "Overview", scope: "emails:read" },
  { id: "emails", label: "Emails", scope: "emails:read" },
  { id: "broadcasts", label: "Broadcasts", scope: "contacts:read" },
  { id: "domains", label: "Domains", scope: "domains:read" },
  { id: "templates", label: "Templates", scope: "templates:read" },
  { id: "inbound", label: "Inbound", scope: "inbound:read" },
  { id: "routes", label: "Inbound routes", scope: "inbound:read" },
  { id: "webhooks", label: "Webhooks", scope: "webhooks:read" },
  { id: "queue", label: "Queue", scope: "deliveries:read" },
  { id: "deliverability", label: "Deliverability", scope: "domains:read" },
  { id: "suppressions", label: "Suppressions", scope: "suppressions:read" },
  { id: "logs", label: "Logs", scope: "logs:read" },
  { id: "keys", label: "API keys", scope: "api_keys:read" },
  { id: "members", label: "Members", scope: "members:read" },
  { id: "organization", label: "Organisation", scope: "organization:read" },
  { id: "audit", label: "Audit log", scope: "audit:read" },
  { id: "ai", label: "AI", scope: "ai:use" },
  { id: "contacts", label: "Contacts", scope: "contacts:read" },
  { id: "segments", label: "Segments", scope: "contacts:read" },
  { id: "topics", label: "Topics", scope: "contacts:read" },
  { id: "properties", label: "Properties", scope: "contacts:read" },
  { id: "imports", label: "Imports", scope: "contacts:read" },
] as const satisfies ReadonlyArray<{ id: string; label: string; scope: Scope }>;
export type AreaId = (typeof AREAS)[number]["id"];

interface CurrentKey {
  id: string | null;
  mode: "live" | "test";
  scopes: string[];
  domains: string[] | null;
  reads_message_content: boolean;
}

/**
 * Asks the server what the key may do. Throws ApiError 401 for a key it does not accept, so sign-in can say so. A
 * person no longer a member of the organisation the tab worked in leaves it here (the server refuses its header with
 * 403): the tab forgets it, works in the person's first remaining one, and `removedFrom` names the one they left.
 */
export async function fetchAccess(): Promise<Access> {
  let current: CurrentKey;
  try {
    current = await api.get<CurrentKey>("/v1/api-keys/current");
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 403 && !session.key() && session.organization())) throw err;
    sessionStorage.removeItem(ORGANIZATION);
    current = await api.get<CurrentKey>("/v1/api-keys/current");
  }
  const person = session.key() ? null : await api.get<Me>("/v1/me");
  let removedFrom: string | null = null;
  if (person) {
    const before = JSON.parse(sessionStorage.getItem(WORKED_IN) ?? "null") as {
      user: string;
      id: string;
      name: string;
    } | null;
    if (before?.user === person.user.id && !person.organizations.some((o) => o.id === before.id))
      removedFrom = before.name;
    const now = person.organizations.find((o) => o.id === session.organization()) ?? person.organizations[0];
    if (now) sessionStorage.setItem(WORKED_IN, JSON.stringify({ user: person.user.id, id: now.id, name: now.name }));
    else sessionStorage.removeItem(WORKED_IN);
  }
  return {
    mode: current.mode,
    scopes: new Set(current.scopes),
    keyId: current.id,
    domains: current.domains,
    readsContent: current.reads_message_content,
    person,
    removedFrom,
  };
}

/** Whether this browser has a session (asked without a credential, so it never answers 401). */
export async function signedIn(): Promise<boolean> {
  return (await api.get<{ user: unknown }>("/v1/session")).user !== null;
}

/** Signs a person in: the server sets the session cookie. */
/** Signs in with a password, and the authenticator app's code (or a recovery code) when the person has TOTP on. */
export const signInWithPassword = (email: string, password: string, totp?: string) =>
  api.post<Me>("/v1/session", { email, password, ...(totp && { totp }) });

/** Whether this server offers single sign-on, and whether it is the only way in for most people. */
export const singleSignOn = () => api.get<{ enabled: boolean; required: boolean }>("/v1/sso");

/** Ends the person's session (the cookie is cleared by the answer), or forgets the key. */
export async function signOut(): Promise<void> {
  if (session.key()) session.signOut();
  else await api.del("/v1/session").catch(() => undefined);
  sessionStorage.removeItem(ORGANIZATION);
  sessionStorage.removeItem(WORKED_IN);
}
