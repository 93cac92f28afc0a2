/**
 * `GET /v1/usage` (docs/logs-and-mcp.md#usage-and-metrics), Resend's shape — one contract (http/contract.ts).
 */
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { UsageSchema, type UsageService } from "./service.ts";

export function usageRoutes(deps: AuthDeps & { usage: UsageService }) {
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "GET",
        path: "/v1/usage",
        summary: "The organisation's usage: emails today and this month, received mail, domains, audience, rate limit",
        tags: ["Usage"],
        responses: { 200: UsageSchema },
      },
      ({ actor }) => deps.usage.usage(actor),
    ),
  ]);
}
