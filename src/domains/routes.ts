/** HTTP routes for sending domains: create, list, get, verify now, update, delete, rotate the DKIM key. */
import { Elysia, t } from "elysia";
import { validationError } from "../errors.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readJsonObject, unknownFields } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import { parsePage } from "../http/query.ts";
import type { DomainService } from "./service.ts";
import { parseCreateDomain, parseDomainSettings } from "./validate.ts";

const SETTINGS = {
  return_path_subdomain: t.Optional(
    t.String({ description: "Subdomain for the return path and its SPF and MX records (default send)" }),
  ),
  open_tracking: t.Optional(t.Boolean({ description: "Track opens of mail from this domain by default" })),
  click_tracking: t.Optional(t.Boolean({ description: "Track clicks in mail from this domain by default" })),
  receiving_enabled: t.Optional(
    t.Boolean({ description: "Accept inbound mail for the domain (adds the Inbound MX record)" }),
  ),
  receiving: t.Optional(t.Boolean({ description: "The same as receiving_enabled" })),
  providers: t.Optional(
    t.Array(t.String(), {
      description:
        "Names of the providers that take the domain's mail, first choice first; the next takes over while one fails. Empty: [delivery] default_provider",
    }),
  ),
  capabilities: t.Optional(
    t.Object(
      {
        sending: t.Optional(t.Literal("enabled")),
        receiving: t.Optional(t.Union([t.Literal("enabled"), t.Literal("disabled")])),
      },
      { description: "Resend's form: receiving enabled or disabled" },
    ),
  ),
};
const CreateSchema = t.Object(
  { name: t.String({ description: "Domain name; Unicode names are stored as punycode" }), ...SETTINGS },
  { additionalProperties: false },
);
const UpdateSchema = t.Object(SETTINGS, { additionalProperties: false });

export function domainRoutes(deps: AuthDeps & { domains: DomainService }) {
  const { domains, config } = deps;
  const limits = bodyLimits(config);
  // Unknown fields are reported together with the other problems, so one answer lists everything wrong.
  const read = async (request: Request, allowed: readonly string[]) => {
    const body = await readJsonObject(request, limits);
    return { body, unknown: unknownFields(body, allowed) };
  };
  return new Elysia()
    .use(authenticated(deps))
    .post(
      "/v1/domains",
      async ({ request, actor }) => {
        const { body, unknown } = await read(request, Object.keys(CreateSchema.properties));
        const { name, ...settings } = parseCreateDomain(body, unknown);
        return domains.add(actor, name, settings);
      },
      {
        parse: "none",
        detail: {
          summary: "Add a sending domain; the answer lists the DNS records to publish",
          tags: ["Domains"],
          requestBody: jsonContent(CreateSchema),
        },
      },
    )
    .get("/v1/domains", ({ actor, query }) => domains.list(actor, parsePage(query)), {
      detail: { summary: "List sending domains, newest first", tags: ["Domains"] },
    })
    .get("/v1/domains/:id", ({ actor, params }) => domains.get(actor, params.id), {
      detail: { summary: "Get a domain (by id or name) with its records and their status", tags: ["Domains"] },
    })
    .post("/v1/domains/:id/verify", ({ actor, params }) => domains.verify(actor, params.id), {
      detail: { summary: "Check the domain's DNS records now", tags: ["Domains"] },
    })
    .patch(
      "/v1/domains/:id",
      async ({ request, actor, params }) => {
        const { body, unknown } = await read(request, Object.keys(UpdateSchema.properties));
        return domains.update(actor, params.id, parseDomainSettings(body, unknown));
      },
      {
        parse: "none",
        detail: {
          summary: "Update tracking defaults, the return-path subdomain, receiving or providers",
          tags: ["Domains"],
          requestBody: jsonContent(UpdateSchema),
        },
      },
    )
    .post("/v1/domains/:id/dkim/rotate", ({ actor, params }) => domains.rotateDkim(actor, params.id), {
      detail: {
        summary: "Start a DKIM key rotation: publish the new selector; it signs once found",
        tags: ["Domains"],
      },
    })
    .delete(
      "/v1/domains/:id",
      ({ actor, params, query }) => {
        if (query.force !== undefined && query.force !== "true" && query.force !== "false")
          throw validationError([{ path: "force", message: "must be true or false" }]);
        return domains.remove(actor, params.id, { force: query.force === "true" });
      },
      {
        detail: {
          summary: "Delete a domain; refused while mail from it is queued unless force=true (that mail then fails)",
          tags: ["Domains"],
        },
      },
    );
}
