/**
 * People (DESIGN §13): users, their memberships of organisations, sessions, and one-time links — the first start's
 * setup link and links that set a password. Sign-in with email and password yields a session token (the cookie's);
 * a request with that token acts as the user in one of their organisations, with their role's scopes.
 *
 * Invariants: passwords are stored as argon2id hashes, hashed and verified off the event loop (Bun.password), and
 * never logged or returned; a session or a link is stored as the SHA-256 of its token and compared through that
 * digest; a failed sign-in is slowed per account and per client network, and an unknown address costs what a wrong
 * password does; the setup link creates the first user only, once; a session ends after 12 h idle or 7 days.
 */
import { and, asc, eq, gt, lt, or, sql } from "drizzle-orm";
import { requireScope, ROLE_SCOPES, type Actor, type Role } from "../access.ts";
import { lockedForUpdate } from "../db/dialect.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { createAuthFailures } from "../limits/auth-failures.ts";
import { recordAudit, SYSTEM, type AuditActor, type AuditEntry } from "../audit/log.ts";
import type { Logger } from "../lib/logger.ts";
import type { SecretBox } from "../lib/secrets.ts";
import { digest, newToken } from "./tokens.ts";
import { newRecoveryCodes, newTotpSecret, otpauthUrl, spendSecondFactor, totpStep } from "./totp.ts";

export const SESSION_IDLE_MS = 12 * 3_600_000;
export const SESSION_ABSOLUTE_MS = 7 * 86_400_000;
/** A password link (a new user's, or a reset) is good for a day. */
const PASSWORD_LINK_MS = 86_400_000;
/** One sent by email is good for an hour: a mailbox is read on more devices, and for longer, than a CLI's output. */
const EMAILED_LINK_MS = 3_600_000;
/** A person is sent at most one password link in this time, however often someone asks. */
const EMAILED_LINK_INTERVAL_MS = 5 * 60_000;
/** Last-seen times are written at most this often: a write per request would cost a commit per request. */
const SEEN_RESOLUTION_MS = 60_000;
export const MIN_PASSWORD_LENGTH = 12;
/** argon2id's input beyond this is refused: hashing a megabyte would be an easy way to burn CPU. */
const MAX_PASSWORD_LENGTH = 1024;

export interface MembershipView {
  id: string;
  name: string;
  role: Role;
}

export interface UserView {
  object: "user";
  id: string;
  email: string;
  name: string;
  instance_admin: boolean;
  /** Whether sign-in with a password also asks for a code from an authenticator app. */
  totp_enabled: boolean;
  created_at: string;
}

export interface SessionView {
  object: "session";
  user: UserView;
  organizations: MembershipView[];
}

/** A session just opened: its token goes into the cookie, and nowhere else. */
export interface OpenedSession {
  token: string;
  view: SessionView;
}

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** Sends a password link by email (emails/system-mail.ts, above this layer; the server hands it in). */
export interface PasswordLinkSender {
  /** From the first of `organizationIds` with a verified sending domain; answers whether one had. */
  sendPasswordLink(input: {
    organizationIds: string[];
    to: string;
    url: string;
    validMinutes: number;
  }): Promise<boolean>;
}

