/**
 * HTTP routes of the signed-in person's own account (docs/teams.md#two-step-sign-in): who they are, changing their
 * password, and turning two-step sign-in on and off — each behind the current password again, each one contract.
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { authenticated, sessionToken, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { clientOf } from "../http/client.ts";
import { mount, route } from "../http/contract.ts";
import type { People } from "./service.ts";
import { PasswordSetSchema, SessionSchema, TotpEnrolmentSchema, TotpOffSchema, TotpOnSchema } from "./wire.ts";

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

const tags = ["People"];
/**
 * Said in the contract of each route that re-confirms the password (docs/teams.md#two-step-sign-in): a signed-in
 * session alone is not enough to change the second factor, and the document the clients and /docs come from must say so.
 */
const NEEDS_PASSWORD =
  "Needs your current password in `password`, even with a signed-in session: a wrong one answers 401 unauthorized (and counts towards the sign-in throttle).";

export function accountRoutes(deps: AuthDeps & { people: People }) {
  const { people } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "GET",
        path: "/v1/me",
        summary: "The signed-in person and their organisations",
        tags,
        responses: { 200: SessionSchema },
      },
      ({ actor }) => people.me(actor),
    ),
    route(
      {
        method: "POST",
        path: "/v1/me/password",
        summary: "Change your password (the current one first); your other sessions end",
        tags,
        body: ChangePasswordSchema,
        responses: { 200: PasswordSetSchema },
      },
      async ({ request, actor, server, body }) => {
        await people.changePassword(
          actor,
          body,
          sessionToken(request.headers.get("cookie") ?? undefined),
          clientOf(request, server),
        );
        return { object: "password" as const, updated: true as const };
      },
    ),
    route(
      {
        method: "POST",
        path: "/v1/me/totp",
        summary: "Begin turning TOTP on: a new secret and its otpauth URL, kept pending until a code confirms it",
        description: `${NEEDS_PASSWORD} Then POST /v1/me/totp/confirm with the authenticator app's current code turns TOTP on.`,
        tags,
        body: ConfirmPasswordSchema,
        responses: { 200: TotpEnrolmentSchema },
        errors: ["conflict"],
      },
      ({ actor, body }) => people.enrolTotp(actor, body.password),
    ),
    route(
      {
        method: "POST",
        path: "/v1/me/totp/confirm",
        summary: "Turn TOTP on with the app's current code; answers ten recovery codes, shown this once",
        tags,
        body: TotpCodeSchema,
        responses: { 200: TotpOnSchema },
        errors: ["conflict"],
      },
      ({ actor, body, request, server }) => people.confirmTotp(actor, body.code, clientOf(request, server)),
    ),
    route(
      {
        method: "POST",
        path: "/v1/me/totp/disable",
        summary: "Turn TOTP off",
        description: NEEDS_PASSWORD,
        tags,
        body: ConfirmPasswordSchema,
        responses: { 200: TotpOffSchema },
      },
      ({ actor, body, request, server }) => people.disableTotp(actor, body.password, clientOf(request, server)),
    ),
    route(
      {
        method: "POST",
        path: "/v1/me/totp/recovery-codes",
        summary: "New recovery codes in place of the old ones, shown this once",
        description: NEEDS_PASSWORD,
        tags,
        body: ConfirmPasswordSchema,
        responses: { 200: TotpOnSchema },
        errors: ["conflict"],
      },
      ({ actor, body, request, server }) =>
        people.replaceRecoveryCodes(actor, body.password, clientOf(request, server)),
    ),
  ]);
}
