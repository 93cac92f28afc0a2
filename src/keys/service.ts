/**
 * API keys: creation (the key is shown once), listing, renaming, revocation and authentication.
 * Invariants: only a SHA-256 hash of a key is stored, and a presented key is compared in constant time; keys carry
 * about 190 random bits, so a fast hash is the right tool (no password stretching needed). A key never holds, nor
 * changes, more than its actor's rights; it records the key that minted it, and authentication hands on the daily
 * quotas of every key above it, which its sends count against too (docs/keys-and-limits.md).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { recordAudit } from "../audit/log.ts";
import { notifyAtCommit } from "../db/dialect.ts";
import { prepareAs } from "../db/prepared.ts";
import { POLICY_CHANGED, policyCache } from "../db/read-cache.ts";
import type { apiKeys } from "../db/schema/index.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import { first, tablesOf, type Db, type Store, type Writer } from "../db/store.ts";
import { AppError, validationError, type ErrorDetail } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { isUuid, newId, randomToken } from "../lib/ids.ts";
import type { ApiKeyView, CreateKeyInput, CreatedApiKey } from "./model.ts";
import { requireScope, SCOPE_PRESETS, SCOPES, TEST_KEYS_MAY, type Actor, type Scope } from "../access.ts";

const KEY_FORMAT = /^mr_(live|test)_[0-9A-Za-z]{32}$/;
/** last_used_at is informative; writing it on every request would cost a commit per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

type KeyRow = typeof apiKeys.$inferSelect;

function toView(row: KeyRow): ApiKeyView {
  return {
    object: "api_key",
    id: row.id,
    name: row.name,
    mode: row.mode,
    token_prefix: row.tokenPrefix,
    scopes: row.scopes as Scope[],
    domains: row.domains ?? null,
    rate_limit_per_minute: row.rateLimitPerMinute ?? null,
    daily_quota: row.dailyQuota ?? null,
    created_at: row.createdAt,
    last_used_at: row.lastUsedAt ?? null,
    revoked_at: row.revokedAt ?? null,
  };
}

/** Expands presets and checks names; returns scopes in canonical order. */
export function resolveScopes(requested: string[]): Scope[] {
  const wanted = new Set<Scope>();
  const details: ErrorDetail[] = [];
  requested.forEach((name, i) => {
    const preset = SCOPE_PRESETS[name];
    if (preset) preset.forEach((scope) => wanted.add(scope));
    else if ((SCOPES as readonly string[]).includes(name)) wanted.add(name as Scope);
    else
      details.push({
        path: `scopes.${i}`,
        message: `unknown scope "${name}"; known: ${[...Object.keys(SCOPE_PRESETS), ...SCOPES].join(", ")}`,
      });
  });
  if (requested.length === 0) details.push({ path: "scopes", message: "at least one scope or preset is required" });
  if (details.length) throw validationError(details);
  return SCOPES.filter((scope) => wanted.has(scope));
}

export interface KeyService {
  /**
   * A key of the actor's organisation, never holding more than the actor (docs/keys-and-limits.md): its scopes within the
   * actor's, its sending domains within the actor's, its rate limit and daily quota at most the actor's, live only
   * from live.
   * Defaults to the actor's mode, and to the actor's own rate limit when the actor has one.
   */
  create(actor: Actor, input: CreateKeyInput): Promise<CreatedApiKey>;
  /** Newest first; revoked keys only when `includeRevoked`; test keys only, for a test key. */
  list(
    actor: Actor,
    options?: PageOptions & { includeRevoked?: boolean },
  ): Promise<{ object: "list"; has_more: boolean; data: ApiKeyView[] }>;
  rename(actor: Actor, id: string, name: unknown): Promise<ApiKeyView>;
  revoke(actor: Actor, id: string): Promise<ApiKeyView>;
  /** Resolves a presented key to its actor; throws 401 `unauthorized` for anything but a live, unrevoked key. */
  authenticate(presented: string): Promise<Actor>;
}

/**
 * What authentication reads of a key: its row, its organisation's rate limit and the daily quotas of the keys it was
 * minted from (undefined: no such active key).
 */
type KeyHolder =
  | { key: KeyRow; orgRateLimit: number | null; ancestorQuotas: { keyId: string; dailyQuota: number }[] }
  | undefined;

/** How far up the keys that minted a key authentication looks; a chain of mints deeper than this is not a use. */
const MAX_ANCESTORS = 64;

