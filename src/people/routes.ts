/**
 * HTTP routes of people (DESIGN §13): the first start's setup, sign-in and sign-out (the `mailroom_session` cookie:
 * HttpOnly, SameSite=Strict, Secure over https), the signed-in person, setting a password from a one-time link, and
 * organisations. Setup, sign-in and the password link need no credential: the link's token or the password is the
 * authority.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { Elysia, redirect } from "elysia";
import {
  authenticated,
  authenticateRequest,
  cookieValue,
  SESSION_COOKIE,
  sessionToken,
  type AuthDeps,
} from "../http/auth.ts";
import { bodyLimits, readBody } from "../http/body.ts";
import { clientOf } from "../http/client.ts";
import { jsonContent } from "../http/docs.ts";
import { AppError } from "../errors.ts";
import type { Members } from "./members.ts";
import { SESSION_ABSOLUTE_MS, type OpenedSession, type People } from "./service.ts";
import type { SingleSignOn } from "./sso.ts";

const SetupSchema = t.Object(
  {
    token: t.String({ description: "The setup link's token (after # in /setup#…)" }),
    email: t.String(),
    name: t.String(),
    password: t.String({ description: "At least 12 characters" }),
  },
  { additionalProperties: false },
);
const SignInSchema = t.Object(
  {
    email: t.String(),
    password: t.String(),
    totp: t.Optional(
      t.String({ description: "A code from the authenticator app, or a recovery code, when TOTP is on" }),
    ),
  },
  { additionalProperties: false },
);
const ChangePasswordSchema = t.Object(
  { current_password: t.String(), password: t.String({ description: "At least 12 characters" }) },
  { additionalProperties: false },
);
const ConfirmPasswordSchema = t.Object(
  { password: t.String({ description: "Your current password" }) },
  { additionalProperties: false },
);
const TotpCodeSchema = t.Object(
  { code: t.String({ description: "The authenticator app's current code for the new secret" }) },
  { additionalProperties: false },
);
const PasswordSchema = t.Object(
  { token: t.String({ description: "The one-time link's token" }), password: t.String() },
  { additionalProperties: false },
);
const ResetSchema = t.Object(
  { email: t.String({ description: "The email of the account to send a password link to" }) },
  { additionalProperties: false },
);
const CreateOrganizationSchema = t.Object({ name: t.String() }, { additionalProperties: false });
const Role = t.Union([t.Literal("owner"), t.Literal("admin"), t.Literal("developer"), t.Literal("viewer")]);
const InviteSchema = t.Object({ email: t.String(), role: Role }, { additionalProperties: false });
const RoleSchema = t.Object({ role: Role }, { additionalProperties: false });
const AcceptSchema = t.Object(
  {
    token: t.String({ description: "The invitation link's token (after # in /invite#…)" }),
    name: t.Optional(t.String({ description: "Your name, if you have no account yet" })),
    password: t.Optional(
      t.String({ description: "A new password (at least 12 characters), if you have no account yet" }),
    ),
  },
  { additionalProperties: false },
);

const SSO_COOKIE = "mailroom_sso";
/** Why a single sign-on came back refused, for the sign-in screen to show (not HttpOnly: the screen reads it). */
export const SSO_ERROR_COOKIE = "mailroom_sso_error";

