/**
 * The relay's TLS certificate. Either the operator's files (`smtp.tls_cert`, `smtp.tls_key`), checked on an
 * interval and loaded again when they change (certificate renewals need no restart), or — when none are
 * configured — a self-signed pair generated into `<data_dir>/tls` at first start and reused afterwards (made again
 * when it expired or names another host than `server.hostname`), with one warning each start. Invariant: the relay never presents smtp-server's built-in certificate (its private key is
 * public); a changed pair that does not load (half-written, key and certificate mismatched) never replaces a
 * working one; the generated pair is owner-only (lib/private-files.ts), as everything in the data directory.
 */
import { X509Certificate } from "node:crypto";
import { chmodSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSecureContext } from "node:tls";
import { ConfigError } from "../lib/config-error.ts";
import type { Logger } from "../lib/logger.ts";
import { ensurePrivateDirectory, keepPrivate, PRIVATE_FILE_MODE } from "../lib/private-files.ts";

export interface KeyPair {
  key: string;
  cert: string;
}

export interface CertificateSource {
  current(): KeyPair;
  /** Called with the new pair after a reload. */
  onChange(listener: (pair: KeyPair) => void): void;
  /** Loads the configured files again if they changed; true when a new pair was taken into use. */
  refresh(): boolean;
  close(): void;
}

export interface CertificateOptions {
  certFile: string;
  keyFile: string;
  dataDir: string;
  /** Name for the generated certificate's subject and SAN. */
  hostname: string;
  /** 0 disables the change checks. */
  reloadIntervalMs: number;
  logger: Logger;
}

const GENERATED_VALIDITY_MS = 5 * 365 * 86_400_000;

/** Throws unless the pair forms a usable TLS identity (parses, and the key belongs to the certificate). */
function assertUsable(pair: KeyPair): void {
  createSecureContext({ key: pair.key, cert: pair.cert });
}

function fileSignature(...paths: string[]): string {
  return paths
    .map((path) => {
      const stat = statSync(path);
      return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    })
    .join("|");
}

/** Writes through a temporary file and a rename, so a crash never leaves half a key behind. */
function writeAtomically(path: string, content: string, mode: number): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, path);
}

/** Generated certificates this process has warned about. */
const warned = new Set<string>();

async function generatedPair(options: CertificateOptions): Promise<KeyPair> {
  const dir = join(options.dataDir, "tls");
  const certFile = join(dir, "smtp-cert.pem");
  const keyFile = join(dir, "smtp-key.pem");
  ensurePrivateDirectory(options.dataDir, options.logger);
  ensurePrivateDirectory(dir, options.logger);
  for (const file of [keyFile, certFile]) keepPrivate(file, options.logger);
  if (existsSync(certFile) && existsSync(keyFile)) {
    const pair = { cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile, "utf8") };
    const certificate = new X509Certificate(pair.cert);
    const named = certificate.checkHost(options.hostname) !== undefined;
    if (Date.parse(certificate.validTo) > Date.now() && named) {
      assertUsable(pair);
      // The relay and the inbound MX both load it: one warning per start.
      if (!warned.has(certFile))
        options.logger.warn(
          "SMTP uses the generated self-signed certificate; clients must trust it explicitly, or configure smtp.tls_cert and smtp.tls_key",
          { cert: certFile, fingerprint_sha256: certificate.fingerprint256 },
        );
      warned.add(certFile);
      return pair;
    }
    if (!named)
      options.logger.info("the generated certificate names another host than server.hostname: generating a new one", {
        hostname: options.hostname,
        was: certificate.subject,
      });
  }
  // An EC P-256 key: as strong as RSA-3072, generated in milliseconds, accepted by every TLS 1.2+ client.
  const now = new Date();
  // Loaded only when a pair must be generated (first start): it is the heaviest import of the relay.
  const { generate } = await import("selfsigned");
  const generated = await generate([{ name: "commonName", value: options.hostname }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + GENERATED_VALIDITY_MS),
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: options.hostname },
          ...(options.hostname === "localhost" ? [] : [{ type: 2 as const, value: "localhost" }]),
          { type: 7, ip: "127.0.0.1" },
          { type: 7, ip: "::1" },
        ],
      },
    ],
  });
  // The certificate is public, but it lives in the private data directory like everything else there.
  writeAtomically(keyFile, generated.private, PRIVATE_FILE_MODE);
  writeAtomically(certFile, generated.cert, PRIVATE_FILE_MODE);
  warned.add(certFile);
  options.logger.warn(
    "SMTP: no smtp.tls_cert configured, generated a self-signed certificate; clients must trust it explicitly",
    {
      cert: certFile,
      fingerprint_sha256: new X509Certificate(generated.cert).fingerprint256,
    },
  );
  return { key: generated.private, cert: generated.cert };
}

function readConfigured(options: CertificateOptions): KeyPair {
  let pair: KeyPair;
  try {
    pair = { cert: readFileSync(options.certFile, "utf8"), key: readFileSync(options.keyFile, "utf8") };
  } catch (error) {
    throw new ConfigError(
      `smtp.tls_cert / smtp.tls_key: cannot read ${options.certFile} or ${options.keyFile} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  try {
    assertUsable(pair);
  } catch {
    throw new ConfigError(
      `smtp.tls_cert / smtp.tls_key: ${options.certFile} and ${options.keyFile} are not a matching PEM certificate and private key`,
    );
  }
  return pair;
}

/** Loads (or generates) the certificate; throws `ConfigError` when configured files are missing or unusable. */
export async function loadCertificates(options: CertificateOptions): Promise<CertificateSource> {
  const listeners: Array<(pair: KeyPair) => void> = [];
  const configured = Boolean(options.certFile || options.keyFile);
  if (configured && !(options.certFile && options.keyFile))
    throw new ConfigError("smtp.tls_cert and smtp.tls_key: give both files, or neither to use a generated certificate");

  if (!configured) {
    const pair = await generatedPair(options);
    return { current: () => pair, onChange: () => {}, refresh: () => false, close: () => {} };
  }

  let pair = readConfigured(options);
  let loadedSignature = fileSignature(options.certFile, options.keyFile);
  let failedSignature = "";
  const refresh = (): boolean => {
    let signature: string;
    try {
      signature = fileSignature(options.certFile, options.keyFile);
    } catch {
      return false; // mid-replacement: a file is briefly missing; the next check sees the new one
    }
    if (signature === loadedSignature || signature === failedSignature) return false;
    try {
      const next = readConfigured(options);
      pair = next;
      loadedSignature = signature;
      options.logger.info("smtp relay: reloaded TLS certificate", {
        cert: options.certFile,
        fingerprint_sha256: new X509Certificate(next.cert).fingerprint256,
      });
      for (const listener of listeners) listener(next);
      return true;
    } catch (error) {
      failedSignature = signature;
      options.logger.warn("smtp relay: changed TLS files do not load; keeping the previous certificate", {
        reason: (error as Error).message,
      });
      return false;
    }
  };
  const timer = options.reloadIntervalMs > 0 ? setInterval(refresh, options.reloadIntervalMs) : undefined;
  timer?.unref();
  return {
    current: () => pair,
    onChange: (listener) => listeners.push(listener),
    refresh,
    close: () => clearInterval(timer),
  };
}
