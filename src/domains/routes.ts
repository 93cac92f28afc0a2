/** HTTP routes for sending domains: create, list, get, verify now, update, delete, rotate the DKIM key. */
import { Elysia, t } from "elysia";
import { validationError, type ErrorDetail } from "../errors.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readJsonObject, unknownFields, type BodyLimits } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import { requireScope } from "../keys/service.ts";
import type { DomainService } from "./service.ts";

const SETTINGS = {
  return_path_subdomain: t.Optional(t.String({ description: "Subdomain for the return path and its SPF and MX records (default send)" })),
  open_tracking: t.Optional(t.Boolean({ description: "Track opens of mail from this domain by default" })),
  click_tracking: t.Optional(t.Boolean({ description: "Track clicks in mail from this domain by default" })),
  receiving_enabled: t.Optional(t.Boolean({ description: "Accept inbound mail for the domain (adds the Inbound MX record)" })),
};
const CreateSchema = t.Object({ name: t.String({ description: "Domain name; Unicode names are stored as punycode" }), ...SETTINGS }, { additionalProperties: false });
const UpdateSchema = t.Object(SETTINGS, { additionalProperties: false });

type Settings = { returnPathSubdomain?: string; openTracking?: boolean; clickTracking?: boolean; receivingEnabled?: boolean };

/** Validates a JSON object of `allowed` fields: settings typed as documented, nothing unknown. */
async function readSettings(request: Request, limits: BodyLimits, allowed: readonly string[]): Promise<{ body: Record<string, unknown>; settings: Settings }> {
  // Unknown fields are reported together with the other problems, so one answer lists everything wrong.
  const body = await readJsonObject(request, limits);
  const problems: ErrorDetail[] = unknownFields(body, allowed);
  for (const key of ["open_tracking", "click_tracking", "receiving_enabled"]) {
    if (body[key] !== undefined && typeof body[key] !== "boolean") problems.push({ path: key, message: "must be true or false" });
  }
  if (body.return_path_subdomain !== undefined && typeof body.return_path_subdomain !== "string") problems.push({ path: "return_path_subdomain", message: "must be a string" });
  if (problems.length) throw validationError(problems);
  return {
    body,
    settings: {
      returnPathSubdomain: body.return_path_subdomain as string | undefined,
      openTracking: body.open_tracking as boolean | undefined,
      clickTracking: body.click_tracking as boolean | undefined,
      receivingEnabled: body.receiving_enabled as boolean | undefined,
    },
  };
}

export function domainRoutes(deps: AuthDeps & { domains: DomainService }) {
  const { domains, config } = deps;
  const limits = bodyLimits(config);
  return new Elysia()
    .use(authenticated(deps))
    .post(
      "/v1/domains",
      async ({ request, actor }) => {
        requireScope(actor, "domains:write");
        const { body, settings } = await readSettings(request, limits, Object.keys(CreateSchema.properties));
        if (typeof body.name !== "string") throw validationError([{ path: "name", message: "is required" }]);
        return domains.add(actor.organizationId, body.name, settings);
      },
      { parse: "none", detail: { summary: "Add a sending domain; the answer lists the DNS records to publish", tags: ["Domains"], requestBody: jsonContent(CreateSchema) } },
    )
    .get(
      "/v1/domains",
      async ({ actor }) => {
        requireScope(actor, "domains:read");
        return { object: "list", data: await domains.list(actor.organizationId) };
      },
      { detail: { summary: "List sending domains", tags: ["Domains"] } },
    )
    .get(
      "/v1/domains/:id",
      ({ actor, params }) => {
        requireScope(actor, "domains:read");
        return domains.get(actor.organizationId, params.id);
      },
      { detail: { summary: "Get a domain (by id or name) with its records and their status", tags: ["Domains"] } },
    )
    .post(
      "/v1/domains/:id/verify",
      ({ actor, params }) => {
        requireScope(actor, "domains:write");
        return domains.verify(actor.organizationId, params.id);
      },
      { detail: { summary: "Check the domain's DNS records now", tags: ["Domains"] } },
    )
    .patch(
      "/v1/domains/:id",
      async ({ request, actor, params }) => {
        requireScope(actor, "domains:write");
        const { settings } = await readSettings(request, limits, Object.keys(UpdateSchema.properties));
        return domains.update(actor.organizationId, params.id, settings);
      },
      { parse: "none", detail: { summary: "Update tracking defaults, the return-path subdomain or receiving", tags: ["Domains"], requestBody: jsonContent(UpdateSchema) } },
    )
    .post(
      "/v1/domains/:id/dkim/rotate",
      ({ actor, params }) => {
        requireScope(actor, "domains:write");
        return domains.rotateDkim(actor.organizationId, params.id);
      },
      { detail: { summary: "Start a DKIM key rotation: publish the new selector; it signs once found", tags: ["Domains"] } },
    )
    .delete(
      "/v1/domains/:id",
      ({ actor, params, query }) => {
        requireScope(actor, "domains:write");
        if (query.force !== undefined && query.force !== "true" && query.force !== "false") throw validationError([{ path: "force", message: "must be true or false" }]);
        return domains.remove(actor.organizationId, params.id, { force: query.force === "true" });
      },
      { detail: { summary: "Delete a domain; refused while mail from it is queued unless force=true (that mail then fails)", tags: ["Domains"] } },
    );
}
