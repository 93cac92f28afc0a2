/**
 * Writes clients/node/src/wire.ts, the one copy of the wire's vocabulary the Node client and the UI share: the
 * server's constant lists (event types, statuses, scopes, …) and the request bodies not yet named in the OpenAPI
 * document, printed from the TypeBox schemas that document and check them. `npm run generate` (scripts/generate/)
 * rewrites it with the generated client types; test/generated-clients.test.ts fails while the checked-in copy
 * differs from what the server's definitions print.
 *
 * Why TypeBox and not /openapi.json: the schemas are importable values, so the script needs no app, store or port,
 * and each type gets the name chosen here rather than one derived from a path. The printer knows only the kinds the
 * request schemas use and refuses any other, so a new kind cannot be printed wrong in silence.
 */
import { Kind, OptionalKind, type TSchema } from "@sinclair/typebox";
import { join } from "node:path";
import { SCOPES } from "../src/access.ts";
import { SubjectRequestSchema, WriteRequestSchema } from "../src/ai/validate.ts";
import { RECIPIENT_STATUSES } from "../src/deliveries/model.ts";
import { DOMAIN_STATUSES, RECORD_STATUSES } from "../src/domains/model.ts";
import { CreateDomainSchema, UpdateDomainSchema } from "../src/domains/validate.ts";
import { EMAIL_STATUSES } from "../src/emails/model.ts";
import { STAT_COUNTS, STAT_INTERVALS } from "../src/emails/stats.ts";
import { SendEmailSchema } from "../src/emails/validate.ts";
import { EMAIL_EVENT_TYPES, EVENT_TYPES } from "../src/events/model.ts";
import { CreateKeySchema, RenameKeySchema } from "../src/keys/validate.ts";
import { SUPPRESSION_ORIGINS } from "../src/suppressions/model.ts";
import { TEMPLATE_ENGINES } from "../src/templates/model.ts";
import {
  CreateTemplateSchema,
  RenderTemplateSchema,
  UpdateTemplateSchema,
  ValidateTemplateSchema,
} from "../src/templates/validate.ts";
import { WEBHOOK_EVENT_STATUSES } from "../src/webhooks/model.ts";
import { CreateWebhookSchema, TestWebhookSchema, UpdateWebhookSchema } from "../src/webhooks/validate.ts";

const ROOT = join(import.meta.dir, "..");
export const WIRE_FILE = join(ROOT, "clients/node/src/wire.ts");

/** Each list under its server name, with the name of the type of one of its items. */
const LISTS: Array<[name: string, typeName: string, values: readonly string[], about: string]> = [
  [
    "EVENT_TYPES",
    "EventType",
    EVENT_TYPES,
    "Every event type a webhook may subscribe to (docs/events-and-webhooks.md).",
  ],
  ["EMAIL_EVENT_TYPES", "EmailEventType", EMAIL_EVENT_TYPES, "The event types of a message's history."],
  ["EMAIL_STATUSES", "EmailStatus", EMAIL_STATUSES, "A message's status: its last event (docs/sending.md)."],
  [
    "RECIPIENT_STATUSES",
    "RecipientStatus",
    RECIPIENT_STATUSES,
    "One recipient's status (docs/sending.md, docs/operations.md).",
  ],
  ["SCOPES", "Scope", SCOPES, "What an API key may be allowed (docs/keys-and-limits.md)."],
  ["DOMAIN_STATUSES", "DomainStatus", DOMAIN_STATUSES, "A sending domain's status (docs/domains.md)."],
  [
    "RECORD_STATUSES",
    "RecordStatus",
    RECORD_STATUSES,
    "A DNS record's status: the domain's words except partially_verified.",
  ],
  ["WEBHOOK_EVENT_STATUSES", "WebhookEventStatus", WEBHOOK_EVENT_STATUSES, "A webhook delivery's status."],
  [
    "SUPPRESSION_ORIGINS",
    "SuppressionOrigin",
    SUPPRESSION_ORIGINS,
    "What put an address on the list (docs/README.md).",
  ],
  ["TEMPLATE_ENGINES", "TemplateEngine", TEMPLATE_ENGINES, "How a template's html is read (docs/README.md)."],
  ["STAT_COUNTS", "StatCount", STAT_COUNTS, "The counts of each bucket of GET /v1/emails/stats."],
  ["STAT_INTERVALS", "StatInterval", STAT_INTERVALS, "The bucket sizes of GET /v1/emails/stats."],
];

