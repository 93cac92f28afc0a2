/**
 * Sending domains: adding, listing, settings, removal and DKIM rotation; the service composes the DNS checks
 * (checks.ts) and the send-time answers (send-policy.ts), which keep their own invariants.
 *
 * Invariants:
 * - DKIM private keys exist only sealed with the master key in the store; one key per domain is `active`.
 * - Adding a domain appends `domain.created`, removing it `domain.deleted`, and every change of its status, a
 *   record's status, its keys or its settings one `domain.updated`, each in the transaction of the change, with the
 *   domain's view as its data (views.ts).
 * - A change made here is seen by this instance's send-time answers at once.
 */
import { POLICY_CHANGED } from "../db/read-cache.ts";
import { recordAudit } from "../audit/log.ts";
import { notifyAtCommit } from "../db/dialect.ts";
import { and, eq } from "drizzle-orm";
import { requireScope, type Actor } from "../access.ts";
import type { IpPoolConfig } from "../config/options.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import { first, tablesOf, type Db, type Store, type Writer } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import type { Lifecycle } from "../deliveries/lifecycle.ts";
import type { EventLog } from "../events/service.ts";
import { normalizeDomain } from "../lib/addresses.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import type { DnsResolver } from "../lib/dns.ts";
import { newId } from "../lib/ids.ts";
import type { Logger } from "../lib/logger.ts";
import type { SecretBox } from "../lib/secrets.ts";
import { poolOpenTo } from "../providers/sending-ips.ts";
import { createDomainChecks, type DomainScheduleOptions } from "./checks.ts";
import { newDkimKey } from "./dkim-keys.ts";
import type { CreateDomainInput, DomainView, UpdateDomainInput } from "./model.ts";
import { spfMechanisms, type RecordSettings } from "./records.ts";
import {
  ed25519Key,
  findDomain,
  liveKeys,
  liveKeysOf,
  pendingDeliveriesFrom,
  type DomainRow,
  type KeyRow,
} from "./repo.ts";
import { createSendPolicy, type SendPolicy } from "./send-policy.ts";
import { setVerifiedOverride } from "./override.ts";
import { announceDomain, domainView, domainViewIn } from "./views.ts";

export type { DomainScheduleOptions } from "./checks.ts";
export type { SigningIdentity } from "./send-policy.ts";
export type { DomainStatus, DomainView } from "./model.ts";

const RETURN_PATH_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export interface DomainService extends SendPolicy {
  /**
   * Adds a domain with a fresh DKIM key; 409 `conflict` when the name exists (in any organisation). Only the
   * operator (no API key) may mark it verified without DNS (`verifiedOverride`).
   */
  add(actor: Actor, name: string, options?: Omit<CreateDomainInput, "name">): Promise<DomainView>;
  /** Newest first, paged. */
  list(actor: Actor, options?: PageOptions): Promise<{ object: "list"; has_more: boolean; data: DomainView[] }>;
  /** By id or name; 404 `not_found` otherwise. */
  get(actor: Actor, idOrName: string): Promise<DomainView>;
  /** Checks the domain's records now; a failed domain gets a fresh 72 h window. */
  verify(actor: Actor, idOrName: string): Promise<DomainView>;
  update(actor: Actor, idOrName: string, input: UpdateDomainInput): Promise<DomainView>;
  /** Sets or lifts the operator override (override.ts): instance admins and the operator only. */
  override(actor: Actor, idOrName: string, verified: boolean): Promise<DomainView>;
  /** Deletes the domain; 409 `conflict` while mail from it is queued, unless `force` (that mail then fails). */
  remove(
    actor: Actor,
    idOrName: string,
    options?: { force?: boolean },
  ): Promise<{ object: "domain"; id: string; name: string; deleted: true }>;
  /** Publishes a new DKIM selector beside the active one; it signs once its record is found. */
  rotateDkim(actor: Actor, idOrName: string): Promise<DomainView>;
  /** Runs the checks that are due now and waits for them (the scheduler's step; tests drive it). */
  runOnce(): Promise<number>;
  /** Checks in flight write nothing more once their DNS lookups return (shutdown). */
  stop(): Promise<void>;
  /** The name of the organisation's domain `idOrName` (404 when it has none), e.g. to restrict a key to it. */
  nameOf(actor: Actor, idOrName: string): Promise<string>;
}

