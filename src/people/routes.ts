/**
 * HTTP routes of signing in (docs/teams.md#sessions): the first start's setup, sign-in and sign-out (the
 * `mailroom_session` cookie: HttpOnly, SameSite=Strict, Secure over https), single sign-on's start and return,
 * joining by invitation, and password links. These need no credential: the link's token, the password or the
 * identity provider is the authority. The signed-in person's own routes are account-routes.ts, the organisation's
 * people team-routes.ts; each route is one contract (http/contract.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia, redirect } from "elysia";
import { AppError } from "../errors.ts";
import { authenticateRequest, cookieValue, SESSION_COOKIE, sessionToken, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { clientOf } from "../http/client.ts";
import { mount, route } from "../http/contract.ts";
import { accountRoutes } from "./account-routes.ts";
import type { Members } from "./members.ts";
import { SESSION_ABSOLUTE_MS, type OpenedSession, type People } from "./service.ts";
import type { SingleSignOn } from "./sso.ts";
import { teamRoutes } from "./team-routes.ts";
import { InvitationPreviewSchema, PasswordSetSchema, SessionSchema, SessionStateSchema } from "./wire.ts";

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
const PasswordSchema = t.Object(
  { token: t.String({ description: "The one-time link's token" }), password: t.String() },
  { additionalProperties: false },
);
const ResetSchema = t.Object(
  { email: t.String({ description: "The email of the account to send a password link to" }) },
  { additionalProperties: false },
);
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

const PreviewSchema = t.Object(
  { token: t.String({ description: "The invitation link's token (after # in /invite#…)" }) },
  { additionalProperties: false },
);

const SSO_COOKIE = "mailroom_sso";
/** Why a single sign-on came back refused, for the sign-in screen to show (not HttpOnly: the screen reads it). */
export const SSO_ERROR_COOKIE = "mailroom_sso_error";
const tags = ["People"];

