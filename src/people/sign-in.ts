/**
 * Signing in (docs/teams.md#sign-in): the first start's setup link, a password with its second factor, and single
 * sign-on's verified identities.
 *
 * Invariants: each attempt at a password or a code is counted per account before it is checked (throttle.ts), so
 * attempts sent at once cannot all be checked, and past the free ones the answer is 429 until the lock passes; an
 * unknown address costs what a wrong password does; a failed attempt is audited once per account; single sign-on
 * links an existing account by email only when the account has no password or its address was proven by a mailed
 * link — an invitation's link proves nothing, since whoever invited holds it; nobody signs in by SSO before the
 * instance has its first admin (the setup link would otherwise never be printed again).
 */
import { and, asc, eq } from "drizzle-orm";
import type { Role } from "../access.ts";
import { recordAudit, SYSTEM } from "../audit/log.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import { AppError } from "../errors.ts";
import { isoTime } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import {
  checkName,
  checkPassword,
  hashPassword,
  normalizeEmail,
  passwordMatches,
  personOf,
  UNKNOWN_USER_HASH,
  type PeopleContext,
  type UserRow,
} from "./accounts.ts";
import type { People } from "./model.ts";
import { clearAttempts, countAttempt, createUnknownAccountThrottle, POLICIES } from "./throttle.ts";
import { digest, newToken } from "./tokens.ts";
import { spendSecondFactor } from "./totp.ts";

type SignInPart = Pick<People, "setupLink" | "completeSetup" | "signIn" | "signInVerified" | "failedGuess">;