export function createDomainService(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  events: EventLog;
  /** Fails the waiting recipients of a domain removed with force (deliveries/lifecycle.ts). */
  lifecycle: Lifecycle;
  secrets: SecretBox;
  resolver: DnsResolver;
  settings: RecordSettings;
  /** The providers configuration defines: the names a domain may give. */
  providerNames: readonly string[];
  /** The `[ip_pools.<name>]`, each open to the organisations it names (providers/sending-ips.ts `poolOpenTo`). */
  pools: Readonly<Record<string, Pick<IpPoolConfig, "organizations">>>;
  options: DomainScheduleOptions;
  logger: Logger;
  /** The store's notifications: the send-time answers are cached until a domain changes (send-policy.ts). */
  listen?: Store["listen"];
}): DomainService {
  const { db, writer, clock, settings, options, logger } = deps;
  const { dkimKeys, domains } = tablesOf(db);
  const checks = createDomainChecks(deps);
  const policy = createSendPolicy(deps);

  const notFound = () => new AppError("not_found", "Domain not found.");
  const checkProviders = (providers: string[] | undefined) => {
    const unknown = providers?.findIndex((name) => !deps.providerNames.includes(name)) ?? -1;
    if (unknown >= 0)
      throw validationError([
        {
          path: `providers[${unknown}]`,
          message: `no provider named ${providers![unknown]} (configured: ${deps.providerNames.join(", ")})`,
        },
      ]);
    return providers;
  };

  // A pool not open to the organisation reads as one that does not exist: its name tells a tenant nothing.
  const checkPool = (pool: string | null | undefined, organizationId: string) => {
    if (!pool || poolOpenTo(deps.pools[pool], organizationId)) return pool;
    const open = Object.keys(deps.pools).filter((name) => poolOpenTo(deps.pools[name], organizationId));
    const choices = open.join(", ") || "none; the operator configures [ip_pools.<name>]";
    const message = `no IP pool named ${pool} is open to this organisation (open to it: ${choices})`;
    throw validationError([{ path: "ip_pool", message }]);
  };

  const rowById = (tx: Db, domainId: string) => first(tx.select().from(domains).where(eq(domains.id, domainId)));
  const checkReturnPath = (value: unknown, path = "return_path_subdomain"): string => {
    if (typeof value !== "string" || !RETURN_PATH_LABEL.test(value))
      throw validationError([{ path, message: "must be one DNS label: a-z, 0-9 and -, at most 63 characters" }]);
    return value;
  };

  const requireDomain = async (organizationId: string, idOrName: string): Promise<DomainRow> => {
    const row = await findDomain(db, organizationId, idOrName);
    if (!row) throw notFound();
    return row;
  };

  const getView = async (organizationId: string, idOrName: string) =>
    domainViewIn(db, await requireDomain(organizationId, idOrName), settings);
  /** Only one organisation receives mail for a name (docs/teams.md), whichever others send from it. */
  const assertReceivesAlone = async (tx: Db, name: string, id: string) => {
    const receiving = await first(
      tx
        .select({ id: domains.id })
        .from(domains)
        .where(and(eq(domains.name, name), eq(domains.receivingEnabled, true))),
    );
    if (receiving && receiving.id !== id)
      throw new AppError("conflict", `Mail for ${name} is already received by another organisation.`);
  };

  /**
   * Turns the domain's Ed25519 key on (inserting `key`, made before the transaction) or off (retiring it); answers
   * the change, or null when there is none.
   */
  const switchEd25519 = async (
    tx: Db,
    domainId: string,
    wanted: boolean | undefined,
    key: KeyRow | null,
    now: number,
  ): Promise<{ from: boolean; to: boolean } | null> => {
    if (wanted === undefined) return null;
    const existing = await ed25519Key(tx, domainId);
    if (wanted === !!existing) return null;
    if (wanted) {
      if (!key) return null;
      await tx.insert(dkimKeys).values(key);
    } else
      await tx
        .update(dkimKeys)
        .set({ state: "retired", retiredAt: isoTime(now) })
        .where(eq(dkimKeys.id, existing!.id));
    await notifyAtCommit(tx, POLICY_CHANGED);
    return { from: !wanted, to: wanted };
  };

  return {
    async add(actor, name, input = {}) {
      requireScope(actor, "domains:write");
      const onlyOperator = "Only the operator (mailroom domains add --verified) may add a domain verified without DNS.";
      if (input.verifiedOverride && (actor.keyId !== null || actor.user !== null))
        throw new AppError("insufficient_scope", onlyOperator);
      const { organizationId } = actor;
      const normalized = normalizeDomain(name);
      if ("error" in normalized) throw validationError([{ path: "name", message: normalized.error }]);
      const returnPathSubdomain = checkReturnPath(input.returnPathSubdomain ?? options.defaultReturnPathSubdomain);
      const providers = checkProviders(input.providers) ?? [];
      const id = newId();
      const key = await newDkimKey(deps, id, "active");
      const now = clock.now();
      const row: DomainRow = {
        id,
        organizationId,
        name: normalized.domain,
        status: input.verifiedOverride ? "verified" : "pending",
        verifiedOverride: input.verifiedOverride ?? false,
        openTracking: input.openTracking ?? false,
        clickTracking: input.clickTracking ?? false,
        returnPathSubdomain,
        receivingEnabled: input.receivingEnabled ?? false,
        providers,
        recordStatuses: {},
        statusSince: now,
        // The first check runs with the next scheduler pass: records published in advance verify at once.
        nextCheckAt: now,
        lastCheckedAt: null,
        createdAt: isoTime(now),
        updatedAt: isoTime(now),
        health: null,
        healthSince: 0,
        trackingSubdomain: input.trackingSubdomain ?? null,
        tlsPolicy: input.tls ?? "opportunistic",
        ipPool: checkPool(input.ipPool, actor.organizationId) ?? null,
      };
      const keys = input.ed25519 ? [key, await newDkimKey(deps, id, "active", "ed25519")] : [key];
      const added = domainView(row, keys, settings);
      await writer.write(async (tx) => {
        const sameName = and(eq(domains.organizationId, organizationId), eq(domains.name, row.name));
        if (await first(tx.select({ id: domains.id }).from(domains).where(sameName)))
          throw new AppError("conflict", `The domain ${row.name} already exists.`);
        if (row.receivingEnabled) await assertReceivesAlone(tx, row.name, id);
        await tx.insert(domains).values(row);
        await tx.insert(dkimKeys).values(keys);
        await notifyAtCommit(tx, POLICY_CHANGED);
        await deps.events.append(tx, { organizationId, type: "domain.created", data: { ...added } });
        await recordAudit(
          tx,
          actor,
          {
            action: "domain.created",
            target: { type: "domain", id, name: row.name },
            changes: { verified_override: row.verifiedOverride, providers, receiving: row.receivingEnabled },
          },
          now,
        );
      });
      const warning = added.records.find((record) => record.warning)?.warning;
      if (warning)
        logger.warn("domain records name this machine, not a public server", { domain: row.name, reason: warning });
      return added;
    },

    async list(actor, options = { limit: 100 }) {
      requireScope(actor, "domains:read");
      const { page: rows, hasMore } = await pageById(
        domains.id,
        [eq(domains.organizationId, actor.organizationId)],
        options,
        (where, order, limit) => db.select().from(domains).where(where).orderBy(order).limit(limit),
      );
      const keys = await liveKeysOf(
        db,
        rows.map((r) => r.id),
      );
      return {
        object: "list",
        has_more: hasMore,
        data: rows.map((row) => domainView(row, keys.get(row.id) ?? [], settings)),
      };
    },

    async get(actor, idOrName) {
      requireScope(actor, "domains:read");
      return getView(actor.organizationId, idOrName);
    },

    async verify(actor, idOrName) {
      requireScope(actor, "domains:write");
      const { organizationId } = actor;
      const row = await requireDomain(organizationId, idOrName);
      await checks.checkOnce(row.id, true);
      return getView(organizationId, row.id);
    },

    async update(actor, idOrName, input) {
      requireScope(actor, "domains:write");
      const { organizationId } = actor;
      const row = await requireDomain(organizationId, idOrName);
      const returnPathSubdomain =
        input.returnPathSubdomain === undefined ? undefined : checkReturnPath(input.returnPathSubdomain);
      const providers = checkProviders(input.providers);
      // Generated before the write: a key pair takes milliseconds that no transaction should wait for.
      const ed25519 =
        input.ed25519 && !(await ed25519Key(db, row.id)) ? await newDkimKey(deps, row.id, "active", "ed25519") : null;
      await writer.write(async (tx) => {
        const current = await rowById(tx, row.id);
        if (!current) throw notFound();
        const now = clock.now();
        const ed25519Change = await switchEd25519(tx, row.id, input.ed25519, ed25519, now);
        const next = {
          openTracking: input.openTracking ?? current.openTracking,
          clickTracking: input.clickTracking ?? current.clickTracking,
          returnPathSubdomain: returnPathSubdomain ?? current.returnPathSubdomain,
          receivingEnabled: input.receivingEnabled ?? current.receivingEnabled,
          providers: providers ?? current.providers,
          trackingSubdomain:
            input.trackingSubdomain === undefined ? current.trackingSubdomain : input.trackingSubdomain,
          tlsPolicy: input.tls ?? current.tlsPolicy,
          ipPool: input.ipPool === undefined ? current.ipPool : (checkPool(input.ipPool, actor.organizationId) ?? null),
        };
        if (next.trackingSubdomain && next.trackingSubdomain === next.returnPathSubdomain)
          throw validationError([{ path: "tracking_subdomain", message: "must differ from return_path_subdomain" }]);
        const spfChanged =
          spfMechanisms(next.providers, settings).join(" ") !== spfMechanisms(current.providers, settings).join(" ");
        const providersChanged = next.providers.join(",") !== current.providers.join(",");
        const unchanged =
          !providersChanged &&
          (Object.keys(next) as Array<keyof typeof next>).every((k) => k === "providers" || next[k] === current[k]);
        if (unchanged && !ed25519Change) return;
        if (next.receivingEnabled && !current.receivingEnabled) await assertReceivesAlone(tx, current.name, current.id);
        const statuses = { ...current.recordStatuses };
        // Records that moved, changed or were switched on start over as pending; a check is due at once.
        if (next.returnPathSubdomain !== current.returnPathSubdomain) {
          delete statuses.spf;
          delete statuses.mx;
        }
        if (spfChanged) delete statuses.spf;
        if (next.receivingEnabled !== current.receivingEnabled) delete statuses.inbound;
        if (next.trackingSubdomain !== current.trackingSubdomain) delete statuses.tracking;
        const recordsMoved =
          next.returnPathSubdomain !== current.returnPathSubdomain ||
          next.receivingEnabled !== current.receivingEnabled ||
          spfChanged ||
          next.trackingSubdomain !== current.trackingSubdomain ||
          !!ed25519Change;
        const update = {
          ...next,
          recordStatuses: statuses,
          updatedAt: isoTime(now),
          ...(recordsMoved ? { nextCheckAt: now } : {}),
        };
        await tx.update(domains).set(update).where(eq(domains.id, row.id));
        await announceDomain(tx, deps, { ...current, ...update }, current.status);
        const changes = {
          ...Object.fromEntries(
            (Object.keys(next) as Array<keyof typeof next>)
              .filter((k) => String(next[k]) !== String(current[k]))
              .map((k) => [k, { from: current[k], to: next[k] }]),
          ),
          ...(ed25519Change && { dkim_ed25519: ed25519Change }),
        };
        await recordAudit(
          tx,
          actor,
          { action: "domain.updated", target: { type: "domain", id: row.id, name: row.name }, changes },
          now,
        );
      });
      return getView(organizationId, row.id);
    },

    async remove(actor, idOrName, removeOptions = {}) {
      requireScope(actor, "domains:write");
      const { organizationId } = actor;
      const row = await requireDomain(organizationId, idOrName);
      return writer.write(async (tx) => {
        const pending = await pendingDeliveriesFrom(tx, organizationId, row.name);
        if (pending.length && !removeOptions.force) {
          throw new AppError(
            "conflict",
            `${pending.length} deliveries from ${row.name} are still queued; wait for them, or delete with force=true to fail them.`,
          );
        }
        for (const emailId of new Set(pending.map((p) => p.emailId)))
          await deps.lifecycle.apply(
            tx,
            "domain_removed",
            { emailId },
            { response: "sending domain deleted before delivery", data: { reason: "sending domain deleted" } },
          );
        const removed = await domainViewIn(tx, row, settings);
        await tx.delete(domains).where(eq(domains.id, row.id));
        await deps.events.append(tx, { organizationId, type: "domain.deleted", data: { ...removed } });
        await notifyAtCommit(tx, POLICY_CHANGED);
        await recordAudit(
          tx,
          actor,
          {
            action: "domain.deleted",
            target: { type: "domain", id: row.id, name: row.name },
            changes: {
              forced: Boolean(removeOptions.force),
              failed_messages: new Set(pending.map((p) => p.emailId)).size,
            },
          },
          clock.now(),
        );
        return { object: "domain" as const, id: row.id, name: row.name, deleted: true as const };
      });
    },

    async rotateDkim(actor, idOrName) {
      requireScope(actor, "domains:write");
      const { organizationId } = actor;
      const row = await requireDomain(organizationId, idOrName);
      const key = await newDkimKey(deps, row.id, "next");
      await writer.write(async (tx) => {
        const current = await rowById(tx, row.id);
        if (!current) throw notFound();
        const pending = (await liveKeys(tx, row.id)).find((k) => k.state === "next");
        if (pending)
          throw new AppError(
            "conflict",
            `A rotation is in progress: publish ${pending.selector}._domainkey.${current.name} first; it takes over once found.`,
          );
        await tx.insert(dkimKeys).values(key);
        const now = clock.now();
        const update = { updatedAt: isoTime(now), nextCheckAt: now };
        await tx.update(domains).set(update).where(eq(domains.id, row.id));
        await announceDomain(tx, deps, { ...current, ...update }, current.status);
        await recordAudit(
          tx,
          actor,
          {
            action: "domain.dkim_rotation_started",
            target: { type: "domain", id: row.id, name: row.name },
            changes: { selector: key.selector },
          },
          now,
        );
      });
      return getView(organizationId, row.id);
    },

    runOnce() {
      return checks.runDue();
    },

    async stop() {
      checks.stop();
    },

    override: async (actor, idOrName, verified) => {
      await setVerifiedOverride(deps, actor, idOrName, verified);
      return getView(actor.organizationId, idOrName);
    },
    async nameOf(actor, idOrName) {
      return (await requireDomain(actor.organizationId, idOrName)).name;
    },

    // The send-time answers, every one of them (send-policy.ts).
    ...policy,
  };
}