export function peopleRoutes(deps: AuthDeps & { people: People; members: Members; sso: SingleSignOn }) {
  const { people, members, sso, config } = deps;
  const secure = (request: Request) => ((config.http.public_url || request.url).startsWith("https:") ? "; Secure" : "");
  const sessionCookie = (request: Request, token: string) =>
    `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_ABSOLUTE_MS / 1000}${secure(request)}`;
  const withCookie = (request: Request, set: { headers: Record<string, unknown> }, opened: OpenedSession) => {
    set.headers["set-cookie"] = sessionCookie(request, opened.token);
    return opened.view;
  };

  const open = mount(new Elysia(), bodyLimits(config), [
    route(
      {
        method: "POST",
        path: "/v1/setup",
        summary: "Create the first user (instance admin, owner of the first organisation) with the start's setup link",
        tags,
        open: true,
        body: SetupSchema,
        responses: { 200: SessionSchema },
        errors: ["unauthorized", "conflict", "not_found"],
      },
      async ({ request, set, server, body }) =>
        withCookie(request, set, await people.completeSetup(body, clientOf(request, server))),
    ),
    route(
      {
        method: "POST",
        path: "/v1/session",
        summary: "Sign in with email and password: sets the mailroom_session cookie",
        tags,
        open: true,
        body: SignInSchema,
        responses: { 200: SessionSchema },
        errors: ["unauthorized", "rate_limit_exceeded"],
      },
      async ({ request, set, server, body }) =>
        withCookie(request, set, await people.signIn(body, clientOf(request, server))),
    ),
    route(
      {
        method: "GET",
        path: "/v1/session",
        summary: "Whether this browser is signed in: the person and their organisations, or user null (never 401)",
        tags,
        open: true,
        responses: { 200: SessionStateSchema },
      },
      async ({ request }) =>
        (await people.sessionOf(sessionToken(request.headers.get("cookie") ?? undefined))) ?? {
          object: "session" as const,
          user: null,
          organizations: [],
        },
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/session",
        summary: "Sign out (?everywhere=true: every session of this person)",
        tags,
        open: true,
        query: t.Object({ everywhere: t.Optional(t.Boolean({ description: "End every session of this person" })) }),
        responses: { 200: t.Object({ object: t.Literal("session"), deleted: t.Literal(true) }) },
        errors: ["unauthorized"],
      },
      async ({ request, set, query, server }) => {
        const token = sessionToken(request.headers.get("cookie") ?? undefined);
        if (!token) throw new AppError("unauthorized", "Not signed in.");
        await people.signOut(token, { everywhere: query.everywhere === true }, clientOf(request, server));
        set.headers["set-cookie"] =
          `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure(request)}`;
        return { object: "session" as const, deleted: true as const };
      },
    ),
    route(
      {
        method: "GET",
        path: "/v1/sso",
        summary: "Whether single sign-on is configured (the sign-in screen offers it), and required",
        tags,
        open: true,
        responses: { 200: t.Object({ object: t.Literal("sso"), enabled: t.Boolean(), required: t.Boolean() }) },
      },
      () => ({ object: "sso" as const, enabled: sso.configured, required: sso.configured && config.oidc.required }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/sso/start",
        summary:
          "Begin signing in with single sign-on: redirects to the identity provider (?invitation=<token> to join)",
        tags,
        open: true,
        query: t.Object({
          invitation: t.Optional(t.String({ description: "An invitation's token, to join with SSO" })),
        }),
        responses: { 302: { redirect: "To the identity provider's sign-in" } },
        errors: ["not_found", "unauthorized"],
      },
      async ({ request, query, set }) => {
        const base = config.http.public_url || new URL(request.url).origin;
        const begun = await sso.begin({ redirectUri: `${base}/v1/sso/callback`, invitation: query.invitation });
        // Lax, not Strict: the provider's redirect back is a navigation from another site, and must carry it.
        set.headers["set-cookie"] =
          `${SSO_COOKIE}=${begun.browser}; Path=/v1/sso; HttpOnly; SameSite=Lax; Max-Age=600${secure(request)}`;
        set.headers["cache-control"] = "no-store";
        return redirect(begun.url, 302);
      },
    ),
    route(
      {
        method: "GET",
        path: "/v1/sso/callback",
        summary: "Where the identity provider sends the browser back; signs in and goes to /",
        tags,
        open: true,
        responses: { 303: { redirect: "To the admin UI: signed in, or ?sso_error with the reason in a cookie" } },
        errors: ["not_found"],
      },
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
    ),
    route(
      {
        method: "POST",
        path: "/v1/invitations/preview",
        summary:
          "What an invitation's token opens to, before joining: the organisation's name, the role and the address invited (401 once used or expired)",
        tags,
        open: true,
        body: PreviewSchema,
        responses: { 200: InvitationPreviewSchema },
        errors: ["unauthorized"],
      },
      ({ request, server, body }) => members.preview(body.token, clientOf(request, server)),
    ),
    route(
      {
        method: "POST",
        path: "/v1/invitations/accept",
        summary:
          "Join an organisation with an invitation's token: a new person sets a name and password; a person with an account joins while signed in as it (409 otherwise)",
        tags,
        open: true,
        body: AcceptSchema,
        responses: { 200: SessionSchema },
        errors: ["unauthorized", "insufficient_scope", "conflict"],
      },
      async ({ request, set, server, body }) => {
        // A person with an account joins only while signed in as it (the session checked as any other: same origin).
        const signedIn = sessionToken(request.headers.get("cookie") ?? undefined)
          ? await authenticateRequest(deps, request, set, server)
          : undefined;
        const joined = await members.accept(body, clientOf(request, server), signedIn);
        return joined.opened ? withCookie(request, set, joined.opened) : joined.view;
      },
    ),
    route(
      {
        method: "POST",
        path: "/v1/password/reset",
        summary:
          "Email a one-time password link (an hour; at most one per person every five minutes), from an organisation of theirs with a verified domain; the answer is the same whether or not the email has an account",
        tags,
        open: true,
        body: ResetSchema,
        responses: { 200: t.Object({ object: t.Literal("password_reset"), message: t.String() }) },
        errors: ["service_unavailable"],
      },
      ({ request, server, body }) => {
        people.requestPasswordReset(body.email, clientOf(request, server));
        return {
          object: "password_reset" as const,
          message:
            "If this email has an account, and an organisation of theirs has a verified domain, a link is on its way.",
        };
      },
    ),
    route(
      {
        method: "POST",
        path: "/v1/password",
        summary: "Set a password with a one-time link (a new user's, or a reset); every session of the user ends",
        tags,
        open: true,
        body: PasswordSchema,
        responses: { 200: PasswordSetSchema },
        errors: ["unauthorized"],
      },
      async ({ body }) => {
        await people.setPassword(body);
        return { object: "password" as const, updated: true as const };
      },
    ),
  ]);

  return new Elysia().use(open).use(accountRoutes(deps)).use(teamRoutes(deps));
}
