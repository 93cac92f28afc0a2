/**
 * An organisation's members and invitations (docs/teams.md): who belongs with which role, invitations by one-time
 * link (7 days), role changes and removals.
 * Invariants: only owners make, change or remove owners (an admin manages everyone else); the last owner can be
 * neither demoted nor removed; an invitation works once, for its email, until it expires; every change is in the
 * audit log, in its own transaction; a link's token is returned once, when made, and stored only as its SHA-256.
 */
import { and, asc, count, eq, gt, isNull } from "drizzle-orm";
import { requireScope, type Actor, type Role } from "../access.ts";
import { recordAudit } from "../audit/log.ts";
import { lockedForUpdate } from "../db/dialect.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { ROLES } from "../db/schema/people.ts";
import { AppError, validationError } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { isUuid, newId } from "../lib/ids.ts";
import type { AccountMail } from "./accounts.ts";
import type { InvitationPreview, InvitationView, MemberView } from "./wire.ts";
import { normalizeEmail, type ClientInfo, type OpenedSession, type People, type SessionView } from "./service.ts";
import { digest, newToken } from "./tokens.ts";

export const INVITATION_MS = 7 * 86_400_000;

export type { InvitationView, MemberView };

export interface Members {
  list(actor: Actor): Promise<{ object: "list"; has_more: false; data: MemberView[]; invitations: InvitationView[] }>;
  /**
   * A new invitation; `url` (with its one-time token) is in this answer and in the mail to the address invited. The
   * mail's link is built from the configured public address only; with none (`linkBase` null), `url` uses
   * `requestOrigin` — the inviter's own — and nothing is mailed (`emailed: false`, `note` says why).
   */
  invite(
    actor: Actor,
    input: { email: string; role: string },
    requestOrigin: string,
  ): Promise<InvitationView & { url: string; emailed: boolean; note: string | null }>;
  revokeInvitation(actor: Actor, id: string): Promise<{ object: "invitation"; id: string; deleted: true }>;
  changeRole(actor: Actor, userId: string, role: string): Promise<MemberView>;
  remove(actor: Actor, userId: string): Promise<{ object: "member"; id: string; deleted: true }>;
  /** What an open invitation's token names (organisation, role, address); a token that opens nothing is a guess, 401. */
  preview(token: string, client: ClientInfo): Promise<InvitationPreview>;
  /**
   * Joins with an invitation's token: a new person sets a name and password; a person with an account joins only
   * while signed in as it (`signedIn`), and their credentials are never asked for or set here.
   */
  accept(
    input: { token: string; name?: string; password?: string },
    client: ClientInfo,
    signedIn?: Actor,
  ): Promise<{ view: SessionView; opened?: OpenedSession }>;
}

const INVITATION_SPENT = "This invitation has been used or has expired; ask for a new one.";

/** The invitation `token` names while it is open: not accepted, not expired at `now`. */
export function openInvitation(db: Db, token: string, now: number) {
  const { invitations } = tablesOf(db);
  return first(
    db
      .select()
      .from(invitations)
      .where(
        and(eq(invitations.tokenHash, digest(token)), isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)),
      ),
  );
}

/**
 * Spends an open invitation in `tx` — for `email` only, when given — and answers where it lets its person in; 401
 * when another request spent it first, or it is no longer open.
 */
export async function claimInvitation(tx: Db, input: { id: string; now: number; email?: string }) {
  const { invitations } = tablesOf(tx);
  const [claimed] = await tx
    .update(invitations)
    .set({ acceptedAt: isoTime(input.now) })
    .where(
      and(
        eq(invitations.id, input.id),
        input.email === undefined ? undefined : eq(invitations.email, input.email),
        isNull(invitations.acceptedAt),
        gt(invitations.expiresAt, input.now),
      ),
    )
    .returning({ organizationId: invitations.organizationId, role: invitations.role });
  if (!claimed)
    throw new AppError(
      "unauthorized",
      input.email === undefined
        ? INVITATION_SPENT
        : "This invitation is for another email address, or has been used or has expired.",
    );
  return { organizationId: claimed.organizationId, role: claimed.role as Role };
}

function checkRole(role: string): Role {
  if (!(ROLES as readonly string[]).includes(role))
    throw validationError([{ path: "role", message: `must be one of ${ROLES.join(", ")}` }]);
  return role as Role;
}

