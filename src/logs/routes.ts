/**
 * HTTP routes of the request log, in Resend's shapes (docs/logs-and-mcp.md#the-request-log): `GET /v1/logs` and
 * `GET /v1/logs/:id` — each route one contract (http/contract.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { PageQuery } from "../lib/wire.ts";
import { LogListSchema, LogSchema } from "./model.ts";
import type { RequestLogs } from "./service.ts";

const tags = ["Logs"];

export function logRoutes(deps: AuthDeps & { requestLogs: RequestLogs }) {
  const { requestLogs } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "GET",
        path: "/v1/logs",
        summary: "List API requests made with keys, newest first (filters: status, method, api_key_id, endpoint)",
        tags,
        query: t.Object({
          ...PageQuery,
          status: t.Optional(t.Integer({ minimum: 100, maximum: 599, description: "The answer's HTTP status" })),
          method: t.Optional(t.String({ maxLength: 10, description: "GET, POST, PATCH, PUT or DELETE" })),
          api_key_id: t.Optional(t.String({ format: "uuid", maxLength: 36, description: "The key that made them" })),
          endpoint: t.Optional(
            t.String({
              minLength: 1,
              maxLength: 200,
              pattern: "^/",
              description: "A path as entries name it (no /v1), or its start: /emails matches /emails and /emails/<id>",
            }),
          ),
        }),
        responses: { 200: LogListSchema },
      },
      ({ actor, query }) =>
        requestLogs.list(actor, {
          limit: query.limit ?? 20,
          after: query.after,
          before: query.before,
          status: query.status,
          method: query.method,
          apiKeyId: query.api_key_id,
          endpoint: query.endpoint,
        }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/logs/:id",
        summary: 'One API request with its bodies, secrets replaced by "[redacted]"',
        tags,
        params: t.Object({ id: t.String({ maxLength: 64 }) }),
        responses: { 200: LogSchema },
      },
      ({ actor, params }) => requestLogs.get(actor, params.id),
    ),
  ]);
}
