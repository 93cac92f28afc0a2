/**
 * Single sign-on (issue 29, docs/teams.md) on the suite's engine, against a real OpenID provider on loopback
 * (test/helpers/oidc-provider.mjs): the authorization code flow with PKCE; a new person provisioned into the
 * configured organisation with the default role or the one a claim names; an existing person linked by verified
 * email; an invitation answered with SSO; and each refusal — a forged token, a wrong audience, an expired token, a
 * nonce used before, an unverified email, a domain not allowed, a callback replayed or brought to another browser —
 * with no session made. Then `[oidc] required`, which leaves password sign-in to instance admins.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { CLIENT_ID, CLIENT_SECRET, loginAtProvider, startProvider, type TestProvider } from "./helpers/oidc.ts";
import { asPerson, cookieOf, mailedPasswordToken, ORIGIN, PASSWORD, setUpOwner, signIn } from "./helpers/people.ts";

const CALLBACK = `${ORIGIN}/v1/sso/callback`;
let provider: TestProvider;
let t: TestApp;
let ownerCookie: string;

const oidcConfig = (extra: Record<string, unknown> = {}) => ({
  oidc: {
    issuer: provider.issuer,
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
    role_claim: "mailroom_role",
    allowed_email_domains: ["example.com"],
    ...extra,
  },
});

beforeAll(async () => {
  provider = await startProvider(CALLBACK);
  t = await createTestApp({ ...oidcConfig(), http: { public_url: ORIGIN } });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  ownerCookie = await setUpOwner(t);
});
afterAll(async () => {
  await t?.close();
  provider?.close();
});

/** Mailroom's start, the provider's login as `login`, and Mailroom's callback, as one browser walks them. */
async function ssoSignIn(login: string, options: { app?: TestApp; invitation?: string; otherBrowser?: boolean } = {}) {
  const app = options.app ?? t;
  const start = await app.request(
    "GET",
    `/v1/sso/start${options.invitation ? `?invitation=${options.invitation}` : ""}`,
    { key: null },
  );
  expect(start.status).toBe(302);
  const ssoCookie = cookieOf(start.headers);
  expect(start.headers.get("set-cookie")).toMatch(/^mailroom_sso=[\w-]+; Path=\/v1\/sso; HttpOnly; SameSite=Lax/);
  const authorization = new URL(start.headers.get("location")!);
  expect(authorization.origin).toBe(provider.issuer);
  expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorization.searchParams.get("redirect_uri")).toBe(CALLBACK);
  const back = await loginAtProvider(authorization.href, login);
  expect(back.href.startsWith(CALLBACK)).toBe(true);
  const callback = () =>
    app.request("GET", back.pathname + back.search, {
      key: null,
      headers: options.otherBrowser ? {} : { cookie: ssoCookie },
    });
  const done = await callback();
  expect(done.status).toBe(303);
  const location = decodeURIComponent(done.headers.get("location")!);
  const cookies = done.headers.getSetCookie();
  const session = cookies.find((cookie) => cookie.startsWith("mailroom_session="));
  // Why it was refused travels in a cookie only this server sets; the URL says only that there is something to read.
  const refusal = cookies.find((cookie) => cookie.startsWith("mailroom_sso_error="))?.split(";")[0];
  const error = refusal && decodeURIComponent(refusal.slice("mailroom_sso_error=".length));
  return { location, cookie: session?.split(";")[0], error, replay: callback };
}

async function refusedWith(result: Awaited<ReturnType<typeof ssoSignIn>>, message: RegExp) {
  expect(result.cookie).toBeUndefined();
  expect(result.location).toBe("/?sso_error");
  expect(result.error).toMatch(message);
}

