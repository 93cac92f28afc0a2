/** Validation of the domain bodies (DESIGN §5). Pure: no store, no framework; every problem with its path. */
import { validationError, type ErrorDetail } from "../errors.ts";
import type { UpdateDomainInput } from "./model.ts";

const FLAGS = { open_tracking: "openTracking", click_tracking: "clickTracking", receiving_enabled: "receivingEnabled" } as const;

/** The settings of a create or update body; `earlier` holds problems already found (unknown fields), reported together. */
export function parseDomainSettings(body: Record<string, unknown>, earlier: ErrorDetail[] = []): UpdateDomainInput {
  const problems = [...earlier];
  const settings: UpdateDomainInput = {};
  for (const [wire, field] of Object.entries(FLAGS)) {
    const value = body[wire];
    if (value === undefined) continue;
    if (typeof value !== "boolean") problems.push({ path: wire, message: "must be true or false" });
    else settings[field] = value;
  }
  if (body.return_path_subdomain !== undefined) {
    if (typeof body.return_path_subdomain !== "string") problems.push({ path: "return_path_subdomain", message: "must be a string" });
    else settings.returnPathSubdomain = body.return_path_subdomain;
  }
  if (problems.length) throw validationError(problems);
  return settings;
}

/** A create body: the name and the settings. */
export function parseCreateDomain(body: Record<string, unknown>, earlier: ErrorDetail[] = []): { name: string } & UpdateDomainInput {
  const problems = typeof body.name === "string" ? earlier : [...earlier, { path: "name", message: "is required" }];
  return { name: body.name as string, ...parseDomainSettings(body, problems) };
}