export interface People {
  /** A new setup link's token while no user exists (each start makes one; all work until the first is used). */
  setupLink(): Promise<string | null>;
  /** Creates the first user — instance admin, owner of the first organisation — and signs them in. */
  completeSetup(
    input: { token: string; email: string; name: string; password: string },
    client: ClientInfo,
  ): Promise<OpenedSession>;
  /** Signs in with a password, and a TOTP or recovery code (`totp`) when the person has turned TOTP on. */
  signIn(input: { email: string; password: string; totp?: string }, client: ClientInfo): Promise<OpenedSession>;
  /**
   * Signs in the person an identity provider vouched for (single sign-on): found by their provider identity, else by
   * their verified email (which is then linked to it), else created without a password. `joins` names the
   * memberships to add in the same write (`replaceRole`: set the role of an existing one too, an owner's excepted);
   * a person who then belongs to no organisation is refused, and nothing is kept.
   */
  signInVerified(
    input: {
      subject: string;
      email: string;
      name: string;
      joins: (
        tx: Db,
        isNew: boolean,
      ) => Promise<Array<{ organizationId: string; role: Role; replaceRole: boolean; action?: string }>>;
    },
    client: ClientInfo,
  ): Promise<OpenedSession>;
  /** The actor of a session token in `organizationId` (default: the user's first organisation); 401 when none. */
  authenticateSession(token: string, organizationId?: string): Promise<Actor>;
  signOut(token: string, options?: { everywhere?: boolean }, client?: ClientInfo): Promise<void>;
  /** The person a session token signs in, or null (none, ended, or not a token at all). */
  sessionOf(token: string | undefined): Promise<SessionView | null>;
  me(actor: Actor): Promise<SessionView>;
  /** The organisations the caller acts in: a user's memberships, or a key's own. */
  organizations(
    actor: Actor,
  ): Promise<{ object: "list"; has_more: false; data: Array<MembershipView & { object: "organization" }> }>;
  /** A new organisation (instance admins, and the operator); a user who creates one becomes its owner. */
  createOrganization(actor: Actor, name: string): Promise<{ object: "organization"; id: string; name: string }>;
  /** A user made by the operator, member of `organizationId` with `role`; answers the token of their password link. */
  createUser(input: {
    email: string;
    name?: string;
    organizationId: string;
    role: Role;
  }): Promise<{ user: UserView; token: string }>;
  /** A password link for an existing user (the operator's reset). */
  passwordLink(email: string): Promise<string>;
  /**
   * Sends a password link to `email` when a person has it and an organisation of theirs can send mail; answers at
   * once and the same way whether or not either holds, so that it tells nobody who has an account. At most one link
   * per person every five minutes; none for someone who must sign in with SSO.
   */
  requestPasswordReset(email: string, baseUrl: string, client: ClientInfo): void;
  /** Sets the password a link was made for; the link then works no more, and the user's sessions end. */
  setPassword(input: { token: string; password: string }): Promise<void>;
  listUsers(): Promise<Array<UserView & { organizations: MembershipView[] }>>;
  /** Changes the signed-in person's password; their other sessions end, `keepSession` (this one) stays. */
  changePassword(
    actor: Actor,
    input: { current_password: string; password: string },
    keepSession: string | undefined,
    client: ClientInfo,
  ): Promise<void>;
  /** Begins turning TOTP on: a new secret, kept pending until `confirmTotp` gets a code of it. */
  enrolTotp(actor: Actor, password: string): Promise<{ object: "totp_enrolment"; secret: string; otpauth_url: string }>;
  /** Turns TOTP on with a code of the pending secret; answers the recovery codes, shown this once. */
  confirmTotp(
    actor: Actor,
    code: string,
    client: ClientInfo,
  ): Promise<{ object: "totp"; enabled: true; recovery_codes: string[] }>;
  disableTotp(actor: Actor, password: string, client: ClientInfo): Promise<{ object: "totp"; enabled: false }>;
  /** New recovery codes in place of the old ones, shown this once. */
  replaceRecoveryCodes(
    actor: Actor,
    password: string,
    client: ClientInfo,
  ): Promise<{ object: "totp"; enabled: true; recovery_codes: string[] }>;
  /**
   * Makes the person at `email` a member of `organizationId` with `role`, in one write with `claim` (which spends the
   * invitation): a new person is created with `name` and `password`; one with a password must give it.
   */
  joinWithInvitation(input: {
    email: string;
    name?: string;
    password: string;
    organizationId: string;
    role: Role;
    claim: (tx: Db) => Promise<void>;
  }): Promise<void>;
}

/** The same cost as a real verification, for an address no user has: an unknown email answers no faster. */
const UNKNOWN_USER_HASH = Bun.password.hash("an unknown user's password", { algorithm: "argon2id" });

