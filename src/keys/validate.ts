/** Validation of the create-key body (DESIGN §2). Pure: no store, no framework; every problem with its path. */
import { validationError, type ErrorDetail } from "../errors.ts";
import type { CreateKeyInput } from "./model.ts";

export function parseCreateKey(body: Record<string, unknown>): CreateKeyInput {
  const problems: ErrorDetail[] = [];
  if (typeof body.name !== "string") problems.push({ path: "name", message: "is required" });
  if (!Array.isArray(body.scopes) || body.scopes.some((s) => typeof s !== "string")) problems.push({ path: "scopes", message: "must be an array of scope names" });
  if (body.mode !== undefined && body.mode !== "live" && body.mode !== "test") problems.push({ path: "mode", message: "must be live or test" });
  if (body.domains !== undefined && (!Array.isArray(body.domains) || body.domains.some((d) => typeof d !== "string"))) problems.push({ path: "domains", message: "must be an array of domain names" });
  if (body.rate_limit_per_minute !== undefined && typeof body.rate_limit_per_minute !== "number") problems.push({ path: "rate_limit_per_minute", message: "must be a positive integer" });
  if (problems.length) throw validationError(problems);
  return {
    name: body.name as string,
    scopes: body.scopes as string[],
    mode: body.mode as CreateKeyInput["mode"],
    domains: body.domains as string[] | undefined,
    rateLimitPerMinute: body.rate_limit_per_minute as number | undefined,
  };
}
