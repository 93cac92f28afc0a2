/**
 * What every part of the people area shares (docs/teams.md): the wire shapes of a person and a session, the checks of
 * an email, a name and a password, and the store helpers the parts use — a person's memberships, opening a session,
 * a password link, an audit record about a person. The parts (sign-in, sessions, passwords, factors) each take this
 * context; `createPeople` (service.ts) puts them together.
 *
 * Invariants: passwords are argon2id hashes, hashed and verified off the event loop (Bun.password), never logged or
 * returned; sessions and links are stored as the SHA-256 of their tokens; a link mailed by Mailroom is built from the
 * configured public address only (`linkBase`), never from a request.
 */
import { asc, eq } from "drizzle-orm";
import type { Actor, Role } from "../access.ts";
import { recordAudit, type AuditActor, type AuditEntry } from "../audit/log.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { createAuthFailures } from "../limits/auth-failures.ts";
import type { Logger } from "../lib/logger.ts";
import type { SecretBox } from "../lib/secrets.ts";
import { countAttempt, clearAttempts } from "./throttle.ts";
import { digest, newToken } from "./tokens.ts";
import type { MembershipView, SessionView, UserView } from "./wire.ts";

export type { MembershipView, SessionView, UserView };

export const MIN_PASSWORD_LENGTH = 12;
/** argon2id's input beyond this is refused: hashing a megabyte would be an easy way to burn CPU. */
const MAX_PASSWORD_LENGTH = 1024;

/** A session just opened: its token goes into the cookie, and nowhere else. */
export interface OpenedSession {
  token: string;
  view: SessionView;
}

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** Mail Mailroom sends a person about their account (emails/system-mail.ts, above this layer; the root hands it in). */
export interface AccountMail {
  /**
   * Sends `text` to `to` from the first of `organizationIds` with a verified sending domain; answers whether one had.
   * `private` names mail that carries a credential (a link); without it the mail is a notice. Either way it is
   * system mail (docs/teams.md#system-mail): no member reads it back, lists it or receives its webhooks.
   */
  send(input: {
    organizationIds: string[];
    to: string;
    subject: string;
    text: string;
    private?: "password_link" | "invitation";
  }): Promise<boolean>;
}

export type UserRow = {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  instanceAdmin: boolean;
  totpSecret?: string | null;
  totpPendingSecret?: string | null;
  oidcSubject?: string | null;
  emailProvenAt?: string | null;
  createdAt: string;
};

export interface PeopleDeps {
  db: Db;
  writer: Writer;
  clock: Clock;
  secrets: SecretBox;
  /** The name authenticator apps show beside a person's codes. */
  totpIssuer: string;
  /** Password sign-in is for instance admins only: everyone else signs in with SSO (`[oidc] required`). */
  ssoRequired?: boolean;
  /** Mail about accounts; without it, password links come from the CLI only. */
  mail?: AccountMail;
  /**
   * Where links mailed by Mailroom point (`[http] public_url`, else `https://<[server] hostname>`); null when
   * neither is set, and then no link is mailed (config/links.ts).
   */
  linkBase: string | null;
  /** Where work done after a request was answered reports failures. */
  logger?: Logger;
}

export function normalizeEmail(raw: string): string {
  // The length first: the pattern backtracks over a long run of dots, and a request body may hold megabytes.
  if (raw.length > 1024) throw validationError([{ path: "email", message: "must be an email address" }]);
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw validationError([{ path: "email", message: "must be an email address" }]);
  return email;
}

export function checkPassword(password: string): void {
  if (typeof password !== "string" || [...password].length < MIN_PASSWORD_LENGTH)
    throw validationError([{ path: "password", message: `must be at least ${MIN_PASSWORD_LENGTH} characters` }]);
  if (password.length > MAX_PASSWORD_LENGTH)
    throw validationError([{ path: "password", message: `must be at most ${MAX_PASSWORD_LENGTH} characters` }]);
}

export function checkName(name: string, path = "name"): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100 || /[\r\n]/.test(trimmed))
    throw validationError([{ path, message: "must be 1 to 100 characters on one line" }]);
  return trimmed;
}

export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: "argon2id" });

/** Whether `given` is the password `hash` was made from; one too long to hash is refused unread. */
export const passwordMatches = async (given: unknown, hash: string) =>
  typeof given === "string" && given.length <= MAX_PASSWORD_LENGTH && Bun.password.verify(given, hash);

/** The same cost as a real verification, for an address no user has: an unknown email answers no faster. */
export const UNKNOWN_USER_HASH = Bun.password.hash("an unknown user's password", { algorithm: "argon2id" });

export const userView = (row: UserRow): UserView => ({
  object: "user",
  id: row.id,
  email: row.email,
  name: row.name,
  instance_admin: row.instanceAdmin,
  totp_enabled: Boolean(row.totpSecret),
  created_at: row.createdAt,
});

export const unauthorized = () =>
  new AppError("unauthorized", "Not signed in, or the session has ended: sign in again.");