export function normalizeEmail(raw: string): string {
  // The length first: the pattern backtracks over a long run of dots, and a request body may hold megabytes.
  if (raw.length > 1024) throw validationError([{ path: "email", message: "must be an email address" }]);
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw validationError([{ path: "email", message: "must be an email address" }]);
  return email;
}

function checkPassword(password: string): void {
  if (typeof password !== "string" || [...password].length < MIN_PASSWORD_LENGTH)
    throw validationError([{ path: "password", message: `must be at least ${MIN_PASSWORD_LENGTH} characters` }]);
  if (password.length > MAX_PASSWORD_LENGTH)
    throw validationError([{ path: "password", message: `must be at most ${MAX_PASSWORD_LENGTH} characters` }]);
}

function checkName(name: string, path = "name"): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100 || /[\r\n]/.test(trimmed))
    throw validationError([{ path, message: "must be 1 to 100 characters on one line" }]);
  return trimmed;
}

const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: "argon2id" });

/** Whether `given` is the password `hash` was made from; one too long to hash is refused unread. */
const passwordMatches = async (given: unknown, hash: string) =>
  typeof given === "string" && given.length <= MAX_PASSWORD_LENGTH && Bun.password.verify(given, hash);

type UserRow = {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  instanceAdmin: boolean;
  totpSecret?: string | null;
  totpPendingSecret?: string | null;
  oidcSubject?: string | null;
  createdAt: string;
};

const userView = (row: UserRow): UserView => ({
  object: "user",
  id: row.id,
  email: row.email,
  name: row.name,
  instance_admin: row.instanceAdmin,
  totp_enabled: Boolean(row.totpSecret),
  created_at: row.createdAt,
});

