/** HTTP routes of deliverability (DESIGN §14): the organisation's and its domains' sending health. */
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import type { Guardrails } from "./guardrails.ts";

export function deliverabilityRoutes(deps: AuthDeps & { guardrails: Guardrails }) {
  const { guardrails } = deps;
  const tags = ["Deliverability"];
  return new Elysia().use(authenticated(deps)).get("/v1/sending/health", ({ actor }) => guardrails.overview(actor), {
    detail: {
      summary:
        "Bounce and complaint rates over the guardrails' window, for the organisation and each sending domain, and what they led to (ok, warning, paused)",
      tags,
    },
  });
}
