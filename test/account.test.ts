/**
 * A person's own account (issue 29, docs/teams.md) on the suite's engine, through the HTTP API with an injected clock:
 * changing the password, and TOTP. Codes are made from RFC 6238 itself (test/helpers/totp.ts, checked here against
 * the RFC's own test vector), not by the library the server uses: turning TOTP on needs the password and a code of the new secret; sign-in then asks for a
 * code, takes each code once, and takes each recovery code once; turning it off needs the password; the secret is
 * sealed in the store and the recovery codes are stored as digests.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { asPerson, PASSWORD, setUpOwner } from "./helpers/people.ts";
import { base32, base32Decode, totp } from "./helpers/totp.ts";

const clock = new ManualClock(Date.parse("2026-06-01T09:00:00.000Z"));
const EMAIL = "owner@example.com";
let t: TestApp;
let cookie: string;

const signIn = (body: Record<string, unknown>) =>
  t.json("POST", "/v1/session", { body: { email: EMAIL, password: PASSWORD, ...body }, key: null });
/** Forgets the failures the last test made: they are remembered 15 minutes. */
const quiet = () => clock.set(clock.now() + 16 * 60_000);

const recoveryCodesLeft = async () =>
  Number(
    (await t.app.services.store.query<{ left: number }>(sql`SELECT count(*) AS left FROM recovery_codes`))[0]!.left,
  );

let secret: Buffer;
let recoveryCodes: string[];

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  cookie = await setUpOwner(t, EMAIL);
});
afterAll(() => t?.close());

test("the code maker here matches RFC 6238's test vector", () => {
  expect(totp(Buffer.from("12345678901234567890"), 59_000, 8)).toBe("94287082");
  expect(totp(Buffer.from("12345678901234567890"), 1_111_111_109_000, 8)).toBe("07081804");
});

describe("turning TOTP on", () => {
  test("needs the password, then a current code of the new secret; answers ten recovery codes once", async () => {
    expect((await asPerson(t, "POST", "/v1/me/totp", cookie, { body: { password: "not my password" } })).status).toBe(
      401,
    );
    const enrolled = await asPerson(t, "POST", "/v1/me/totp", cookie, { body: { password: PASSWORD } });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body.object).toBe("totp_enrolment");
    const url = new URL(enrolled.body.otpauth_url);
    expect(url.protocol).toBe("otpauth:");
    expect(url.host).toBe("totp");
    expect(url.searchParams.get("secret")).toBe(enrolled.body.secret);
    expect(url.searchParams.get("issuer")).toBe("Mailroom");
    expect(decodeURIComponent(url.pathname)).toContain(EMAIL);
    secret = base32Decode(enrolled.body.secret);
    expect(secret.length).toBe(20);

    // Pending only: sign-in does not ask for a code yet.
    expect((await signIn({})).status).toBe(200);
    const wrong = await asPerson(t, "POST", "/v1/me/totp/confirm", cookie, { body: { code: "000000" } });
    expect([wrong.status, wrong.body.name]).toEqual([400, "validation_error"]);
    const confirmed = await asPerson(t, "POST", "/v1/me/totp/confirm", cookie, {
      body: { code: totp(secret, clock.now()) },
    });
    expect(confirmed.status).toBe(200);
    recoveryCodes = confirmed.body.recovery_codes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await asPerson(t, "GET", "/v1/me", cookie)).body.user.totp_enabled).toBe(true);
    const again = await asPerson(t, "POST", "/v1/me/totp", cookie, { body: { password: PASSWORD } });
    expect([again.status, again.body.name]).toEqual([409, "conflict"]);
  });

  test("the store holds the secret sealed and the recovery codes as digests", async () => {
    const stored = JSON.stringify(
      await t.app.services.store.query(
        sql`SELECT u.totp_secret, r.code_hash FROM users u JOIN recovery_codes r ON r.user_id = u.id`,
      ),
    );
    expect(stored).toContain("v1:");
    expect(stored).not.toContain(base32(secret));
    for (const code of recoveryCodes) expect(stored).not.toContain(code.replace("-", ""));
  });
});

