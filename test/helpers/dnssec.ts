/**
 * DNSSEC for DANE tests (test/dane.test.ts): zones signed at test time with keys made by dnssec-keygen and
 * dnssec-signzone (bind9-utils), served by an authoritative Unbound (auth-zone) on loopback, behind a validating
 * Unbound whose only trust anchor is the signed zone's DS set. The validating one is the resolver under test: it
 * sets the AD bit on what it validated, answers SERVFAIL to a bogus record, and leaves unsigned zones insecure.
 * The authoritative one never sets AD, so it also stands for a resolver that does not validate.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createSocket } from "node:dgram";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { peer, runs } from "./peers.ts";

/** Debian installs Unbound in /usr/sbin, which an unprivileged PATH may lack. */
const UNBOUND = existsSync("/usr/sbin/unbound") ? "/usr/sbin/unbound" : "unbound";

export const dnssecPeer = () =>
  peer(
    "unbound and bind9-utils",
    () => runs(UNBOUND, ["-V"]) && runs("sh", ["-c", "command -v dnssec-keygen && command -v dnssec-signzone"]),
    "apt-get install unbound bind9-utils",
  );

export interface Zone {
  /** The zone's name, without the final dot, e.g. `dane.test`. */
  origin: string;
  /** Resource records in zone-file syntax, names relative to the origin (SOA and NS are added). */
  records: string[];
  /** Signed (with its DS set as the validator's trust anchor), or served unsigned (insecure). */
  signed: boolean;
  /** Changes the signed zone file's text after signing (to make a record bogus). */
  tamper?: (signed: string) => string;
}

export interface DnssecServers {
  /** `127.0.0.1:<port>` of the validating resolver, for `[dns] servers`. */
  resolver: string;
  /** `127.0.0.1:<port>` of the authoritative server: answers without ever setting AD. */
  authoritative: string;
  close(): Promise<void>;
}

/** A port free for TCP and UDP now (Unbound takes a port number, not 0). */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
      server.on("error", reject);
    });
    const udpFree = await new Promise<boolean>((resolve) => {
      const socket = createSocket("udp4");
      socket.on("error", () => resolve(false));
      socket.bind(port, "127.0.0.1", () => socket.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
}

const serverBlock = (dir: string, port: number, extra: string[]) =>
  [
    "server:",
    "  interface: 127.0.0.1",
    `  port: ${port}`,
    "  do-daemonize: no",
    '  username: ""',
    '  chroot: ""',
    `  directory: "${dir}"`,
    '  pidfile: ""',
    "  use-syslog: no",
    '  logfile: ""',
    "  do-ip6: no",
    "  access-control: 127.0.0.0/8 allow",
    // RFC 6761 reserves .test; Unbound answers it locally unless told not to.
    '  local-zone: "test." nodefault',
    ...extra.map((line) => `  ${line}`),
  ].join("\n");

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${result.stderr || result.error}`);
  return result.stdout.trim();
}

/** Whether `port` answers a query for `name` with NOERROR (the server is up and has loaded its zones). */
function answers(port: number, name: string): Promise<boolean> {
  const query = Buffer.concat([
    Buffer.from([0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]),
    ...name.split(".").map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)])),
    Buffer.from([0, 0, 6, 0, 1]),
  ]);
  return new Promise((resolve) => {
    const socket = createSocket("udp4");
    const timer = setTimeout(() => finish(false), 300);
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(ok);
    };
    socket.on("message", (reply) => finish((reply[3]! & 0x0f) === 0));
    socket.on("error", () => finish(false));
    socket.send(query, port, "127.0.0.1");
  });
}

export async function startDnssecServers(zones: Zone[]): Promise<DnssecServers> {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-dnssec-"));
  const anchors: string[] = [];
  const authZones: string[] = [];
  for (const zone of zones) {
    const file = join(dir, `${zone.origin}.zone`);
    writeFileSync(
      file,
      [
        `$ORIGIN ${zone.origin}.`,
        "$TTL 300",
        `@ IN SOA ns.${zone.origin}. hostmaster.${zone.origin}. 1 3600 600 86400 300`,
        `@ IN NS ns.${zone.origin}.`,
        "ns IN A 127.0.0.1",
        ...zone.records,
        "",
      ].join("\n"),
    );
    let served = file;
    if (zone.signed) {
      run("dnssec-keygen", ["-q", "-K", dir, "-a", "ECDSAP256SHA256", "-f", "KSK", zone.origin], dir);
      run("dnssec-keygen", ["-q", "-K", dir, "-a", "ECDSAP256SHA256", zone.origin], dir);
      served = `${file}.signed`;
      run("dnssec-signzone", ["-q", "-S", "-K", dir, "-d", dir, "-o", zone.origin, "-f", served, file], dir);
      if (zone.tamper) writeFileSync(served, zone.tamper(readFileSync(served, "utf8")));
      anchors.push(readFileSync(join(dir, `dsset-${zone.origin}.`), "utf8"));
    }
    authZones.push(
      `auth-zone:\n  name: "${zone.origin}."\n  zonefile: "${served}"\n  for-downstream: yes\n  for-upstream: no`,
    );
  }
  writeFileSync(join(dir, "anchors"), anchors.join(""));
  const [authPort, resolverPort] = [await freePort(), await freePort()];
  writeFileSync(join(dir, "auth.conf"), `${serverBlock(dir, authPort, [])}\n${authZones.join("\n")}\n`);
  writeFileSync(
    join(dir, "resolver.conf"),
    `${serverBlock(dir, resolverPort, [
      "do-not-query-localhost: no",
      'module-config: "validator iterator"',
      `trust-anchor-file: "${join(dir, "anchors")}"`,
    ])}\n${zones.map((zone) => `stub-zone:\n  name: "${zone.origin}."\n  stub-addr: 127.0.0.1@${authPort}`).join("\n")}\n`,
  );
  const processes: ChildProcess[] = ["auth.conf", "resolver.conf"].map((conf) =>
    spawn(UNBOUND, ["-d", "-c", join(dir, conf)], { stdio: "ignore" }),
  );
  const close = async () => {
    for (const child of processes) child.kill();
    await Promise.all(
      processes.map((child) => (child.exitCode === null ? new Promise((r) => child.once("exit", r)) : null)),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  const first = zones[0]!.origin;
  while (!((await answers(authPort, first)) && (await answers(resolverPort, first)))) {
    if (Date.now() > deadline) {
      await close();
      throw new Error("unbound did not start within 10 s");
    }
    await Bun.sleep(50);
  }
  return { resolver: `127.0.0.1:${resolverPort}`, authoritative: `127.0.0.1:${authPort}`, close };
}
