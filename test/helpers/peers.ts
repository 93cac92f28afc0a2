/**
 * Test peers from Debian (swaks, smtp-sink, PostgreSQL, chromium…). On a fresh machine with only Node.js and npm
 * a test whose peer is missing is skipped, and says so and why; under CI=true (`.ci/run` installs every peer) a
 * missing peer is a failure, so CI can never go green by skipping.
 */
import { spawnSync } from "node:child_process";

export interface Peer {
  available: boolean;
}

/** True when `command args…` runs and exits 0. */
export function runs(command: string, args: string[] = []): boolean {
  const result = spawnSync(command, args, { stdio: "ignore" });
  return !result.error && result.status === 0;
}

/**
 * Checks a peer once. `install` is what a developer runs to get it (printed with the skip).
 * Throws under CI=true when it is missing.
 */
export function peer(name: string, present: () => boolean, install: string): Peer {
  const available = present();
  if (!available) {
    const message = `test peer "${name}" is missing; install it with: ${install}`;
    if (process.env.CI === "true")
      throw new Error(`${message} (CI=true: a missing peer is a failure; .ci/run installs every peer)`);
    console.warn(`skipped: ${message}`);
  }
  return { available };
}

export const swaksPeer = () =>
  peer(
    "swaks",
    () => runs("swaks", ["--version"]) && runs("perl", ["-MNet::SSLeay", "-MIO::Socket::SSL", "-MAuthen::SASL", "-e1"]),
    "apt-get install swaks libnet-ssleay-perl libio-socket-ssl-perl libauthen-sasl-perl",
  );

/** Debian's chromium, driven by playwright-core in the admin UI's browser test (no browser is ever downloaded). */
export const CHROMIUM_PATH = "/usr/bin/chromium";
export const chromiumPeer = () =>
  peer("chromium", () => runs(CHROMIUM_PATH, ["--version"]), "apt-get install chromium");

/** Debian's rspamd, started by the spam-scoring tests on loopback (test/helpers/rspamd.ts). */
export const RSPAMD_PATH = "/usr/bin/rspamd";
export const rspamdPeer = () => peer("rspamd", () => runs(RSPAMD_PATH, ["--version"]), "apt-get install rspamd");
