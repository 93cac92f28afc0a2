/**
 * The production kit in deploy/ (issue 48, docs/operations.md#production) passes its own tools' checks and names
 * only what exists: the alert rules pass `promtool check rules` and their unit tests (`promtool test rules`); the
 * systemd unit passes `systemd-analyze verify` with the hardening it promises; compose.yaml (no docker here: read
 * as YAML) runs Mailroom from the Dockerfile after a healthy PostgreSQL with a volume, rspamd under a profile, and
 * sets only configuration options that exist; the example configuration loads; and every metric the alert rules
 * and the Grafana dashboard query is on the /metrics of a live server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildConfig, envName } from "../src/config/load.ts";
import { CONFIG_OPTIONS } from "../src/config/options.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { peer, runs } from "./helpers/peers.ts";

const ROOT = join(import.meta.dir, "..");
const DEPLOY = join(ROOT, "deploy");
const RULES = join(DEPLOY, "prometheus", "mailroom-alerts.yml");
const DASHBOARD = join(DEPLOY, "grafana", "mailroom-dashboard.json");
const UNIT = join(DEPLOY, "systemd", "mailroom.service");
const read = (path: string) => readFileSync(path, "utf8");

const promtool = peer("promtool", () => runs("promtool", ["--version"]), "apt-get install prometheus");
const systemd = peer("systemd-analyze", () => runs("systemd-analyze", ["--version"]), "apt-get install systemd");

const run = (cmd: string[], cwd?: string) => {
  const result = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  return { code: result.exitCode, out: result.stdout.toString(), err: result.stderr.toString() };
};

/** The series names a PromQL expression reads: Mailroom's, and `up`, which Prometheus itself records per scrape. */
const seriesIn = (expr: string) =>
  [...expr.matchAll(/\b(mailroom_[a-z0-9_]+|up)\b(?=\s*[{[),\s=<>!/*+-]|$)/g)].map((m) => m[1]!);

describe("Prometheus alert rules", () => {
  test.skipIf(!promtool.available)("pass promtool check rules", () => {
    const checked = run(["promtool", "check", "rules", RULES]);
    expect(checked.code, checked.err + checked.out).toBe(0);
    expect(checked.out).toContain("SUCCESS");
  });

  test.skipIf(!promtool.available)("fire as their unit tests expect (promtool test rules)", () => {
    const tested = run(["promtool", "test", "rules", "mailroom-alerts.test.yml"], join(DEPLOY, "prometheus"));
    expect(tested.code, tested.err + tested.out).toBe(0);
  });

  test("cover queue age, failure rate, guardrail pauses, blocklists, webhook backlog, disk and storage quota", () => {
    const rules = (Bun.YAML.parse(read(RULES)) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> })
      .groups[0]!.rules;
    const reads = (name: string) => rules.some((rule) => seriesIn(rule.expr).includes(name));
    for (const name of [
      "mailroom_queue_oldest_due_age_seconds",
      "mailroom_deliveries_total",
      "mailroom_sending_health",
      "mailroom_blocklisted",
      "mailroom_webhook_outbox_oldest_due_age_seconds",
      "mailroom_data_dir_free_bytes",
      "mailroom_inbound_max_stored_bytes",
    ])
      expect(reads(name), name).toBe(true);
  });
});

describe("the systemd unit", () => {
  test.skipIf(!systemd.available)("passes systemd-analyze verify, and its exposure is low", () => {
    // verify needs ExecStart's program to exist: here, any executable (the unit names /usr/local/bin/mailroom).
    const dir = mkdtempSync(join(tmpdir(), "mailroom-unit-"));
    const unit = join(dir, "mailroom.service");
    writeFileSync(unit, read(UNIT).replace("ExecStart=/usr/local/bin/mailroom", `ExecStart=${process.execPath}`));
    const verified = run(["systemd-analyze", "verify", unit]);
    // Unknown or misspelt settings are only warnings: any output at all is a failure here.
    expect([verified.code, verified.err.trim(), verified.out.trim()]).toEqual([0, "", ""]);
    const security = run(["systemd-analyze", "security", "--offline=yes", unit]);
    const exposure = Number(/Overall exposure level for mailroom\.service: ([\d.]+)/.exec(security.out)?.[1]);
    expect(exposure).toBeLessThanOrEqual(2.5);
  });

  test("runs unprivileged with its own state directory, binds the mail ports and restarts on failure", () => {
    const unit = read(UNIT);
    for (const line of [
      "DynamicUser=yes",
      "StateDirectory=mailroom",
      "ProtectSystem=strict",
      "NoNewPrivileges=yes",
      "AmbientCapabilities=CAP_NET_BIND_SERVICE",
      "CapabilityBoundingSet=CAP_NET_BIND_SERVICE",
      "Restart=on-failure",
      "Environment=MAILROOM_DATA_DIR=/var/lib/mailroom",
    ])
      expect(unit.split("\n")).toContain(line);
  });
});

describe("compose.yaml", () => {
  const compose = Bun.YAML.parse(read(join(DEPLOY, "compose.yaml"))) as any;

  test("Mailroom from the Dockerfile, waiting for a healthy PostgreSQL that keeps its data on a volume", () => {
    const { postgres, mailroom } = compose.services;
    expect(existsSync(join(DEPLOY, mailroom.build.context, mailroom.build.dockerfile))).toBe(true);
    expect(mailroom.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    expect(postgres.healthcheck.test.join(" ")).toContain("pg_isready");
    const volume = postgres.volumes[0].split(":");
    expect(volume[1]).toBe("/var/lib/postgresql/data");
    expect(Object.keys(compose.volumes)).toContain(volume[0]);
    expect(mailroom.environment.MAILROOM_STORE_URL).toStartWith("postgres://mailroom:");
    expect(mailroom.volumes.some((v: string) => v.endsWith(":/var/lib/mailroom"))).toBe(true);
    expect(mailroom.ports).toEqual(expect.arrayContaining(["25:2525", "587:2587", "465:2465"]));
  });

  test("rspamd is optional: a profile of its own", () => {
    expect(compose.services.rspamd.profiles).toEqual(["rspamd"]);
    expect(compose.services.mailroom.profiles).toBeUndefined();
    expect(compose.services.mailroom.environment.MAILROOM_INBOUND_RSPAMD_URL).toBe("${MAILROOM_INBOUND_RSPAMD_URL:-}");
    expect(read(join(DEPLOY, ".env.example"))).toContain("MAILROOM_INBOUND_RSPAMD_URL=http://rspamd:11333");
  });

  test("every MAILROOM_ variable it sets is a configuration option", () => {
    const known = new Set<string>();
    for (const [section, options] of Object.entries(CONFIG_OPTIONS))
      for (const key of Object.keys(options)) known.add(envName(section, key));
    // MAILROOM_SECRET_KEY is the master key, read beside the configuration (docs/operations.md#configuration).
    const names = Object.keys(compose.services.mailroom.environment).filter((name) => name !== "MAILROOM_SECRET_KEY");
    expect(names.filter((name) => !known.has(name))).toEqual([]);
  });
});

test("the example production configuration loads", async () => {
  const { parse } = await import("smol-toml");
  const file = parse(read(join(DEPLOY, "mailroom.toml"))) as Record<string, Record<string, unknown>>;
  const config = buildConfig(file, {}, {});
  expect(config.smtp.tls_cert).toBe("/run/credentials/mailroom.service/tls.crt");
  expect(read(UNIT)).toContain(`LoadCredential=tls.crt:`);
  expect(config.http.host).toBe("127.0.0.1");
});

describe("every metric the kit names is on /metrics", () => {
  let t: TestApp;
  let exposed: Set<string>;

  beforeAll(async () => {
    t = await createTestApp();
    const http = (await t.app.start()).find((listener) => listener.name === "http")!;
    const text = await (await fetch(`http://127.0.0.1:${http.port}/metrics`)).text();
    exposed = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
  });
  afterAll(() => t?.close());

  test("the alert rules'", () => {
    const rules = (Bun.YAML.parse(read(RULES)) as { groups: Array<{ rules: Array<{ expr: string }> }> }).groups.flatMap(
      (group) => group.rules,
    );
    const names = new Set(rules.flatMap((rule) => seriesIn(rule.expr)));
    names.delete("up");
    expect(names.size).toBeGreaterThan(8);
    expect([...names].filter((name) => !exposed.has(name))).toEqual([]);
  });

  test("the Grafana dashboard's", () => {
    const dashboard = JSON.parse(read(DASHBOARD));
    const exprs: string[] = dashboard.panels.flatMap((panel: { targets?: Array<{ expr: string }> }) =>
      (panel.targets ?? []).map((target) => target.expr),
    );
    exprs.push(dashboard.templating.list.find((v: { name: string }) => v.name === "instance").query.query);
    const names = new Set(exprs.flatMap(seriesIn));
    expect(names.size).toBeGreaterThan(20);
    expect([...names].filter((name) => !exposed.has(name))).toEqual([]);
  });

  test("the data directory's disk is measured", () => {
    expect(exposed.has("mailroom_data_dir_free_bytes")).toBe(true);
  });
});
