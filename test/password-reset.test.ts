/**
 * A password link by email (issue 29, docs/teams.md) on the suite's engine: asked for on the sign-in screen's route,
 * sent through Mailroom itself from an organisation of the person's with a verified domain, read from the message
 * the provider took, and used. The answer never tells whether an account exists; a person gets one link every five
 * minutes (asking again after using one sends another); no member reads the link — the record keeps no text, the raw MIME answers 410, the message is not
 * tracked — and nothing is sent, or kept, for someone whose organisations cannot send.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { asPerson, ORIGIN, PASSWORD, setUpOwner, signIn } from "./helpers/people.ts";

const NEW_PASSWORD = "a new password from the email";
let t: TestApp;
let ownerCookie: string;

beforeAll(async () => {
  t = await createTestApp({ http: { public_url: ORIGIN } });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  ownerCookie = await setUpOwner(t);
});
afterAll(() => t?.close());

const ask = (email: string) => t.json("POST", "/v1/password/reset", { body: { email }, key: null });

/** The password messages, from the store: system mail is in no list of the organisation's (docs/teams.md#system-mail). */
const resetMessages = () =>
  t.app.services.store.query<{ id: string; system_mail: string | null }>(
    sql`SELECT id, system_mail FROM emails WHERE subject = 'Set a new Mailroom password' ORDER BY id`,
  );

async function waitForMessages(count: number) {
  for (let tries = 0; tries < 100; tries++) {
    const found = await resetMessages();
    if (found.length >= count) return found;
    await Bun.sleep(50);
  }
  throw new Error(`no ${count} password messages`);
}

const linkCount = async () =>
  Number((await t.app.services.store.query<{ n: number }>(sql`SELECT count(*) AS n FROM one_time_links`))[0]!.n);

describe("a password link by email", () => {
  test("arrives from the organisation's verified domain, hidden from every reader, and sets the password once", async () => {
    const answer = await ask("Owner@Example.com");
    expect(answer.status).toBe(200);
    expect(answer.body.object).toBe("password_reset");
    // However often it is asked for, at once or not, one link every five minutes: asking cannot fill a mailbox.
    await Promise.all(Array.from({ length: 5 }, () => ask("owner@example.com")));
    await ask("owner@example.com");
    const [found] = await waitForMessages(1);
    await Bun.sleep(300);
    expect(await resetMessages()).toHaveLength(1);
    expect(found!.system_mail).toBe("password_link");

    // The owner, an instance admin, looks the message up, and reads none of it.
    const record = await asPerson(t, "GET", `/v1/emails/${found!.id}`, ownerCookie);
    const message = record.body;
    expect(message).toMatchObject({ from: "Mailroom <no-reply@example.com>", to: ["owner@example.com"], tags: [] });
    expect([record.body.html, record.body.text]).toEqual([null, null]);
    const raw = await asPerson(t, "GET", `/v1/emails/${message.id}/raw`, ownerCookie);
    expect([raw.status, raw.body.name]).toEqual([410, "gone"]);

    // The person reads it where the provider took it: here, the stored MIME the capture provider keeps.
    const [stored] = await t.app.services.store.query<{ raw: unknown }>(
      sql`SELECT raw FROM email_contents WHERE email_id = ${message.id}`,
    );
    const mime = Buffer.from(stored!.raw as Uint8Array).toString("utf8");
    const token = /\/password#([\w-]{43})/.exec(mime)?.[1];
    expect(token).toBeDefined();
    expect(mime).toContain("for 60 minutes");
    const events = await t.app.services.store.query(sql`SELECT data FROM events WHERE email_id = ${message.id}`);
    expect(JSON.stringify(events)).not.toContain(token!);

    expect((await t.json("POST", "/v1/password", { body: { token, password: NEW_PASSWORD }, key: null })).status).toBe(
      200,
    );
    expect((await t.json("POST", "/v1/password", { body: { token, password: NEW_PASSWORD }, key: null })).status).toBe(
      401,
    );
    const log = await asPerson(
      t,
      "GET",
      "/v1/audit-log?action=user.password_link_emailed",
      await signIn(t, "owner@example.com", NEW_PASSWORD),
    );
    expect(log.body.data).toHaveLength(1);
  });

  test("the same answer for an address with no account, and nothing sent or kept", async () => {
    const before = await linkCount();
    const unknown = await ask("nobody@example.com");
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual((await ask("owner@example.com")).body);
    await waitForMessages(2);
    expect(await linkCount()).toBe(before + 1);
    const malformed = await ask("not an address");
    expect([malformed.status, malformed.body.name]).toEqual([400, "validation_error"]);
  });

  test("nothing for someone whose organisations have no verified domain: no message, no link left", async () => {
    const owner = await t.app.services.people.authenticateSession(
      (
        await t.app.services.people.signIn(
          { email: "owner@example.com", password: NEW_PASSWORD },
          { ip: null, userAgent: null },
        )
      ).token,
    );
    const other = await t.app.services.people.createOrganization(owner, "No domain yet");
    const made = await t.app.services.people.createUser({
      email: "lonely@example.com",
      organizationId: other.id,
      role: "developer",
    });
    await t.app.services.people.setPassword({ token: made.token, password: PASSWORD });
    const before = await linkCount();
    await ask("lonely@example.com");
    await Bun.sleep(300);
    expect(await linkCount()).toBe(before);
    expect(await resetMessages()).toHaveLength(2);
  });
});
