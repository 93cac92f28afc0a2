/**
 * Sessions and who a request acts as (docs/teams.md#sessions): a session cookie's person in one of their
 * organisations with their role's scopes, signing out, the signed-in person, and the organisations a caller acts in.
 *
 * Invariants: a session ends after 12 h idle or 7 days; its last-seen time is written at most once a minute; a person
 * acts only in an organisation they belong to, with the scopes of their role there.
 */
import { eq } from "drizzle-orm";
import { requireScope, ROLE_SCOPES, type Role } from "../access.ts";
import { recordAudit } from "../audit/log.ts";
import { first, tablesOf } from "../db/store.ts";
import { AppError } from "../errors.ts";
import { isoTime } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { checkName, personOf, unauthorized, userView, type PeopleContext, type UserRow } from "./accounts.ts";
import type { People } from "./model.ts";
import { digest } from "./tokens.ts";

export const SESSION_IDLE_MS = 12 * 3_600_000;
export const SESSION_ABSOLUTE_MS = 7 * 86_400_000;
/** Last-seen times are written at most this often: a write per request would cost a commit per request. */
const SEEN_RESOLUTION_MS = 60_000;

type SessionsPart = Pick<
  People,
  "authenticateSession" | "signOut" | "sessionOf" | "me" | "organizations" | "createOrganization"
>;

const sessionExpired = (row: { createdAt: number; lastSeenAt: number }, now: number) =>
  now - Number(row.lastSeenAt) > SESSION_IDLE_MS || now - Number(row.createdAt) > SESSION_ABSOLUTE_MS;

export function createSessions(ctx: PeopleContext): SessionsPart {
  const { db, writer, clock } = ctx.deps;
  const { users, memberships, organizations, sessions } = tablesOf(db);
  const seenWritten = new Map<string, number>();

  const part: SessionsPart = {
    async authenticateSession(token, organizationId) {
      const session = await first(
        db
          .select()
          .from(sessions)
          .where(eq(sessions.id, digest(token))),
      );
      const now = clock.now();
      if (!session) throw unauthorized();
      // The last time this instance saw it counts too: its write of that time may not have committed yet.
      const lastSeenAt = Math.max(Number(session.lastSeenAt), seenWritten.get(session.id) ?? 0);
      if (sessionExpired({ createdAt: session.createdAt, lastSeenAt }, now)) throw unauthorized();
      const user = (await first(db.select().from(users).where(eq(users.id, session.userId)))) as UserRow | undefined;
      if (!user) throw unauthorized();
      if (now - lastSeenAt >= SEEN_RESOLUTION_MS) {
        seenWritten.set(session.id, now);
        if (seenWritten.size > 10_000) seenWritten.delete(seenWritten.keys().next().value!);
        // Best effort: a lost update only shortens the idle window by a minute.
        writer
          .write(
            async (tx) => void (await tx.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, session.id))),
          )
          .catch(() => {});
      }
      const all = await ctx.membershipsOf(db, user.id);
      const membership = organizationId ? all.find((m) => m.id === organizationId) : all[0];
      if (organizationId && !membership)
        throw new AppError(
          "insufficient_scope",
          "You are not a member of the organisation named by Mailroom-Organization.",
        );
      return {
        organizationId: membership?.id ?? "",
        keyId: null,
        mode: "live",
        scopes: new Set(membership ? ROLE_SCOPES[membership.role] : []),
        domains: null,
        keyRateLimit: null,
        orgRateLimit: null,
        keyDailyQuota: null,
        user: {
          id: user.id,
          email: user.email,
          name: user.name,
          role: membership?.role ?? "viewer",
          instanceAdmin: user.instanceAdmin,
        },
      };
    },

    async signOut(token, options = {}, client = { ip: null, userAgent: null }) {
      await writer.write(async (tx) => {
        const session = await first(
          tx
            .select()
            .from(sessions)
            .where(eq(sessions.id, digest(token))),
        );
        if (!session) return;
        const user = (await first(tx.select().from(users).where(eq(users.id, session.userId)))) as UserRow | undefined;
        if (user)
          await ctx.auditEverywhere(tx, user, personOf(user, client), {
            action: options.everywhere ? "sign_out.everywhere" : "sign_out",
            target: { type: "user", id: user.id, name: user.email },
          });
        await tx
          .delete(sessions)
          .where(options.everywhere ? eq(sessions.userId, session.userId) : eq(sessions.id, session.id));
      });
    },

    async sessionOf(token) {
      if (!token) return null;
      const actor = await part.authenticateSession(token).catch(() => null);
      return actor ? part.me(actor) : null;
    },

    async me(actor) {
      if (!actor.user)
        throw new AppError(
          "insufficient_scope",
          "GET /v1/me describes a signed-in person; an API key is described by GET /v1/api-keys/current.",
        );
      const user = (await first(db.select().from(users).where(eq(users.id, actor.user.id)))) as UserRow;
      return { object: "session", user: userView(user), organizations: await ctx.membershipsOf(db, user.id) };
    },

    async organizations(actor) {
      if (actor.user) {
        const data = (await ctx.membershipsOf(db, actor.user.id)).map((m) => ({
          object: "organization" as const,
          ...m,
        }));
        return { object: "list", has_more: false, data };
      }
      requireScope(actor, "organization:read");
      const own = await first(
        db
          .select({ id: organizations.id, name: organizations.name })
          .from(organizations)
          .where(eq(organizations.id, actor.organizationId)),
      );
      return {
        object: "list",
        has_more: false,
        data: own ? [{ object: "organization", ...own, role: "owner" as Role }] : [],
      };
    },

    async createOrganization(actor, rawName) {
      const mayCreate = actor.user ? actor.user.instanceAdmin : actor.keyId === null;
      if (!mayCreate)
        throw new AppError(
          "insufficient_scope",
          "Only instance admins create organisations (and the operator, from the CLI).",
        );
      const name = checkName(typeof rawName === "string" ? rawName : "");
      return writer.write(async (tx) => {
        const now = isoTime(clock.now());
        const organization = { id: newId(), name, createdAt: now };
        await tx.insert(organizations).values(organization);
        if (actor.user)
          await tx
            .insert(memberships)
            .values({ organizationId: organization.id, userId: actor.user.id, role: "owner", createdAt: now });
        await recordAudit(
          tx,
          actor,
          {
            action: "organization.created",
            target: { type: "organization", id: organization.id, name },
            organizationId: organization.id,
          },
          clock.now(),
        );
        return { object: "organization" as const, id: organization.id, name };
      });
    },
  };
  return part;
}
