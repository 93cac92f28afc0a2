/**
 * Security review, round three (docs/security.md), on the suite's engine: the findings about accounts, each test
 * named after its finding and written as the attack was reproduced — an invitation that took over an account, a
 * password link built from the Host header, invitation acceptance as a password oracle, and sign-in throttling that
 * delayed but never capped — plus what the review suspected of single sign-on before setup.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { asPerson, cookieOf, mailedPasswordMessage, ORIGIN, PASSWORD, setUpOwner, signIn } from "./helpers/people.ts";
import { base32Decode, totp } from "./helpers/totp.ts";

const clock = new ManualClock(Date.parse("2026-12-07T08:00:00.000Z"));
let t: TestApp;
let ownerA: string;
let ownerB: string;
let organizationB: string;

const tokenOf = (url: string) => new URL(url).hash.slice(1);
const accept = (body: Record<string, unknown>) => t.json("POST", "/v1/invitations/accept", { body, key: null });
/** The HTTP status a service call answers with: 200, or its error's. */
const statusOf = (call: Promise<unknown>) =>
  call.then(
    () => 200,
    (error: { status: number }) => error.status,
  );
const passwordHashOf = async (email: string) =>
  (
    await t.app.services.store.query<{ password_hash: string | null }>(
      sql`SELECT password_hash FROM users WHERE email = ${email}`,
    )
  )[0]?.password_hash;

beforeAll(async () => {
  t = await createTestApp({ http: { public_url: ORIGIN } }, { clock });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  ownerA = await setUpOwner(t);
  // Organisation B belongs to someone else: made by the instance admin, handed over, and left by its maker.
  organizationB = (await asPerson(t, "POST", "/v1/organizations", ownerA, { body: { name: "B" } })).body.id;
  const invited = await asPerson(t, "POST", "/v1/members/invitations", ownerA, {
    body: { email: "mallory@elsewhere.test", role: "owner" },
    organization: organizationB,
  });
  ownerB = cookieOf(
    (await accept({ token: tokenOf(invited.body.url), name: "Mallory", password: "mallory's own password" })).headers,
  );
});
afterAll(() => t?.close());

describe("finding 1: an invitation never takes over an account", () => {
  test("finding 1: B's owner invites A's person who has no password yet, and cannot set one or sign in as them", async () => {
    await t.app.services.people.createUser({
      email: "ann@example.com",
      organizationId: t.organizationId,
      role: "owner",
    });
    const invitation = await asPerson(t, "POST", "/v1/members/invitations", ownerB, {
      body: { email: "ann@example.com", role: "viewer" },
      organization: organizationB,
    });
    expect(invitation.status).toBe(201);
    const taken = await accept({ token: tokenOf(invitation.body.url), name: "Ann", password: "the attacker's choice" });
    expect([taken.status, taken.body.name]).toEqual([409, "conflict"]);
    expect(taken.headers.get("set-cookie")).toBeNull();
    expect(await passwordHashOf("ann@example.com")).toBeNull();
    const signedIn = await t.json("POST", "/v1/session", {
      body: { email: "ann@example.com", password: "the attacker's choice" },
      key: null,
    });
    expect(signedIn.status).toBe(401);
    // The invitation is still open, for Ann to accept once signed in as herself.
    const pending = await asPerson(t, "GET", "/v1/members", ownerB, { organization: organizationB });
    expect(pending.body.invitations.map((i: { email: string }) => i.email)).toContain("ann@example.com");
  });

  test("finding 1: the invitation's link is mailed to the address, built from the public address", async () => {
    const invitation = await asPerson(t, "POST", "/v1/members/invitations", ownerA, {
      body: { email: "newcomer@example.com", role: "developer" },
    });
    expect(invitation.body).toMatchObject({ emailed: true, note: null });
    expect(invitation.body.url).toStartWith(`${ORIGIN}/invite#`);
    const [mail] = await t.app.services.store.query<{ system_mail: unknown; html: unknown; text: unknown }>(
      sql`SELECT system_mail, html, text FROM emails WHERE subject LIKE 'Join % on Mailroom'`,
    );
    // The link is a credential: the record keeps no text, as for a password link (docs/teams.md#system-mail).
    expect(mail!.system_mail).toBe("invitation");
    expect([mail!.html, mail!.text]).toEqual([null, null]);
  });
});