export function createMembers(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  people: People;
  /** Invitations by mail; without it, only the inviter's copy of the link. */
  mail?: AccountMail;
  /** The configured public address links are mailed with (config/links.ts); null: none, nothing is mailed. */
  linkBase: string | null;
}): Members {
  const { db, writer, clock, people } = deps;
  const { users, memberships, invitations, organizations } = tablesOf(db);

  /** Mails the invitation from the organisation's verified domain; answers why not when it cannot. */
  const mailInvitation = async (actor: Actor, email: string, role: Role, url: string): Promise<string | null> => {
    if (!deps.linkBase)
      return "Not emailed: this server has no public address set ([http] public_url, or [server] hostname), so it mails no links. Send the link yourself.";
    if (!deps.mail) return "Not emailed: this server sends no mail of its own. Send the link yourself.";
    const organization = await first(
      db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, actor.organizationId)),
    );
    const inviter = actor.user ? `${actor.user.name} (${actor.user.email})` : "An administrator";
    // Refused (the address is on the suppression list, say): the invitation stands, and the inviter is told why.
    const sent = await deps.mail
      .send({
        organizationIds: [actor.organizationId],
        to: email,
        subject: `Join ${organization?.name ?? "an organisation"} on Mailroom`,
        text: `${inviter} invited you to join ${organization?.name ?? "their organisation"} on Mailroom as ${role}.\n\nJoin here (the link works once, for 7 days):\n${url}\n\nIf you already have an account on this Mailroom, sign in to it first. If you did not expect this, ignore this message.\n`,
        private: "invitation",
      })
      .catch((error: unknown) => {
        if (error instanceof AppError) return error;
        throw error;
      });
    if (sent instanceof AppError) return `Not emailed: ${sent.message} Send the link yourself.`;
    return sent
      ? null
      : "Not emailed: the organisation has no verified domain to send from yet. Send the link yourself.";
  };

  const memberRows = (from: Db, organizationId: string) =>
    from
      .select({
        id: users.id,
        email: users.email,
        name: users.name,
        role: memberships.role,
        createdAt: memberships.createdAt,
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.organizationId, organizationId))
      .orderBy(asc(memberships.createdAt), asc(users.id));

  const memberView = (row: Awaited<ReturnType<typeof memberRows>>[number]): MemberView => ({
    object: "member",
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as Role,
    created_at: row.createdAt,
  });

  const invitationView = (row: typeof invitations.$inferSelect): InvitationView => ({
    object: "invitation",
    id: row.id,
    email: row.email,
    role: row.role as Role,
    created_at: row.createdAt,
    expires_at: isoTime(Number(row.expiresAt)),
  });

  /** Owners are managed by owners (and the operator at the CLI): neither an admin nor an API key grants the role or touches its holders. */
  const assertMayManage = (actor: Actor, roles: Array<Role | undefined>) => {
    if (!roles.includes("owner")) return;
    const isOwner = actor.user ? actor.user.role === "owner" : actor.keyId === null;
    if (!isOwner) throw new AppError("insufficient_scope", "Only an owner makes, changes or removes owners.");
  };

  /** The member `userId` of the actor's organisation, locked for the change, or 404. */
  const lockedMember = async (tx: Db, organizationId: string, userId: string) => {
    const row = isUuid(userId)
      ? await first(
          lockedForUpdate(
            tx,
            tx
              .select()
              .from(memberships)
              .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId.toLowerCase()))),
          ),
        )
      : undefined;
    if (!row) throw new AppError("not_found", "Member not found.");
    return row;
  };

  /** The last owner stays: an organisation always has someone who can manage it. */
  const assertOwnersLeft = async (tx: Db, organizationId: string) => {
    const owners = await lockedForUpdate(
      tx,
      tx
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "owner"))),
    );
    if (owners.length <= 1)
      throw new AppError("conflict", "The last owner cannot leave or be demoted: make someone else an owner first.");
  };

  return {
    async list(actor) {
      requireScope(actor, "members:read");
      const now = clock.now();
      const pending = await db
        .select()
        .from(invitations)
        .where(
          and(
            eq(invitations.organizationId, actor.organizationId),
            isNull(invitations.acceptedAt),
            gt(invitations.expiresAt, now),
          ),
        )
        .orderBy(asc(invitations.id));
      return {
        object: "list",
        has_more: false,
        data: (await memberRows(db, actor.organizationId)).map(memberView),
        invitations: pending.map(invitationView),
      };
    },

    async invite(actor, input, requestOrigin) {
      requireScope(actor, "members:write");
      const email = normalizeEmail(input.email);
      const role = checkRole(input.role);
      assertMayManage(actor, [role]);
      const token = newToken();
      const now = clock.now();
      const row = {
        id: newId(),
        organizationId: actor.organizationId,
        email,
        role,
        tokenHash: digest(token),
        invitedBy: actor.user?.id ?? actor.keyId ?? null,
        createdAt: isoTime(now),
        expiresAt: now + INVITATION_MS,
        acceptedAt: null,
      };
      await writer.write(async (tx) => {
        const [{ n } = { n: 0 }] = await tx
          .select({ n: count() })
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(and(eq(memberships.organizationId, actor.organizationId), eq(users.email, email)));
        if (Number(n)) throw new AppError("conflict", `${email} is already a member.`);
        await tx.insert(invitations).values(row);
        await recordAudit(
          tx,
          actor,
          { action: "member.invited", target: { type: "invitation", id: row.id, name: email }, changes: { role } },
          now,
        );
      });
      const url = `${deps.linkBase ?? requestOrigin}/invite#${token}`;
      const note = await mailInvitation(actor, email, role, url);
      return { ...invitationView(row), url, emailed: note === null, note };
    },

    async revokeInvitation(actor, id) {
      requireScope(actor, "members:write");
      const removed = await writer.write(async (tx) => {
        const row = isUuid(id)
          ? await first(
              tx
                .select()
                .from(invitations)
                .where(and(eq(invitations.id, id.toLowerCase()), eq(invitations.organizationId, actor.organizationId))),
            )
          : undefined;
        if (!row || row.acceptedAt) return undefined;
        assertMayManage(actor, [row.role as Role]);
        await tx.delete(invitations).where(eq(invitations.id, row.id));
        await recordAudit(
          tx,
          actor,
          { action: "invitation.revoked", target: { type: "invitation", id: row.id, name: row.email } },
          clock.now(),
        );
        return row;
      });
      if (!removed) throw new AppError("not_found", "Invitation not found (or already accepted).");
      return { object: "invitation", id: removed.id, deleted: true };
    },

    async changeRole(actor, userId, rawRole) {
      requireScope(actor, "members:write");
      const role = checkRole(rawRole);
      return writer.write(async (tx) => {
        const member = await lockedMember(tx, actor.organizationId, userId);
        assertMayManage(actor, [member.role as Role, role]);
        if (member.role === "owner" && role !== "owner") await assertOwnersLeft(tx, actor.organizationId);
        await tx
          .update(memberships)
          .set({ role })
          .where(and(eq(memberships.organizationId, actor.organizationId), eq(memberships.userId, member.userId)));
        const row = (await memberRows(tx, actor.organizationId)).find((m) => m.id === member.userId)!;
        await recordAudit(
          tx,
          actor,
          {
            action: "member.role_changed",
            target: { type: "user", id: row.id, name: row.email },
            changes: { role: { from: member.role, to: role } },
          },
          clock.now(),
        );
        return memberView(row);
      });
    },

    async remove(actor, userId) {
      requireScope(actor, "members:write");
      return writer.write(async (tx) => {
        const member = await lockedMember(tx, actor.organizationId, userId);
        assertMayManage(actor, [member.role as Role]);
        if (member.role === "owner") await assertOwnersLeft(tx, actor.organizationId);
        const user = await first(tx.select({ email: users.email }).from(users).where(eq(users.id, member.userId)));
        await tx
          .delete(memberships)
          .where(and(eq(memberships.organizationId, actor.organizationId), eq(memberships.userId, member.userId)));
        await recordAudit(
          tx,
          actor,
          { action: "member.removed", target: { type: "user", id: member.userId, name: user?.email ?? null } },
          clock.now(),
        );
        return { object: "member" as const, id: member.userId, deleted: true as const };
      });
    },

    async preview(token, client) {
      const invitation = await openInvitation(db, token, clock.now());
      if (!invitation) {
        await people.failedGuess(client);
        throw new AppError("unauthorized", INVITATION_SPENT);
      }
      const organization = await first(
        db
          .select({ name: organizations.name })
          .from(organizations)
          .where(eq(organizations.id, invitation.organizationId)),
      );
      return {
        object: "invitation_preview",
        email: invitation.email,
        role: invitation.role as Role,
        organization: { name: organization?.name ?? "" },
        expires_at: isoTime(Number(invitation.expiresAt)),
      };
    },

    async accept(input, client, signedIn) {
      const now = clock.now();
      const invitation = await openInvitation(db, input.token, now);
      if (!invitation) {
        // A token that opens nothing is a guess, slowed as a failed sign-in is.
        await people.failedGuess(client);
        throw new AppError("unauthorized", INVITATION_SPENT);
      }
      return people.joinWithInvitation(
        {
          email: invitation.email,
          name: input.name,
          password: input.password,
          signedInAs: signedIn?.user ? { id: signedIn.user.id, email: signedIn.user.email } : undefined,
          organizationId: invitation.organizationId,
          role: invitation.role as Role,
          claim: async (tx) => void (await claimInvitation(tx, { id: invitation.id, now })),
        },
        client,
      );
    },
  };
}
