/**
 * The sending-domain area's vocabulary and wire (docs/domains.md): statuses, the DNS records users publish, a
 * domain as the API shows it — written once, as the schemas that type the services' answers and document the routes.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { named, Nullable, OneOf } from "../lib/wire.ts";

export const DOMAIN_STATUSES = [
  "not_started",
  "pending",
  "verified",
  "partially_verified",
  "failed",
  "temporary_failure",
] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** A record's status uses the same words; `partially_verified` is never a record's. */
export type RecordStatus = Exclude<DomainStatus, "partially_verified">;
export const RECORD_STATUSES = DOMAIN_STATUSES.filter(
  (status): status is RecordStatus => status !== "partially_verified",
);

export const RECORD_KINDS = ["DKIM", "SPF", "MX", "DMARC", "Inbound", "Tracking"] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export const DomainRecordSchema = named(
  "DomainRecord",
  t.Object({
    record: OneOf(RECORD_KINDS),
    name: t.String(),
    type: OneOf(["TXT", "MX", "CNAME"]),
    value: t.String(),
    priority: t.Optional(t.Integer({ description: "MX preference" })),
    ttl: t.Literal("Auto"),
    status: OneOf(RECORD_STATUSES),
    found: t.Optional(
      Nullable(t.Array(t.String()), {
        description:
          "After a check: what DNS answered at the record's name (TXT values, or `priority host` for MX), to set beside value; null when the lookup failed. Absent before the first check",
      }),
    ),
    warning: t.Optional(
      t.String({
        description:
          "Why the record as shown cannot work yet: it names this machine because [server] hostname is unset",
      }),
    ),
    key_state: t.Optional(
      OneOf(["active", "next"], {
        description: "DKIM only: active signs now; next is a rotation's new key, taking over once its record is found",
      }),
    ),
  }),
);
export type DnsRecordView = Static<typeof DomainRecordSchema>;

/** A domain's or organisation's sending health (docs/deliverability.md), as the guardrails last measured it. */
export const DomainHealthSchema = named(
  "DomainHealth",
  t.Object({
    bounce_rate: t.Number(),
    complaint_rate: t.Number(),
    window: t.String({ description: "The window, e.g. 24h" }),
    recipients: t.Integer({
      description: "Recipients that ended in the window (since a resume, when later): what the rates divide by",
    }),
    status: OneOf(["ok", "warning", "paused"]),
    reason: Nullable(t.String(), {
      description: "Why the status is not ok, e.g. `bounce rate 9.1 % over 24 h`; null when ok",
    }),
    evaluated_at: Nullable(t.String({ format: "date-time" }), {
      description: "When the rates were measured; null before the first measurement",
    }),
    min_recipients: t.Integer({
      description:
        "Recipients that must end in the window before the rates are judged ([guardrails] min_recipients); below it the status stays ok, not judged yet",
    }),
  }),
);
export type HealthView = Static<typeof DomainHealthSchema>;

export const DomainSchema = named(
  "Domain",
  t.Object({
    object: t.Literal("domain"),
    id: t.String({ format: "uuid" }),
    name: t.String(),
    status: OneOf(DOMAIN_STATUSES),
    verified_override: t.Boolean({
      description:
        "The operator marked the domain verified without DNS checks (mailroom domains add --verified, or an instance admin: POST /v1/domains/:id/override)",
    }),
    open_tracking: t.Boolean(),
    click_tracking: t.Boolean(),
    return_path_subdomain: t.String(),
    receiving_enabled: t.Boolean(),
    providers: t.Array(t.String(), {
      description:
        "The providers that take the domain's mail, in order (the next takes over while one fails); empty: the default",
    }),
    capabilities: t.Object(
      { sending: t.Literal("enabled"), receiving: OneOf(["enabled", "disabled"]) },
      { description: "Resend's spelling of the same switches" },
    ),
    records: t.Array(DomainRecordSchema),
    dkim: t.Object({
      ed25519: t.Boolean({
        description: "An Ed25519 signature is added beside the RSA one once its record is found (RFC 8463)",
      }),
    }),
    tracking_subdomain: Nullable(t.String(), {
      description:
        "The label of the tracking host (links → links.<domain>), whose CNAME is among the records; null: none",
    }),
    tls: OneOf(["opportunistic", "enforced"], {
      description: "enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name",
    }),
    ip_pool: Nullable(t.String(), {
      description: "The [ip_pools.<name>] direct delivery sends from; null: the machine's default address",
    }),
    health: DomainHealthSchema,
    last_checked_at: Nullable(t.String({ format: "date-time" })),
    created_at: t.String({ format: "date-time" }),
    updated_at: t.String({ format: "date-time" }),
  }),
);
export type DomainView = Static<typeof DomainSchema>;

/** Resend's delete answer, with the name of the domain deleted. */
export const DomainDeletedSchema = named(
  "DomainDeleted",
  t.Object({ object: t.Literal("domain"), id: t.String(), name: t.String(), deleted: t.Literal(true) }),
);

export interface CreateDomainInput {
  name: string;
  returnPathSubdomain?: string;
  openTracking?: boolean;
  clickTracking?: boolean;
  receivingEnabled?: boolean;
  providers?: string[];
  ed25519?: boolean;
  trackingSubdomain?: string | null;
  tls?: "opportunistic" | "enforced";
  ipPool?: string | null;
  /** Operator override: verified without DNS checks (CLI only). */
  verifiedOverride?: boolean;
}

export interface UpdateDomainInput {
  returnPathSubdomain?: string;
  /** null removes it. */
  trackingSubdomain?: string | null;
  tls?: "opportunistic" | "enforced";
  /** null: the machine's default address. */
  ipPool?: string | null;
  /** Sign with an Ed25519 key beside the RSA one (docs/deliverability.md). */
  ed25519?: boolean;
  openTracking?: boolean;
  clickTracking?: boolean;
  receivingEnabled?: boolean;
  providers?: string[];
}
