/**
 * The domain bodies (docs/domains.md): their schemas, which the routes document and check shapes with, and the rules a
 * schema cannot say. Pure: no store, no framework; every problem with its path.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { named } from "../lib/wire.ts";
import { PROVIDER_NAME, PROVIDER_NAME_HINT } from "../config/options.ts";
import { validationError, type ErrorDetail } from "../errors.ts";
import type { UpdateDomainInput } from "./model.ts";

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
  tracking_subdomain: t.Optional(
    t.Union([t.String(), t.Null()], {
      description:
        "A label (links → links.<domain>): its CNAME to this server is added to the records, and once found the domain's open, click and unsubscribe links use https://links.<domain>; null removes it",
    }),
  ),
  tls: t.Optional(
    t.Union([t.Literal("opportunistic"), t.Literal("enforced")], {
      description:
        "enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name (MTA-STS or not); otherwise deferred, then bounced with the reason",
    }),
  ),
  ip_pool: t.Optional(
    t.Union([t.String(), t.Null()], {
      description:
        "The [ip_pools.<name>] direct delivery of the domain's mail binds its source addresses from (with their warm-up); null: the machine's default address",
    }),
  ),
  dkim: t.Optional(
    t.Object(
      {
        ed25519: t.Optional(
          t.Boolean({
            description:
              "Sign with an Ed25519 key (RFC 8463) beside the RSA one: adds its DKIM record; the signature is added once the record is found",
          }),
        ),
      },
      { additionalProperties: false },
    ),
  ),
  capabilities: t.Optional(
    t.Object(
      {
        sending: t.Optional(t.Literal("enabled")),
        receiving: t.Optional(t.Union([t.Literal("enabled"), t.Literal("disabled")])),
      },
      { additionalProperties: false, description: "Resend's form: receiving enabled or disabled" },
    ),
  ),
};
export const CreateDomainSchema = named(
  "CreateDomainOptions",
  t.Object(
    { name: t.String({ description: "Domain name; Unicode names are stored as punycode" }), ...SETTINGS },
    { additionalProperties: false },
  ),
);
export const UpdateDomainSchema = named("UpdateDomainOptions", t.Object(SETTINGS, { additionalProperties: false }));

const MAX_PROVIDERS = 8;
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The settings of a create or update body. */
export function parseDomainSettings(body: Static<typeof UpdateDomainSchema>): UpdateDomainInput {
  const problems: ErrorDetail[] = [];
  const settings: UpdateDomainInput = {};
  if (body.open_tracking !== undefined) settings.openTracking = body.open_tracking;
  if (body.click_tracking !== undefined) settings.clickTracking = body.click_tracking;
  // `receiving` is the short form; Resend's SDK sends `capabilities: {receiving: "enabled" | "disabled"}`.
  const receiving = body.receiving ?? body.receiving_enabled;
  if (receiving !== undefined) settings.receivingEnabled = receiving;
  if (body.capabilities?.receiving !== undefined) settings.receivingEnabled = body.capabilities.receiving === "enabled";
  if (body.return_path_subdomain !== undefined) settings.returnPathSubdomain = body.return_path_subdomain;
  if (body.dkim?.ed25519 !== undefined) settings.ed25519 = body.dkim.ed25519;
  if (body.tls !== undefined) settings.tls = body.tls;
  if (body.ip_pool !== undefined) settings.ipPool = body.ip_pool?.trim() || null;
  if (body.tracking_subdomain !== undefined) {
    const label = body.tracking_subdomain?.trim().toLowerCase() || null;
    if (label !== null && !DNS_LABEL.test(label))
      problems.push({
        path: "tracking_subdomain",
        message: "must be one DNS label: letters, digits and hyphens, at most 63, e.g. links",
      });
    else settings.trackingSubdomain = label;
  }
  const providers = body.providers;
  if (providers !== undefined) {
    if (providers.length > MAX_PROVIDERS)
      problems.push({ path: "providers", message: `at most ${MAX_PROVIDERS} providers` });
    else {
      providers.forEach((name, index) => {
        if (!PROVIDER_NAME.test(name))
          problems.push({ path: `providers[${index}]`, message: `must be ${PROVIDER_NAME_HINT}` });
        else if (providers.indexOf(name) !== index)
          problems.push({ path: `providers[${index}]`, message: `${name} is named twice` });
      });
      settings.providers = providers;
    }
  }
  if (problems.length) throw validationError(problems);
  return settings;
}

/** A create body: the name and the settings. */
export function parseCreateDomain(body: Static<typeof CreateDomainSchema>): { name: string } & UpdateDomainInput {
  return { name: body.name, ...parseDomainSettings(body) };
}