/** Each request body under the name of its type, with the route that takes it (printed while its route does not name it). */
const BODIES: Array<[typeName: string, schema: TSchema, route: string]> = [
  ["SendEmailRequest", SendEmailSchema, "POST /v1/emails (and each item of POST /v1/emails/batch)"],
  ["CreateDomainRequest", CreateDomainSchema, "POST /v1/domains"],
  ["UpdateDomainRequest", UpdateDomainSchema, "PATCH /v1/domains/:id"],
  ["CreateApiKeyRequest", CreateKeySchema, "POST /v1/api-keys"],
  ["RenameApiKeyRequest", RenameKeySchema, "PATCH /v1/api-keys/:id"],
  ["CreateWebhookRequest", CreateWebhookSchema, "POST /v1/webhooks"],
  ["UpdateWebhookRequest", UpdateWebhookSchema, "PATCH /v1/webhooks/:id"],
  ["TestWebhookRequest", TestWebhookSchema, "POST /v1/webhooks/:id/test"],
  ["CreateTemplateRequest", CreateTemplateSchema, "POST /v1/templates"],
  ["UpdateTemplateRequest", UpdateTemplateSchema, "PATCH /v1/templates/:id"],
  ["ValidateTemplateRequest", ValidateTemplateSchema, "POST /v1/templates/validate"],
  ["RenderTemplateRequest", RenderTemplateSchema, "POST /v1/templates/:id/render"],
  ["SubjectRequest", SubjectRequestSchema, "POST /v1/ai/subject"],
  ["WriteRequest", WriteRequestSchema, "POST /v1/ai/write"],
];

const doc = (text: string, indent = "") => `${indent}/** ${text.replace(/\*\//g, "*\\/")} */\n`;
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

/** The TypeScript type a schema checks, for the kinds the request schemas use. */
export function printType(schema: TSchema, indent = ""): string {
  switch (schema[Kind]) {
    case "String":
      return "string";
    case "Number":
    case "Integer":
      return "number";
    case "Boolean":
      return "boolean";
    case "Null":
      return "null";
    case "Literal":
      return JSON.stringify(schema.const);
    case "Union":
      return (schema.anyOf as TSchema[]).map((alternative) => printType(alternative, indent)).join(" | ");
    case "Array":
      return `Array<${printType(schema.items, indent)}>`;
    case "Record": {
      const [pattern, value] = Object.entries(schema.patternProperties as Record<string, TSchema>)[0]!;
      if (pattern !== "^(.*)$") throw new Error(`a Record keyed by ${pattern} has no printer`);
      return `Record<string, ${printType(value, indent)}>`;
    }
    case "Object": {
      const inner = `${indent}  `;
      const fields = Object.entries(schema.properties as Record<string, TSchema>).map(
        ([name, field]) =>
          (field.description ? doc(field.description, inner) : "") +
          `${inner}${key(name)}${field[OptionalKind] === "Optional" ? "?" : ""}: ${printType(field, inner)};\n`,
      );
      return `{\n${fields.join("")}${indent}}`;
    }
    default:
      throw new Error(`no printer for the TypeBox kind ${String(schema[Kind])}`);
  }
}

/** The file's text, unformatted. */
function unformatted(): string {
  const lists = LISTS.map(
    ([name, typeName, values, about]) =>
      `${doc(about)}export const ${name} = ${JSON.stringify(values)} as const;\n` +
      `export type ${typeName} = (typeof ${name})[number];\n`,
  );
  // A body its route names (`named()`, a `$id`) is in the OpenAPI document, so in generated.ts: not here too.
  const bodies = BODIES.filter(([, schema]) => schema.$id === undefined).map(
    ([typeName, schema, route]) =>
      doc(schema.description ? `${route}: ${schema.description}` : route) +
      `export type ${typeName} = ${printType(schema)};\n`,
  );
  return [
    "// generated by scripts/wire-types.ts — do not edit (`bun scripts/wire-types.ts` writes it again).\n",
    "/**\n * The wire's vocabulary as the server defines it: its constant lists (each area's model.ts, src/access.ts) and\n",
    " * the request bodies its routes check (the TypeBox schemas of each area's validate.ts). The client's types\n",
    " * and the admin UI (ui/) build on these, so a value the server does not know cannot appear in either.\n */\n\n",
    lists.join("\n"),
    "\n",
    bodies.join("\n"),
  ].join("");
}

/** The file's text as Biome formats it, so the checked-in copy passes `biome check`. */
export async function wireTypes(): Promise<string> {
  const biome = Bun.spawn([join(ROOT, "node_modules/.bin/biome"), "format", `--stdin-file-path=${WIRE_FILE}`], {
    cwd: ROOT,
    stdin: new TextEncoder().encode(unformatted()),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [text, errors, code] = await Promise.all([
    new Response(biome.stdout).text(),
    new Response(biome.stderr).text(),
    biome.exited,
  ]);
  if (code !== 0) throw new Error(`biome format failed: ${errors}`);
  return text;
}

if (import.meta.main) {
  await Bun.write(WIRE_FILE, await wireTypes());
  console.log(`wrote ${WIRE_FILE}`);
}
