/**
 * API documentation: the OpenAPI document generated from the route definitions at /openapi.json, and Swagger UI
 * at /docs with every asset served from the executable. Invariant: the page loads nothing from another origin.
 */
import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import type { OpenAPIV3 } from "openapi-types";
import { NAMED_SCHEMAS, withContractParameters } from "./contract.ts";
// Embedded by `bun build --compile` (type "file"): the path resolves inside the executable.
import swaggerBundlePath from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import swaggerCssPath from "swagger-ui-dist/swagger-ui.css" with { type: "file" };

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailroom API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>`;

// Kept out of the page so a strict Content-Security-Policy (no inline script) holds.
const INIT = `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#docs", deepLinking: true, validatorUrl: null, tryItOutEnabled: false });`;

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
};

export function docsRoutes(version: string) {
  // The plugin's document keeps only a route's path parameters; the contracts' own (query too) go back in.
  return new Elysia()
    .onAfterHandle(({ path, response }) => {
      if (path === "/openapi.json") withContractParameters(response);
    })
    .use(
      openapi({
        path: "/docs",
        specPath: "/openapi.json",
        provider: null,
        documentation: {
          info: {
            title: "Mailroom API",
            version,
            description: "Send and track transactional email. Authenticate with `Authorization: Bearer <API_KEY>`.",
          },
          // The order the docs list the areas in (Swagger UI follows this list): sending first, operations last.
          tags: [
            { name: "Emails", description: "Send, schedule, look up and cancel mail; its attachments" },
            { name: "Domains", description: "Sending domains, their DNS records and verification" },
            { name: "Templates", description: "Handlebars and MJML templates, published in versions" },
            { name: "Broadcasts", description: "Mail to a segment of contacts, in the broadcast lane" },
            { name: "Contacts", description: "The audience: contacts by id or address, their segments and topics" },
            { name: "Segments", description: "Groups of contacts a broadcast goes to (audiences: the older name)" },
            {
              name: "Topics",
              description: "What a contact may leave without leaving the rest: unsubscribes per topic",
            },
            { name: "Contact properties", description: "Custom fields of contacts, for personalisation" },
            { name: "Webhooks", description: "Signed event notifications and their deliveries" },
            { name: "Suppressions", description: "Addresses mail is not sent to" },
            { name: "Inbound", description: "Mail received by the MX" },
            {
              name: "Inbound routes",
              description: "What the MX does with each address: store, webhook, forward, reject, drop",
            },
            { name: "API keys", description: "Keys, their scopes and domains" },
            { name: "AI", description: "The subject scorer and the writer" },
            { name: "Tracking", description: "Open and click tracking, unsubscribe links" },
            { name: "Providers", description: "Provider events (SES through SNS)" },
            { name: "Queue", description: "What waits to be delivered; retry, cancel and release; pauses" },
            { name: "People", description: "Setup, sign-in and sign-out, the signed-in person, passwords" },
            { name: "Members", description: "The organisation's people, their roles, and invitations" },
            {
              name: "Organization",
              description: "Limits, the daily quota and today's usage, retention and what is stored",
            },
            {
              name: "Deliverability",
              description: "Sending health (bounce and complaint rates, guardrails) and DMARC reports about a domain",
            },
            { name: "Logs", description: "The request log: every authenticated API request and its answer" },
            { name: "Usage", description: "This month's sending and receiving against the limits" },
            { name: "MCP", description: "The built-in Model Context Protocol server: the API as tools for agents" },
            { name: "Operations", description: "Health, readiness and metrics" },
          ],
          // The named schemas of the routes' contracts (http/contract.ts), filled as the routes are mounted.
          components: {
            securitySchemes: { apiKey: { type: "http", scheme: "bearer" } },
            schemas: NAMED_SCHEMAS as Record<string, OpenAPIV3.SchemaObject>,
          },
          security: [{ apiKey: [] }],
        },
        exclude: {
          paths: ["/docs", "/docs/assets/swagger-ui.css", "/docs/assets/swagger-ui-bundle.js", "/docs/assets/init.js"],
        },
      }),
    )
    .get(
      "/docs",
      () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8", ...SECURITY_HEADERS } }),
    )
    .get(
      "/docs/assets/swagger-ui.css",
      () =>
        new Response(Bun.file(swaggerCssPath), {
          headers: { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=86400" },
        }),
    )
    .get(
      "/docs/assets/swagger-ui-bundle.js",
      () =>
        new Response(Bun.file(swaggerBundlePath), {
          headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
        }),
    )
    .get(
      "/docs/assets/init.js",
      () => new Response(INIT, { headers: { "content-type": "text/javascript; charset=utf-8" } }),
    );
}
