/**
 * A Mailroom app on a temporary data directory for tests: real services on a real store, HTTP through
 * `app.handle` (no socket) unless `start()` is called. Always call `close()` (afterEach/afterAll).
 *
 * The store is a SQLite file in the data directory, or with MAILROOM_TEST_STORE=postgres a fresh schema of the
 * PostgreSQL at MAILROOM_TEST_PG_URL (scripts/test-postgres.sh starts one): the whole suite runs on either.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, type App, type AppOptions } from "../../src/server/app.ts";
import { buildConfig } from "../../src/config/load.ts";
import type { Config } from "../../src/config/options.ts";
import { operatorActor, type Actor } from "../../src/access.ts";
import { silentLogger } from "../../src/lib/logger.ts";
import { freshStoreUrl } from "./postgres.ts";

export interface TestApp {
  app: App;
  config: Config;
  dataDir: string;
  organizationId: string;
  /** The operator of the organisation (every scope, no key), for calling services directly. */
  operator: Actor;
  /** A live key with full_access. */
  liveKey: string;
  /** A test-mode key with full_access. */
  testKey: string;
  request(
    method: string,
    path: string,
    options?: { body?: unknown; key?: string | null; headers?: Record<string, string> },
  ): Promise<Response>;
  json<T = any>(
    method: string,
    path: string,
    options?: { body?: unknown; key?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; body: T; headers: Headers }>;
  close(): Promise<void>;
}

export function tempDir(prefix = "mailroom-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Config for tests: temp data dir, ephemeral ports, loopback only, fast polling; `overrides` as section → key → value. */
export function testConfig(dataDir: string, overrides: Record<string, Record<string, unknown>> = {}): Config {
  const base: Record<string, Record<string, unknown>> = {
    "": { data_dir: dataDir },
    http: { host: "127.0.0.1", port: 0 },
    delivery: { poll_interval: "200ms" },
    dns: { servers: ["127.0.0.1:1"] },
    smtp: { submission_port: 0, smtps_port: 0 },
    inbound: { port: 0 },
    store: { url: testStoreUrl() },
  };
  for (const [section, values] of Object.entries(overrides)) base[section] = { ...base[section], ...values };
  return buildConfig({}, {}, base);
}

/** Empty (SQLite) unless the suite runs on PostgreSQL: then a schema of its own for every store a test opens. */
export function testStoreUrl(): string {
  if (process.env.MAILROOM_TEST_STORE !== "postgres") return "";
  return freshStoreUrl("t");
}

export async function createTestApp(
  overrides: Record<string, Record<string, unknown>> = {},
  options: AppOptions = {},
): Promise<TestApp> {
  const dataDir = tempDir();
  const config = testConfig(dataDir, overrides);
  const app = await createApp(config, { logger: silentLogger, ...options });
  const org = await app.services.organizations.ensureDefault();
  const live = await app.services.keys.create(operatorActor(org.id), {
    name: "live",
    scopes: ["full_access"],
    mode: "live",
  });
  const test = await app.services.keys.create(operatorActor(org.id), {
    name: "test",
    scopes: ["full_access"],
    mode: "test",
  });

  const request: TestApp["request"] = (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? live.key : options.key;
    if (key) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    return app.http.handle(new Request(`http://localhost${path}`, { method, headers, body }));
  };

  let closed = false;
  return {
    app,
    config,
    dataDir,
    organizationId: org.id,
    operator: operatorActor(org.id),
    liveKey: live.key,
    testKey: test.key,
    request,
    async json(method, path, options) {
      const response = await request(method, path, options);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
    },
    async close() {
      if (closed) return;
      closed = true;
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