describe("signing in with SSO", () => {
  test("the sign-in screen is told SSO is on", async () => {
    expect((await t.json("GET", "/v1/sso", { key: null })).body).toEqual({
      object: "sso",
      enabled: true,
      required: false,
    });
  });

  test("a new person is provisioned into the first organisation with the default role, once", async () => {
    const first = await ssoSignIn("alice");
    expect(first.location).toBe("/");
    expect(first.cookie).toMatch(/^mailroom_session=/);
    const me = await asPerson(t, "GET", "/v1/me", first.cookie!);
    expect(me.body).toMatchObject({
      user: { email: "alice@example.com", name: "alice", instance_admin: false },
      organizations: [{ id: t.organizationId, role: "viewer" }],
    });
    const again = await ssoSignIn("alice");
    const meAgain = await asPerson(t, "GET", "/v1/me", again.cookie!);
    expect(meAgain.body.user.id).toBe(me.body.user.id);
    expect(meAgain.body.organizations).toHaveLength(1);

    const log = await asPerson(t, "GET", `/v1/audit-log?actor_id=${me.body.user.id}`, ownerCookie);
    expect(log.body.data.map((event: { action: string }) => event.action)).toEqual([
      "sign_in.succeeded",
      "sign_in.succeeded",
      "member.provisioned",
    ]);
    expect(log.body.data[0].changes).toEqual({ method: "sso" });
  });

  test("the role claim names the role", async () => {
    const signedIn = await ssoSignIn("bob+developer");
    expect((await asPerson(t, "GET", "/v1/me", signedIn.cookie!)).body.organizations[0].role).toBe("developer");
    // Never owner by a claim: an unknown or too-high role falls back to the default.
    const claimed = await ssoSignIn("carl+owner");
    expect((await asPerson(t, "GET", "/v1/me", claimed.cookie!)).body.organizations[0].role).toBe("viewer");
  });

  test("a person with a password is linked by verified email once a mailed link proved the address, and keeps their role", async () => {
    // The owner set their password through the setup link, which proves no address: SSO may not take the account.
    await refusedWith(await ssoSignIn("owner"), /already has a password here/);
    const told = await asPerson(t, "GET", "/v1/audit-log?action=sign_in.sso_refused", ownerCookie);
    expect(told.body.data).toHaveLength(1);
    const token = await mailedPasswordToken(t, "owner@example.com");
    const set = await t.json("POST", "/v1/password", { body: { token, password: PASSWORD }, key: null });
    expect(set.status).toBe(200);
    ownerCookie = await signIn(t, "owner@example.com");
    const signedIn = await ssoSignIn("owner");
    const me = await asPerson(t, "GET", "/v1/me", signedIn.cookie!);
    expect(me.body).toMatchObject({ user: { email: "owner@example.com", instance_admin: true } });
    expect(me.body.organizations[0].role).toBe("owner");
  });

  test("an invitation is answered with SSO: its organisation and role, for its email only", async () => {
    const other = await asPerson(t, "POST", "/v1/organizations", ownerCookie, { body: { name: "Agency" } });
    const invite = async (email: string) => {
      const made = await asPerson(t, "POST", "/v1/members/invitations", ownerCookie, {
        body: { email, role: "developer" },
        organization: other.body.id,
      });
      return new URL(made.body.url).hash.slice(1);
    };
    const joined = await ssoSignIn("dave", { invitation: await invite("dave@example.com") });
    expect((await asPerson(t, "GET", "/v1/me", joined.cookie!)).body.organizations).toEqual([
      { id: other.body.id, name: "Agency", role: "developer" },
    ]);
    await refusedWith(
      await ssoSignIn("frank", { invitation: await invite("erin@example.com") }),
      /for another email address/,
    );
  });
});

describe("finding 1 (security round three): an invitation's password never opens an account SSO reaches", () => {
  test("finding 1: a password set through an invitation before the person existed does not open the account they later reach by SSO", async () => {
    // The owner of another organisation invites an address nobody has yet and sets its password themselves.
    const theirs = await asPerson(t, "POST", "/v1/organizations", ownerCookie, { body: { name: "Attacker's" } });
    const made = await asPerson(t, "POST", "/v1/members/invitations", ownerCookie, {
      body: { email: "victor@example.com", role: "viewer" },
      organization: theirs.body.id,
    });
    const planted = await t.json("POST", "/v1/invitations/accept", {
      body: { token: new URL(made.body.url).hash.slice(1), name: "Victor", password: "the attacker's password" },
      key: null,
    });
    expect(planted.status).toBe(200);
    // The real person signs in with SSO: the account holding the planted password is not theirs to be given.
    await refusedWith(await ssoSignIn("victor"), /already has a password here/);
    const me = await t.json("POST", "/v1/session", {
      body: { email: "victor@example.com", password: "the attacker's password" },
      key: null,
    });
    expect(me.body.organizations.map((o: { id: string }) => o.id)).toEqual([theirs.body.id]);
  });
});