describe("finding 2: password-reset links never come from the Host header", () => {
  const resetFrom = (app: TestApp, host: string) =>
    app.app.http.handle(
      new Request(`http://${host}/v1/password/reset`, {
        method: "POST",
        headers: { "content-type": "application/json", host },
        body: JSON.stringify({ email: "owner@example.com" }),
      }),
    );

  test("finding 2: with a public address, the mailed link is built from it whatever Host the request names", async () => {
    const answer = await resetFrom(t, "attacker.example");
    expect(answer.status).toBe(200);
    const mime = await mailedPasswordMessage(t, "owner@example.com");
    expect(mime).toContain(`${ORIGIN}/password#`);
    expect(mime).not.toContain("attacker.example");
  });

  test("finding 2: with no public address set, no link is mailed, and the answer says why", async () => {
    const bare = await createTestApp();
    try {
      await bare.app.services.domains.add(bare.operator, "example.com", { verifiedOverride: true });
      await setUpOwner(bare);
      const answer = await resetFrom(bare, "attacker.example");
      const body = (await answer.json()) as { name: string; message: string };
      expect([answer.status, body.name]).toEqual([503, "service_unavailable"]);
      expect(body.message).toContain("public_url");
      await Bun.sleep(200);
      const links = await bare.app.services.store.query<{ n: number }>(
        sql`SELECT count(*) AS n FROM one_time_links WHERE purpose = 'password'`,
      );
      expect(Number(links[0]!.n)).toBe(0);
      // An invitation is then not mailed either: its link goes only to the inviter, and the answer says so.
      const owner = await signIn(bare, "owner@example.com");
      const invited = await asPerson(bare, "POST", "/v1/members/invitations", owner, {
        body: { email: "someone@example.com", role: "viewer" },
      });
      expect(invited.body.emailed).toBe(false);
      expect(invited.body.note).toContain("public address");
    } finally {
      await bare.close();
    }
  });

  test("finding 2: [server] hostname alone makes https links", async () => {
    const named = await createTestApp({ server: { hostname: "mx.example.test" } });
    try {
      await setUpOwner(named);
      const invited = await asPerson(
        named,
        "POST",
        "/v1/members/invitations",
        await signIn(named, "owner@example.com"),
        {
          body: { email: "someone@example.com", role: "viewer" },
        },
      );
      expect(invited.body.url).toStartWith("https://mx.example.test/invite#");
    } finally {
      await named.close();
    }
  });
});

describe("finding 5: accepting an invitation is no password oracle", () => {
  test("finding 5: the right and a wrong password for an existing account get the same refusal, and nothing is tested", async () => {
    const known = await t.app.services.people.createUser({
      email: "known@example.com",
      organizationId: t.organizationId,
      role: "developer",
    });
    await t.app.services.people.setPassword({ token: known.token, password: PASSWORD });
    const invitation = await asPerson(t, "POST", "/v1/members/invitations", ownerB, {
      body: { email: "known@example.com", role: "viewer" },
      organization: organizationB,
    });
    const right = await accept({ token: tokenOf(invitation.body.url), password: PASSWORD });
    const wrong = await accept({ token: tokenOf(invitation.body.url), password: "a guess at the password" });
    expect([right.status, right.body]).toEqual([wrong.status, wrong.body]);
    expect(right.status).toBe(409);
  });

  test("finding 5: tokens that open nothing are slowed as failed sign-ins are", async () => {
    const started = performance.now();
    for (let i = 0; i < 3; i++) expect((await accept({ token: `guess-${i}`, password: PASSWORD })).status).toBe(401);
    // 250 ms, then 500 ms, then 1 s: the third guess alone waits a second.
    expect(performance.now() - started).toBeGreaterThan(1_500);
  });
});

