import { describe, expect, test } from "bun:test";
import { redactUrlCredentials } from "./url-credentials.ts";

describe("redactUrlCredentials", () => {
  test.each([
    [
      "a database URL's password",
      "postgres://mailroom:s3cret@db.internal:5432/mailroom",
      "postgres://mailroom:***@db.internal:5432/mailroom",
    ],
    [
      "a percent-encoded password, on an IPv6 host",
      "postgresql://u:p%40ss@[::1]:5432/d",
      "postgresql://u:***@[::1]:5432/d",
    ],
    [
      "a password in the query, other parameters kept",
      "postgres://mailroom@db/m?sslmode=require&password=hunter2",
      "postgres://mailroom@db/m?sslmode=require&password=***",
    ],
    [
      "API keys, tokens and signatures in the query",
      "https://llm.example/v1?api_key=sk-1&x=1&access_token=t&X-Amz-Signature=s",
      "https://llm.example/v1?api_key=***&x=1&access_token=***&X-Amz-Signature=***",
    ],
    [
      "a bare user name over http, which is a token",
      "https://sk-live-123@api.example.com/v1",
      "https://***@api.example.com/v1",
    ],
    ["a database role without a password, kept", "postgres://mailroom@db/m", "postgres://mailroom@db/m"],
    [
      "a URL without credentials, as written",
      "https://email.eu-west-1.amazonaws.com",
      "https://email.eu-west-1.amazonaws.com",
    ],
    ["empty", "", ""],
    ["a sealed value, which is not a URL", "sealed:v1:AbCd", "<redacted>"],
    ["credentials without a scheme, which would parse as one", "mailroom:s3cret@db.internal/m", "<redacted>"],
  ])("%s", (_what, raw, shown) => {
    expect(redactUrlCredentials(raw)).toBe(shown);
  });
});