export function peopleRoutes(deps: AuthDeps & { people: People; members: Members; sso: SingleSignOn }) {
  const { people, members, sso, config } = deps;
  const limits = bodyLimits(config);
  const tags = ["People"];
  const secure = (request: Request) => ((config.http.public_url || request.url).startsWith("https:") ? "; Secure" : "");
  const sessionCookie = (request: Request, token: string) =>
    `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_ABSOLUTE_MS / 1000}${secure(request)}`;
  const withCookie = (request: Request, set: { headers: Record<string, unknown> }, opened: OpenedSession) => {
    set.headers["set-cookie"] = sessionCookie(request, opened.token);
    return opened.view;
  };

  const open = new Elysia()
    .post(
      "/v1/setup",
      async ({ request, set, server }) =>
        withCookie(
          request,
          set,
          await people.completeSetup(await readBody(request, limits, SetupSchema), clientOf(request, server)),
        ),
      {
        parse: "none",
        detail: {
          summary:
            "Create the first user (instance admin, owner of the first organisation) with the start's setup link",
          tags,
          requestBody: jsonContent(SetupSchema),
        },
      },
    )
    .post(
      "/v1/session",
      async ({ request, set, server }) =>
        withCookie(
          request,
          set,
          await people.signIn(await readBody(request, limits, SignInSchema), clientOf(request, server)),
        ),
      {
        parse: "none",
        detail: {
          summary: "Sign in with email and password: sets the mailroom_session cookie",
          tags,
          requestBody: jsonContent(SignInSchema),
        },
      },
    )
    .get(
      "/v1/session",
      async ({ request }) =>
        (await people.sessionOf(sessionToken(request.headers.get("cookie") ?? undefined))) ?? {
          object: "session",
          user: null,
          organizations: [],
        },
      {
        detail: {
          summary: "Whether this browser is signed in: the person and their organisations, or user null (never 401)",
          tags,
        },
      },
    )
    .delete(
      "/v1/session",
      async ({ request, set, query, server }) => {
        const token = sessionToken(request.headers.get("cookie") ?? undefined);
        if (!token) throw new AppError("unauthorized", "Not signed in.");
        await people.signOut(token, { everywhere: query.everywhere === "true" }, clientOf(request, server));
        set.headers["set-cookie"] =
          `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure(request)}`;
        return { object: "session", deleted: true };
      },
      { detail: { summary: "Sign out (?everywhere=true: every session of this person)", tags } },
    )
    .get(
      "/v1/sso",
      () => ({ object: "sso", enabled: sso.configured, required: sso.configured && config.oidc.required }),
      {
        detail: { summary: "Whether single sign-on is configured (the sign-in screen offers it), and required", tags },
      },
    )
    .get(
      "/v1/sso/start",
      async ({ request, query, set }) => {
        const base = config.http.public_url || new URL(request.url).origin;
        const begun = await sso.begin({
          redirectUri: `${base}/v1/sso/callback`,
          invitation: typeof query.invitation === "string" ? query.invitation : undefined,
        });
        // Lax, not Strict: the provider's redirect back is a navigation from another site, and must carry it.
        set.headers["set-cookie"] =
          `${SSO_COOKIE}=${begun.browser}; Path=/v1/sso; HttpOnly; SameSite=Lax; Max-Age=600${secure(request)}`;
        set.headers["cache-control"] = "no-store";
        return redirect(begun.url, 302);
      },
      {
        detail: {
          summary:
            "Begin signing in with single sign-on: redirects to the identity provider (?invitation=<token> to join)",
          tags,
        },
      },
    )
    .get(
      "/v1/sso/callback",
      async ({ request, set, server }) => {
        const cookies = [`${SSO_COOKIE}=; Path=/v1/sso; HttpOnly; SameSite=Lax; Max-Age=0${secure(request)}`];
        set.headers["cache-control"] = "no-store";
        try {
          const opened = await sso.complete(
            {
              callbackUrl: new URL(request.url),
              browser: cookieValue(request.headers.get("cookie") ?? undefined, SSO_COOKIE),
            },
            clientOf(request, server),
          );
          cookies.push(sessionCookie(request, opened.token));
          set.headers["set-cookie"] = cookies;
          return redirect("/", 303);
        } catch (error) {
          // The browser is back from the provider, not running the UI's code: the UI shows why on its sign-in screen.
          if (!(error instanceof AppError) || error.status >= 500) throw error;
          // Why, in a cookie only this server sets, read once by the sign-in screen: text in the URL could be anyone's.
          cookies.push(
            `${SSO_ERROR_COOKIE}=${encodeURIComponent(error.message)}; Path=/; SameSite=Lax; Max-Age=120${secure(request)}`,
          );
          set.headers["set-cookie"] = cookies;
          return redirect("/?sso_error", 303);
        }
      },
      { detail: { summary: "Where the identity provider sends the browser back; signs in and goes to /", tags } },
    )
    .post(
      "/v1/invitations/accept",
      async ({ request, set, server }) => {
        const body = await readBody(request, limits, AcceptSchema);
        // A person with an account joins only while signed in as it (the session checked as any other: same origin).
        const signedIn = sessionToken(request.headers.get("cookie") ?? undefined)
          ? await authenticateRequest(deps, request, set, server)
          : undefined;
        const joined = await members.accept(body, clientOf(request, server), signedIn);
        return joined.opened ? withCookie(request, set, joined.opened) : joined.view;
      },
      {
        parse: "none",
        detail: {
          summary:
            "Join an organisation with an invitation's token: a new person sets a name and password; a person with an account joins while signed in as it (409 otherwise)",
          tags,
          requestBody: jsonContent(AcceptSchema),
        },
      },
    )
    .post(
      "/v1/password/reset",
      async ({ request, server }) => {
        people.requestPasswordReset((await readBody(request, limits, ResetSchema)).email, clientOf(request, server));
        return {
          object: "password_reset",
          message:
            "If this email has an account, and an organisation of theirs has a verified domain, a link is on its way.",
        };
      },
      {
        parse: "none",
        detail: {
          summary:
            "Email a one-time password link (an hour; at most one per person every five minutes), from an organisation of theirs with a verified domain; the answer is the same whether or not the email has an account",
          tags,
          requestBody: jsonContent(ResetSchema),
        },
      },
    )
    .post(
      "/v1/password",
      async ({ request }) => {
        await people.setPassword(await readBody(request, limits, PasswordSchema));
        return { object: "password", updated: true };
      },
      {
        parse: "none",
        detail: {
          summary: "Set a password with a one-time link (a new user's, or a reset); every session of the user ends",
          tags,
          requestBody: jsonContent(PasswordSchema),
        },
      },
    );

  const signedIn = new Elysia()
    .use(authenticated(deps))
    .get("/v1/me", ({ actor }) => people.me(actor), {
      detail: { summary: "The signed-in person and their organisations", tags },
    })
    .post(
      "/v1/me/password",
      async ({ request, actor, server }) => {
        await people.changePassword(
          actor,
          await readBody(request, limits, ChangePasswordSchema),
          sessionToken(request.headers.get("cookie") ?? undefined),
          clientOf(request, server),
        );
        return { object: "password", updated: true };
      },
      {
        parse: "none",
        detail: {
          summary: "Change your password (the current one first); your other sessions end",
          tags,
          requestBody: jsonContent(ChangePasswordSchema),
        },
      },
    )
    .post(
      "/v1/me/totp",
      async ({ request, actor }) =>
        people.enrolTotp(actor, (await readBody(request, limits, ConfirmPasswordSchema)).password),
      {
        parse: "none",
        detail: {
          summary: "Begin turning TOTP on: a new secret and its otpauth URL, kept pending until a code confirms it",
          tags,
          requestBody: jsonContent(ConfirmPasswordSchema),
        },
      },
    )
    .post(
      "/v1/me/totp/confirm",
      async ({ request, actor, server }) =>
        people.confirmTotp(actor, (await readBody(request, limits, TotpCodeSchema)).code, clientOf(request, server)),
      {
        parse: "none",
        detail: {
          summary: "Turn TOTP on with the app's current code; answers ten recovery codes, shown this once",
          tags,
          requestBody: jsonContent(TotpCodeSchema),
        },
      },
    )
    .post(
      "/v1/me/totp/disable",
      async ({ request, actor, server }) =>
        people.disableTotp(
          actor,
          (await readBody(request, limits, ConfirmPasswordSchema)).password,
          clientOf(request, server),
        ),
      {
        parse: "none",
        detail: { summary: "Turn TOTP off", tags, requestBody: jsonContent(ConfirmPasswordSchema) },
      },
    )
    .post(
      "/v1/me/totp/recovery-codes",
      async ({ request, actor, server }) =>
        people.replaceRecoveryCodes(
          actor,
          (await readBody(request, limits, ConfirmPasswordSchema)).password,
          clientOf(request, server),
        ),
      {
        parse: "none",
        detail: {
          summary: "New recovery codes in place of the old ones, shown this once",
          tags,
          requestBody: jsonContent(ConfirmPasswordSchema),
        },
      },
    )
    .get("/v1/organizations", ({ actor }) => people.organizations(actor), {
      detail: { summary: "The organisations the caller acts in", tags: ["Organization"] },
    })
    .post(
      "/v1/organizations",
      async ({ request, actor, set }) => {
        const body: Static<typeof CreateOrganizationSchema> = await readBody(request, limits, CreateOrganizationSchema);
        set.status = 201;
        return people.createOrganization(actor, body.name);
      },
      {
        parse: "none",
        detail: {
          summary: "Create an organisation (instance admins); its creator becomes its owner",
          tags: ["Organization"],
          requestBody: jsonContent(CreateOrganizationSchema),
        },
      },
    );

  const team = new Elysia()
    .use(authenticated(deps))
    .get("/v1/members", ({ actor }) => members.list(actor), {
      detail: { summary: "The organisation's members and pending invitations", tags: ["Members"] },
    })
    .post(
      "/v1/members/invitations",
      async ({ request, actor, set }) => {
        const body = await readBody(request, limits, InviteSchema);
        set.status = 201;
        // The inviter's own origin serves only their copy of the link; the mailed one is the configured address's.
        return members.invite(actor, body, new URL(request.url).origin);
      },
      {
        parse: "none",
        detail: {
          summary:
            "Invite someone by a one-time link, valid 7 days, mailed to them from the organisation's verified domain (emailed says whether it was) and in this answer",
          tags: ["Members"],
          requestBody: jsonContent(InviteSchema),
        },
      },
    )
    .delete("/v1/members/invitations/:id", ({ actor, params }) => members.revokeInvitation(actor, params.id), {
      detail: { summary: "Revoke an invitation", tags: ["Members"] },
    })
    .patch(
      "/v1/members/:id",
      async ({ request, actor, params }) =>
        members.changeRole(actor, params.id, (await readBody(request, limits, RoleSchema)).role),
      {
        parse: "none",
        detail: {
          summary: "Change a member's role (owners by owners only; the last owner stays one)",
          tags: ["Members"],
          requestBody: jsonContent(RoleSchema),
        },
      },
    )
    .delete("/v1/members/:id", ({ actor, params }) => members.remove(actor, params.id), {
      detail: { summary: "Remove a member (not the last owner)", tags: ["Members"] },
    });

  return new Elysia().use(open).use(signedIn).use(team);
}