describe("what SSO refuses, with no session made", () => {
  afterAll(() => provider.tamper("none"));

  test("an ID token signed with a key the provider does not publish", async () => {
    await provider.tamper("forged");
    await refusedWith(await ssoSignIn("mallory"), /did not pass its checks/);
  });

  test("an ID token for another audience", async () => {
    await provider.tamper("wrong_audience");
    await refusedWith(await ssoSignIn("mallory"), /did not pass its checks/);
  });

  test("an expired ID token", async () => {
    await provider.tamper("expired");
    await refusedWith(await ssoSignIn("mallory"), /did not pass its checks/);
  });

  test("an ID token carrying the nonce of an earlier sign-in", async () => {
    await provider.tamper("none");
    expect((await ssoSignIn("alice")).cookie).toBeDefined();
    await provider.tamper("replayed_nonce");
    await refusedWith(await ssoSignIn("alice"), /did not pass its checks/);
    await provider.tamper("none");
  });

  test("an email the provider has not verified, or none", async () => {
    await refusedWith(await ssoSignIn("unverified"), /not verified your email/);
    await refusedWith(await ssoSignIn("no-email"), /not verified your email/);
  });

  test("an email at a domain not allowed", async () => {
    await refusedWith(await ssoSignIn("outsider"), /elsewhere\.test do not sign in here/);
  });

  test("a callback used twice, or brought to another browser", async () => {
    const once = await ssoSignIn("alice");
    expect(once.cookie).toBeDefined();
    const replayed = await once.replay();
    const why = replayed.headers.getSetCookie().find((cookie) => cookie.startsWith("mailroom_sso_error="))!;
    expect(decodeURIComponent(why)).toMatch(/expired or was used already/);
    expect(replayed.headers.getSetCookie().some((cookie) => cookie.startsWith("mailroom_session="))).toBe(false);
    await refusedWith(await ssoSignIn("alice", { otherBrowser: true }), /begun in another browser/);
  });

  test("nobody was provisioned by any of them", async () => {
    const members = await asPerson(t, "GET", "/v1/members", ownerCookie);
    const emails = members.body.data.map((member: { email: string }) => member.email);
    for (const email of ["mallory@example.com", "unverified@example.com", "outsider@elsewhere.test"])
      expect(emails).not.toContain(email);
  });
});

describe("[oidc] required", () => {
  test("password sign-in is for instance admins only; everyone else uses SSO", async () => {
    const strict = await createTestApp(oidcConfig({ required: true }));
    try {
      await setUpOwner(strict);
      const added = await strict.app.services.people.createUser({
        email: "dev@example.com",
        organizationId: strict.organizationId,
        role: "developer",
      });
      await strict.app.services.people.setPassword({ token: added.token, password: PASSWORD });
      expect((await strict.json("GET", "/v1/sso", { key: null })).body.required).toBe(true);
      const refused = await strict.json("POST", "/v1/session", {
        body: { email: "dev@example.com", password: PASSWORD },
        key: null,
      });
      expect([refused.status, refused.body.details[0].path]).toEqual([401, "password"]);
      const admin = await strict.json("POST", "/v1/session", {
        body: { email: "owner@example.com", password: PASSWORD },
        key: null,
      });
      expect(admin.status).toBe(200);
      expect((await ssoSignIn("dev", { app: strict })).cookie).toBeDefined();
    } finally {
      await strict.close();
    }
  });
});
