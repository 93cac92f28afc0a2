/**
 * Organisations own keys, domains, messages and suppressions; this module owns their settings (docs/operations.md): name,
 * request limit, daily quota and retention, and the view an operator reads them in with today's usage, what the
 * organisation stores and whether its sending is paused. A single-team install has one organisation, created on
 * the first start.
 * Invariants: `ensureDefault` is idempotent and creates the organisation at most once; a setting left null follows
 * the configuration, and the view shows the value in force.
 */
import { and, asc, eq } from "drizzle-orm";
import { requireScope, type Actor } from "../access.ts";
import { recordAudit } from "../audit/log.ts";
import { readAuditLog, type AuditLogQuery } from "../audit/reads.ts";
import { notifyAtCommit } from "../db/dialect.ts";
import { POLICY_CHANGED } from "../db/read-cache.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { AppError } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { organizationBucket, usedOn, utcDay } from "../limits/daily-quota.ts";
import type { OrganizationView } from "./model.ts";
import type { OrganizationPatch } from "./validate.ts";

export const DAY_MS = 86_400_000;

export interface Organization {
  id: string;
  name: string;
}

export type { OrganizationView, StorageView } from "./model.ts";

/** The configured defaults a setting left null follows. */
export interface OrganizationDefaults {
  requestsPerMinute: number;
  contentRetentionMs: number;
  metadataRetentionMs: number;
}

export interface OrganizationService {
  /** The first organisation; created (with `created: true`) when the store is empty. */
  ensureDefault(): Promise<Organization & { created: boolean }>;
  show(actor: Actor): Promise<OrganizationView>;
  /** Changes the settings given; a null setting returns to the configured default (the quota: to none). */
  update(actor: Actor, patch: OrganizationPatch): Promise<OrganizationView>;
  /** The organisation's audit log, newest first (audit:read). */
  auditLog(actor: Actor, query: AuditLogQuery): ReturnType<typeof readAuditLog>;
}

type OrganizationRow = {
  id: string;
  name: string;
  rateLimitPerMinute: number | null;
  dailyQuota: number | null;
  contentRetentionDays: number | null;
  metadataRetentionDays: number | null;
  createdAt: string;
};

/** The retention in force for an organisation, in days: its own, or the configuration's. */
export function retentionDays(
  row: Pick<OrganizationRow, "contentRetentionDays" | "metadataRetentionDays">,
  defaults: OrganizationDefaults,
) {
  return {
    content_days: row.contentRetentionDays ?? defaults.contentRetentionMs / DAY_MS,
    metadata_days: row.metadataRetentionDays ?? defaults.metadataRetentionMs / DAY_MS,
  };
}

export function createOrganizationService(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  defaults: OrganizationDefaults;
}): OrganizationService {
  const { db, writer, clock, defaults } = deps;
  const { organizations, organizationStorage, sendingPauses } = tablesOf(db);
  const oldest = (from: Db) =>
    first(
      from
        .select({ id: organizations.id, name: organizations.name })
        .from(organizations)
        .orderBy(asc(organizations.id))
        .limit(1),
    );

  const view = async (from: Db, organizationId: string): Promise<OrganizationView> => {
    const row: OrganizationRow | undefined = await first(
      from.select().from(organizations).where(eq(organizations.id, organizationId)),
    );
    if (!row) throw new AppError("not_found", "Organisation not found.");
    const storage = await first(
      from.select().from(organizationStorage).where(eq(organizationStorage.organizationId, organizationId)),
    );
    const pause = await first(
      from
        .select({ scope: sendingPauses.scope })
        .from(sendingPauses)
        .where(and(eq(sendingPauses.organizationId, organizationId), eq(sendingPauses.scope, "organization"))),
    );
    return {
      object: "organization",
      id: row.id,
      name: row.name,
      rate_limit: row.rateLimitPerMinute ?? defaults.requestsPerMinute,
      daily_quota: row.dailyQuota ?? null,
      usage_today: await usedOn(from, organizationBucket(row.id), utcDay(clock.now())),
      retention: retentionDays(row, defaults),
      paused: pause !== undefined,
      storage: storage
        ? {
            messages: Number(storage.messages),
            content_bytes: Number(storage.contentBytes),
            measured_at: storage.measuredAt,
          }
        : null,
      created_at: row.createdAt,
    };
  };

  return {
    async ensureDefault() {
      const existing = await oldest(db);
      if (existing) return { ...existing, created: false };
      return writer.write(async (tx) => {
        const raced = await oldest(tx);
        if (raced) return { ...raced, created: false };
        const org = { id: newId(), name: "Default", createdAt: isoTime(clock.now()) };
        await tx.insert(organizations).values(org);
        return { id: org.id, name: org.name, created: true };
      });
    },

    auditLog: (actor, query) => readAuditLog(db, actor, query),

    async show(actor) {
      requireScope(actor, "organization:read");
      return view(db, actor.organizationId);
    },

    async update(actor, patch) {
      requireScope(actor, "organization:write");
      return writer.write(async (tx) => {
        const changes = {
          ...(patch.name !== undefined && { name: patch.name }),
          ...(patch.rateLimit !== undefined && { rateLimitPerMinute: patch.rateLimit }),
          ...(patch.dailyQuota !== undefined && { dailyQuota: patch.dailyQuota }),
          ...(patch.contentDays !== undefined && { contentRetentionDays: patch.contentDays }),
          ...(patch.metadataDays !== undefined && { metadataRetentionDays: patch.metadataDays }),
        };
        if (Object.keys(changes).length) {
          await tx.update(organizations).set(changes).where(eq(organizations.id, actor.organizationId));
          // Keys' authentication caches the organisation's request limit.
          await notifyAtCommit(tx, POLICY_CHANGED);
          const updated = await view(tx, actor.organizationId);
          // The audit log names the organisation and its settings as the API does (PATCH /organization's fields).
          await recordAudit(
            tx,
            actor,
            {
              action: "organization.updated",
              target: { type: "organization", id: actor.organizationId, name: updated.name },
              changes: {
                ...(patch.name !== undefined && { name: patch.name }),
                ...(patch.rateLimit !== undefined && { rate_limit: patch.rateLimit }),
                ...(patch.dailyQuota !== undefined && { daily_quota: patch.dailyQuota }),
                ...(patch.contentDays !== undefined && { "retention.content_days": patch.contentDays }),
                ...(patch.metadataDays !== undefined && { "retention.metadata_days": patch.metadataDays }),
              },
            },
            clock.now(),
          );
          return updated;
        }
        return view(tx, actor.organizationId);
      });
    },
  };
}
