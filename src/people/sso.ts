/**
 * Single sign-on (docs/teams.md): OpenID Connect's authorization code flow with PKCE, against the `[oidc]` issuer.
 * Discovery, the token request and the ID token's checks — its signature against the issuer's JWKS, `iss`, `aud`,
 * `exp`, `iat`, `azp` and `nonce` — are `openid-client`'s, a certified relying party (never hand-written JOSE);
 * what is Mailroom's is which sign-in attempt a callback answers and who the person becomes.
 * Invariants: an attempt is stored by the SHA-256 of its `state`, bound to the browser that began it (a cookie's
 * digest), good for ten minutes and deleted by the callback that spends it, so a state and its nonce work once and
 * only in that browser; a person is signed in only on a verified email, at an allowed domain; a new person joins
 * `[oidc] organization` with `default_role` or the role `role_claim` names, never as owner.
 */
import { asc, eq, lt } from "drizzle-orm";
import * as oidc from "openid-client";
import type { Role } from "../access.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import type { Config } from "../config/options.ts";
import { AppError } from "../errors.ts";
import type { Clock } from "../lib/clock.ts";
import { claimInvitation, openInvitation } from "./members.ts";
import type { ClientInfo, OpenedSession, People } from "./service.ts";
import { digest, newToken } from "./tokens.ts";

const ATTEMPT_MS = 10 * 60_000;
const CLAIMABLE_ROLES: readonly Role[] = ["admin", "developer", "viewer"];

export interface SingleSignOn {
  /** Whether `[oidc]` names an issuer. */
  readonly configured: boolean;
  /**
   * Begins a sign-in: the identity provider's authorization URL to send the browser to, and the value of the cookie
   * that binds the attempt to that browser. `invitation` is an invitation's token the sign-in answers.
   */
  begin(input: { redirectUri: string; invitation?: string }): Promise<{ url: string; browser: string }>;
  /** Completes a sign-in from the provider's redirect to `callbackUrl`, in the browser with cookie `browser`. */
  complete(input: { callbackUrl: URL; browser: string | undefined }, client: ClientInfo): Promise<OpenedSession>;
}

const refused = (message: string) => new AppError("unauthorized", message);

/** An issuer served over plain HTTP is accepted on loopback only (a provider beside Mailroom, or a test's). */
const loopbackHttp = (issuer: URL) =>
  issuer.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(issuer.hostname);