export function createSignIn(ctx: PeopleContext): SignInPart {
  const { db, writer, clock, secrets } = ctx.deps;
  const { users, memberships, organizations, oneTimeLinks } = tablesOf(db);
  const unknownAccounts = createUnknownAccountThrottle();

  const instanceAdminExists = async (from: Db) =>
    Boolean(await first(from.select({ id: users.id }).from(users).where(eq(users.instanceAdmin, true)).limit(1)));

  /** Tells the person their second factor is locked: someone who knows their password is guessing codes. */
  const tellTotpLocked = (user: UserRow) =>
    void (async () => {
      const organizationIds = (await ctx.membershipsOf(db, user.id)).map((m) => m.id);
      await ctx.deps.mail?.send({
        organizationIds,
        to: user.email,
        subject: "Your Mailroom sign-in was locked",
        text: `Someone signed in to Mailroom as ${user.email} with your password, then entered ${POLICIES.totp.lockAt} wrong codes from the authenticator app, so two-step sign-in is locked for 15 minutes.\n\nIf it was not you, your password is known to someone else: change it now (Account, in the admin UI).\n`,
      });
    })().catch((error) =>
      ctx.deps.logger?.error("a locked sign-in could not be told", { error: String(error), user_id: user.id }),
    );

  return {
    async setupLink() {
      if (await instanceAdminExists(db)) return null;
      const token = newToken();
      await writer.write(async (tx) => {
        await tx.insert(oneTimeLinks).values({
          tokenHash: digest(token),
          purpose: "setup",
          userId: null,
          createdAt: isoTime(clock.now()),
          expiresAt: null,
        });
      });
      return token;
    },

    async completeSetup(input, client) {
      const email = normalizeEmail(input.email);
      const name = checkName(input.name);
      checkPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      return writer.write(async (tx) => {
        const link = await first(
          tx
            .select()
            .from(oneTimeLinks)
            .where(and(eq(oneTimeLinks.tokenHash, digest(input.token)), eq(oneTimeLinks.purpose, "setup"))),
        );
        if (!link || (await instanceAdminExists(tx)))
          throw new AppError("unauthorized", "This setup link has been used or is not valid; sign in instead.");
        if (await ctx.userByEmail(tx, email))
          throw new AppError("conflict", `${email} has an account already: set up the first user with another email.`);
        const organization = await first(
          tx.select({ id: organizations.id }).from(organizations).orderBy(asc(organizations.id)).limit(1),
        );
        if (!organization) throw new AppError("not_found", "No organisation exists yet: start the server once.");
        const now = isoTime(clock.now());
        const user: UserRow = { id: newId(), email, name, passwordHash, instanceAdmin: true, createdAt: now };
        await tx.insert(users).values({ ...user, updatedAt: now });
        await tx
          .insert(memberships)
          .values({ organizationId: organization.id, userId: user.id, role: "owner", createdAt: now });
        await tx.delete(oneTimeLinks).where(eq(oneTimeLinks.purpose, "setup"));
        await recordAudit(
          tx,
          personOf(user, client),
          {
            action: "user.set_up",
            target: { type: "user", id: user.id, name: email },
            organizationId: organization.id,
          },
          clock.now(),
        );
        return ctx.openSession(tx, user, client);
      });
    },

    async signIn(input, client) {
      const email = typeof input.email === "string" ? input.email.trim().toLowerCase() : "";
      const password = typeof input.password === "string" ? input.password : "";
      const network = client.ip ?? "unknown";
      const user = email ? await ctx.userByEmail(db, email) : undefined;
      // Counted before it is checked: attempts sent at once cannot all be checked (429 past the free ones). An unknown
      // address costs the same hash, and is counted in memory by the same rule.
      let verified = false;
      if (user) verified = await ctx.passwordAttempt(user, password);
      else {
        unknownAccounts.count(email, clock.now());
        await passwordMatches(password, await UNKNOWN_USER_HASH);
      }
      if (!user || !verified) {
        // An address nobody has concerns no organisation, and guessing addresses must not fill the store.
        if (user)
          await writer.write((tx) =>
            ctx.auditAboutPerson(tx, user, personOf(user, client), { action: "sign_in.failed" }),
          );
        await ctx.networkFailures.fail(network);
        throw new AppError("unauthorized", "The email or password is not right.");
      }
      if (ctx.deps.ssoRequired && !user.instanceAdmin)
        throw new AppError("unauthorized", "This instance signs people in with SSO: use “Sign in with SSO”.", {
          details: [{ path: "password", message: "password sign-in is off here; sign in with SSO" }],
        });
      const totpSecret = user.totpSecret;
      if (totpSecret && !input.totp)
        throw new AppError("unauthorized", "Enter the code from your authenticator app, or a recovery code.", {
          details: [{ path: "totp", message: "required" }],
        });
      const outcome = await writer.write(async (tx) => {
        if (totpSecret) {
          const counted = await countAttempt(tx, user.id, "totp", clock.now());
          const spent = await spendSecondFactor(tx, {
            userId: user.id,
            secret: secrets.open(totpSecret),
            code: String(input.totp),
            now: clock.now(),
          });
          if (!spent) {
            await ctx.auditAboutPerson(tx, user, personOf(user, client), {
              action: "sign_in.failed",
              changes: { factor: "totp" },
            });
            return { failures: counted.failures };
          }
          await clearAttempts(tx, user.id, "totp");
        }
        await ctx.auditEverywhere(tx, user, personOf(user, client), {
          action: "sign_in.succeeded",
          target: { type: "user", id: user.id, name: user.email },
        });
        return { opened: await ctx.openSession(tx, user, client) };
      });
      if (!outcome.opened) {
        if (outcome.failures === POLICIES.totp.lockAt) tellTotpLocked(user);
        await ctx.networkFailures.fail(network);
        throw new AppError("unauthorized", "That code is not right, or has been used already.", {
          details: [{ path: "totp", message: "not right, or used already" }],
        });
      }
      ctx.networkFailures.succeed(network);
      return outcome.opened;
    },

    async failedGuess(client) {
      await ctx.networkFailures.fail(client.ip ?? "unknown");
    },

    async signInVerified(input, client) {
      const email = normalizeEmail(input.email);
      if (!(await instanceAdminExists(db)))
        throw new AppError(
          "unauthorized",
          "This instance is not set up yet: its operator creates the first user with the setup link printed at start.",
        );
      const outcome = await writer.write(async (tx) => {
        const now = isoTime(clock.now());
        let user = (await first(tx.select().from(users).where(eq(users.oidcSubject, input.subject)))) as
          | UserRow
          | undefined;
        const isNew = !user && !(await ctx.userByEmail(tx, email));
        if (!user) {
          user = await ctx.userByEmail(tx, email);
          if (user?.oidcSubject)
            throw new AppError("unauthorized", "This email belongs to another single sign-on identity here.");
          // Whoever controls the identity provider's account is trusted with this address only where nobody has a
          // password for it, or its owner proved the address here by a mailed link. Where SSO is required, the
          // password of anyone but an instance admin opens nothing, so it is no one's hold on the account.
          const passwordOpens = user?.passwordHash && !(ctx.deps.ssoRequired && !user.instanceAdmin);
          if (user && passwordOpens && !user.emailProvenAt) return { unproven: user };
          if (user)
            await tx.update(users).set({ oidcSubject: input.subject, updatedAt: now }).where(eq(users.id, user.id));
          else {
            user = {
              id: newId(),
              email,
              name: checkName(input.name || email.split("@")[0]!),
              passwordHash: null,
              instanceAdmin: false,
              createdAt: now,
            };
            await tx.insert(users).values({ ...user, oidcSubject: input.subject, updatedAt: now });
          }
        }
        await joinAll(tx, user, await input.joins(tx, isNew), client);
        if (!(await ctx.membershipsOf(tx, user.id)).length)
          throw new AppError(
            "unauthorized",
            "You signed in, but belong to no organisation here: ask an owner for an invitation.",
          );
        await ctx.auditEverywhere(tx, user, personOf(user, client), {
          action: "sign_in.succeeded",
          target: { type: "user", id: user.id, name: user.email },
          changes: { method: "sso" },
        });
        return { opened: await ctx.openSession(tx, user, client) };
      });
      if (outcome.opened) return outcome.opened;
      // Refused, and the account's organisations are told in their audit logs.
      const refused = outcome.unproven!;
      await writer.write((tx) =>
        ctx.auditEverywhere(
          tx,
          refused,
          { ...SYSTEM, ...client },
          {
            action: "sign_in.sso_refused",
            target: { type: "user", id: refused.id, name: refused.email },
            changes: { reason: "the account has a password and its address was never proven by a mailed link" },
          },
        ),
      );
      throw new AppError(
        "unauthorized",
        "An account with this email already has a password here: sign in with it, or set a new one with “Forgot your password?” (the emailed link proves the address), then use SSO.",
      );
    },
  };

  /** Adds or updates the memberships single sign-on names for `person`, each audited. */
  async function joinAll(
    tx: Db,
    person: UserRow,
    joins: Array<{ organizationId: string; role: Role; replaceRole: boolean; action?: string }>,
    client: { ip: string | null; userAgent: string | null },
  ) {
    const now = isoTime(clock.now());
    for (const join of joins) {
      const where = and(eq(memberships.organizationId, join.organizationId), eq(memberships.userId, person.id));
      const current = await first(tx.select({ role: memberships.role }).from(memberships).where(where));
      const changesRole = current && join.replaceRole && current.role !== "owner" && current.role !== join.role;
      if (!current)
        await tx
          .insert(memberships)
          .values({ organizationId: join.organizationId, userId: person.id, role: join.role, createdAt: now });
      else if (changesRole) await tx.update(memberships).set({ role: join.role }).where(where);
      if (!current || changesRole)
        await recordAudit(
          tx,
          personOf(person, client),
          {
            action: current ? "member.role_changed" : (join.action ?? "member.provisioned"),
            target: { type: "user", id: person.id, name: person.email },
            changes: current ? { role: { from: current.role, to: join.role } } : { role: join.role },
            organizationId: join.organizationId,
          },
          clock.now(),
        );
    }
  }
}