export function createKeyService(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  /** `limits.key_requests_per_minute`: the rate limit of a key that has none of its own. */
  defaultKeyRateLimit: number;
  /** The store's notifications: authentication's reads are cached until a key or organisation changes. */
  listen?: Store["listen"];
}): KeyService {
  const { db, writer, clock } = deps;
  const cache = policyCache<KeyHolder>(deps, POLICY_CHANGED, 10_000);
  const { apiKeys, organizations } = tablesOf(db);
  const lastUsedWritten = new Map<string, number>();
  // Prepared once: authentication runs on every request. Two index look-ups rather than a join: SQLite takes
  // twice as long for the joined form (21.7 µs against 6.7 + 4.9 µs, bun:sqlite, one key).
  const findActiveKey = prepareAs(
    "api_key_active",
    db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.tokenHash, sql.placeholder("digest")), isNull(apiKeys.revokedAt))),
  );
  const findCreator = prepareAs(
    "api_key_creator",
    db
      .select({ id: apiKeys.id, dailyQuota: apiKeys.dailyQuota, createdByKeyId: apiKeys.createdByKeyId })
      .from(apiKeys)
      .where(eq(apiKeys.id, sql.placeholder("id"))),
  );
  /** The quotas of the keys `key` was minted from, nearest first; revoked ones too, as their quota still stands. */
  const ancestorQuotasOf = async (key: KeyRow) => {
    const quotas: { keyId: string; dailyQuota: number }[] = [];
    const seen = new Set([key.id]);
    for (let parent = key.createdByKeyId; parent && !seen.has(parent) && seen.size <= MAX_ANCESTORS; ) {
      seen.add(parent);
      const [row] = await findCreator.execute({ id: parent });
      if (!row) break;
      if (row.dailyQuota !== null) quotas.push({ keyId: row.id, dailyQuota: row.dailyQuota });
      parent = row.createdByKeyId;
    }
    return quotas;
  };
  const findOrgRateLimit = prepareAs(
    "organization_rate_limit",
    db
      .select({ perMinute: organizations.rateLimitPerMinute })
      .from(organizations)
      .where(eq(organizations.id, sql.placeholder("id"))),
  );

  const touch = (keyId: string) => {
    const now = clock.now();
    if (now - (lastUsedWritten.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    lastUsedWritten.set(keyId, now);
    // Best effort: a lost last_used_at update is harmless, so a failure is not surfaced to the request.
    writer
      .write(async (tx) =>
        tx
          .update(apiKeys)
          .set({ lastUsedAt: isoTime(now) })
          .where(eq(apiKeys.id, keyId)),
      )
      .catch(() => {});
  };

  return {
    async create(actor, input) {
      requireScope(actor, "api_keys:write");
      const mode = input.mode ?? actor.mode;
      const { organizationId } = actor;
      const details: ErrorDetail[] = [];
      const name = input.name?.trim() ?? "";
      if (!name || name.length > 100 || /[\r\n]/.test(name))
        details.push({ path: "name", message: "name is required: 1 to 100 characters on one line" });
      if (
        input.rateLimitPerMinute != null &&
        (!Number.isInteger(input.rateLimitPerMinute) || input.rateLimitPerMinute < 1)
      )
        details.push({ path: "rate_limit_per_minute", message: "must be a positive integer" });
      if (input.dailyQuota != null && (!Number.isInteger(input.dailyQuota) || input.dailyQuota < 1))
        details.push({ path: "daily_quota", message: "must be a positive integer" });
      if (details.length) throw validationError(details);
      const scopes = resolveScopes(input.scopes);
      const domains = input.domains?.length ? [...new Set(input.domains.map((d) => d.trim().toLowerCase()))] : null;
      const rateLimitPerMinute = input.rateLimitPerMinute ?? actor.keyRateLimit;
      const dailyQuota = input.dailyQuota ?? actor.keyDailyQuota;
      assertWithinCreator(actor, { mode, scopes, domains, rateLimitPerMinute, dailyQuota }, deps.defaultKeyRateLimit);
      const key = `mr_${mode}_${randomToken(32)}`;
      const row: KeyRow = {
        id: newId(),
        organizationId,
        name,
        mode,
        tokenPrefix: key.slice(0, 12),
        tokenHash: hashKey(key),
        scopes,
        domains,
        rateLimitPerMinute: rateLimitPerMinute ?? null,
        dailyQuota: dailyQuota ?? null,
        createdAt: isoTime(clock.now()),
        lastUsedAt: null,
        revokedAt: null,
        createdByKeyId: actor.keyId,
      };
      await writer.write(async (tx) => {
        await tx.insert(apiKeys).values(row);
        await recordAudit(
          tx,
          actor,
          {
            action: "api_key.created",
            target: { type: "api_key", id: row.id, name },
            changes: { mode, scopes, domains, rate_limit: row.rateLimitPerMinute, daily_quota: row.dailyQuota },
          },
          clock.now(),
        );
      });
      return { ...toView(row), key };
    },

    async list(actor, options = { limit: 100 }) {
      requireScope(actor, "api_keys:read");
      const filters = [
        eq(apiKeys.organizationId, actor.organizationId),
        ...(options.includeRevoked ? [] : [isNull(apiKeys.revokedAt)]),
        ...(actor.mode === "test" ? [eq(apiKeys.mode, "test")] : []),
      ];
      const { page, hasMore } = await pageById(apiKeys.id, filters, options, (where, order, limit) =>
        db.select().from(apiKeys).where(where).orderBy(order).limit(limit),
      );
      return { object: "list", has_more: hasMore, data: page.map(toView) };
    },

    async rename(actor, id, name) {
      requireScope(actor, "api_keys:write");
      const trimmed = typeof name === "string" ? name.trim() : "";
      if (!trimmed || trimmed.length > 100 || /[\r\n]/.test(trimmed))
        throw validationError([{ path: "name", message: "name is required: 1 to 100 characters on one line" }]);
      const row = isUuid(id)
        ? await writer.write(async (tx) => {
            const where = and(eq(apiKeys.id, id.toLowerCase()), eq(apiKeys.organizationId, actor.organizationId));
            const existing = await first(tx.select().from(apiKeys).where(where));
            if (!existing) return undefined;
            assertMayChange(actor, existing, "rename");
            await tx.update(apiKeys).set({ name: trimmed }).where(where);
            await notifyAtCommit(tx, POLICY_CHANGED);
            await recordAudit(
              tx,
              actor,
              {
                action: "api_key.renamed",
                target: { type: "api_key", id: existing.id, name: trimmed },
                changes: { name: { from: existing.name, to: trimmed } },
              },
              clock.now(),
            );
            return { ...existing, name: trimmed };
          })
        : undefined;
      if (!row) throw new AppError("not_found", "API key not found.");
      return toView(row);
    },

    async revoke(actor, id) {
      requireScope(actor, "api_keys:write");
      if (!isUuid(id)) throw new AppError("not_found", "API key not found.");
      id = id.toLowerCase();
      const { organizationId } = actor;
      const revokedAt = isoTime(clock.now());
      const row = await writer.write(async (tx) => {
        const existing = await first(
          tx
            .select()
            .from(apiKeys)
            .where(and(eq(apiKeys.id, id), eq(apiKeys.organizationId, organizationId))),
        );
        if (!existing) return undefined;
        assertMayChange(actor, existing, "revoke");
        if (existing.revokedAt) return existing;
        await tx.update(apiKeys).set({ revokedAt }).where(eq(apiKeys.id, id));
        await notifyAtCommit(tx, POLICY_CHANGED);
        await recordAudit(
          tx,
          actor,
          { action: "api_key.revoked", target: { type: "api_key", id, name: existing.name } },
          clock.now(),
        );
        return { ...existing, revokedAt };
      });
      if (!row) throw new AppError("not_found", "API key not found.");
      return toView(row);
    },

    async authenticate(presented) {
      const reject = () => new AppError("unauthorized", "Missing, revoked or invalid API key.");
      if (!KEY_FORMAT.test(presented)) throw reject();
      const digest = hashKey(presented);
      const holder = await cache.get(digest, async () => {
        const [key] = await findActiveKey.execute({ digest });
        if (!key) return undefined;
        // Keys go with their organisation (ON DELETE CASCADE): only a deletion between the two reads finds none.
        const [organization] = await findOrgRateLimit.execute({ id: key.organizationId });
        if (!organization) return undefined;
        return { key, orgRateLimit: organization.perMinute ?? null, ancestorQuotas: await ancestorQuotasOf(key) };
      });
      // The index lookup already matched the digest; the constant-time comparison keeps the check itself free of
      // early exits should the lookup ever become a prefix or range scan.
      if (!holder || !timingSafeEqual(Buffer.from(holder.key.tokenHash), Buffer.from(digest))) throw reject();
      const { key, orgRateLimit, ancestorQuotas } = holder;
      touch(key.id);
      return {
        organizationId: key.organizationId,
        keyId: key.id,
        mode: key.mode,
        scopes: new Set(key.scopes as Scope[]),
        domains: key.domains ?? null,
        keyRateLimit: key.rateLimitPerMinute ?? null,
        orgRateLimit,
        keyDailyQuota: key.dailyQuota ?? null,
        ancestorQuotas,
        keyName: key.name,
        user: null,
      };
    },
  };
}

/** What about a key is weighed against its maker's or changer's rights: its mode, scopes and sending domains. */
type KeyRights = { mode: Actor["mode"]; scopes: readonly Scope[]; domains: readonly string[] | null };

/**
 * What of `key` lies beyond the actor's own rights (docs/keys-and-limits.md, docs/teams.md), in words; null when it is within them: a test
 * key acts on test keys only, and a key's scopes and sending domains must be the actor's too.
 */
function beyondActor(actor: Actor, key: KeyRights): string | null {
  if (actor.mode === "test" && key.mode === "live") return "a test key acts on test keys only";
  const beyond = key.scopes.filter((scope) => !actor.scopes.has(scope));
  if (beyond.length)
    return `${actor.user ? "your role does" : "this key does"} not hold ${beyond.map((scope) => `"${scope}"`).join(", ")}`;
  if (actor.domains === null) return null;
  if (key.domains === null)
    return `${actor.user ? "you send" : "this key sends"} only from ${actor.domains.join(", ")}, and that key is not restricted to those domains`;
  const outside = key.domains.filter((domain) => !actor.domains!.includes(domain));
  return outside.length ? `${actor.user ? "you" : "this key"} cannot send from ${outside.join(", ")}` : null;
}

/**
 * A person or key renames and revokes only keys within its own rights (docs/teams.md), so that nobody removes or
 * relabels what they could not have made; a test key is refused live keys as the sandbox it is (docs/keys-and-limits.md).
 */
function assertMayChange(actor: Actor, key: KeyRow, verb: "rename" | "revoke"): void {
  if (actor.mode === "test" && key.mode === "live")
    throw new AppError("insufficient_scope", `Test keys are a sandbox and cannot change live keys: ${TEST_KEYS_MAY}.`);
  const why = beyondActor(actor, { mode: key.mode, scopes: key.scopes as Scope[], domains: key.domains ?? null });
  if (why)
    throw new AppError(
      "insufficient_scope",
      `${actor.user ? "You" : "This key"} cannot ${verb} a key with rights beyond ${actor.user ? "your role's" : "its own"}: ${why}.`,
    );
}

/**
 * A key never mints more than it holds (docs/keys-and-limits.md). The operator at the console (no key of its own) is bound by
 * nothing but the scopes it holds. Each refusal names what was asked for beyond the creator's own rights.
 */
function assertWithinCreator(
  actor: Actor,
  wanted: KeyRights & { rateLimitPerMinute: number | null; dailyQuota: number | null },
  defaultKeyRateLimit: number,
): void {
  const creator = actor.user
    ? "You cannot create a key with more rights than your role's"
    : "A key cannot create a key with more rights than its own";
  const refuse = (what: string) => new AppError("insufficient_scope", `${creator}: ${what}.`);
  if (actor.mode === "test" && wanted.mode === "live") throw refuse("a test key creates test keys only");
  if (actor.domains !== null && wanted.domains === null)
    throw refuse(
      `this key sends only from ${actor.domains.join(", ")}, so a key it creates must be restricted to those domains (domain_id or domains)`,
    );
  const why = beyondActor(actor, wanted);
  if (why) throw refuse(why);
  if (actor.keyId === null) return;
  const ownLimit = actor.keyRateLimit ?? defaultKeyRateLimit;
  const wantedLimit = wanted.rateLimitPerMinute ?? defaultKeyRateLimit;
  if (wantedLimit > ownLimit)
    throw refuse(`a rate limit of ${wantedLimit} requests per minute exceeds this key's ${ownLimit}`);
  if (actor.keyDailyQuota !== null && (wanted.dailyQuota === null || wanted.dailyQuota > actor.keyDailyQuota))
    throw refuse(
      `this key may send ${actor.keyDailyQuota} messages a day, so a key it creates needs a daily_quota of at most that`,
    );
}
