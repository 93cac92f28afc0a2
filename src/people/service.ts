/**
 * People (docs/teams.md): users, their memberships of organisations, sessions, one-time links and second factors —
 * the area's one interface, put together from its parts: sign-in (sign-in.ts), sessions (sessions.ts), passwords
 * (passwords.ts), factors (factors.ts) and joining by invitation (joining.ts), over the shared context (accounts.ts).
 *
 * Invariants (each part states its own): passwords are argon2id hashes, never logged or returned; sessions and links
 * are stored as the SHA-256 of their tokens; attempts at a password or code are counted per account in the store and
 * capped; an invitation never touches an existing account's credentials.
 */
import { createPeopleContext, type PeopleDeps } from "./accounts.ts";
import { createFactors } from "./factors.ts";
import type { People } from "./model.ts";
import { createJoining } from "./joining.ts";
import { createPasswords } from "./passwords.ts";
import { createSessions } from "./sessions.ts";
import { createSignIn } from "./sign-in.ts";

export {
  MIN_PASSWORD_LENGTH,
  normalizeEmail,
  type AccountMail,
  type ClientInfo,
  type MembershipView,
  type OpenedSession,
  type SessionView,
  type UserView,
} from "./accounts.ts";
export type { People } from "./model.ts";
export { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "./sessions.ts";

export function createPeople(deps: PeopleDeps): People {
  const ctx = createPeopleContext(deps);
  return {
    ...createSignIn(ctx),
    ...createSessions(ctx),
    ...createPasswords(ctx),
    ...createFactors(ctx),
    ...createJoining(ctx),
  };
}
