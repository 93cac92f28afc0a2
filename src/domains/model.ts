/** Types of the sending-domain area: statuses (DESIGN §5), the DNS records users publish, the public view. */

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

export type RecordKind = "DKIM" | "SPF" | "MX" | "DMARC" | "Inbound" | "Tracking";

export interface DnsRecordView {
  record: RecordKind;
  name: string;
  type: "TXT" | "MX" | "CNAME";
  value: string;
  /** MX preference. */
  priority?: number;
  ttl: "Auto";
  status: RecordStatus;
  /**
   * After a check: what DNS answered at the record's name (TXT values, or `priority host` for MX), to set beside
   * `value`; null when the lookup failed. Absent before the first check.
   */
  found?: string[] | null;
  /** Why the record as shown cannot work yet: it names this machine because `[server] hostname` is unset. */
  warning?: string;
  /** DKIM only: `active` signs now; `next` is a rotation's new key, taking over once its record is found. */
  key_state?: "active" | "next";
}

/** A domain's or organisation's sending health (DESIGN §14), as the guardrails last measured it. */
export interface HealthView {
  bounce_rate: number;
  complaint_rate: number;
  /** The window, e.g. `24h`. */
  window: string;
  /** Recipients that ended in the window (since a resume, when later): what the rates divide by. */
  recipients: number;
  status: "ok" | "warning" | "paused";
  /** Why the status is not ok, e.g. `bounce rate 9.1 % over 24 h`; null when ok. */
  reason: string | null;
  /** When the rates were measured; null before the first measurement. */
  evaluated_at: string | null;
}

export interface DomainView {
  object: "domain";
  id: string;
  name: string;
  status: DomainStatus;
  /** True when the operator marked the domain verified without DNS checks (`mailroom domains add --verified`). */
  verified_override: boolean;
  open_tracking: boolean;
  click_tracking: boolean;
  return_path_subdomain: string;
  receiving_enabled: boolean;
  /** The providers that take the domain's mail, in order (the next takes over while one fails); empty: the default. */
  providers: string[];
  /** Resend's spelling of the same switches. */
  capabilities: { sending: "enabled"; receiving: "enabled" | "disabled" };
  records: DnsRecordView[];
  /** `ed25519`: an Ed25519 signature is added beside the RSA one once its record is found (RFC 8463). */
  dkim: { ed25519: boolean };
  /** The label of the tracking host (`links` → links.<domain>), whose CNAME is among the records; null: none. */
  tracking_subdomain: string | null;
  /** `enforced`: direct MX delivery only over STARTTLS with a certificate valid for the MX name (DESIGN §14). */
  tls: "opportunistic" | "enforced";
  /** The `[ip_pools.<name>]` direct delivery sends from; null: the machine's default address. */
  ip_pool: string | null;
  health: HealthView;
  last_checked_at: string | null;
  created_at: string;
  updated_at: string;
}

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
  /** Sign with an Ed25519 key beside the RSA one (DESIGN §14). */
  ed25519?: boolean;
  openTracking?: boolean;
  clickTracking?: boolean;
  receivingEnabled?: boolean;
  providers?: string[];
}
