/**
 * A domain as the API shows it (records to publish, each with its status and what DNS answered), and the
 * `domain.updated` event that carries that view (as `domain.created` and `domain.deleted` do). Invariant: the webhook payload and the API answer are one shape.
 */
import { notifyAtCommit } from "../db/dialect.ts";
import { POLICY_CHANGED } from "../db/read-cache.ts";
import type { Db } from "../db/store.ts";
import type { RecordStatuses, SendingHealth } from "../db/schema/index.ts";
import type { EventLog } from "../events/service.ts";
import type { DomainStatus, DomainView, HealthView, RecordStatus } from "./model.ts";
import { expectedRecords, recordView, type ExpectedRecord, type RecordSettings } from "./records.ts";
import { liveKeys, type DomainRow, type KeyRow } from "./repo.ts";

const recordStatus = (statuses: RecordStatuses, record: ExpectedRecord): RecordStatus =>
  !record.checked ? "not_started" : ((statuses[record.id]?.status as RecordStatus | undefined) ?? "pending");

/** `24h`, `90m`, `7d`: a guardrail window as the health view and its reasons name it. */
export function windowName(ms: number): string {
  const DAY = 86_400_000;
  const HOUR = 3_600_000;
  if (ms % DAY === 0 && ms >= 2 * DAY) return `${ms / DAY}d`;
  if (ms % HOUR === 0) return `${ms / HOUR}h`;
  return `${Math.round(ms / 60_000)}m`;
}

/** The health a domain or organisation shows: as last measured, or all clear before the first measurement. */
export function healthView(health: SendingHealth | null, windowMs: number, minRecipients: number): HealthView {
  return {
    bounce_rate: health?.bounce_rate ?? 0,
    complaint_rate: health?.complaint_rate ?? 0,
    window: windowName(windowMs),
    recipients: health?.recipients ?? 0,
    status: health?.status ?? "ok",
    reason: health?.reason ?? null,
    evaluated_at: health?.evaluated_at ?? null,
    min_recipients: minRecipients,
  };
}

export function domainView(row: DomainRow, keys: KeyRow[], settings: RecordSettings): DomainView {
  return {
    object: "domain",
    id: row.id,
    name: row.name,
    status: row.status as DomainStatus,
    verified_override: row.verifiedOverride,
    open_tracking: row.openTracking,
    click_tracking: row.clickTracking,
    return_path_subdomain: row.returnPathSubdomain,
    receiving_enabled: row.receivingEnabled,
    providers: row.providers,
    capabilities: { sending: "enabled", receiving: row.receivingEnabled ? "enabled" : "disabled" },
    records: expectedRecords(row, keys, settings).map((record) =>
      recordView(
        record,
        recordStatus(row.recordStatuses, record),
        record.checked ? row.recordStatuses[record.id]?.found : undefined,
      ),
    ),
    dkim: { ed25519: keys.some((key) => key.algorithm === "ed25519" && key.state === "active") },
    tracking_subdomain: row.trackingSubdomain,
    tls: row.tlsPolicy,
    ip_pool: row.ipPool,
    health: healthView(row.health, settings.guardrailWindowMs, settings.guardrailMinRecipients),
    last_checked_at: row.lastCheckedAt ?? null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The domain as it is in `tx`, with its live keys. */
export const domainViewIn = async (tx: Db, row: DomainRow, settings: RecordSettings) =>
  domainView(row, await liveKeys(tx, row.id), settings);

/** Appends `domain.updated` with the domain as it is now (the webhook payload) and what it was. */
export async function announceDomain(
  tx: Db,
  deps: { events: EventLog; settings: RecordSettings },
  row: DomainRow,
  previousStatus: string,
): Promise<void> {
  await notifyAtCommit(tx, POLICY_CHANGED);
  await deps.events.append(tx, {
    organizationId: row.organizationId,
    type: "domain.updated",
    data: { ...(await domainViewIn(tx, row, deps.settings)), previous_status: previousStatus },
  });
}