/** The person, for the audit log of what they do before they act in an organisation (signing in, out). */
export const personOf = (user: UserRow, client: ClientInfo): AuditActor => ({
  type: "user",
  id: user.id,
  name: user.email,
  ...client,
});

export type PeopleContext = ReturnType<typeof createPeopleContext>;

/** The store helpers every part of the area uses, over `deps`. */
export function createPeopleContext(deps: PeopleDeps) {
  const { db, clock } = deps;
  const { users, memberships, organizations, sessions, oneTimeLinks } = tablesOf(db);

  const membershipsOf = async (from: Db, userId: string): Promise<MembershipView[]> =>
    (
      await from
        .select({ id: organizations.id, name: organizations.name, role: memberships.role })
        .from(memberships)
        .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
        .where(eq(memberships.userId, userId))
        .orderBy(asc(memberships.createdAt), asc(organizations.id))
    ).map((row) => ({ id: row.id, name: row.name, role: row.role as Role }));

  return {
    deps,
    membershipsOf,
    // Per client network, in memory: doubling waits from 250 ms to 15 s for a network that keeps failing (the
    // account's own count, in the store, is throttle.ts's); a success clears it.
    networkFailures: createAuthFailures(clock, {
      baseDelayMs: 250,
      maxDelayMs: 15_000,
      forgetAfterMs: 15 * 60_000,
      maxTracked: 10_000,
    }),
    userByEmail: (from: Db, email: string) =>
      first(from.select().from(users).where(eq(users.email, email))) as Promise<UserRow | undefined>,
    userById: (from: Db, id: string) =>
      first(from.select().from(users).where(eq(users.id, id))) as Promise<UserRow | undefined>,

    async openSession(tx: Db, user: UserRow, client: ClientInfo): Promise<OpenedSession> {
      const token = newToken();
      const now = clock.now();
      await tx
        .insert(sessions)
        .values({ id: digest(token), userId: user.id, createdAt: now, lastSeenAt: now, ...client });
      return {
        token,
        view: { object: "session", user: userView(user), organizations: await membershipsOf(tx, user.id) },
      };
    },

    /** One audit event in each organisation of `user` (one of no organisation when they belong to none). */
    async auditEverywhere(tx: Db, user: UserRow, who: AuditActor, entry: AuditEntry) {
      const organizationIds = (await membershipsOf(tx, user.id)).map((m) => m.id);
      for (const organizationId of organizationIds.length ? organizationIds : [null])
        await recordAudit(tx, who, { ...entry, organizationId }, clock.now());
    },

    /**
     * One audit event about the person `user`, of no organisation: every organisation they belong to reads it in its
     * log (audit/reads.ts). For what a stranger can cause at will, such as a failed sign-in: one row, however many
     * organisations the person belongs to.
     */
    auditAboutPerson: (tx: Db, user: UserRow, who: AuditActor, entry: Omit<AuditEntry, "target" | "organizationId">) =>
      recordAudit(
        tx,
        who,
        { ...entry, target: { type: "user", id: user.id, name: user.email }, organizationId: null },
        clock.now(),
      ),

    /**
     * The signed-in person's own row, having checked their password again (counted as a sign-in attempt): a session
     * alone does not change factors.
     */
    async confirmedSelf(actor: Actor, password: string, path = "password"): Promise<UserRow> {
      if (!actor.user)
        throw new AppError("insufficient_scope", "Only a signed-in person changes their own password and TOTP.");
      const user = (await first(db.select().from(users).where(eq(users.id, actor.user.id)))) as UserRow;
      if (!(await this.passwordAttempt(user, password)))
        throw new AppError("unauthorized", "Your current password is not right.", {
          details: [{ path, message: "not right" }],
        });
      return user;
    },

    /**
     * Whether `given` is `user`'s password, as one attempt counted before it is checked (throttle.ts: 429 while the
     * factor is locked); a right one clears the count. An account with no password costs a hash all the same.
     */
    async passwordAttempt(user: UserRow, given: unknown): Promise<boolean> {
      await deps.writer.write((tx) => countAttempt(tx, user.id, "password", clock.now()));
      const matches = await passwordMatches(given, user.passwordHash ?? (await UNKNOWN_USER_HASH));
      if (!matches || !user.passwordHash) return false;
      await deps.writer.write((tx) => clearAttempts(tx, user.id, "password"));
      return true;
    },

    /** An audit event of a change the person made to their own account, in each of their organisations. */
    ownChange(tx: Db, user: UserRow, client: ClientInfo, action: string) {
      return this.auditEverywhere(tx, user, personOf(user, client), {
        action,
        target: { type: "user", id: user.id, name: user.email },
      });
    },

    /** A one-time link that sets `userId`'s password, good for `validMs`, written in `tx`; answers its token. */
    async insertPasswordLink(tx: Db, userId: string, validMs: number, mailed: boolean) {
      const token = newToken();
      const now = clock.now();
      await tx.insert(oneTimeLinks).values({
        tokenHash: digest(token),
        purpose: "password",
        userId,
        provesEmail: mailed,
        createdAt: isoTime(now),
        expiresAt: now + validMs,
      });
      return token;
    },
  };
}
