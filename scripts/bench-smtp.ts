/**
 * `npm run bench:smtp`: the SMTP relay against Postfix, same loader, same sink.
 *   (a) N sessions (STARTTLS, AUTH where offered) send M messages of 2 KB to the built `dist/mailroom`, which relays
 *       them to a local Postfix `smtp-sink`: accepted msg/s (every 250 after DATA) and end-to-end msg/s (every
 *       message at the sink). Then the same loader at Postfix set up as a loopback relay (private config and queue
 *       directories, DNS off, relayhost = the same sink).                                [≥ 1× Postfix end to end, signing; goal 2×]
 *   (b) a client that opens one connection per message, against the relay with and without smtp-server's 100 ms
 *       greeting pause (`smtp.greeting_pause`), to show what that pause costs such clients.
 * BENCH_SESSIONS (default 16), BENCH_MESSAGES (default 5000), BENCH_SEQUENTIAL (default 100) size the runs.
 * Needs postfix and smtp-sink (Debian package postfix) and root for Postfix's own start.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildThisBuild, cli } from "./bench/process.ts";
import { check, fmt, record } from "./bench/report.ts";
import { runConnectionPerMessage, runSmtpLoad, type SmtpTarget } from "./bench/smtp-load.ts";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 16);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5000);
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 100);
const WARMUP = 200;
const ROOT = join(import.meta.dir, "..");
const BINARY = join(ROOT, "dist", "mailroom");
const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

async function waitForPort(port: number) {
  for (let attempt = 0; ; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: "127.0.0.1" }, () => (socket.destroy(), resolve(true)));
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    if (attempt > 500) throw new Error(`nothing listens on ${port}`);
    await Bun.sleep(10);
  }
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 120_000) {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

/** Postfix's smtp-sink with its running counter (`-c` prints `sess=… quit=… mesg=N` after every message). */
async function startSink() {
  const port = await freePort();
  const proc = Bun.spawn(["smtp-sink", "-u", "nobody", "-c", `127.0.0.1:${port}`, "1024"], {
    stdout: "pipe",
    stderr: "ignore",
  });
  const sink = { port, received: 0, stop: () => proc.kill() };
  void (async () => {
    const decoder = new TextDecoder();
    let tail = "";
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
      tail = (tail + decoder.decode(chunk)).slice(-200);
      const counts = [...tail.matchAll(/mesg=(\d+)/g)];
      if (counts.length) sink.received = Number(counts.at(-1)![1]);
    }
  })();
  await waitForPort(port);
  return sink;
}

/** Messages the sink had counted before the current run. */
let baseline = 0;

/** Loads M messages through a target and reports both rates, measured from the first connection. */
async function measure(target: SmtpTarget, sink: { received: number }) {
  await runSmtpLoad(target, Math.min(SESSIONS, 8), WARMUP);
  await waitFor(() => sink.received >= baseline + WARMUP, "the warm-up messages at the sink");
  baseline = sink.received;
  const started = performance.now();
  const accepted = await runSmtpLoad(target, SESSIONS, MESSAGES);
  await waitFor(() => sink.received >= baseline + MESSAGES, "every message at the sink");
  const endToEnd = (performance.now() - started) / 1000;
  baseline = sink.received;
  return { accepted: MESSAGES / accepted.seconds, endToEnd: MESSAGES / endToEnd };
}

/** Starts `mailroom serve` and waits for its ready line; returns the submission port. */
async function serve(env: Record<string, string>) {
  const proc = Bun.spawn([BINARY, "serve"], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "ignore" });
  let out = "";
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
    out += decoder.decode(chunk);
    const line = out.split("\n").find((l) => l.startsWith("mailroom ready"));
    if (line) {
      return {
        submission: Number(/submission=[^\s]*:(\d+)/.exec(line)![1]),
        stop: async () => {
          proc.kill("SIGTERM");
          await proc.exited;
        },
      };
    }
  }
  throw new Error(`mailroom serve exited before its ready line: ${out}`);
}

