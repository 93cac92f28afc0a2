/**
 * People in API tests: sign in as a browser does (the session cookie, this origin, no key), and the first owner made
 * through the setup link.
 */
import { expect } from "bun:test";
import type { TestApp } from "./app.ts";

export const ORIGIN = "http://localhost";
export const PASSWORD = "correct horse battery staple";

/** A request as a browser signed in with `cookie` sends it: same origin (unless `origin` says otherwise), no key. */
export async function asPerson(
  t: TestApp,
  method: string,
  path: string,
  cookie: string,
  options: { body?: unknown; origin?: string | null; organization?: string; userAgent?: string } = {},
) {
  const headers: Record<string, string> = { cookie };
  if (options.origin !== null) headers.origin = options.origin ?? ORIGIN;
  if (options.organization) headers["mailroom-organization"] = options.organization;
  if (options.userAgent) headers["user-agent"] = options.userAgent;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const response = await t.app.http.handle(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
  );
  const text = await response.text();
  const json = response.headers.get("content-type")?.includes("json");
  return { status: response.status, body: text && json ? JSON.parse(text) : text, headers: response.headers };
}

/** The `name=value` of a response's session cookie. */
export const cookieOf = (headers: Headers) => headers.get("set-cookie")!.split(";")[0]!;

/** Signs in over the API; answers the cookie to send back. */
export async function signIn(t: TestApp, email: string, password = PASSWORD) {
  const response = await t.json("POST", "/v1/session", { body: { email, password }, key: null });
  expect(response.status).toBe(200);
  return cookieOf(response.headers);
}

/** The first person, made with the setup link: owner of the first organisation; answers their cookie. */
export async function setUpOwner(t: TestApp, email = "owner@example.com") {
  const token = (await t.app.services.people.setupLink())!;
  const done = await t.json("POST", "/v1/setup", {
    body: { token, email, name: "Owner", password: PASSWORD },
    key: null,
  });
  expect(done.status).toBe(200);
  return cookieOf(done.headers);
}

/** The MIME of a password link Mailroom mailed to `email`, read where the capture provider keeps the sent message. */
export async function mailedPasswordMessage(t: TestApp, email: string): Promise<string> {
  const { sql } = await import("drizzle-orm");
  for (let tries = 0; tries < 100; tries++) {
    const rows = await t.app.services.store.query<{ raw: unknown }>(
      sql`SELECT c.raw FROM email_contents c JOIN emails e ON e.id = c.email_id WHERE e.subject = 'Set a new Mailroom password' ORDER BY e.created_at DESC`,
    );
    const mime = rows
      .map((row) => Buffer.from(row.raw as Uint8Array).toString("utf8"))
      .find((text) => text.includes("/password#") && text.includes(`To: ${email}`));
    if (mime) return mime;
    await Bun.sleep(50);
  }
  throw new Error(`no password link was mailed to ${email}`);
}

/**
 * The token of a password link Mailroom mailed to `email`, asked for as "Forgot your password?" does. The app needs
 * `[http] public_url` and a verified domain of the person's.
 */
export async function mailedPasswordToken(t: TestApp, email: string): Promise<string> {
  const asked = await t.json("POST", "/v1/password/reset", { body: { email }, key: null });
  expect(asked.status).toBe(200);
  return /\/password#([\w-]{43})/.exec(await mailedPasswordMessage(t, email))![1]!;
}
