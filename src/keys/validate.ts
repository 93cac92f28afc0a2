/**
 * Validation of the create-key body (DESIGN §3): Resend's `{name, permission?, domain_id?}` with Mailroom's
 * extensions `scopes`, `mode` and `rate_limit`. Pure: no store, no framework; every problem with its path.
 */
import { validationError, type ErrorDetail } from "../errors.ts";
import type { CreateKeyInput } from "./model.ts";

const PERMISSIONS = ["full_access", "sending_access"];

/** The input, with `domainId` still to be resolved to its name by the caller. */
export function parseCreateKey(body: Record<string, unknown>): CreateKeyInput & { domainId?: string } {
  const problems: ErrorDetail[] = [];
  const strings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === "string");
  if (typeof body.name !== "string") problems.push({ path: "name", message: "is required" });
  if (body.permission !== undefined && !PERMISSIONS.includes(body.permission as string))
    problems.push({ path: "permission", message: "must be full_access or sending_access" });
  if (body.scopes !== undefined && !strings(body.scopes))
    problems.push({ path: "scopes", message: "must be an array of scope names" });
  if (body.permission !== undefined && body.scopes !== undefined)
    problems.push({ path: "scopes", message: "give permission or scopes, not both" });
  if (body.mode !== undefined && body.mode !== "live" && body.mode !== "test")
    problems.push({ path: "mode", message: "must be live or test" });
  if (body.domain_id !== undefined && typeof body.domain_id !== "string")
    problems.push({ path: "domain_id", message: "must be a domain id or name" });
  if (body.domains !== undefined && !strings(body.domains))
    problems.push({ path: "domains", message: "must be an array of domain names" });
  // `rate_limit_per_minute` is the field's earlier name, still accepted.
  const rateLimit = body.rate_limit ?? body.rate_limit_per_minute;
  const rateLimitPath = body.rate_limit === undefined ? "rate_limit_per_minute" : "rate_limit";
  if (rateLimit !== undefined && typeof rateLimit !== "number")
    problems.push({ path: rateLimitPath, message: "must be a positive integer" });
  if (problems.length) throw validationError(problems);
  return {
    name: body.name as string,
    scopes: (body.scopes as string[] | undefined) ?? [(body.permission as string | undefined) ?? "full_access"],
    mode: body.mode as CreateKeyInput["mode"],
    domains: body.domains as string[] | undefined,
    rateLimitPerMinute: rateLimit as number | undefined,
    domainId: body.domain_id as string | undefined,
  };
}
