/** Validation of the domain bodies (DESIGN §5). Pure: no store, no framework; every problem with its path. */
import { PROVIDER_NAME, PROVIDER_NAME_HINT } from "../config/schema.ts";
import { validationError, type ErrorDetail } from "../errors.ts";
import type { UpdateDomainInput } from "./model.ts";

// `receiving` is the short form; Resend's SDK sends `capabilities: {receiving: "enabled" | "disabled"}`.
const FLAGS = {
  open_tracking: "openTracking",
  click_tracking: "clickTracking",
  receiving_enabled: "receivingEnabled",
  receiving: "receivingEnabled",
} as const;

const MAX_PROVIDERS = 8;

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
  if (body.capabilities !== undefined) {
    const capabilities = body.capabilities as Record<string, unknown> | null;
    if (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities))
      problems.push({ path: "capabilities", message: "must be an object" });
    else {
      for (const [name, value] of Object.entries(capabilities)) {
        if (value !== "enabled" && value !== "disabled")
          problems.push({ path: `capabilities.${name}`, message: 'must be "enabled" or "disabled"' });
        else if (name === "receiving") settings.receivingEnabled = value === "enabled";
        else if (name === "sending" && value === "disabled")
          problems.push({ path: "capabilities.sending", message: "a domain here always sends; delete it to stop" });
        else if (name !== "sending")
          problems.push({ path: `capabilities.${name}`, message: "unknown capability; known: sending, receiving" });
      }
    }
  }
  if (body.return_path_subdomain !== undefined) {
    if (typeof body.return_path_subdomain !== "string")
      problems.push({ path: "return_path_subdomain", message: "must be a string" });
    else settings.returnPathSubdomain = body.return_path_subdomain;
  }
  if (body.providers !== undefined) {
    const providers = body.providers;
    if (!Array.isArray(providers))
      problems.push({ path: "providers", message: "must be a list of provider names, first choice first" });
    else if (providers.length > MAX_PROVIDERS)
      problems.push({ path: "providers", message: `at most ${MAX_PROVIDERS} providers` });
    else {
      providers.forEach((name, index) => {
        if (typeof name !== "string" || !PROVIDER_NAME.test(name))
          problems.push({ path: `providers[${index}]`, message: `must be ${PROVIDER_NAME_HINT}` });
        else if (providers.indexOf(name) !== index)
          problems.push({ path: `providers[${index}]`, message: `${name} is named twice` });
      });
      settings.providers = providers as string[];
    }
  }
  if (problems.length) throw validationError(problems);
  return settings;
}

/** A create body: the name and the settings. */
export function parseCreateDomain(
  body: Record<string, unknown>,
  earlier: ErrorDetail[] = [],
): { name: string } & UpdateDomainInput {
  const problems = typeof body.name === "string" ? earlier : [...earlier, { path: "name", message: "is required" }];
  return { name: body.name as string, ...parseDomainSettings(body, problems) };
}
