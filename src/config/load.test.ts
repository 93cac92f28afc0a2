import { describe, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { buildConfig, ConfigError, loadConfig, redactedConfig } from "./load.ts";

describe("configuration", () => {
  test("with nothing given, the defaults serve: ./data and the capture provider", () => {
    const config = buildConfig({}, {});
    expect(config.data_dir).toBe("./data");
    expect(config.delivery.default_provider).toBe("capture");
    expect(config.limits.key_requests_per_minute).toBe(100);
    expect(config.delivery.retry_schedule[0]).toBe(60_000);
  });

  test("the file is overridden by MAILROOM_<SECTION>_<KEY> variables", () => {
    const config = buildConfig(
      { data_dir: "/srv/mail", http: { port: 8080 }, delivery: { retry_schedule: ["30s", "2m"] } },
      {
        MAILROOM_HTTP_PORT: "0",
        MAILROOM_DATA_DIR: "/var/lib/mailroom",
        MAILROOM_DNS_SERVERS: "127.0.0.1:5353, 10.0.0.1",
      },
    );
    expect(config.http.port).toBe(0);
    expect(config.data_dir).toBe("/var/lib/mailroom");
    expect(config.delivery.retry_schedule).toEqual([30_000, 120_000]);
    expect(config.dns.servers).toEqual(["127.0.0.1:5353", "10.0.0.1"]);
  });

  test("the result is frozen", () => {
    const config = buildConfig({}, {});
    expect(Object.isFrozen(config.http)).toBe(true);
  });

  test.each([
    ["an unknown key", { http: { prot: 1 } }, {}, "unknown option http.prot"],
    ["an unknown section", { htp: { port: 1 } }, {}, "unknown section [htp]"],
    ["an unknown variable", {}, { MAILROOM_HTTP_PROT: "1" }, "unknown environment variable MAILROOM_HTTP_PROT"],
    ["a port out of range", { http: { port: 70000 } }, {}, "http.port: expected an integer from 0 to 65535"],
    ["a port that is not a number", {}, { MAILROOM_HTTP_PORT: "eighty" }, "http.port: expected an integer"],
    ["a bad enum", { smarthost: { security: "carrier-pigeon" } }, {}, "smarthost.security: expected one of"],
    [
      "an unknown default provider",
      { delivery: { default_provider: "relay" } },
      {},
      'delivery.default_provider: no provider named "relay" (known: capture, smtp, mx, ses)',
    ],
    [
      "a provider without a kind",
      { providers: { relay: { host: "smtp.example.com" } } },
      {},
      "providers.relay.kind: expected one of capture, smtp, mx, ses",
    ],
    [
      "a provider option its kind lacks",
      { providers: { relay: { kind: "smtp", region: "eu-west-1" } } },
      {},
      "unknown option providers.relay.region (kind smtp takes host",
    ],
    [
      "a provider option's bad value",
      { providers: { relay: { kind: "smtp", port: 0 } } },
      {},
      "providers.relay.port: expected an integer from 1 to 65535",
    ],
    [
      "a provider named like a built-in",
      { providers: { mx: { kind: "mx" } } },
      {},
      "[providers.mx]: mx is a built-in provider (configured in [mx])",
    ],
    [
      "a provider name with capitals",
      { providers: { Relay: { kind: "smtp" } } },
      {},
      "[providers.Relay]: expected a provider name",
    ],
    ["a bad duration", { delivery: { lease: "soon" } }, {}, "delivery.lease: expected a duration"],
    ["an empty retry table", { delivery: { retry_schedule: [] } }, {}, "delivery.retry_schedule"],
  ])("%s is one clear error naming it", (_name, file, env, message) => {
    expect(() => buildConfig(file as Record<string, unknown>, env as Record<string, string>)).toThrow(ConfigError);
    expect(() => buildConfig(file as Record<string, unknown>, env as Record<string, string>)).toThrow(message);
  });

  test("variables outside the configuration's sections are someone else's: MAILROOM_API_KEY and MAILROOM_WEBHOOK_SECRET are ignored", () => {
    const config = buildConfig(
      {},
      {
        MAILROOM_API_KEY: "mr_live_x",
        MAILROOM_WEBHOOK_SECRET: "whsec_x",
        MAILROOM_SECRET_KEY: "k",
        MAILROOM_HTTP_PORT: "8080",
      },
    );
    expect(config.http.port).toBe(8080);
  });

  test("a TOML syntax error names its file, line and column", async () => {
    const file = `${tmpdir()}/mailroom-bad-${process.pid}.toml`;
    await Bun.write(file, '[http]\nport = 3000\nhost = "unterminated\n');
    await expect(loadConfig({ file })).rejects.toThrow(`${file}:3:`);
  });

  test("print-config redacts secrets and shows durations as written", () => {
    const shown = redactedConfig(buildConfig({ smarthost: { password: "hunter2" } }, {})) as Record<
      string,
      Record<string, unknown>
    >;
    expect(shown.smarthost!.password).toBe("<redacted>");
    expect(shown.delivery!.lease).toBe("1m");
    expect(JSON.stringify(shown)).not.toContain("hunter2");
  });

  test("a [providers.<name>] table takes its kind's options over their defaults, and print-config redacts its secrets", () => {
    const config = buildConfig(
      {
        providers: { ses_eu: { kind: "ses", region: "eu-west-1", access_key_id: "AKIA", secret_access_key: "s3cret" } },
        delivery: { default_provider: "ses_eu" },
      },
      {},
    );
    expect(config.providers.ses_eu).toMatchObject({ kind: "ses", region: "eu-west-1", timeout: 30_000 });
    const shown = redactedConfig(config) as { providers: Record<string, Record<string, unknown>> };
    expect(shown.providers.ses_eu).toMatchObject({
      kind: "ses",
      region: "eu-west-1",
      secret_access_key: "<redacted>",
      timeout: "30s",
    });
    expect(JSON.stringify(shown)).not.toContain("s3cret");
  });
});

describe("the example configuration", () => {
  test("config/mailroom.example.toml documents every option as the schema has it (regenerate: bun src/config/example.ts)", async () => {
    const { renderExampleConfig } = await import("./example.ts");
    const onDisk = await Bun.file(new URL("../../config/mailroom.example.toml", import.meta.url)).text();
    expect(onDisk).toBe(renderExampleConfig());
  });

  test("the example, uncommented, loads to the defaults", async () => {
    const { renderExampleConfig } = await import("./example.ts");
    const { parse } = await import("smol-toml");
    const uncommented = renderExampleConfig()
      .split("\n")
      .map((line) => (/^# [a-z_]+ = /.test(line) ? line.slice(2) : line))
      .join("\n");
    expect(buildConfig(parse(uncommented) as Record<string, unknown>, {})).toEqual(buildConfig({}, {}));
  });
});
