/**
 * Sending domains: the setup flow (records to publish), DNS verification on demand and on a schedule, DKIM keys
 * and their rotation, and the rule that decides who may send from which domain.
 *
 * Invariants:
 * - A live key sends only from a domain of its organisation that is verified (by DNS, or by the operator's
 *   explicit `--verified` override, which views label as such) or verified and in its 72 h `temporary_failure`
 *   grace; a test key may send from any domain; a key restricted to named domains sends from those only.
 * - DKIM private keys exist only sealed with the master key in the store; one key per domain is `active`.
 * - Every change of a domain's status, a record's status, its keys or its settings appends one `domain.updated`
 *   event in the same transaction. Schedules read the injected clock only.
 */
import { generateKeyPair as generateKeyPairCallback, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import type { RecordStatuses } from "../db/schema/index.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import type { Lifecycle } from "../deliveries/lifecycle.ts";
import type { EventLog } from "../events/service.ts";
import type { Actor } from "../keys/model.ts";
import { requireScope } from "../keys/service.ts";
import { normalizeDomain } from "../lib/addresses.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { isNotFound, type DnsResolver } from "../lib/dns.ts";
import { newId } from "../lib/ids.ts";
import type { Logger } from "../lib/logger.ts";
import type { SecretBox } from "../lib/secrets.ts";
import type { CreateDomainInput, DomainStatus, DomainView, RecordStatus, UpdateDomainInput } from "./model.ts";
import {
  answerValues,
  expectedRecords,
  nextDomainStatus,
  nextRecordStatus,
  recordView,
  spfMechanisms,
  type ExpectedRecord,
  type MxAnswer,
  type Observation,
  type RecordSettings,
  type TxtAnswer,
} from "./records.ts";
import {
  activeKey,
  dueDomainIds,
  findByName,
  findDomain,
  liveKeys,
  liveKeysOf,
  pendingDeliveriesFrom,
  type DomainRow,
  type KeyRow,
} from "./repo.ts";

export type { DomainStatus, DomainView } from "./model.ts";

/** Statuses from which mail may be sent: verified, or verified once and a record missing for less than 72 h. */
const SENDABLE: ReadonlySet<string> = new Set<DomainStatus>(["verified", "temporary_failure"]);

const RETURN_PATH_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** Domains checked per scheduler pass, and checks in flight at once. */
const CHECK_BATCH = 100;
const CHECK_CONCURRENCY = 4;
const RSA_BITS = 2048;
/** How long a domain's providers are kept for routing, and for how many domains (see `routes`). */
const ROUTE_CACHE_MS = 5_000;
const ROUTE_CACHE_SIZE = 10_000;

const generateKeyPair = promisify(generateKeyPairCallback);

export interface DomainScheduleOptions {
  /** Return-path subdomain of new domains. */
  defaultReturnPathSubdomain: string;
  pendingCheckIntervalMs: number;
  verifiedCheckIntervalMs: number;
  /** Pending this long, or with a record missing this long, becomes failed. */
  failureTimeoutMs: number;
}

/** What the signer needs to sign mail from a domain and to give it a return path there. */
export interface SigningIdentity {
  domain: string;
  selector: string;
  /** PKCS#8 PEM, opened from the sealed store value. */
  privateKeyPem: string;
  /** `<return-path subdomain>.<domain>`. */
  returnPathDomain: string;
}

export interface DomainService {
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
  /** The active key of the organisation's `domain`, or null when it has none (not an org domain). */
  signingIdentity(organizationId: string, domain: string): Promise<SigningIdentity | null>;
  /** The name of the organisation's domain `idOrName` (404 when it has none), e.g. to restrict a key to it. */
  nameOf(actor: Actor, idOrName: string): Promise<string>;
  /** The providers the organisation's `domain` names, in order (empty: the default; also for unknown domains). */
  providersOf(organizationId: string, domain: string | null): Promise<readonly string[]>;
  /** Throws unless `actor` may send with a From address on `domain` (lower-case punycode). */
  assertMaySendFrom(actor: Actor, domain: string): Promise<void>;
  /** The domain's open/click tracking defaults (off for unknown domains, e.g. test-mode sends). */
  trackingDefaults(organizationId: string, domain: string): Promise<{ opens: boolean; clicks: boolean }>;
  /**
   * Whether the inbound MX takes mail for `domain` (lower-case punycode): `receiving` with the owning organisation
   * when receiving is on and the domain is proven its owner's (verified, or its Inbound MX record found);
   * `off` when it is a domain here that does not receive; `unknown` otherwise.
   */
  receivingState(
    domain: string,
  ): Promise<{ state: "receiving" | "off"; organizationId: string } | { state: "unknown" }>;
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
  options: DomainScheduleOptions;
  logger: Logger;
}): DomainService {
  const { db, writer, clock, events, secrets, resolver, settings, options, logger } = deps;
  const { dkimKeys, domains } = tablesOf(db);
  const openedKeys = new Map<string, string>();
  /**
   * Each domain's providers as the router asks for them, once per delivery: kept briefly. A change made here
   * clears its entry at once; one made by another instance sharing the store is seen within ROUTE_CACHE_MS.
   */
  const routes = new Map<string, { providers: string[]; until: number }>();
  const forgetRoute = (row: { organizationId: string; name: string }) =>
    routes.delete(`${row.organizationId}|${row.name}`);
  const checking = new Map<string, Promise<void>>();
  /** Set by stop(): checks still waiting for DNS are abandoned rather than awaited (a lookup may take seconds). */
  let stopped = false;
  let announceStop!: () => void;
  const whenStopped = new Promise<void>((resolve) => (announceStop = resolve));

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

  const recordStatus = (statuses: RecordStatuses, record: ExpectedRecord): RecordStatus =>
    !record.checked ? "not_started" : ((statuses[record.id]?.status as RecordStatus | undefined) ?? "pending");

  const view = (row: DomainRow, keys: KeyRow[]): DomainView => ({
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
    last_checked_at: row.lastCheckedAt ?? null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  });

  const viewOf = async (tx: Db, row: DomainRow) => view(row, await liveKeys(tx, row.id));
  const rowById = (tx: Db, domainId: string) => first(tx.select().from(domains).where(eq(domains.id, domainId)));

  /** Appends `domain.updated` with the domain as it is now (the webhook payload) and what it was. */
  const announce = async (tx: Db, row: DomainRow, previousStatus: string) => {
    await events.append(tx, {
      organizationId: row.organizationId,
      type: "domain.updated",
      data: { ...(await viewOf(tx, row)), previous_status: previousStatus },
    });
  };

  const checkReturnPath = (value: unknown, path = "return_path_subdomain"): string => {
    if (typeof value !== "string" || !RETURN_PATH_LABEL.test(value))
      throw validationError([{ path, message: "must be one DNS label: a-z, 0-9 and -, at most 63 characters" }]);
    return value;
  };

  /** A new key, its private half sealed; the selector carries the date so operators can tell keys apart. */
  const newKey = async (domainId: string, state: "active" | "next"): Promise<KeyRow> => {
    const { publicKey, privateKey } = await generateKeyPair("rsa", { modulusLength: RSA_BITS });
    const now = clock.now();
    const date = isoTime(now).slice(0, 10).replace(/-/g, "");
    return {
      id: newId(),
      domainId,
      selector: `mr${date}${randomBytes(2).toString("hex")}`,
      publicKey: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
      privateKey: secrets.seal(privateKey.export({ type: "pkcs8", format: "pem" }).toString()),
      state,
      createdAt: isoTime(now),
      activatedAt: state === "active" ? isoTime(now) : null,
      retiredAt: null,
    };
  };

  /** Looks every checked record up; `unknown` when the lookup failed for another reason than "no such record". */
  /** Per checked record: whether it was found, and what DNS answered at its name (null when the lookup failed). */
  const observe = async (
    records: ExpectedRecord[],
  ): Promise<Map<string, { seen: Observation; found: string[] | null }>> => {
    const answers = new Map<string, Promise<TxtAnswer | MxAnswer | null>>();
    const lookup = (name: string, type: "TXT" | "MX") => {
      const key = `${type} ${name}`;
      if (!answers.has(key)) {
        const query = type === "TXT" ? resolver.resolveTxt(name) : resolver.resolveMx(name);
        answers.set(
          key,
          query.catch((error) => {
            if (isNotFound(error)) return [];
            logger.warn("DNS lookup failed during domain verification", {
              name,
              type,
              code: (error as { code?: string }).code,
            });
            return null;
          }),
        );
      }
      return answers.get(key)!;
    };
    const seen = new Map<string, { seen: Observation; found: string[] | null }>();
    await Promise.all(
      records
        .filter((record) => record.checked)
        .map(async (record) => {
          const answer = await lookup(record.name, record.type);
          seen.set(
            record.id,
            answer === null
              ? { seen: "unknown", found: null }
              : { seen: record.matches(answer) ? "found" : "missing", found: answerValues(answer) },
          );
        }),
    );
    return seen;
  };

  /**
   * Checks one domain's records and applies what was seen in one write. The DNS answers are gathered outside the
   * transaction; the write re-reads the row and skips if its records changed meanwhile (a later check sees them).
   */
  const check = async (domainId: string, manual: boolean): Promise<void> => {
    let row = await rowById(db, domainId);
    if (!row) return;
    if (!(await activeKey(db, domainId))) {
      // Domains from before DKIM keys existed get theirs at the first check.
      const key = await newKey(domainId, "active");
      if (stopped) return;
      await writer.write(async (tx) => {
        if (!(await activeKey(tx, domainId))) await tx.insert(dkimKeys).values(key);
      });
    }
    const keys = await liveKeys(db, domainId);
    const records = expectedRecords(row, keys, settings);
    const seen = await observe(records);
    if (stopped) return;
    const fingerprint = (r: DomainRow, k: KeyRow[]) =>
      `${r.returnPathSubdomain}|${r.receivingEnabled}|${r.providers.join(",")}|${k.map((key) => `${key.id}:${key.state}`).join(",")}`;
    const before = fingerprint(row, keys);

    await writer.write(async (tx) => {
      row = await rowById(tx, domainId);
      if (!row) return;
      const currentKeys = await liveKeys(tx, domainId);
      if (fingerprint(row, currentKeys) !== before) return;
      const now = clock.now();
      const timeout = options.failureTimeoutMs;
      // A manual check gives a failed domain (and its failed records) a fresh window.
      const restart = manual && row.status === "failed";
      const previousDomain = restart
        ? { status: "pending" as DomainStatus, since: now }
        : { status: row.status as DomainStatus, since: row.statusSince };

      const statuses: RecordStatuses = {};
      let recordsChanged = false;
      for (const record of records) {
        if (!record.checked) continue;
        const stored = row.recordStatuses[record.id];
        const previous =
          stored && !(restart && stored.status === "failed")
            ? { status: stored.status as RecordStatus, since: stored.since }
            : { status: "pending" as RecordStatus, since: now };
        const observed = seen.get(record.id);
        const next = nextRecordStatus(previous, observed?.seen ?? "unknown", now, timeout);
        statuses[record.id] = { ...next, found: observed?.found ?? null };
        if (next.status !== (stored?.status ?? "pending")) recordsChanged = true;
      }
      const essentials = records.filter((r) => r.essential).map((r) => seen.get(r.id)?.seen ?? "unknown");
      const domainNext = nextDomainStatus(previousDomain, essentials, now, timeout, row.verifiedOverride);

      // Rotation: the next key takes over once its record is found; the old key retires.
      const next = currentKeys.find((k) => k.state === "next");
      const takeover = next !== undefined && statuses[`dkim:${next.selector}`]?.status === "verified";
      if (takeover) {
        await tx
          .update(dkimKeys)
          .set({ state: "retired", retiredAt: isoTime(now) })
          .where(and(eq(dkimKeys.domainId, domainId), eq(dkimKeys.state, "active")));
        await tx
          .update(dkimKeys)
          .set({ state: "active", activatedAt: isoTime(now) })
          .where(eq(dkimKeys.id, next.id));
      }

      const changed = recordsChanged || takeover || domainNext.status !== row.status;
      const rotating = !takeover && next !== undefined;
      const interval =
        domainNext.status === "verified" && !rotating
          ? options.verifiedCheckIntervalMs
          : options.pendingCheckIntervalMs;
      const update = {
        status: domainNext.status,
        statusSince: domainNext.since,
        recordStatuses: statuses,
        nextCheckAt: domainNext.status === "failed" ? null : now + interval,
        lastCheckedAt: isoTime(now),
        ...(changed ? { updatedAt: isoTime(now) } : {}),
      };
      await tx.update(domains).set(update).where(eq(domains.id, domainId));
      if (changed) await announce(tx, { ...row, ...update }, row.status);
    });
  };

  /** One check per domain at a time: a second request waits for the one in flight. */
  const checkOnce = (domainId: string, manual: boolean): Promise<void> => {
    const running = checking.get(domainId);
    if (running) return running;
    const started = check(domainId, manual).finally(() => checking.delete(domainId));
    checking.set(domainId, started);
    return started;
  };

  const runDue = async (): Promise<number> => {
    const due = await dueDomainIds(db, clock.now(), CHECK_BATCH);
    let next = 0;
    const workers = Array.from({ length: Math.min(CHECK_CONCURRENCY, due.length) }, async () => {
      while (next < due.length && !stopped) {
        const id = due[next++]!;
        try {
          // At stop the pass ends at once; the check it leaves behind writes nothing when its lookups return.
          await Promise.race([checkOnce(id, false), whenStopped]);
        } catch (error) {
          logger.error("domain check failed", { domain_id: id, err: error });
        }
      }
    });
    await Promise.all(workers);
    return due.length;
  };

  const requireDomain = async (organizationId: string, idOrName: string): Promise<DomainRow> => {
    const row = await findDomain(db, organizationId, idOrName);
    if (!row) throw notFound();
    return row;
  };

  const getView = async (organizationId: string, idOrName: string) =>
    viewOf(db, await requireDomain(organizationId, idOrName));

  return {
    async add(actor, name, input = {}) {
      requireScope(actor, "domains:write");
      if (input.verifiedOverride && actor.keyId !== null)
        throw new AppError(
          "insufficient_scope",
          "Only the operator (mailroom domains add --verified) may mark a domain verified without DNS.",
        );
      const { organizationId } = actor;
      const normalized = normalizeDomain(name);
      if ("error" in normalized) throw validationError([{ path: "name", message: normalized.error }]);
      const returnPathSubdomain = checkReturnPath(input.returnPathSubdomain ?? options.defaultReturnPathSubdomain);
      const providers = checkProviders(input.providers) ?? [];
      const id = newId();
      const key = await newKey(id, "active");
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
      };
      await writer.write(async (tx) => {
        if (await first(tx.select({ id: domains.id }).from(domains).where(eq(domains.name, row.name))))
          throw new AppError("conflict", `The domain ${row.name} already exists.`);
        await tx.insert(domains).values(row);
        await tx.insert(dkimKeys).values(key);
      });
      const added = view(row, [key]);
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
      return { object: "list", has_more: hasMore, data: rows.map((row) => view(row, keys.get(row.id) ?? [])) };
    },

    async get(actor, idOrName) {
      requireScope(actor, "domains:read");
      return getView(actor.organizationId, idOrName);
    },

    async verify(actor, idOrName) {
      requireScope(actor, "domains:write");
      const { organizationId } = actor;
      const row = await requireDomain(organizationId, idOrName);
      await checkOnce(row.id, true);
      return getView(organizationId, row.id);
    },

    async update(actor, idOrName, input) {
      requireScope(actor, "domains:write");
      const { organizationId } = actor;
      const row = await requireDomain(organizationId, idOrName);
      const returnPathSubdomain =
        input.returnPathSubdomain === undefined ? undefined : checkReturnPath(input.returnPathSubdomain);
      const providers = checkProviders(input.providers);
      await writer.write(async (tx) => {
        const current = await rowById(tx, row.id);
        if (!current) throw notFound();
        const now = clock.now();
        const next = {
          openTracking: input.openTracking ?? current.openTracking,
          clickTracking: input.clickTracking ?? current.clickTracking,
          returnPathSubdomain: returnPathSubdomain ?? current.returnPathSubdomain,
          receivingEnabled: input.receivingEnabled ?? current.receivingEnabled,
          providers: providers ?? current.providers,
        };
        const spfChanged =
          spfMechanisms(next.providers, settings).join(" ") !== spfMechanisms(current.providers, settings).join(" ");
        const providersChanged = next.providers.join(",") !== current.providers.join(",");
        const unchanged =
          !providersChanged &&
          (Object.keys(next) as Array<keyof typeof next>).every((k) => k === "providers" || next[k] === current[k]);
        if (unchanged) return;
        const statuses = { ...current.recordStatuses };
        // Records that moved, changed or were switched on start over as pending; a check is due at once.
        if (next.returnPathSubdomain !== current.returnPathSubdomain) {
          delete statuses.spf;
          delete statuses.mx;
        }
        if (spfChanged) delete statuses.spf;
        if (next.receivingEnabled !== current.receivingEnabled) delete statuses.inbound;
        const recordsMoved =
          next.returnPathSubdomain !== current.returnPathSubdomain ||
          next.receivingEnabled !== current.receivingEnabled ||
          spfChanged;
        const update = {
          ...next,
          recordStatuses: statuses,
          updatedAt: isoTime(now),
          ...(recordsMoved ? { nextCheckAt: now } : {}),
        };
        await tx.update(domains).set(update).where(eq(domains.id, row.id));
        await announce(tx, { ...current, ...update }, current.status);
      });
      forgetRoute(row);
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
        await tx.delete(domains).where(eq(domains.id, row.id));
        openedKeys.clear();
        forgetRoute(row);
        return { object: "domain" as const, id: row.id, name: row.name, deleted: true as const };
      });
    },

    async rotateDkim(actor, idOrName) {
      requireScope(actor, "domains:write");
      const { organizationId } = actor;
      const row = await requireDomain(organizationId, idOrName);
      const key = await newKey(row.id, "next");
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
        await announce(tx, { ...current, ...update }, current.status);
      });
      forgetRoute(row);
      return getView(organizationId, row.id);
    },

    runOnce() {
      return runDue();
    },

    async stop() {
      stopped = true;
      announceStop();
    },

    async signingIdentity(organizationId, domain) {
      const row = await findByName(db, organizationId, domain);
      if (!row) return null;
      const key = await activeKey(db, row.id);
      if (!key) return null;
      let pem = openedKeys.get(key.id);
      if (!pem) {
        pem = secrets.open(key.privateKey);
        openedKeys.set(key.id, pem);
      }
      return {
        domain: row.name,
        selector: key.selector,
        privateKeyPem: pem,
        returnPathDomain: `${row.returnPathSubdomain}.${row.name}`,
      };
    },

    async assertMaySendFrom(actor, domain) {
      if (actor.domains && !actor.domains.some((allowed) => allowed === domain)) {
        throw new AppError("insufficient_scope", `This API key may send only from ${actor.domains.join(", ")}.`);
      }
      if (actor.mode === "test") return;
      const row = await findByName(db, actor.organizationId, domain);
      if (!row || !SENDABLE.has(row.status)) {
        throw new AppError(
          "domain_not_verified",
          `The domain ${domain} is not verified. Add it and publish its DNS records, or send with a test key.`,
        );
      }
    },

    async nameOf(actor, idOrName) {
      return (await requireDomain(actor.organizationId, idOrName)).name;
    },

    async providersOf(organizationId, domain) {
      if (!domain) return [];
      const key = `${organizationId}|${domain}`;
      const cached = routes.get(key);
      if (cached && cached.until > clock.now()) return cached.providers;
      const row = await first(
        db
          .select({ providers: domains.providers })
          .from(domains)
          .where(and(eq(domains.organizationId, organizationId), eq(domains.name, domain))),
      );
      const providers = row?.providers ?? [];
      routes.set(key, { providers, until: clock.now() + ROUTE_CACHE_MS });
      if (routes.size > ROUTE_CACHE_SIZE) routes.delete(routes.keys().next().value!);
      return providers;
    },

    async trackingDefaults(organizationId, domain) {
      const row = await findByName(db, organizationId, domain);
      return row ? { opens: row.openTracking, clicks: row.clickTracking } : { opens: false, clicks: false };
    },

    async receivingState(domain) {
      const row = await first(db.select().from(domains).where(eq(domains.name, domain)));
      if (!row) return { state: "unknown" };
      // A name any organisation could add is not yet theirs: DKIM and SPF found, or the MX found, prove it.
      const owned = SENDABLE.has(row.status) || row.recordStatuses.inbound?.status === "verified";
      return { state: row.receivingEnabled && owned ? "receiving" : "off", organizationId: row.organizationId };
    },
  };
}
