/**
 * The relay's certificates: generated into the data directory when none is configured (and reused at the next
 * start), configured files loaded again when they change, a broken replacement never taken, TLS 1.2 minimum.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { generate } from "selfsigned";
import { createApp, type App } from "../src/server/app.ts";
import { ConfigError } from "../src/config/load.ts";
import { createLogger, silentLogger } from "../src/lib/logger.ts";
import { tempDir, testConfig } from "./helpers/app.ts";
import { smtpChat, type SmtpChat } from "./helpers/smtp-chat.ts";

const apps: App[] = [];
const dirs: string[] = [];
const chats: SmtpChat[] = [];

afterEach(async () => {
  chats.splice(0).forEach((chat) => chat.close());
  for (const app of apps.splice(0)) await app.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newDir(): string {
  const dir = tempDir("mailroom-tls-");
  dirs.push(dir);
  return dir;
}

async function startRelay(dataDir: string, smtp: Record<string, unknown> = {}, logLines?: string[]) {
  const logger = logLines ? createLogger("debug", (line) => logLines.push(line)) : silentLogger;
  const app = await createApp(testConfig(dataDir, { smtp }), { logger });
  apps.push(app);
  const listeners = await app.start();
  return {
    app,
    submission: listeners.find((l) => l.name === "submission")!.port,
    smtps: listeners.find((l) => l.name === "smtps")!.port,
  };
}

/** The fingerprint of the certificate presented on the smtps port, and after STARTTLS on the submission port. */
async function presented(relay: { submission: number; smtps: number }, ca: string) {
  const implicit = await smtpChat(relay.smtps, { tls: true, ca });
  const upgraded = await smtpChat(relay.submission, { ca });
  chats.push(implicit, upgraded);
  await upgraded.send("EHLO client.test");
  expect((await upgraded.starttls()).code).toBe(220);
  return [implicit.certificate()?.fingerprint256, upgraded.certificate()?.fingerprint256];
}

async function keyPair(name: string) {
  const pems = await generate([{ name: "commonName", value: name }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert, fingerprint: new X509Certificate(pems.cert).fingerprint256 };
}

describe("without configured files", () => {
  test("a self-signed pair is generated into the data directory with a warning, served on both ports and reused", async () => {
    const dir = newDir();
    const lines: string[] = [];
    const relay = await startRelay(dir, {}, lines);
    const certFile = join(dir, "tls", "smtp-cert.pem");
    const cert = readFileSync(certFile, "utf8");
    const fingerprint = new X509Certificate(cert).fingerprint256;
    expect(statSync(join(dir, "tls", "smtp-key.pem")).mode & 0o777).toBe(0o600);
    const warning = lines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.level === "warn" && /self-signed/.test(entry.msg));
    expect(warning).toMatchObject({ cert: certFile, fingerprint_sha256: fingerprint });
    expect(await presented(relay, cert)).toEqual([fingerprint, fingerprint]);

    await apps.pop()!.stop();
    const again = await startRelay(dir);
    expect(readFileSync(certFile, "utf8")).toBe(cert);
    expect(await presented(again, cert)).toEqual([fingerprint, fingerprint]);
  });

  test("one start warns once about the generated certificate, though the relay and the inbound MX both use it", async () => {
    const lines: string[] = [];
    const dir = newDir();
    const app = await createApp(testConfig(dir, { inbound: { enabled: true, port: 0 } }), {
      logger: createLogger("debug", (line) => lines.push(line)),
    });
    apps.push(app);
    const listeners = await app.start();
    expect(listeners.map((l) => l.name)).toContain("mx");
    const warnings = lines.map((line) => JSON.parse(line)).filter((entry) => /self-signed/.test(entry.msg));
    expect(warnings).toHaveLength(1);
  });

  test("a generated certificate naming another host than server.hostname is generated again for the new name", async () => {
    const dir = newDir();
    const certFile = join(dir, "tls", "smtp-cert.pem");
    const startNamed = async (hostname: string) => {
      const app = await createApp(testConfig(dir, { server: { hostname } }), { logger: silentLogger });
      apps.push(app);
      await app.start();
      await apps.pop()!.stop();
      return new X509Certificate(readFileSync(certFile, "utf8"));
    };
    expect((await startNamed("mail.one.test")).checkHost("mail.one.test")).toBe("mail.one.test");
    const renamed = await startNamed("mail.two.test");
    expect(renamed.checkHost("mail.two.test")).toBe("mail.two.test");
    expect(renamed.checkHost("mail.one.test")).toBeUndefined();
  });

  test("TLS older than 1.2 is refused", async () => {
    const relay = await startRelay(newDir());
    const outcome = await new Promise<string>((resolve) => {
      const socket = tlsConnect(
        { port: relay.smtps, host: "127.0.0.1", rejectUnauthorized: false, minVersion: "TLSv1", maxVersion: "TLSv1.1" },
        () => {
          socket.destroy();
          resolve("connected");
        },
      );
      socket.on("error", () => resolve("refused"));
    });
    expect(outcome).toBe("refused");
  });
});

describe("with configured files", () => {
  test("changed files are loaded without a restart, for both ports", async () => {
    const dir = newDir();
    const [first, second] = await Promise.all([keyPair("first.test"), keyPair("second.test")]);
    const certFile = join(dir, "cert.pem");
    const keyFile = join(dir, "key.pem");
    writeFileSync(certFile, first.cert);
    writeFileSync(keyFile, first.key);
    const relay = await startRelay(dir, { tls_cert: certFile, tls_key: keyFile, tls_reload_interval: "0s" });
    expect(await presented(relay, first.cert)).toEqual([first.fingerprint, first.fingerprint]);
    expect(relay.app.smtp.refreshCertificates()).toBe(false);

    writeFileSync(certFile, second.cert);
    writeFileSync(keyFile, second.key);
    expect(relay.app.smtp.refreshCertificates()).toBe(true);
    expect(await presented(relay, second.cert)).toEqual([second.fingerprint, second.fingerprint]);
  });

  test("a half-replaced pair (key and certificate that do not match) is not taken; the working one stays", async () => {
    const dir = newDir();
    const [first, second] = await Promise.all([keyPair("first.test"), keyPair("second.test")]);
    const certFile = join(dir, "cert.pem");
    const keyFile = join(dir, "key.pem");
    writeFileSync(certFile, first.cert);
    writeFileSync(keyFile, first.key);
    const relay = await startRelay(dir, { tls_cert: certFile, tls_key: keyFile, tls_reload_interval: "0s" });
    writeFileSync(certFile, second.cert);
    expect(relay.app.smtp.refreshCertificates()).toBe(false);
    expect(await presented(relay, first.cert)).toEqual([first.fingerprint, first.fingerprint]);
  });

  test.each([
    ["a missing file", { tls_cert: "/nonexistent/cert.pem", tls_key: "/nonexistent/key.pem" }, "cannot read"],
    ["only one of the two", { tls_cert: "/nonexistent/cert.pem" }, "give both files"],
  ])("%s stops the start with a configuration error", async (_name, smtp, message) => {
    const app = await createApp(testConfig(newDir(), { smtp }), { logger: silentLogger });
    apps.push(app);
    const start = app.start();
    expect(start).rejects.toThrow(ConfigError);
    expect(start).rejects.toThrow(message);
    await start.catch(() => {});
  });
});