describe("finding 6: sign-in throttling caps guesses per account", () => {
  test("finding 6: 64 wrong passwords at once are not all checked; the right one right after is refused with Retry-After", async () => {
    const person = await t.app.services.people.createUser({
      email: "guessed@example.com",
      organizationId: t.organizationId,
      role: "developer",
    });
    await t.app.services.people.setPassword({ token: person.token, password: PASSWORD });
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        statusOf(
          t.app.services.people.signIn(
            { email: "guessed@example.com", password: `guess number ${i}` },
            { ip: `10.0.0.${i}`, userAgent: null },
          ),
        ),
      ),
    );
    const checked = answers.filter((status) => status === 401).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(answers.filter((status) => status === 429).length).toBe(64 - checked);
    const right = await t.json("POST", "/v1/session", {
      body: { email: "guessed@example.com", password: PASSWORD },
      key: null,
    });
    expect([right.status, right.body.name]).toEqual([429, "rate_limit_exceeded"]);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    // One audit row per failure checked, of no organisation (however many the person has), read by A's log.
    const rows = await t.app.services.store.query<{ n: number }>(
      sql`SELECT count(*) AS n FROM audit_events WHERE action = 'sign_in.failed' AND target_name = 'guessed@example.com'`,
    );
    expect(Number(rows[0]!.n)).toBe(checked);
    const log = await asPerson(t, "GET", "/v1/audit-log?action=sign_in.failed&limit=100", ownerA);
    expect(
      log.body.data.filter((e: { target: { name: string } }) => e.target.name === "guessed@example.com"),
    ).toHaveLength(checked);
    // Once the lock passes, the person signs in.
    clock.advance(16 * 60_000);
    expect(
      (await t.json("POST", "/v1/session", { body: { email: "guessed@example.com", password: PASSWORD }, key: null }))
        .status,
    ).toBe(200);
  });

  test("finding 6: after 10 wrong codes the second factor is locked for 15 minutes, and its person is told by mail", async () => {
    const cookie = await signIn(t, "owner@example.com");
    const enrolled = await asPerson(t, "POST", "/v1/me/totp", cookie, { body: { password: PASSWORD } });
    const secret = base32Decode(enrolled.body.secret);
    await asPerson(t, "POST", "/v1/me/totp/confirm", cookie, { body: { code: totp(secret, clock.now()) } });
    const attempt = (code: string, i: number) =>
      statusOf(
        t.app.services.people.signIn(
          { email: "owner@example.com", password: PASSWORD, totp: code },
          { ip: `10.1.0.${i}`, userAgent: null },
        ),
      );
    // Wrong codes from many networks at once, then one at a time: ten are checked, never more.
    const burst = await Promise.all(Array.from({ length: 64 }, (_, i) => attempt("000000", i)));
    const statuses = [...burst];
    for (let i = 0; i < 12; i++) statuses.push(await attempt("000000", 100 + i));
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 200)).toHaveLength(0);
    const locked = await t.json("POST", "/v1/session", {
      body: { email: "owner@example.com", password: PASSWORD, totp: totp(secret, clock.now()) },
      key: null,
    });
    expect([locked.status, locked.body.name]).toEqual([429, "rate_limit_exceeded"]);
    expect(locked.body.message).toContain("wrong codes");
    const told = await t.app.services.store.query<{ n: number }>(
      sql`SELECT count(*) AS n FROM emails WHERE subject = 'Your Mailroom sign-in was locked'`,
    );
    expect(Number(told[0]!.n)).toBe(1);
    clock.advance(15 * 60_000 + 1_000);
    const open = await t.json("POST", "/v1/session", {
      body: { email: "owner@example.com", password: PASSWORD, totp: totp(secret, clock.now()) },
      key: null,
    });
    expect(open.status).toBe(200);
  }, 30_000);
});

describe("suspected: single sign-on before setup", () => {
  test("the setup link stays until an instance admin exists, even when someone else has an account", async () => {
    const fresh = await createTestApp();
    try {
      await fresh.app.services.people.createUser({
        email: "early@example.com",
        organizationId: fresh.organizationId,
        role: "viewer",
      });
      expect(await fresh.app.services.people.setupLink()).not.toBeNull();
      await setUpOwner(fresh);
      expect(await fresh.app.services.people.setupLink()).toBeNull();
    } finally {
      await fresh.close();
    }
  });

  test("nobody signs in by SSO before the instance has its first admin", async () => {
    const fresh = await createTestApp();
    try {
      const refused = fresh.app.services.people.signInVerified(
        { subject: "https://idp.test sub-1", email: "first@example.com", name: "First", joins: async () => [] },
        { ip: null, userAgent: null },
      );
      await expect(refused).rejects.toThrow(/not set up yet/);
      expect(await fresh.app.services.people.setupLink()).not.toBeNull();
    } finally {
      await fresh.close();
    }
  });
});
