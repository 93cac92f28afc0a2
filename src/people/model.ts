/**
 * The people area's one interface (docs/teams.md): what the routes, the single sign-on flow and the CLI call. Its
 * parts implement slices of it (sign-in.ts, sessions.ts, passwords.ts, factors.ts, joining.ts); service.ts puts them
 * together.
 */
import type { Actor, Role } from "../access.ts";
import type { Db } from "../db/store.ts";
import type { ClientInfo, MembershipView, OpenedSession, SessionView, UserView } from "./accounts.ts";

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
   * per person every five minutes; none for someone who must sign in with SSO. Throws `service_unavailable` (for
   * every address alike) when no public address is configured to build the link from.
   */
  requestPasswordReset(email: string, client: ClientInfo): void;
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
   * invitation): `signedInAs` — the account of that email, signed in — joins as it is; otherwise a new person is
   * created with `name` and `password` (409 when the email has an account: they sign in first). Answers the person,
   * and the session opened for a new one.
   */
  joinWithInvitation(
    input: {
      email: string;
      name?: string;
      password?: string;
      signedInAs?: { id: string; email: string };
      organizationId: string;
      role: Role;
      claim: (tx: Db) => Promise<void>;
    },
    client: ClientInfo,
  ): Promise<{ view: SessionView; opened?: OpenedSession }>;
  /** A guess that failed (an invitation's token that opens nothing): slows the client network as a failed sign-in. */
  failedGuess(client: ClientInfo): Promise<void>;
}