export function createPeople(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  secrets: SecretBox;
  /** The name authenticator apps show beside a person's codes. */
  totpIssuer: string;
  /** Password sign-in is for instance admins only: everyone else signs in with SSO (`[oidc] required`). */
  ssoRequired?: boolean;
  /** Password links by email; without it, they come from the CLI only. */
  passwordMail?: PasswordLinkSender;
  /** Where a password link that could not be sent is reported (its request has been answered already). */
  logger?: Logger;
}): People {
  const { db, writer, clock, secrets } = deps;
  const { users, memberships, organizations, sessions, oneTimeLinks, recoveryCodes } = tablesOf(db);
  // Doubling waits from 250 ms to 15 s for an account or network that keeps failing; a success clears its count.
  const failures = createAuthFailures(clock, {
    baseDelayMs: 250,
    maxDelayMs: 15_000,
    forgetAfterMs: 15 * 60_000,
    maxTracked: 10_000,
  });
  const seenWritten = new Map<string, number>();

  const membershipsOf = async (from: Db, userId: string): Promise<MembershipView[]> =>
    (
      await from
        .select({ id: organizations.id, name: organizations.name, role: memberships.role })
        .from(memberships)
        .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
        .where(eq(memberships.userId, userId))
        .orderBy(asc(memberships.createdAt), asc(organizations.id))
    ).map((row) => ({ id: row.id, name: row.name, role: row.role as Role }));

  const openSession = async (tx: Db, user: UserRow, client: ClientInfo): Promise<OpenedSession> => {
    const token = newToken();
    const now = clock.now();
    await tx
      .insert(sessions)
      .values({ id: digest(token), userId: user.id, createdAt: now, lastSeenAt: now, ...client });
    return {
      token,
      view: { object: "session", user: userView(user), organizations: await membershipsOf(tx, user.id) },
    };
  };

  const userByEmail = (from: Db, email: string) =>
    first(from.select().from(users).where(eq(users.email, email))) as Promise<UserRow | undefined>;

  /** The person, for the audit log of what they do before they act in an organisation (signing in, out). */
  const personOf = (user: UserRow, client: ClientInfo): AuditActor => ({
    type: "user",
    id: user.id,
    name: user.email,
    ...client,
  });

  /** One audit event in each organisation of `user` (one of no organisation when they belong to none). */
  const auditEverywhere = async (tx: Db, user: UserRow, who: AuditActor, entry: AuditEntry) => {
    const organizationIds = (await membershipsOf(tx, user.id)).map((m) => m.id);
    for (const organizationId of organizationIds.length ? organizationIds : [null])
      await recordAudit(tx, who, { ...entry, organizationId }, clock.now());
  };

  const sessionExpired = (row: { createdAt: number; lastSeenAt: number }, now: number) =>
    now - Number(row.lastSeenAt) > SESSION_IDLE_MS || now - Number(row.createdAt) > SESSION_ABSOLUTE_MS;

  const unauthorized = () => new AppError("unauthorized", "Not signed in, or the session has ended: sign in again.");

  /** A one-time link that sets `userId`'s password, good for `validMs`, written in `tx`; answers its token. */
  const insertPasswordLink = async (tx: Db, userId: string, validMs: number) => {
    const token = newToken();
    const now = clock.now();
    await tx.insert(oneTimeLinks).values({
      tokenHash: digest(token),
      purpose: "password",
      userId,
      createdAt: isoTime(now),
      expiresAt: now + validMs,
    });
    return token;
  };

  /** The signed-in person's own row, having checked their password again: a session alone does not change factors. */
  const confirmedSelf = async (actor: Actor, password: string, path = "password"): Promise<UserRow> => {
    if (!actor.user)
      throw new AppError("insufficient_scope", "Only a signed-in person changes their own password and TOTP.");
    const user = (await first(db.select().from(users).where(eq(users.id, actor.user.id)))) as UserRow;
    if (!user.passwordHash || !(await passwordMatches(password, user.passwordHash))) {
      await failures.fail(`account:${user.email}`);
      throw new AppError("unauthorized", "Your current password is not right.", {
        details: [{ path, message: "not right" }],
      });
    }
    return user;
  };

  const ownChange = (tx: Db, user: UserRow, client: ClientInfo, action: string) =>
    auditEverywhere(tx, user, personOf(user, client), {
      action,
      target: { type: "user", id: user.id, name: user.email },
    });

  /** Replaces the user's recovery codes with ten new ones, inside `tx`; answers them for the person to keep. */
  const storeRecoveryCodes = async (tx: Db, userId: string) => {
    const { codes, hashes } = newRecoveryCodes();
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
    return codes;
  };

  const service: People = {
    async setupLink() {
      if (await first(db.select({ id: users.id }).from(users).limit(1))) return null;
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
        if (!link || (await first(tx.select({ id: users.id }).from(users).limit(1))))
          throw new AppError("unauthorized", "This setup link has been used or is not valid; sign in instead.");
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
        return openSession(tx, user, client);
      });
    },

    async signIn(input, client) {
      const email = typeof input.email === "string" ? input.email.trim().toLowerCase() : "";
      const password = typeof input.password === "string" ? input.password : "";
      const user = email ? await userByEmail(db, email) : undefined;
      const verified = await passwordMatches(password, user?.passwordHash ?? (await UNKNOWN_USER_HASH));
      const account = `account:${email}`;
      const network = client.ip ?? "unknown";
      if (!user?.passwordHash || !verified) {
        // Recorded in every organisation of the person it names. An address nobody has concerns no organisation, and
        // guessing addresses must not fill the store: it is not recorded.
        if (user)
          await writer.write((tx) =>
            auditEverywhere(tx, user, personOf(user, client), {
              action: "sign_in.failed",
              target: { type: "user", id: user.id, name: user.email },
            }),
          );
        // Both waits run together: the reply comes after the longer, whichever of the two is being guessed.
        await Promise.all([failures.fail(account), failures.fail(network)]);
        throw new AppError("unauthorized", "The email or password is not right.");
      }
      if (deps.ssoRequired && !user.instanceAdmin)
        throw new AppError("unauthorized", "This instance signs people in with SSO: use “Sign in with SSO”.", {
          details: [{ path: "password", message: "password sign-in is off here; sign in with SSO" }],
        });
      const totpSecret = user.totpSecret;
      if (totpSecret && !input.totp)
        throw new AppError("unauthorized", "Enter the code from your authenticator app, or a recovery code.", {
          details: [{ path: "totp", message: "required" }],
        });
      const target = { type: "user", id: user.id, name: user.email };
      const opened = await writer.write(async (tx) => {
        if (
          totpSecret &&
          !(await spendSecondFactor(tx, {
            userId: user.id,
            secret: secrets.open(totpSecret),
            code: String(input.totp),
            now: clock.now(),
          }))
        ) {
          await auditEverywhere(tx, user, personOf(user, client), {
            action: "sign_in.failed",
            target,
            changes: { factor: "totp" },
          });
          return null;
        }
        await auditEverywhere(tx, user, personOf(user, client), { action: "sign_in.succeeded", target });
        return openSession(tx, user, client);
      });
      if (!opened) {
        await Promise.all([failures.fail(account), failures.fail(network)]);
        throw new AppError("unauthorized", "That code is not right, or has been used already.", {
          details: [{ path: "totp", message: "not right, or used already" }],
        });
      }
      failures.succeed(account);
      failures.succeed(network);
      return opened;
    },

    async signInVerified(input, client) {
      const email = normalizeEmail(input.email);
      return writer.write(async (tx) => {
        const now = isoTime(clock.now());
        let user = (await first(tx.select().from(users).where(eq(users.oidcSubject, input.subject)))) as
          | UserRow
          | undefined;
        const isNew = !user && !(await userByEmail(tx, email));
        if (!user) {
          user = await userByEmail(tx, email);
          if (user?.oidcSubject)
            throw new AppError("unauthorized", "This email belongs to another single sign-on identity here.");
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
        const person = user;
        for (const join of await input.joins(tx, isNew)) {
          const current = await first(
            tx
              .select({ role: memberships.role })
              .from(memberships)
              .where(and(eq(memberships.organizationId, join.organizationId), eq(memberships.userId, person.id))),
          );
          const changesRole = current && join.replaceRole && current.role !== "owner" && current.role !== join.role;
          if (!current)
            await tx
              .insert(memberships)
              .values({ organizationId: join.organizationId, userId: person.id, role: join.role, createdAt: now });
          else if (changesRole)
            await tx
              .update(memberships)
              .set({ role: join.role })
              .where(and(eq(memberships.organizationId, join.organizationId), eq(memberships.userId, person.id)));
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
        if (!(await membershipsOf(tx, person.id)).length)
          throw new AppError(
            "unauthorized",
            "You signed in, but belong to no organisation here: ask an owner for an invitation.",
          );
        await auditEverywhere(tx, person, personOf(person, client), {
          action: "sign_in.succeeded",
          target: { type: "user", id: person.id, name: person.email },
          changes: { method: "sso" },
        });
        return openSession(tx, person, client);
      });
    },

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
      const all = await membershipsOf(db, user.id);
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
          await auditEverywhere(tx, user, personOf(user, client), {
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
      const actor = await service.authenticateSession(token).catch(() => null);
      return actor ? service.me(actor) : null;
    },

    async me(actor) {
      if (!actor.user)
        throw new AppError(
          "insufficient_scope",
          "GET /v1/me describes a signed-in person; an API key is described by GET /v1/api-keys/current.",
        );
      const user = (await first(db.select().from(users).where(eq(users.id, actor.user.id)))) as UserRow;
      return { object: "session", user: userView(user), organizations: await membershipsOf(db, user.id) };
    },

    async organizations(actor) {
      if (actor.user) {
        const data = (await membershipsOf(db, actor.user.id)).map((m) => ({ object: "organization" as const, ...m }));
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

    async createUser(input) {
      const email = normalizeEmail(input.email);
      const name = checkName(input.name ?? email.split("@")[0]!);
      return writer.write(async (tx) => {
        const organization = await first(
          tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, input.organizationId)),
        );
        if (!organization) throw new AppError("not_found", "Organisation not found.");
        const now = isoTime(clock.now());
        let row = await userByEmail(tx, email);
        if (!row) {
          row = { id: newId(), email, name, passwordHash: null, instanceAdmin: false, createdAt: now };
          await tx.insert(users).values({ ...row, updatedAt: now });
        }
        await tx
          .insert(memberships)
          .values({ organizationId: organization.id, userId: row.id, role: input.role, createdAt: now })
          .onConflictDoUpdate({ target: [memberships.organizationId, memberships.userId], set: { role: input.role } });
        return { user: userView(row), token: await insertPasswordLink(tx, row.id, PASSWORD_LINK_MS) };
      });
    },

    async passwordLink(rawEmail) {
      const email = normalizeEmail(rawEmail);
      return writer.write(async (tx) => {
        const user = await userByEmail(tx, email);
        if (!user) throw new AppError("not_found", `No user has the email ${email}.`);
        return insertPasswordLink(tx, user.id, PASSWORD_LINK_MS);
      });
    },

    requestPasswordReset(rawEmail, baseUrl, client) {
      const email = normalizeEmail(rawEmail);
      const sender = deps.passwordMail;
      if (!sender) return;
      // Answered before any of this runs: how long it takes must not tell whether the address has an account.
      void (async () => {
        const user = await userByEmail(db, email);
        if (!user || (deps.ssoRequired && !user.instanceAdmin)) return;
        const now = clock.now();
        const link = await writer.write(async (tx) => {
          // The person's row is held until commit, so that two requests at once cannot both find no recent link.
          await first(lockedForUpdate(tx, tx.select({ id: users.id }).from(users).where(eq(users.id, user.id))));
          const recent = await first(
            tx
              .select({ tokenHash: oneTimeLinks.tokenHash })
              .from(oneTimeLinks)
              .where(
                and(
                  eq(oneTimeLinks.userId, user.id),
                  eq(oneTimeLinks.purpose, "password"),
                  gt(oneTimeLinks.createdAt, isoTime(now - EMAILED_LINK_INTERVAL_MS)),
                ),
              ),
          );
          if (recent) return null;
          return {
            token: await insertPasswordLink(tx, user.id, EMAILED_LINK_MS),
            organizationIds: (await membershipsOf(tx, user.id)).map((m) => m.id),
          };
        });
        if (!link) return;
        const { token } = link;
        const sent = await sender.sendPasswordLink({
          organizationIds: link.organizationIds,
          to: user.email,
          url: `${baseUrl}/password#${token}`,
          validMinutes: EMAILED_LINK_MS / 60_000,
        });
        await writer.write(async (tx) => {
          // No organisation of theirs could send it: the link would only wait, unused, for its hour.
          if (!sent) return void (await tx.delete(oneTimeLinks).where(eq(oneTimeLinks.tokenHash, digest(token))));
          await auditEverywhere(
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
        deps.logger?.error("a password link could not be sent", { error: String(error), user_email: email }),
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
            .where(and(eq(oneTimeLinks.tokenHash, digest(input.token)), eq(oneTimeLinks.purpose, "password"))),
        );
        if (!link?.userId || (link.expiresAt !== null && Number(link.expiresAt) < now))
          throw new AppError("unauthorized", "This link has been used or has expired; ask for a new one.");
        await tx
          .update(users)
          .set({ passwordHash, updatedAt: isoTime(now) })
          .where(eq(users.id, link.userId));
        const user = (await first(tx.select().from(users).where(eq(users.id, link.userId)))) as UserRow;
        await auditEverywhere(tx, user, personOf(user, { ip: null, userAgent: null }), {
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

    async joinWithInvitation(input) {
      checkPassword(input.password);
      const existing = await userByEmail(db, input.email);
      if (existing?.passwordHash && !(await passwordMatches(input.password, existing.passwordHash)))
        throw new AppError("unauthorized", "You have an account: give its password to join.");
      const passwordHash = existing?.passwordHash ? null : await hashPassword(input.password);
      const name = existing ? existing.name : checkName(input.name ?? "");
      await writer.write(async (tx) => {
        await input.claim(tx);
        const now = isoTime(clock.now());
        let user = await userByEmail(tx, input.email);
        if (!user) {
          user = { id: newId(), email: input.email, name, passwordHash, instanceAdmin: false, createdAt: now };
          await tx.insert(users).values({ ...user, updatedAt: now });
        } else if (passwordHash)
          await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
        await tx
          .insert(memberships)
          .values({ organizationId: input.organizationId, userId: user.id, role: input.role, createdAt: now })
          .onConflictDoNothing();
        await recordAudit(
          tx,
          personOf(user, { ip: null, userAgent: null }),
          {
            action: "invitation.accepted",
            target: { type: "user", id: user.id, name: user.email },
            changes: { role: input.role },
            organizationId: input.organizationId,
          },
          clock.now(),
        );
      });
    },

    async changePassword(actor, input, keepSession, client) {
      const user = await confirmedSelf(actor, input.current_password, "current_password");
      checkPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      await writer.write(async (tx) => {
        await tx
          .update(users)
          .set({ passwordHash, updatedAt: isoTime(clock.now()) })
          .where(eq(users.id, user.id));
        await ownChange(tx, user, client, "user.password_changed");
        const others = eq(sessions.userId, user.id);
        await tx
          .delete(sessions)
          .where(keepSession ? and(others, sql`${sessions.id} <> ${digest(keepSession)}`) : others);
      });
    },

    async enrolTotp(actor, password) {
      const user = await confirmedSelf(actor, password);
      if (user.totpSecret)
        throw new AppError("conflict", "TOTP is on already: turn it off first to enrol another device.");
      const secret = newTotpSecret();
      await writer.write(async (tx) => {
        await tx
          .update(users)
          .set({ totpPendingSecret: secrets.seal(secret) })
          .where(eq(users.id, user.id));
      });
      return { object: "totp_enrolment", secret, otpauth_url: otpauthUrl(secret, user.email, deps.totpIssuer) };
    },

    async confirmTotp(actor, code, client) {
      if (!actor.user) throw new AppError("insufficient_scope", "Only a signed-in person turns TOTP on.");
      const userId = actor.user.id;
      return writer.write(async (tx) => {
        const user = (await first(tx.select().from(users).where(eq(users.id, userId)))) as UserRow;
        if (user.totpSecret) throw new AppError("conflict", "TOTP is on already.");
        if (!user.totpPendingSecret) throw new AppError("conflict", "Nothing to confirm: begin with POST /v1/me/totp.");
        const now = clock.now();
        const step = totpStep(secrets.open(user.totpPendingSecret), typeof code === "string" ? code : "", now);
        if (step === null)
          throw validationError([{ path: "code", message: "is not the current code of the new secret" }]);
        await tx
          .update(users)
          .set({ totpSecret: user.totpPendingSecret, totpPendingSecret: null, totpLastStep: step })
          .where(eq(users.id, userId));
        const recovery_codes = await storeRecoveryCodes(tx, userId);
        await ownChange(tx, user, client, "user.totp_enabled");
        return { object: "totp" as const, enabled: true as const, recovery_codes };
      });
    },

    async disableTotp(actor, password, client) {
      const user = await confirmedSelf(actor, password);
      await writer.write(async (tx) => {
        await tx
          .update(users)
          .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null })
          .where(eq(users.id, user.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
        if (user.totpSecret) await ownChange(tx, user, client, "user.totp_disabled");
      });
      return { object: "totp", enabled: false };
    },

    async replaceRecoveryCodes(actor, password, client) {
      const user = await confirmedSelf(actor, password);
      if (!user.totpSecret) throw new AppError("conflict", "TOTP is off: recovery codes come with turning it on.");
      return writer.write(async (tx) => {
        const recovery_codes = await storeRecoveryCodes(tx, user.id);
        await ownChange(tx, user, client, "user.recovery_codes_replaced");
        return { object: "totp" as const, enabled: true as const, recovery_codes };
      });
    },

    async listUsers() {
      const rows = (await db.select().from(users).orderBy(asc(users.email))) as UserRow[];
      return Promise.all(
        rows.map(async (row) => ({ ...userView(row), organizations: await membershipsOf(db, row.id) })),
      );
    },
  };
  return service;
}
