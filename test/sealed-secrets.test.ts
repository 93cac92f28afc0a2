/**
 * Provider credentials sealed at rest in the configuration: `mailroom secrets seal` seals what it reads on stdin
 * under the master key; a smarthost whose password is configured sealed authenticates with the plaintext; a sealed
 * value under another master key is an error at start naming the option.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { buildConfig } from "../src/config/load.ts";
import { unsealConfig } from "../src/config/sealed.ts";
import { ConfigError } from "../src/lib/config-error.ts";
import { createSecretBox } from "../src/lib/secrets.ts";
import { createTestApp, tempDir } from "./helpers/app.ts";
import { mailroomCommand } from "./helpers/process.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

const MASTER_KEY = randomBytes(32).toString("base64");
const PASSWORD = "correct horse battery staple";
let smarthost: SmtpDouble;
const logins: Array<{ username: string; password: string }> = [];

beforeAll(async () => {
  smarthost = await startSmtpDouble({
    authOptional: false,
    authMethods: ["PLAIN"],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username!, password: auth.password! });
      if (auth.password !== PASSWORD) return callback(new Error("Invalid credentials"));
      callback(null, { user: auth.username });
    },
  });
});

afterAll(async () => {
  await smarthost.close();
});

async function sealWithCli(secret: string): Promise<string> {
  const proc = Bun.spawn([...mailroomCommand(false), "secrets", "seal"], {
    env: { PATH: process.env.PATH!, MAILROOM_SECRET_KEY: MASTER_KEY, MAILROOM_DATA_DIR: tempDir() },
    stdin: new Blob([`${secret}\n`]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  return out.trim();
}

test("a smarthost password sealed by the CLI is opened at start and authenticates; the plaintext is nowhere in the config", async () => {
  const sealed = await sealWithCli(PASSWORD);
  expect(sealed).toMatch(/^sealed:v1:[A-Za-z0-9+/=]+$/);
  expect(sealed).not.toContain(PASSWORD);
  const t = await createTestApp(
    {
      providers: {
        relay: {
          kind: "smtp",
          host: "127.0.0.1",
          port: smarthost.port,
          security: "none",
          username: "mailroom",
          password: sealed,
        },
      },
      delivery: { default_provider: "relay" },
    },
    { secretKey: MASTER_KEY },
  );
  try {
    await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
    const res = await t.json("POST", "/v1/emails", {
      body: { from: "hi@example.com", to: "a@dest.test", subject: "Hi", html: "<p>Hi</p>" },
    });
    await t.app.services.worker.runOnce();
    expect((await t.json("GET", `/v1/emails/${res.body.id}`)).body.recipients[0].status).toBe("sent");
    expect(logins.at(-1)).toEqual({ username: "mailroom", password: PASSWORD });
  } finally {
    await t.close();
  }
});

test("a sealed value that does not open with the master key is an error naming its option", () => {
  const sealedElsewhere = `sealed:${createSecretBox(randomBytes(32)).seal("s3cret")}`;
  const config = buildConfig(
    {
      providers: {
        ses_eu: { kind: "ses", region: "eu-west-1", access_key_id: "AKID", secret_access_key: sealedElsewhere },
      },
    },
    {},
  );
  const box = createSecretBox(Buffer.from(MASTER_KEY, "base64"));
  expect(() => unsealConfig(config, box)).toThrow(ConfigError);
  expect(() => unsealConfig(config, box)).toThrow("providers.ses_eu.secret_access_key: the sealed value does not open");
});

test("only secret options are unsealed, and a config without sealed values is returned as is", () => {
  const box = createSecretBox(Buffer.from(MASTER_KEY, "base64"));
  const plain = buildConfig({ smarthost: { password: "plain" } }, {});
  expect(unsealConfig(plain, box)).toBe(plain);
  const sealed = buildConfig(
    { smarthost: { password: `sealed:${box.seal("pw")}`, username: `sealed:${box.seal("user")}` } },
    {},
  );
  const opened = unsealConfig(sealed, box);
  expect(opened.smarthost.password).toBe("pw");
  expect(opened.smarthost.username).toStartWith("sealed:");
});
