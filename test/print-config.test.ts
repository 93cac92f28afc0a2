/**
 * `mailroom print-config` through the CLI: the effective configuration with secrets redacted, and the URL options
 * (`store.url`, `ai.base_url`, `ses.endpoint`, `http.public_url`) shown with only the credentials inside them
 * redacted, so an operator can still see which servers they point at.
 */
import { expect, test } from "bun:test";
import { tempDir } from "./helpers/app.ts";
import { runCli } from "./helpers/process.ts";

test("print-config redacts credentials inside URLs and keeps the rest of each URL", async () => {
  const secrets = ["db-s3cret", "ssl-key-pass", "proxy-pw", "sk-live-123", "sk-api-key", "AKIATOKEN"];
  const shown = await runCli(["print-config"], {
    MAILROOM_DATA_DIR: tempDir(),
    MAILROOM_STORE_URL:
      "postgres://mailroom:db-s3cret@db.internal:5432/mailroom?sslmode=require&sslpassword=ssl-key-pass",
    MAILROOM_AI_BASE_URL: "https://proxy:proxy-pw@llm.example.com/v1?api_key=sk-live-123&region=eu",
    MAILROOM_AI_API_KEY: "sk-api-key",
    MAILROOM_SES_ENDPOINT: "https://AKIATOKEN@vpce.example.com",
  });
  expect(shown).toContain('url = "postgres://mailroom:***@db.internal:5432/mailroom?sslmode=require&sslpassword=***"');
  expect(shown).toContain('base_url = "https://proxy:***@llm.example.com/v1?api_key=***&region=eu"');
  expect(shown).toContain('api_key = "<redacted>"');
  expect(shown).toContain('endpoint = "https://***@vpce.example.com/"');
  for (const secret of secrets) expect(shown).not.toContain(secret);
});
