/**
 * The CLI's people and queue commands as an operator reads them (issue 49 items 7 and 10, docs/security.md#links):
 * `users create` and `users reset-password` print the link at the server's public address and say which setting
 * it came from — the CLI's shell may carry another MAILROOM_HTTP_PORT than the server's — `users list` says when
 * there is nobody, and a bulk `queue cancel` without a filter names the flags, not the API's fields.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { cleanEnv, mailroomCommand, runCli, runCommand } from "./helpers/process.ts";

let t: TestApp;
let env: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  env = {
    MAILROOM_DATA_DIR: t.dataDir,
    ...(t.config.store.url && { MAILROOM_STORE_URL: t.config.store.url }),
    MAILROOM_HTTP_PORT: "9099",
  };
});
afterAll(() => t?.close());

const linkLines = (printed: string) => printed.trimEnd().split("\n").slice(-2);

test("`users list` with nobody yet says so and how the first person is made", async () => {
  expect(await runCli(["users", "list"], env)).toBe(
    "No users yet: the first signs up with the setup link `mailroom serve` prints at its start, or is made with: mailroom users create --email E --org ORG_ID --role owner\n",
  );
}, 30_000);

test("`users create` prints the link at [http] public_url, names the organisation and says where the address came from", async () => {
  const printed = await runCli(
    ["users", "create", "--email", "dev@example.com", "--org", t.organizationId, "--role", "developer"],
    { ...env, MAILROOM_HTTP_PUBLIC_URL: "https://mail.example.com/" },
  );
  const organization = (await t.json("GET", "/v1/organization")).body.name;
  expect(printed.split("\n")[0]).toBe(
    `dev@example.com is developer of ${organization} (${t.organizationId}). They set their password with this link, within a day:`,
  );
  const [link, source] = linkLines(printed);
  expect(link).toMatch(/^ {2}https:\/\/mail\.example\.com\/password#[\w-]{43}$/);
  expect(source).toBe("  (this server's address from [http] public_url)");
}, 30_000);

test("with [server] hostname only, the link is https://<hostname>, said so", async () => {
  const printed = await runCli(["users", "reset-password", "dev@example.com"], {
    ...env,
    MAILROOM_SERVER_HOSTNAME: "mx.example.com",
  });
  const [link, source] = linkLines(printed);
  expect(link).toMatch(/^ {2}https:\/\/mx\.example\.com\/password#[\w-]{43}$/);
  expect(source).toBe("  (this server's address from [server] hostname, as https://<hostname>)");
}, 30_000);

test("with neither, the CLI's own port is printed as the guess it is, with the setting to fix it", async () => {
  const printed = await runCli(["users", "reset-password", "dev@example.com"], env);
  const [link, source] = linkLines(printed);
  expect(link).toMatch(/^ {2}http:\/\/127\.0\.0\.1:9099\/password#[\w-]{43}$/);
  expect(source).toContain("a guess from this command's own [http] host and port");
  expect(source).toContain("set [http] public_url");
  // The list shows the person made above.
  expect(await runCli(["users", "list"], env)).toContain("dev@example.com");
}, 30_000);

test("`queue cancel` with no id nor filter names its flags, --email among them, and exits 2", async () => {
  const { stdout, stderr, code } = await runCommand([...mailroomCommand(false), "queue", "cancel"], {
    env: { ...cleanEnv(), ...env },
  });
  expect([code, stdout]).toEqual([2, ""]);
  expect(stderr.trimEnd().split("\n").at(-1)).toBe(
    "mailroom: queue cancel needs a delivery id, or at least one of --status, --domain, --provider, --email (an email id): a bulk action needs a filter",
  );
  expect(stderr).not.toContain("email_id");
}, 30_000);
