/**
 * Passwords (docs/teams.md#passwords): people the operator creates, one-time links that set a password (the CLI's,
 * and those mailed on request), and a signed-in person changing theirs.
 *
 * Invariants: a mailed link is built from the configured public address only (`linkBase`), never from a request —
 * with none configured, nothing is mailed and the answer says why; a person is mailed at most one link every five
 * minutes; following a mailed link proves the address (`email_proven_at`), a CLI link does not; setting a password
 * spends every link of the person and ends every session.
 */
import { and, asc, eq, gt, lt, or, sql } from "drizzle-orm";
import { SYSTEM } from "../audit/log.ts";
import { lockedForUpdate } from "../db/dialect.ts";
import { first, tablesOf } from "../db/store.ts";
import { AppError } from "../errors.ts";
import { isoTime } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import {
  checkName,
  checkPassword,
  hashPassword,
  normalizeEmail,
  personOf,
  userView,
  type PeopleContext,
  type UserRow,
} from "./accounts.ts";
import type { People } from "./model.ts";
import { digest } from "./tokens.ts";

/** A password link (a new user's, or a reset) is good for a day. */
const PASSWORD_LINK_MS = 86_400_000;
/** One sent by email is good for an hour: a mailbox is read on more devices, and for longer, than a CLI's output. */
const EMAILED_LINK_MS = 3_600_000;
/** A person is sent at most one password link in this time, however often someone asks. */
const EMAILED_LINK_INTERVAL_MS = 5 * 60_000;

/** Why no link is mailed when no public address is configured: the request's Host is anyone's to choose. */
export const NO_PUBLIC_ADDRESS =
  "This server mails no links: it has no public address set ([http] public_url, or [server] hostname). Ask its operator for a link (mailroom users reset-password EMAIL).";

type PasswordsPart = Pick<
  People,
  "createUser" | "passwordLink" | "requestPasswordReset" | "setPassword" | "changePassword" | "listUsers"
>;

