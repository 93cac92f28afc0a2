/**
 * The HTTP API tests' app (test/http-api*.test.ts): requests through `app.handle` on a real temporary store, with
 * example.com verified and limits small enough to reach (a 200 000-byte request, a 100 000-byte message); and the
 * message they send.
 */
import { createTestApp, type TestApp } from "./app.ts";
import { setUpFixture } from "./fixture.ts";

/** The app for the file's tests: created before them, closed after; `bind` takes it. */
export function setUpApiTestApp(bind: (t: TestApp) => void): void {
  setUpFixture({ start: createApiTestApp, stop: (t) => t.close(), bind });
}

async function createApiTestApp(): Promise<TestApp> {
  const t = await createTestApp({ http: { max_body_bytes: 200_000 }, limits: { max_message_bytes: 100_000 } });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  return t;
}

/** A valid send body from example.com, with `over`'s fields on top. */
export const message = (over: Record<string, unknown> = {}) => ({
  from: "Acme <hi@example.com>",
  to: ["a@x.org"],
  subject: "Hello",
  html: "<p>Hi</p>",
  ...over,
});