describe("signing in with TOTP on", () => {
  test("a password alone is answered with the field that is missing", async () => {
    quiet();
    const missing = await signIn({});
    expect(missing.status).toBe(401);
    expect(missing.body.details).toEqual([{ path: "totp", message: "required" }]);
    expect(missing.headers.get("set-cookie")).toBeNull();
  });

  test("a current code works once; the code before and after pass too; a wrong one is refused", async () => {
    clock.set(clock.now() + 60_000);
    const wrong = await signIn({ totp: totp(secret, clock.now() + 10 * 30_000) });
    expect([wrong.status, wrong.body.details[0].path]).toEqual([401, "totp"]);
    quiet();
    const code = totp(secret, clock.now());
    expect((await signIn({ totp: code })).status).toBe(200);
    const replayed = await signIn({ totp: code });
    expect(replayed.status).toBe(401);
    quiet();
    // The next step's code (a phone's clock a little ahead) works, and moves the last step on with it…
    expect((await signIn({ totp: totp(secret, clock.now() + 30_000) })).status).toBe(200);
    // …so that the current step's code, which comes before it, no longer does.
    expect((await signIn({ totp: totp(secret, clock.now()) })).status).toBe(401);
    quiet();
  });

  test("two sign-ins racing with one code: one session", async () => {
    clock.set(clock.now() + 90_000);
    const code = totp(secret, clock.now());
    const answers = await Promise.all([signIn({ totp: code }), signIn({ totp: code })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    quiet();
  });

  test("a recovery code works once, whatever its case or dashes", async () => {
    const [code] = recoveryCodes;
    expect((await signIn({ totp: ` ${code!.toUpperCase().replace("-", " ")} ` })).status).toBe(200);
    expect((await signIn({ totp: code })).status).toBe(401);
    quiet();
    expect(await recoveryCodesLeft()).toBe(9);
  });

  test("new recovery codes replace the old ones; they need the password", async () => {
    expect(
      (await asPerson(t, "POST", "/v1/me/totp/recovery-codes", cookie, { body: { password: "wrong" } })).status,
    ).toBe(401);
    quiet();
    const replaced = await asPerson(t, "POST", "/v1/me/totp/recovery-codes", cookie, { body: { password: PASSWORD } });
    expect(replaced.body.recovery_codes).toHaveLength(10);
    expect((await signIn({ totp: recoveryCodes[1] })).status).toBe(401);
    quiet();
    expect((await signIn({ totp: replaced.body.recovery_codes[0] })).status).toBe(200);
  });
});

describe("turning TOTP off", () => {
  test("needs the password; sign-in then asks for none; the audit log has each step, and no secret", async () => {
    expect((await asPerson(t, "POST", "/v1/me/totp/disable", cookie, { body: { password: "wrong" } })).status).toBe(
      401,
    );
    quiet();
    const off = await asPerson(t, "POST", "/v1/me/totp/disable", cookie, { body: { password: PASSWORD } });
    expect(off.body).toEqual({ object: "totp", enabled: false });
    expect((await signIn({})).status).toBe(200);
    expect(await recoveryCodesLeft()).toBe(0);

    const log = await asPerson(t, "GET", "/v1/audit-log?limit=100", cookie);
    const actions = log.body.data.map((event: { action: string }) => event.action);
    for (const action of ["user.totp_enabled", "user.recovery_codes_replaced", "user.totp_disabled"])
      expect(actions).toContain(action);
    expect(
      log.body.data.filter(
        (event: { action: string; changes: unknown }) =>
          event.action === "sign_in.failed" && JSON.stringify(event.changes) === '{"factor":"totp"}',
      ).length,
    ).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(log.body)).not.toContain(base32(secret));
  });
});

describe("changing the password", () => {
  test("needs the current one; every other session ends, this one stays; sign-in takes the new one", async () => {
    const other = (await signIn({})).headers.get("set-cookie")!.split(";")[0]!;
    const NEW = "a much longer new password";
    const wrong = await asPerson(t, "POST", "/v1/me/password", cookie, {
      body: { current_password: "not it at all", password: NEW },
    });
    expect([wrong.status, wrong.body.details]).toEqual([401, [{ path: "current_password", message: "not right" }]]);
    quiet();
    const short = await asPerson(t, "POST", "/v1/me/password", cookie, {
      body: { current_password: PASSWORD, password: "short" },
    });
    expect(short.body.name).toBe("validation_error");
    const changed = await asPerson(t, "POST", "/v1/me/password", cookie, {
      body: { current_password: PASSWORD, password: NEW },
    });
    expect(changed.body).toEqual({ object: "password", updated: true });
    expect((await asPerson(t, "GET", "/v1/me", cookie)).status).toBe(200);
    expect((await asPerson(t, "GET", "/v1/me", other)).status).toBe(401);
    expect((await signIn({})).status).toBe(401);
    quiet();
    expect((await signIn({ password: NEW })).status).toBe(200);
    const log = await asPerson(t, "GET", "/v1/audit-log?action=user.password_changed", cookie);
    expect(log.body.data).toHaveLength(1);
  });
});
