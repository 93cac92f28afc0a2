/**
 * The request log as callers read it (docs/logs-and-mcp.md#the-request-log): newest first by Resend's cursors,
 * filtered by status, method and key; one entry with its (already redacted) bodies.
 * Invariants: only with `logs:read`; an organisation reads its own rows only; a test key reads the rows of test keys
 * only (its sandbox, docs/keys-and-limits.md#test-keys-are-a-sandbox) — another key's live request is `not_found`.
 */
import { and, eq, or, sql, type SQL } from "drizzle-orm";
import { requireScope, type Actor } from "../access.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import { AppError } from "../errors.ts";
import type { LogListItemView, LogListView, LogView } from "./model.ts";

export interface LogQuery extends PageOptions {
  status?: number;
  method?: string;
  apiKeyId?: string;
  /** A path, or its start at a `/`: `/emails` is `/emails` and `/emails/<anything>`. */
  endpoint?: string;
}

/** `text` for a LIKE pattern that matches it literally (`\\` escapes, as the query's ESCAPE says). */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface RequestLogs {
  list(actor: Actor, query: LogQuery): Promise<LogListView>;
  get(actor: Actor, id: string): Promise<LogView>;
}

export function createRequestLogs(deps: {
  db: Db;
  /** `[retention] logs`, said on every page. */
  retentionMs: number;
  /** `[http] request_log`. */
  recording: boolean;
}): RequestLogs {
  const { db } = deps;
  const retentionDays = Math.round((deps.retentionMs / 86_400_000) * 100) / 100;
  const { requestLogs } = tablesOf(db);

  const visible = (actor: Actor): SQL[] => {
    requireScope(actor, "logs:read");
    const filters = [eq(requestLogs.organizationId, actor.organizationId)];
    if (actor.mode === "test") filters.push(eq(requestLogs.mode, "test"));
    return filters;
  };

  const item = (row: typeof requestLogs.$inferSelect): LogListItemView => ({
    id: row.id,
    created_at: row.createdAt,
    endpoint: row.endpoint,
    method: row.method,
    response_status: row.responseStatus,
    user_agent: row.userAgent,
    api_key_id: row.apiKeyId,
  });

  return {
    async list(actor, query) {
      const filters = visible(actor);
      if (query.status !== undefined) filters.push(eq(requestLogs.responseStatus, query.status));
      if (query.method) filters.push(eq(requestLogs.method, query.method.toUpperCase()));
      if (query.apiKeyId) filters.push(eq(requestLogs.apiKeyId, query.apiKeyId.toLowerCase()));
      if (query.endpoint) {
        const path = query.endpoint.replace(/\/+$/, "") || "/";
        filters.push(
          or(
            eq(requestLogs.endpoint, path),
            sql`${requestLogs.endpoint} LIKE ${`${literal(path === "/" ? "" : path)}/%`} ESCAPE '\\'`,
          )!,
        );
      }
      const { page, hasMore } = await pageById(requestLogs.id, filters, query, (where, order, limit) =>
        db
          .select({
            id: requestLogs.id,
            createdAt: requestLogs.createdAt,
            endpoint: requestLogs.endpoint,
            method: requestLogs.method,
            responseStatus: requestLogs.responseStatus,
            userAgent: requestLogs.userAgent,
            apiKeyId: requestLogs.apiKeyId,
          })
          .from(requestLogs)
          .where(where)
          .orderBy(order)
          .limit(limit),
      );
      return {
        object: "list",
        has_more: hasMore,
        data: page.map((row) => item(row as typeof requestLogs.$inferSelect)),
        retention_days: retentionDays,
        recording: deps.recording,
      };
    },

    async get(actor, id) {
      const row = await first(
        db
          .select()
          .from(requestLogs)
          .where(and(...visible(actor), eq(requestLogs.id, id.toLowerCase()))),
      );
      if (!row) throw new AppError("not_found", "Log entry not found.");
      return {
        object: "log",
        ...item(row),
        request_body: row.requestBody ?? null,
        response_body: row.responseBody ?? null,
      };
    },
  };
}
