/**
 * DNS verification of sending domains, on demand and on a schedule: every checked record is looked up, the
 * answers are applied in one write, and a pending DKIM rotation takes over once its record is found.
 * Invariants: one check per domain at a time; the DNS answers are gathered outside the transaction, and the write
 * skips a domain whose records changed meanwhile; after `stop()` a check in flight writes nothing; schedules read
 * the injected clock only.
 */
import { POLICY_CHANGED } from "../db/read-cache.ts";
import { notifyAtCommit } from "../db/dialect.ts";
import { and, eq } from "drizzle-orm";
import type { RecordStatuses } from "../db/schema/index.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import type { EventLog } from "../events/service.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { isNotFound, type DnsResolver } from "../lib/dns.ts";
import type { Logger } from "../lib/logger.ts";
import type { SecretBox } from "../lib/secrets.ts";
import { newDkimKey } from "./dkim-keys.ts";
import type { DomainStatus, RecordStatus } from "./model.ts";
import {
  answerValues,
  expectedRecords,
  nextDomainStatus,
  nextRecordStatus,
  type ExpectedRecord,
  type DnsAnswer,
  type Observation,
  type RecordSettings,
} from "./records.ts";
import { activeKey, dueDomainIds, liveKeys, type DomainRow, type KeyRow } from "./repo.ts";
import { announceDomain } from "./views.ts";

/** Domains checked per scheduler pass, and checks in flight at once. */
const CHECK_BATCH = 100;
const CHECK_CONCURRENCY = 4;

export interface DomainScheduleOptions {
  /** Return-path subdomain of new domains. */
  defaultReturnPathSubdomain: string;
  pendingCheckIntervalMs: number;
  verifiedCheckIntervalMs: number;
  /** Pending this long, or with a record missing this long, becomes failed. */
  failureTimeoutMs: number;
}

export interface DomainChecks {
  /** Checks the domain now (a second call waits for the check in flight); `manual` restarts a failed domain. */
  checkOnce(domainId: string, manual: boolean): Promise<void>;
  /** Runs the checks that are due now and waits for them. */
  runDue(): Promise<number>;
  /** Checks in flight write nothing more once their DNS lookups return. */
  stop(): void;
}

export function createDomainChecks(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  events: EventLog;
  secrets: SecretBox;
  resolver: DnsResolver;
  settings: RecordSettings;
  options: DomainScheduleOptions;
  logger: Logger;
}): DomainChecks {
  const { db, writer, clock, resolver, settings, options, logger } = deps;
  const { dkimKeys, domains } = tablesOf(db);
  const rowById = (tx: Db, domainId: string) => first(tx.select().from(domains).where(eq(domains.id, domainId)));
  const checking = new Map<string, Promise<void>>();
  /** Set by stop(): checks still waiting for DNS are abandoned rather than awaited (a lookup may take seconds). */
  let stopped = false;
  let announceStop!: () => void;
  const whenStopped = new Promise<void>((resolve) => (announceStop = resolve));

  /** Looks every checked record up; `unknown` when the lookup failed for another reason than "no such record". */
  /** Per checked record: whether it was found, and what DNS answered at its name (null when the lookup failed). */
  const observe = async (
    records: ExpectedRecord[],
  ): Promise<Map<string, { seen: Observation; found: string[] | null }>> => {
    const answers = new Map<string, Promise<DnsAnswer | null>>();
    const lookup = (name: string, type: ExpectedRecord["type"]) => {
      const key = `${type} ${name}`;
      if (!answers.has(key)) {
        const query: Promise<DnsAnswer> =
          type === "TXT"
            ? resolver.resolveTxt(name)
            : type === "MX"
              ? resolver.resolveMx(name)
              : resolver.resolveCname(name);
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
      const key = await newDkimKey(deps, domainId, "active");
      if (stopped) return;
      await writer.write(async (tx) => {
        if (await activeKey(tx, domainId)) return;
        await tx.insert(dkimKeys).values(key);
        await notifyAtCommit(tx, POLICY_CHANGED);
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
          .where(and(eq(dkimKeys.domainId, domainId), eq(dkimKeys.state, "active"), eq(dkimKeys.algorithm, "rsa")));
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
      if (changed) await announceDomain(tx, deps, { ...row, ...update }, row.status);
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

  return {
    checkOnce,
    runDue,
    stop() {
      stopped = true;
      announceStop();
    },
  };
}
