/** HTTP routes for sending domains: create, list, get, verify now, update, delete, rotate the DKIM key. */
import { Elysia } from "elysia";
import { validationError } from "../errors.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readBody } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import { parsePage } from "../http/query.ts";
import type { DomainService } from "./service.ts";
import { CreateDomainSchema, parseCreateDomain, parseDomainSettings, UpdateDomainSchema } from "./validate.ts";

export function domainRoutes(deps: AuthDeps & { domains: DomainService }) {
  const { domains, config } = deps;
  const limits = bodyLimits(config);
  return new Elysia()
    .use(authenticated(deps))
    .post(
      "/v1/domains",
      async ({ request, actor }) => {
        const { name, ...settings } = await readBody(request, limits, CreateDomainSchema, { rules: parseCreateDomain });
        return domains.add(actor, name, settings);
      },
      {
        parse: "none",
        detail: {
          summary: "Add a sending domain; the answer lists the DNS records to publish",
          tags: ["Domains"],
          requestBody: jsonContent(CreateDomainSchema),
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
        return domains.update(
          actor,
          params.id,
          await readBody(request, limits, UpdateDomainSchema, { rules: parseDomainSettings }),
        );
      },
      {
        parse: "none",
        detail: {
          summary: "Update tracking defaults, the return-path subdomain, receiving or providers",
          tags: ["Domains"],
          requestBody: jsonContent(UpdateDomainSchema),
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
