/**
 * HTTP routes for sending domains (docs/domains.md): create, list, get, verify now, update, delete, rotate the DKIM
 * key — each route one contract (http/contract.ts). The rules a schema cannot say stay in validate.ts.
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { ListOf, PageQuery } from "../lib/wire.ts";
import { DomainDeletedSchema, DomainSchema } from "./model.ts";
import type { DomainService } from "./service.ts";
import { CreateDomainSchema, parseCreateDomain, parseDomainSettings, UpdateDomainSchema } from "./validate.ts";

const tags = ["Domains"];
const IdOrName = t.Object({ id: t.String({ description: "The domain's id, or its name" }) });

export function domainRoutes(deps: AuthDeps & { domains: DomainService }) {
  const { domains } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "POST",
        path: "/v1/domains",
        summary: "Add a sending domain; the answer lists the DNS records to publish",
        tags,
        body: CreateDomainSchema,
        responses: { 200: DomainSchema },
        errors: ["conflict"],
      },
      ({ actor, body }) => {
        const { name, ...settings } = parseCreateDomain(body);
        return domains.add(actor, name, settings);
      },
    ),
    route(
      {
        method: "GET",
        path: "/v1/domains",
        summary: "List sending domains, newest first",
        tags,
        query: t.Object(PageQuery),
        responses: { 200: ListOf(DomainSchema) },
      },
      ({ actor, query }) => domains.list(actor, { ...query, limit: query.limit ?? 20 }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/domains/:id",
        summary: "Get a domain (by id or name) with its records and their status",
        tags,
        params: IdOrName,
        responses: { 200: DomainSchema },
      },
      ({ actor, params }) => domains.get(actor, params.id),
    ),
    route(
      {
        method: "POST",
        path: "/v1/domains/:id/verify",
        summary: "Check the domain's DNS records now",
        tags,
        params: IdOrName,
        responses: { 200: DomainSchema },
      },
      ({ actor, params }) => domains.verify(actor, params.id),
    ),
    route(
      {
        method: "POST",
        path: "/v1/domains/:id/override",
        summary:
          "Operator override (instance admins only): mark the domain verified without finding its DNS records (verified: true), or hand it back to DNS (false)",
        tags,
        params: IdOrName,
        body: t.Object(
          {
            verified: t.Boolean({
              description: "true: verified without DNS, said by verified_override; false: pending, checked at once",
            }),
          },
          { additionalProperties: false },
        ),
        responses: { 200: DomainSchema },
        errors: ["insufficient_scope", "not_found"],
      },
      ({ actor, params, body }) => domains.override(actor, params.id, body.verified),
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/domains/:id",
        summary: "Update tracking defaults, the return-path subdomain, receiving or providers",
        tags,
        params: IdOrName,
        body: UpdateDomainSchema,
        responses: { 200: DomainSchema },
      },
      ({ actor, params, body }) => domains.update(actor, params.id, parseDomainSettings(body)),
    ),
    route(
      {
        method: "POST",
        path: "/v1/domains/:id/dkim/rotate",
        summary: "Start a DKIM key rotation: publish the new selector; it signs once found",
        tags,
        params: IdOrName,
        responses: { 200: DomainSchema },
        errors: ["conflict"],
      },
      ({ actor, params }) => domains.rotateDkim(actor, params.id),
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/domains/:id",
        summary: "Delete a domain; refused while mail from it is queued unless force=true (that mail then fails)",
        tags,
        params: IdOrName,
        query: t.Object({
          force: t.Optional(t.Boolean({ description: "Delete even while mail from the domain is queued" })),
        }),
        responses: { 200: DomainDeletedSchema },
        errors: ["conflict"],
      },
      ({ actor, params, query }) => domains.remove(actor, params.id, { force: query.force === true }),
    ),
  ]);
}
