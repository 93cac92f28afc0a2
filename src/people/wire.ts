/**
 * The people area's wire (docs/teams.md): a person, a session, an organisation as its member sees it, members and
 * invitations, two-step sign-in — each written once, as the schema that types the services' answers and documents
 * the routes (and so the client types generated from the document).
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { ROLES } from "../db/schema/people.ts";
import { named, Nullable, OneOf } from "../lib/wire.ts";

export const RoleSchema = named(
  "Role",
  OneOf(ROLES, {
    description:
      "A member's role: owner everything; admin everything but owners and deleting the organisation; developer the mail and its settings, no people; viewer reads",
  }),
);

export const UserSchema = named(
  "User",
  t.Object(
    {
      object: t.Literal("user"),
      id: t.String({ format: "uuid" }),
      email: t.String(),
      name: t.String(),
      instance_admin: t.Boolean({ description: "May create organisations" }),
      totp_enabled: t.Boolean({ description: "Sign-in with a password also asks for an authenticator app's code" }),
      created_at: t.String({ format: "date-time" }),
    },
    { description: "A person with an account: signs in to the admin UI and belongs to organisations" },
  ),
);
export type UserView = Static<typeof UserSchema>;

export const MembershipSchema = named(
  "Membership",
  t.Object(
    { id: t.String({ format: "uuid" }), name: t.String(), role: RoleSchema },
    { description: "An organisation the signed-in person belongs to, with their role there" },
  ),
);
export type MembershipView = Static<typeof MembershipSchema>;

export const SessionSchema = named(
  "Session",
  t.Object(
    { object: t.Literal("session"), user: UserSchema, organizations: t.Array(MembershipSchema) },
    { description: "The signed-in person and the organisations they belong to" },
  ),
);
export type SessionView = Static<typeof SessionSchema>;

export const SessionStateSchema = named(
  "SessionState",
  t.Object(
    { object: t.Literal("session"), user: Nullable(UserSchema), organizations: t.Array(MembershipSchema) },
    { description: "Whether this browser is signed in: the person, or `user: null` (never a 401)" },
  ),
);

export const OrganizationMembershipSchema = named(
  "OrganizationMembership",
  t.Object(
    { object: t.Literal("organization"), id: t.String(), name: t.String(), role: RoleSchema },
    {
      description:
        "An organisation the caller acts in, with the caller's role there (an API key: its own organisation)",
    },
  ),
);

export const CreatedOrganizationSchema = named(
  "CreatedOrganization",
  t.Object(
    { object: t.Literal("organization"), id: t.String({ format: "uuid" }), name: t.String() },
    { description: "A new organisation; its creator is its owner" },
  ),
);

export const MemberSchema = named(
  "Member",
  t.Object(
    {
      object: t.Literal("member"),
      id: t.String({ format: "uuid", description: "The person's id" }),
      email: t.String(),
      name: t.String(),
      role: RoleSchema,
      created_at: t.String({ format: "date-time", description: "When they joined the organisation" }),
    },
    {
      description:
        "A person who belongs to the organisation; `id` is the person's (a user id), as changing a role and removing take it",
    },
  ),
);
export type MemberView = Static<typeof MemberSchema>;

export const InvitationSchema = named(
  "Invitation",
  t.Object(
    {
      object: t.Literal("invitation"),
      id: t.String({ format: "uuid" }),
      email: t.String(),
      role: RoleSchema,
      created_at: t.String({ format: "date-time" }),
      expires_at: t.String({ format: "date-time" }),
    },
    {
      description:
        "An invitation not yet accepted: the role its link grants, until `expires_at` (7 days after it was made)",
    },
  ),
);
export type InvitationView = Static<typeof InvitationSchema>;

/** What an invitation's link opens to, before anyone joins (docs/teams.md#invitations): who invites whom, as what. */
export const InvitationPreviewSchema = named(
  "InvitationPreview",
  t.Object(
    {
      object: t.Literal("invitation_preview"),
      email: t.String({ description: "The address invited: only this account may join with it" }),
      role: RoleSchema,
      organization: t.Object({ name: t.String() }, { description: "The organisation it joins" }),
      expires_at: t.String({ format: "date-time" }),
    },
    { description: "An open invitation as its link's holder sees it: the organisation, the role and the address" },
  ),
);
export type InvitationPreview = Static<typeof InvitationPreviewSchema>;

// An intersection rather than a composite: the document says "an Invitation and", so the generated types extend it.
export const CreatedInvitationSchema = named(
  "CreatedInvitation",
  t.Intersect(
    [
      InvitationSchema,
      t.Object({
        url: t.String({ description: "The one-time link: never shown again" }),
        emailed: t.Boolean({ description: "Whether the link was also mailed to the address invited" }),
        note: Nullable(t.String(), {
          description: "Why it was not mailed (no public address configured, no verified domain), when it was not",
        }),
      }),
    ],
    {
      description:
        "A new invitation with its one-time link, `url`: when it was not mailed, the link is yours to hand over",
    },
  ),
);

export const MemberListSchema = named(
  "MemberList",
  t.Object(
    {
      object: t.Literal("list"),
      has_more: t.Boolean(),
      data: t.Array(MemberSchema),
      invitations: t.Array(InvitationSchema, { description: "Every pending invitation, without its link" }),
    },
    { description: "A page of members (oldest first), and every pending invitation" },
  ),
);

export const TotpEnrolmentSchema = named(
  "TotpEnrolment",
  t.Object(
    {
      object: t.Literal("totp_enrolment"),
      secret: t.String({ description: "The new secret, base32: type it into the app, or scan otpauth_url" }),
      otpauth_url: t.String(),
    },
    { description: "Two-step sign-in begun: the secret for an authenticator app, on once a code of it is confirmed" },
  ),
);

export const TotpOnSchema = named(
  "TotpOn",
  t.Object(
    {
      object: t.Literal("totp"),
      enabled: t.Literal(true),
      recovery_codes: t.Array(t.String(), { description: "Shown this once: each signs in once without the app" }),
    },
    { description: "Two-step sign-in on, with new recovery codes" },
  ),
);
export const TotpOffSchema = named(
  "TotpOff",
  t.Object(
    { object: t.Literal("totp"), enabled: t.Literal(false) },
    { description: "Two-step sign-in off: a password alone signs in" },
  ),
);

/** A password set: by a link, or changed by its person. */
export const PasswordSetSchema = t.Object({ object: t.Literal("password"), updated: t.Literal(true) });
