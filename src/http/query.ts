/** Query-string helpers shared by list endpoints: bounded `limit`, UUID cursors, enum filters. */
import { validationError } from "../errors.ts";
import { isUuid } from "../lib/ids.ts";

export function parseLimit(raw: string | undefined, fallback = 20, max = 100): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > max)
    throw validationError([{ path: "limit", message: `must be an integer from 1 to ${max}` }]);
  return n;
}

export function parseCursor(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!isUuid(raw)) throw validationError([{ path: name, message: "must be an id from a previous page" }]);
  return raw.toLowerCase();
}

export function parseEnum<T extends string>(
  name: string,
  raw: string | undefined,
  values: readonly T[],
): T | undefined {
  if (raw === undefined) return undefined;
  if (!(values as readonly string[]).includes(raw))
    throw validationError([{ path: name, message: `must be one of ${values.join(", ")}` }]);
  return raw as T;
}

/** A list's page: `limit` (1–100, default 20) and an `after` or `before` cursor. */
export function parsePage(query: Record<string, string | undefined>): {
  limit: number;
  after?: string;
  before?: string;
} {
  return {
    limit: parseLimit(query.limit),
    after: parseCursor("after", query.after),
    before: parseCursor("before", query.before),
  };
}
