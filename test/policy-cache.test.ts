/**
 * What every send reads — the key, the From domain, suppressions, webhook endpoints — is kept in memory
 * (db/read-cache.ts), and a change must still take effect at once: on SQLite in the process that made it, on
 * PostgreSQL on every instance sharing the store (LISTEN), and within a second even where no notification reaches
 * (the CLI's own process on SQLite).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createApp } from "../src/server/app.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { createTestApp, tempDir, testConfig, type TestApp } from "./helpers/app.ts";
import { freshStoreUrl, postgresPeer } from "./helpers/postgres.ts";

const pg = postgresPeer();
const opened: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const app of opened.reverse()) await app.close();
});

const send = (t: Pick<TestApp, "json">, key: string, to = "someone@dest.test") =>
  t.json("POST", "/v1/emails", {
    key,
    body: { from: "Sender <sender@example.com>", to: [to], subject: "Cached policy", text: "hello" },
  });

/** A sending domain of the organisation, verified by the operator. */
const verifiedDomain = async (t: TestApp) =>
  (await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true })).id;

describe("policy reads are cached, and a change takes effect at once", () => {
  test("one instance: a revoked key, a removed domain, a new suppression act on the very next request", async () => {
    const t = await createTestApp();
    opened.push(t);
    const domainId = await verifiedDomain(t);
    const created = await t.json("POST", "/v1/api-keys", { body: { name: "short-lived" } });
    const key = created.body.token as string;
    expect((await send(t, key)).status).toBe(200);
    expect((await send(t, key)).status).toBe(200);

    expect((await t.json("POST", "/v1/suppressions", { body: { email: "someone@dest.test" } })).status).toBe(200);
    expect((await send(t, key)).body).toMatchObject({ name: "domain_not_verified" });

    expect((await t.json("DELETE", `/v1/api-keys/${created.body.id}`)).status).toBe(200);
    expect((await send(t, key, "other@dest.test")).status).toBe(401);

    expect((await send(t, t.liveKey, "other@dest.test")).status).toBe(200);
    expect((await t.json("DELETE", `/v1/domains/${domainId}?force=true`)).status).toBe(200);
    expect((await send(t, t.liveKey, "other@dest.test")).body).toMatchObject({ name: "domain_not_verified" });
  });

  test.skipIf(!pg.available)(
    "two instances on one PostgreSQL: a key revoked on one is refused by the other within a second",
    async () => {
      const url = freshStoreUrl("policy");
      const a = await createTestApp({ store: { url } });
      opened.push(a);
      const dataDir = tempDir();
      const other = await createApp(testConfig(dataDir, { store: { url } }), { logger: silentLogger });
      opened.push({ close: () => other.stop() });
      const b: Pick<TestApp, "json"> = {
        async json(method, path, options = {}) {
          const headers: Record<string, string> = { "content-type": "application/json" };
          if (options.key) headers.authorization = `Bearer ${options.key}`;
          const response = await other.http.handle(
            new Request(`http://localhost${path}`, { method, headers, body: JSON.stringify(options.body) }),
          );
          const text = await response.text();
          return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
        },
      };
      await verifiedDomain(a);
      const key = (await a.json("POST", "/v1/api-keys", { body: { name: "shared" } })).body;
      expect((await send(b, key.token)).status).toBe(200);
      expect((await send(b, key.token)).status).toBe(200);

      expect((await a.json("DELETE", `/v1/api-keys/${key.id}`)).status).toBe(200);
      const revokedAt = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - revokedAt < 1_000) status = (await send(b, key.token)).status;
      expect(status).toBe(401);
    },
  );
});
