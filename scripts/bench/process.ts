/**
 * Mailroom (or another server) as a separate process for the benchmarks: its environment, the message every
 * benchmark sends, Postfix's smtp-sink as the remote side, starting a server until its ready line, and the CLI.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One small html message, as the API takes it. */
export const BENCH_BODY = JSON.stringify({
  from: "Bench <bench@example.com>",
  to: ["someone@dest.test"],
  subject: "Benchmark",
  html: "<p>Hello from the benchmark</p>",
});

/** A server on ephemeral ports (no root, no clash with a mail server here), limits out of the way, quiet logs. */
export function benchServerEnv(secretKey: string): Record<string, string> {
  return {
    MAILROOM_HTTP_PORT: "0",
    MAILROOM_SMTP_SUBMISSION_PORT: "0",
    MAILROOM_SMTP_SMTPS_PORT: "0",
    MAILROOM_INBOUND_PORT: "0",
    MAILROOM_LIMITS_KEY_REQUESTS_PER_MINUTE: "10000000",
    MAILROOM_LIMITS_ORG_REQUESTS_PER_MINUTE: "10000000",
    MAILROOM_LOG_LEVEL: "warn",
    MAILROOM_SECRET_KEY: secretKey,
  };
}

/** Postfix's smtp-sink on a free loopback port, or undefined when it is not installed. */
export async function startSmtpSink(): Promise<{ port: number; stop(): void } | undefined> {
  if (!Bun.which("smtp-sink")) return undefined;
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  const sink = Bun.spawn(["smtp-sink", "-u", "nobody", "-c", `127.0.0.1:${port}`, "1024"], {
    stdout: "ignore",
    stderr: "ignore",
  });
  await Bun.sleep(300);
  return { port, stop: () => sink.kill() };
}

/** The delivery benchmarks' settings: 128 attempts in flight, through the smarthost at `sinkPort` (smtp-sink), or captured without one. */
export function deliveryEnv(sinkPort?: number): Record<string, string> {
  const concurrency = { MAILROOM_DELIVERY_CONCURRENCY: "128", MAILROOM_DELIVERY_PER_DESTINATION_CONCURRENCY: "128" };
  if (sinkPort === undefined) return { ...concurrency, MAILROOM_DELIVERY_DEFAULT_PROVIDER: "capture" };
  return {
    ...concurrency,
    MAILROOM_DELIVERY_DEFAULT_PROVIDER: "smtp",
    MAILROOM_SMARTHOST_HOST: "127.0.0.1",
    MAILROOM_SMARTHOST_PORT: String(sinkPort),
    MAILROOM_SMARTHOST_SECURITY: "none",
    MAILROOM_SMARTHOST_POOL_SIZE: "32",
  };
}

/** Runs `cmd` until a line of its stdout starts with `marker`; the HTTP port is read from `http=host:port`. */
export async function spawnUntilReady(cmd: string[], env: Record<string, string>, marker: string) {
  const started = performance.now();
  const proc = Bun.spawn(cmd, { env: { ...process.env, ...env }, stdout: "pipe", stderr: "ignore" });
  let out = "";
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
    out += decoder.decode(chunk);
    const line = out.split("\n").find((l) => l.startsWith(marker));
    if (line)
      return { proc, line, readyMs: performance.now() - started, port: Number(/http=[^\s]*:(\d+)/.exec(line)?.[1]) };
  }
  throw new Error(`${cmd.join(" ")} exited before "${marker}": ${out}`);
}

/** Runs a command of the executable `binary` to completion; its stdout, or an error with its stderr. */
export async function cli(binary: string, env: Record<string, string>, args: string[]): Promise<string> {
  const proc = Bun.spawn([binary, ...args], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0)
    throw new Error(`mailroom ${args.join(" ")} failed: ${await new Response(proc.stderr).text()}`);
  return out;
}

/**
 * CPU time (ms, user + system) used so far by the processes `select` picks by command name and pid, from /proc:
 * read before and after a load, it gives what the load cost them (e.g. every PostgreSQL backend of the cluster).
 */
export function cpuMsOf(select: (command: string, pid: number) => boolean): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const command = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (!select(command, Number(entry))) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Builds dist/mailroom from the working tree, once per benchmark run (the scripts `npm run bench` starts inherit the
 * mark): an executable left from an earlier build would be measured in place of this code.
 */
export async function buildThisBuild(root: string): Promise<void> {
  if (process.env.BENCH_BUILT === "1") return;
  console.log("building dist/mailroom …");
  await Bun.$`${process.execPath} ${join(root, "scripts/build.ts")}`.quiet();
  process.env.BENCH_BUILT = "1";
}