export function createSingleSignOn(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  config: Config["oidc"];
  people: People;
}): SingleSignOn {
  const { db, writer, clock, config, people } = deps;
  const { ssoAttempts, organizations } = tablesOf(db);
  let discovered: Promise<oidc.Configuration> | null = null;

  // Discovery happens when first needed, and again after a failure: a provider that is down at start must not stop
  // Mailroom from starting, nor stay unknown once it is back.
  const provider = () => {
    if (!config.issuer) throw new AppError("not_found", "Single sign-on is not configured here.");
    if (!discovered) {
      const issuer = new URL(config.issuer);
      discovered = oidc
        .discovery(
          issuer,
          config.client_id,
          undefined,
          oidc.ClientSecretBasic(config.client_secret),
          loopbackHttp(issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined,
        )
        .then((configuration) => {
          // The ID token comes from the token endpoint over TLS, where OpenID Connect lets a client skip its signature;
          // Mailroom checks it anyway, against the issuer's JWKS.
          oidc.enableNonRepudiationChecks(configuration);
          return configuration;
        });
      discovered.catch(() => {
        discovered = null;
      });
    }
    return discovered.catch((error) => {
      throw new AppError("service_unavailable", "The identity provider cannot be reached; try again shortly.", {
        cause: error,
      });
    });
  };

  const roleOf = (claims: oidc.IDToken): Role => {
    if (!config.role_claim) return config.default_role as Role;
    const value = claims[config.role_claim];
    const named = (Array.isArray(value) ? value : [value]).find((role): role is Role =>
      CLAIMABLE_ROLES.includes(role as Role),
    );
    return named ?? (config.default_role as Role);
  };

  return {
    configured: Boolean(config.issuer),

    async begin(input) {
      const configuration = await provider();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const browser = newToken();
      let invitationId: string | null = null;
      if (input.invitation) {
        const invitation = await openInvitation(db, input.invitation, clock.now());
        if (!invitation) throw refused("This invitation has been used or has expired; ask for a new one.");
        invitationId = invitation.id;
      }
      await writer.write(async (tx) => {
        // Attempts never brought back go with the next one begun: the table holds ten minutes of sign-ins at most.
        await tx.delete(ssoAttempts).where(lt(ssoAttempts.expiresAt, clock.now()));
        await tx.insert(ssoAttempts).values({
          id: digest(state),
          browserHash: digest(browser),
          nonce,
          codeVerifier,
          invitationId,
          expiresAt: clock.now() + ATTEMPT_MS,
        });
      });
      const url = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: input.redirectUri,
        scope: config.scopes.join(" "),
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
      });
      return { url: url.href, browser };
    },

    async complete(input, client) {
      const configuration = await provider();
      const state = input.callbackUrl.searchParams.get("state") ?? "";
      // Spent first, whatever follows: a state, and the nonce stored with it, never serve twice.
      const attempt = await writer.write(async (tx) => {
        const row = await first(
          tx
            .select()
            .from(ssoAttempts)
            .where(eq(ssoAttempts.id, digest(state))),
        );
        if (row) await tx.delete(ssoAttempts).where(eq(ssoAttempts.id, row.id));
        return row;
      });
      if (!attempt || Number(attempt.expiresAt) < clock.now())
        throw refused("This sign-in has expired or was used already: sign in again.");
      if (!input.browser || digest(input.browser) !== attempt.browserHash)
        throw refused("This sign-in was begun in another browser: sign in again here.");
      let claims: oidc.IDToken | undefined;
      try {
        const tokens = await oidc.authorizationCodeGrant(configuration, input.callbackUrl, {
          pkceCodeVerifier: attempt.codeVerifier,
          expectedState: state,
          expectedNonce: attempt.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
      } catch (error) {
        throw new AppError("unauthorized", "The identity provider's answer did not pass its checks: sign in again.", {
          cause: error,
        });
      }
      if (!claims) throw refused("The identity provider sent no ID token.");
      const email = typeof claims.email === "string" ? claims.email.toLowerCase() : "";
      if (!email || claims.email_verified !== true)
        throw refused("The identity provider has not verified your email address, so it cannot sign you in here.");
      const domain = email.split("@").pop()!;
      if (config.allowed_email_domains.length && !config.allowed_email_domains.includes(domain))
        throw refused(`People at ${domain} do not sign in here with single sign-on.`);
      // Empty: the first organisation, the one the setup link's person owns.
      const organizationId =
        config.organization ||
        (await first(db.select({ id: organizations.id }).from(organizations).orderBy(asc(organizations.id)).limit(1)))
          ?.id;
      const role = roleOf(claims);
      return people.signInVerified(
        {
          subject: `${claims.iss} ${claims.sub}`,
          email,
          name: typeof claims.name === "string" ? claims.name : "",
          joins: async (tx, isNew) => {
            if (attempt.invitationId) {
              const claimed = await claimInvitation(tx, { id: attempt.invitationId, now: clock.now(), email });
              return [{ ...claimed, replaceRole: false, action: "invitation.accepted" }];
            }
            const joins: Array<{ organizationId: string; role: Role; replaceRole: boolean }> = [];
            // The role claim is the provider's word on every sign-in; without one, the default is for new people.
            if (organizationId && !attempt.invitationId && (isNew || config.role_claim))
              joins.push({ organizationId, role, replaceRole: Boolean(config.role_claim) });
            return joins;
          },
        },
        client,
      );
    },
  };
}