async function mailroom(sinkPort: number, sink: { received: number }) {
  const dataDir = tmp("mailroom-bench-smtp-");
  const env: Record<string, string> = {
    MAILROOM_DATA_DIR: dataDir,
    MAILROOM_HTTP_PORT: "0",
    MAILROOM_SMTP_SUBMISSION_PORT: "0",
    MAILROOM_SMTP_SMTPS_PORT: "0",
    MAILROOM_INBOUND_PORT: "0",
    MAILROOM_SMTP_HOSTNAME: "localhost",
    MAILROOM_DELIVERY_DEFAULT_PROVIDER: "smtp",
    MAILROOM_SMARTHOST_HOST: "127.0.0.1",
    MAILROOM_SMARTHOST_PORT: String(sinkPort),
    MAILROOM_SMARTHOST_SECURITY: "none",
    MAILROOM_LIMITS_KEY_REQUESTS_PER_MINUTE: "10000000",
    MAILROOM_LIMITS_ORG_REQUESTS_PER_MINUTE: "10000000",
    // No lookups leave the machine: every DNS question goes to a closed local port.
    MAILROOM_DNS_SERVERS: "127.0.0.1:9",
    MAILROOM_LOG_LEVEL: "error",
    MAILROOM_SECRET_KEY: Buffer.alloc(32, 3).toString("base64"),
  };
  await cli(BINARY, env, ["init"]);
  await cli(BINARY, env, ["domains", "add", "example.com", "--verified"]);
  const { token: key } = JSON.parse(
    await cli(BINARY, env, ["keys", "create", "--name", "bench", "--scope", "sending_access", "--json"]),
  );
  const server = await serve(env);
  const target: SmtpTarget = {
    port: server.submission,
    ca: readFileSync(join(dataDir, "tls", "smtp-cert.pem"), "utf8"),
    auth: { username: "apikey", password: key },
  };
  const result = await measure(target, sink);

  // (b) one connection per message, prompt greeting (the default) and with smtp-server's pause.
  const prompt = await runConnectionPerMessage(target, SEQUENTIAL);
  await server.stop();
  const paused = await serve({ ...env, MAILROOM_SMTP_GREETING_PAUSE: "true" });
  const pausedRun = await runConnectionPerMessage({ ...target, port: paused.submission }, SEQUENTIAL);
  await paused.stop();
  await waitFor(() => sink.received >= baseline + 2 * SEQUENTIAL, "the connection-per-message sends at the sink");
  baseline = sink.received;
  rmSync(dataDir, { recursive: true, force: true });
  return { ...result, perMessage: { prompt: prompt.seconds / SEQUENTIAL, paused: pausedRun.seconds / SEQUENTIAL } };
}

/** A private Postfix instance: its own config, queue and data directories under a temporary directory. */
async function postfix(sinkPort: number, sink: { received: number }, tls: { cert: string; key: string; ca: string }) {
  const base = tmp("mailroom-bench-postfix-");
  chmodSync(base, 0o755); // Postfix's daemons run as the postfix user
  const etc = join(base, "etc");
  const data = join(base, "data");
  for (const dir of [etc, join(base, "spool"), data]) mkdirSync(dir, { recursive: true });
  chownSync(data, Number(Bun.spawnSync(["id", "-u", "postfix"]).stdout.toString().trim()), -1);
  writeFileSync(join(base, "cert.pem"), tls.cert);
  writeFileSync(join(base, "key.pem"), tls.key, { mode: 0o600 });
  const port = await freePort();
  writeFileSync(
    join(etc, "main.cf"),
    [
      "compatibility_level = 3.6",
      `queue_directory = ${join(base, "spool")}`,
      `data_directory = ${data}`,
      "mail_owner = postfix",
      "setgid_group = postdrop",
      "inet_interfaces = 127.0.0.1",
      "inet_protocols = ipv4",
      "myhostname = relay.bench.test",
      "mydestination =",
      "local_transport = error:local delivery disabled",
      "mynetworks = 127.0.0.0/8",
      "smtpd_relay_restrictions = permit_mynetworks, reject",
      `relayhost = [127.0.0.1]:${sinkPort}`,
      "smtp_dns_support_level = disabled",
      "smtp_tls_security_level = none",
      "smtpd_tls_security_level = may",
      `smtpd_tls_cert_file = ${join(base, "cert.pem")}`,
      `smtpd_tls_key_file = ${join(base, "key.pem")}`,
      `maillog_file_prefixes = ${tmpdir()}`,
      `maillog_file = ${join(base, "maillog")}`,
      "",
    ].join("\n"),
  );
  const services = [
    `127.0.0.1:${port} inet n - n - - smtpd`,
    "pickup unix n - n 60 1 pickup",
    "cleanup unix n - n - 0 cleanup",
    "qmgr unix n - n 300 1 qmgr",
    "tlsmgr unix - - n 1000? 1 tlsmgr",
    "rewrite unix - - n - - trivial-rewrite",
    "bounce unix - - n - 0 bounce",
    "defer unix - - n - 0 bounce",
    "trace unix - - n - 0 bounce",
    "verify unix - - n - 1 verify",
    "flush unix n - n 1000? 0 flush",
    "proxymap unix - - n - - proxymap",
    "smtp unix - - n - - smtp",
    "relay unix - - n - - smtp",
    "showq unix n - n - - showq",
    "error unix - - n - - error",
    "retry unix - - n - - error",
    "discard unix - - n - - discard",
    "anvil unix - - n - 1 anvil",
    "scache unix - - n - 1 scache",
    "postlog unix-dgram n - n - 1 postlogd",
  ];
  writeFileSync(join(etc, "master.cf"), `${services.join("\n")}\n`);
  const control = (action: string) => {
    const result = Bun.spawnSync(["postfix", "-c", etc, action], { stdout: "pipe", stderr: "pipe" });
    if (result.exitCode !== 0) {
      const log = existsSync(join(base, "maillog"))
        ? readFileSync(join(base, "maillog"), "utf8").split("\n").slice(-5).join("\n")
        : result.stderr.toString();
      throw new Error(`postfix ${action} failed:\n${log}`);
    }
  };
  try {
    control("start");
    await waitForPort(port);
    return await measure({ port, ca: tls.ca }, sink);
  } finally {
    if (existsSync(join(base, "spool", "pid", "master.pid"))) control("stop");
    rmSync(base, { recursive: true, force: true });
  }
}