export function createPasswords(ctx: PeopleContext): PasswordsPart {
  const { db, writer, clock } = ctx.deps;
  const { users, memberships, organizations, sessions, oneTimeLinks } = tablesOf(db);

  /** Writes a mailed link for `user` unless one was made in the last five minutes; the row held against racers. */
  const newMailedLink = (user: UserRow, now: number) =>
    writer.write(async (tx) => {
      await first(lockedForUpdate(tx, tx.select({ id: users.id }).from(users).where(eq(users.id, user.id))));
      const recent = await first(
        tx
          .select({ tokenHash: oneTimeLinks.tokenHash })
          .from(oneTimeLinks)
          .where(
            and(
              eq(oneTimeLinks.userId, user.id),
              eq(oneTimeLinks.provesEmail, true),
              gt(oneTimeLinks.createdAt, isoTime(now - EMAILED_LINK_INTERVAL_MS)),
            ),
          ),
      );
      if (recent) return null;
      return {
        token: await ctx.insertPasswordLink(tx, user.id, EMAILED_LINK_MS, true),
        organizationIds: (await ctx.membershipsOf(tx, user.id)).map((m) => m.id),
      };
    });

  return {
    async createUser(input) {
      const email = normalizeEmail(input.email);
      const name = checkName(input.name ?? email.split("@")[0]!);
      return writer.write(async (tx) => {
        const organization = await first(
          tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, input.organizationId)),
        );
        if (!organization) throw new AppError("not_found", "Organisation not found.");
        const now = isoTime(clock.now());
        let row = await ctx.userByEmail(tx, email);
        if (!row) {
          row = { id: newId(), email, name, passwordHash: null, instanceAdmin: false, createdAt: now };
          await tx.insert(users).values({ ...row, updatedAt: now });
        }
        await tx
          .insert(memberships)
          .values({ organizationId: organization.id, userId: row.id, role: input.role, createdAt: now })
          .onConflictDoUpdate({ target: [memberships.organizationId, memberships.userId], set: { role: input.role } });
        return { user: userView(row), token: await ctx.insertPasswordLink(tx, row.id, PASSWORD_LINK_MS, false) };
      });
    },

    async passwordLink(rawEmail) {
      const email = normalizeEmail(rawEmail);
      return writer.write(async (tx) => {
        const user = await ctx.userByEmail(tx, email);
        if (!user) throw new AppError("not_found", `No user has the email ${email}.`);
        return ctx.insertPasswordLink(tx, user.id, PASSWORD_LINK_MS, false);
      });
    },

    requestPasswordReset(rawEmail, client) {
      const email = normalizeEmail(rawEmail);
      const { mail, linkBase, ssoRequired, logger } = ctx.deps;
      if (!mail) return;
      // The same answer for every address: it says nothing of who has an account.
      if (!linkBase) throw new AppError("service_unavailable", NO_PUBLIC_ADDRESS);
      // Answered before any of this runs: how long it takes must not tell whether the address has an account.
      void (async () => {
        const user = await ctx.userByEmail(db, email);
        if (!user || (ssoRequired && !user.instanceAdmin)) return;
        const link = await newMailedLink(user, clock.now());
        if (!link) return;
        const { token } = link;
        const minutes = EMAILED_LINK_MS / 60_000;
        const sent = await mail.send({
          organizationIds: link.organizationIds,
          to: user.email,
          subject: "Set a new Mailroom password",
          text: `Someone, probably you, asked to set a new password for ${user.email} on Mailroom.\n\nSet it here (the link works once, for ${minutes} minutes):\n${linkBase}/password#${token}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
          private: "password_link",
        });
        await writer.write(async (tx) => {
          // No organisation of theirs could send it: the link would only wait, unused, for its hour.
          if (!sent) return void (await tx.delete(oneTimeLinks).where(eq(oneTimeLinks.tokenHash, digest(token))));
          await ctx.auditEverywhere(
            tx,
            user,
            { ...SYSTEM, ...client },
            {
              action: "user.password_link_emailed",
              target: { type: "user", id: user.id, name: user.email },
            },
          );
        });
      })().catch((error) =>
        logger?.error("a password link could not be sent", { error: String(error), user_email: email }),
      );
    },

    async setPassword(input) {
      checkPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      await writer.write(async (tx) => {
        const now = clock.now();
        const link = await first(
          tx
            .select()
            .from(oneTimeLinks)
            .where(eq(oneTimeLinks.tokenHash, digest(input.token))),
        );
        if (link?.purpose !== "password" || !link.userId || (link.expiresAt !== null && Number(link.expiresAt) < now))
          throw new AppError("unauthorized", "This link has been used or has expired; ask for a new one.");
        // A link that came by mail was read in the person's mailbox: the address is theirs (single sign-on trusts it).
        const proven = link.provesEmail ? { emailProvenAt: isoTime(now) } : {};
        await tx
          .update(users)
          .set({ passwordHash, updatedAt: isoTime(now), ...proven })
          .where(eq(users.id, link.userId));
        const user = (await ctx.userById(tx, link.userId)) as UserRow;
        await ctx.auditEverywhere(tx, user, personOf(user, { ip: null, userAgent: null }), {
          action: "user.password_set",
          target: { type: "user", id: user.id, name: user.email },
        });
        // Every link of the user goes, expired ones with it; so do their sessions: a reset ends every sign-in.
        await tx
          .delete(oneTimeLinks)
          .where(
            or(
              eq(oneTimeLinks.userId, link.userId),
              and(lt(oneTimeLinks.expiresAt, now), sql`${oneTimeLinks.expiresAt} IS NOT NULL`),
            ),
          );
        await tx.delete(sessions).where(eq(sessions.userId, link.userId));
      });
    },

    async changePassword(actor, input, keepSession, client) {
      const user = await ctx.confirmedSelf(actor, input.current_password, "current_password");
      checkPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      await writer.write(async (tx) => {
        await tx
          .update(users)
          .set({ passwordHash, updatedAt: isoTime(clock.now()) })
          .where(eq(users.id, user.id));
        await ctx.ownChange(tx, user, client, "user.password_changed");
        const others = eq(sessions.userId, user.id);
        await tx
          .delete(sessions)
          .where(keepSession ? and(others, sql`${sessions.id} <> ${digest(keepSession)}`) : others);
      });
    },

    async listUsers() {
      const rows = (await db.select().from(users).orderBy(asc(users.email))) as UserRow[];
      return Promise.all(
        rows.map(async (row) => ({ ...userView(row), organizations: await ctx.membershipsOf(db, row.id) })),
      );
    },
  };
}
