/**
 * The rig of the Resend SDK tests against the built executable (docs/sending.md#resend-compatibility): a smarthost
 * double the mail is relayed to, a webhook receiver, a data directory made with `mailroom init`, the domains added
 * as verified, keys minted by the CLI, and `mailroom serve` from dist/ — with the official SDK pointed at it as a
 * user switching base URLs would. Invariant: on the PostgreSQL run the executable stores in a schema of its own, so
 * every SDK test runs on the engine the suite names; `close` leaves no process, socket or directory behind.
 */
import { expect } from "bun:test";
import { rmSync } from "node:fs";
import { Resend } from "resend";
import { tempDir, testStoreUrl } from "./app.ts";
import { cliKey, runCli, smarthostEnv, startMailroom, type MailroomProcess } from "./process.ts";
import { startSmtpDouble, type SmtpDouble } from "./smtp-double.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.ts";

export interface ResendRig {
  server: MailroomProcess;
  smtp: SmtpDouble;
  hooks: WebhookReceiver;
  /** The full_access key's token, and the SDK holding it. */
  token: string;
  resend: Resend;
  /** The SDK for another key the CLI minted (`keys`). */
  clients: Record<string, Resend>;
  close(): Promise<void>;
}

/**
 * Starts the rig: `env` adds to the smarthost environment (request limits are lifted, so a test's many calls are not
 * rate-limited); `domains` are added verified; `keys` are further keys, name → the CLI's scope arguments.
 */
export async function startResendRig(
  name: string,
  options: { env?: Record<string, string>; domains?: string[]; keys?: Record<string, string[]> } = {},
): Promise<ResendRig> {
  const dataDir = tempDir(`mailroom-${name}-`);
  const smtp = await startSmtpDouble();
  const hooks = await startWebhookReceiver();
  const store = testStoreUrl();
  const env = smarthostEnv(dataDir, smtp.port, {
    MAILROOM_LIMITS_KEY_REQUESTS_PER_MINUTE: "100000",
    MAILROOM_LIMITS_ORG_REQUESTS_PER_MINUTE: "100000",
    ...(store ? { MAILROOM_STORE_URL: store } : {}),
    ...options.env,
  });
  await runCli(["init"], env, true);
  for (const domain of options.domains ?? []) await runCli(["domains", "add", domain, "--verified"], env, true);
  const token = await cliKey(env, name);
  const tokens: Record<string, string> = {};
  for (const [key, args] of Object.entries(options.keys ?? {})) tokens[key] = await cliKey(env, key, ...args);
  const server = await startMailroom(env, { binary: true });
  const sdk = (key: string) => new Resend(key, { baseUrl: `${server.baseUrl}/v1` });
  return {
    server,
    smtp,
    hooks,
    token,
    resend: sdk(token),
    clients: Object.fromEntries(Object.entries(tokens).map(([key, value]) => [key, sdk(value)])),
    async close() {
      server.proc.kill("SIGKILL");
      await server.exited;
      await smtp.close();
      await hooks.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The SDK answers `{data, error}`; an error fails the test with the server's words. */
export function ok<T>(answer: { data: T | null; error: unknown }): T {
  expect(answer.error).toBeNull();
  return answer.data as T;
}

/** Reads until `done` says so or the time is up; the last value read either way (the test's expect then says why). */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await Bun.sleep(everyMs);
  }
}

/** What toMatchObject inspects: bun's asymmetric matchers can write themselves into the object they matched. */
export const copy = <T>(value: T): T => structuredClone(value);

/** An id as the API writes them (UUIDs), for toMatchObject. */
export const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);