if (!Bun.which("smtp-sink") || !Bun.which("postfix")) {
  console.log("bench:smtp needs postfix and smtp-sink (apt-get install postfix)");
  process.exit(1);
}
await buildThisBuild(ROOT);
console.log(
  `Mailroom SMTP relay benchmark — ${new Date().toISOString()} — ${navigator.hardwareConcurrency} cores, Bun ${Bun.version}`,
);
console.log(
  `${SESSIONS} sessions, ${MESSAGES} messages of 2 KB, STARTTLS (+ AUTH where offered), relayed to smtp-sink\n`,
);

const sink = await startSink();
try {
  const m = await mailroom(sink.port, sink);
  const { generate } = await import("selfsigned");
  const pems = await generate([{ name: "commonName", value: "localhost" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: "localhost" }] }],
  });
  const p = await postfix(sink.port, sink, { cert: pems.cert, key: pems.private, ca: pems.cert });
  const ratio = m.endToEnd / p.endToEnd;
  console.log("(a) submission → relay → smtp-sink");
  console.log(`    mailroom  accepted ${fmt(m.accepted)} msg/s   end to end ${fmt(m.endToEnd)} msg/s`);
  console.log(`    postfix   accepted ${fmt(p.accepted)} msg/s   end to end ${fmt(p.endToEnd)} msg/s`);
  console.log(
    `    ratio     end to end ${fmt(ratio, 2)}×, accepted ${fmt(m.accepted / p.accepted, 2)}×   [bar ≥ 1× end to end, signing: ${check(ratio >= 1)}; goal ≥ 2×]`,
  );
  record({
    measure: "SMTP relay end to end (DKIM-signed) vs Postfix",
    result: `${fmt(ratio, 2)}× (${fmt(m.endToEnd)} vs ${fmt(p.endToEnd)} msg/s)`,
    target: "≥ 1× Postfix (goal ≥ 2×)",
    met: ratio >= 1,
  });
  const { prompt, paused } = m.perMessage;
  console.log(
    `(b) one connection per message, ${SEQUENTIAL} sequential sends (connect, STARTTLS, AUTH, one message, QUIT)`,
  );
  console.log(`    prompt greeting (default)  ${fmt(prompt * 1000, 1)} ms/message = ${fmt(1 / prompt, 1)} msg/s`);
  console.log(
    `    smtp-server's 100 ms pause ${fmt(paused * 1000, 1)} ms/message = ${fmt(1 / paused, 1)} msg/s   (${fmt(paused / prompt, 1)}× slower)`,
  );
} finally {
  sink.stop();
}
