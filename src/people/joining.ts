/**
 * Joining an organisation with an invitation (docs/teams.md#invitations): a person with no account creates one with
 * a name and a password; a person who has an account joins only while signed in as it.
 *
 * Invariant: an invitation never sets or tests the credentials of an existing account — its token is held by whoever
 * invited, so it is no authority over an account; and an account made through it has no proven address (single
 * sign-on will not link it by email).
 */
import { recordAudit } from "../audit/log.ts";
import { tablesOf } from "../db/store.ts";
import { AppError } from "../errors.ts";
import { isoTime } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import {
  checkName,
  checkPassword,
  hashPassword,
  personOf,
  userView,
  type PeopleContext,
  type UserRow,
} from "./accounts.ts";
import type { People } from "./model.ts";

/** What a person with an account is told when they open an invitation without being signed in as it. */
export const SIGN_IN_TO_JOIN = "has an account here: sign in as it, then open this invitation again to join.";

export function createJoining(ctx: PeopleContext): Pick<People, "joinWithInvitation"> {
  const { writer, clock } = ctx.deps;

  return {
    async joinWithInvitation(input, client) {
      const signedIn = input.signedInAs;
      if (signedIn && signedIn.email !== input.email)
        throw new AppError(
          "insufficient_scope",
          `This invitation is for ${input.email}, and you are signed in as ${signedIn.email}: sign out, then open it again.`,
        );
      let passwordHash: string | null = null;
      let name = "";
      if (!signedIn) {
        if (await ctx.userByEmail(ctx.deps.db, input.email))
          throw new AppError("conflict", `${input.email} ${SIGN_IN_TO_JOIN}`);
        name = checkName(input.name ?? "");
        checkPassword(input.password ?? "");
        passwordHash = await hashPassword(input.password!);
      }
      return writer.write(async (tx) => {
        const { users, memberships } = tablesOf(tx);
        await input.claim(tx);
        const now = isoTime(clock.now());
        let user: UserRow | undefined;
        if (signedIn) user = await ctx.userById(tx, signedIn.id);
        else if (await ctx.userByEmail(tx, input.email))
          // Someone made the account since the check above: it is theirs, not this request's.
          throw new AppError("conflict", `${input.email} ${SIGN_IN_TO_JOIN}`);
        else {
          user = { id: newId(), email: input.email, name, passwordHash, instanceAdmin: false, createdAt: now };
          await tx.insert(users).values({ ...user, updatedAt: now });
        }
        if (!user) throw new AppError("unauthorized", "Not signed in, or the session has ended: sign in again.");
        await tx
          .insert(memberships)
          .values({ organizationId: input.organizationId, userId: user.id, role: input.role, createdAt: now })
          .onConflictDoNothing();
        await recordAudit(
          tx,
          personOf(user, client),
          {
            action: "invitation.accepted",
            target: { type: "user", id: user.id, name: user.email },
            changes: { role: input.role },
            organizationId: input.organizationId,
          },
          clock.now(),
        );
        if (signedIn)
          return {
            view: {
              object: "session" as const,
              user: userView(user),
              organizations: await ctx.membershipsOf(tx, user.id),
            },
          };
        // A new person is signed in as they join: the log says so, as for any sign-in.
        await ctx.auditEverywhere(tx, user, personOf(user, client), {
          action: "sign_in.succeeded",
          target: { type: "user", id: user.id, name: user.email },
        });
        const opened = await ctx.openSession(tx, user, client);
        return { view: opened.view, opened };
      });
    },
  };
}
