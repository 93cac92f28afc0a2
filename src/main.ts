#!/usr/bin/env bun
/**
 * The command line: reads argv and the environment — the only module that does — and hands each command what it
 * needs (cli/context.ts). The commands live in cli/, one file per command group; they write to stdout and stderr
 * through cli/output.ts, and everything they do goes through the same services the API uses. Here: the name to
 * print for running the CLI again, the configuration file to read, the check that a command exists before any store
 * is opened, the store the operator commands act on, and how an error ends the process.
 */
import { existsSync } from "node:fs";
import { basename, delimiter, dirname, isAbsolute, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { operatorActor } from "./access.ts";
import { ConfigError, loadConfig } from "./config/load.ts";
import { databasePath } from "./db/open.ts";
import { AppError } from "./errors.ts";
import { createLogger, type LogLevel } from "./lib/logger.ts";
import { createServices, VERSION } from "./server/app.ts";
import { backup } from "./cli/backup.ts";
import { ARGUMENTS, type Command, type CommandGroup, type Invocation } from "./cli/context.ts";
import { domains } from "./cli/domains.ts";
import { init } from "./cli/init.ts";
import { keys } from "./cli/keys.ts";
import { mcp } from "./cli/mcp.ts";
import { org } from "./cli/org.ts";
import { fail, logLine, note, out, printer } from "./cli/output.ts";
import { pause, resume } from "./cli/pauses.ts";
import { printConfig } from "./cli/print-config.ts";
import { restore } from "./cli/restore.ts";
import { queue } from "./cli/queue.ts";
import { sealSecret } from "./cli/secrets.ts";
import { send } from "./cli/send.ts";
import { serve } from "./cli/serve.ts";
import { suppressions } from "./cli/suppressions.ts";
import { tlsRpt } from "./cli/tls-rpt.ts";
import { USAGE } from "./cli/usage.ts";
import { users } from "./cli/users.ts";

/**
 * The commands that act on the store, as the operator: a group of verbs (`keys create`) or a command that takes its
 * argument directly (`backup FILE`). In the order `--help` and the errors name them, each group's verbs too.
 */
const STORE_COMMANDS: Record<string, CommandGroup | Command> = {
  keys,
  domains,
  suppressions,
  org,
  users,
  queue,
  "tls-rpt": tlsRpt,
  pause,
  resume,
  send,
  backup,
};

/** Every command, with the verbs of those that take one: checked before any store is opened. */
const COMMANDS: Record<string, readonly string[] | null> = {
  serve: null,
  init: null,
  mcp: null,
  ...Object.fromEntries(
    Object.entries(STORE_COMMANDS).map(([name, entry]): [string, readonly string[] | null] => [
      name,
      typeof entry === "function" ? null : Object.keys(entry),
    ]),
  ),
  restore: null,
  secrets: ["seal"],
  "print-config": null,
  version: null,
};

/** `text` as one shell word. */
const shellWord = (text: string) => (/^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`);

/**
 * How the user can run this CLI again, for the commands it prints, so they paste and work: `npx mailroom` from a
 * clone; the executable's name when it is on PATH; else its path (relative when under the working directory).
 */
function cliName(): string {
  if (process.env.MAILROOM_CLI_NAME === "npx mailroom") return "npx mailroom";
  const executable = process.execPath;
  if (basename(executable) === "bun" || basename(executable) === "node") return "mailroom";
  const onPath = (process.env.PATH ?? "").split(delimiter).some((dir) => dir && resolve(dir) === dirname(executable));
  if (onPath) return basename(executable);
  const fromHere = relative(process.cwd(), executable);
  const path =
    fromHere.startsWith("..") || isAbsolute(fromHere)
      ? executable
      : fromHere.includes("/")
        ? fromHere
        : `./${fromHere}`;
  return shellWord(path);
}

/**
 * A clone (`npm start` and `npx mailroom`, which both name the CLI `npx mailroom`) listens on unprivileged ports
 * unless its configuration says otherwise: one place, so that the server and the CLI run beside it agree.
 */
const CLONE_DEFAULTS = { smtp: { submission_port: 2587, smtps_port: 2465 }, inbound: { port: 2525 } };

/** Read when present and no other file is named: the configuration of whoever runs Mailroom from this directory. */
const LOCAL_CONFIG = "mailroom.toml";

/** An unknown command or verb is the user's typing: one line naming it and what there is, exit 2. */
function checkCommand(command: string, sub: string | undefined, cli: string): void {
  if (!(command in COMMANDS))
    fail(
      `unknown command "${command}"; the commands are ${Object.keys(COMMANDS).join(", ")} (${cli} --help shows their options)`,
      2,
    );
  const verbs = COMMANDS[command];
  if (verbs && !verbs.includes(sub ?? ""))
    fail(
      sub
        ? `unknown command "${command} ${sub}"; ${command} takes ${verbs.join(", ")}`
        : `"${command}" needs one of ${verbs.join(", ")} (e.g. ${cli} ${command} ${verbs[0]})`,
      2,
    );
}

async function run(argv: string[]): Promise<void> {
  const { values: options, positionals } = parseArgs({ ...ARGUMENTS, args: argv });
  if (options.help) return out(USAGE);
  const [command = "serve", sub] = positionals;
  if (options.version || command === "version") return out(VERSION);
  let cli = cliName();
  checkCommand(command, sub, cli);
  if (positionals.length === 0) out(`mailroom: no command given, so serving (${cli} --help lists the commands)`);
  if (options.config) cli = `${cli} --config ${shellWord(options.config)}`;
  const file = options.config ?? process.env.MAILROOM_CONFIG ?? (existsSync(LOCAL_CONFIG) ? LOCAL_CONFIG : undefined);
  const config = await loadConfig({
    file,
    env: process.env,
    defaults: process.env.MAILROOM_CLI_NAME === "npx mailroom" ? CLONE_DEFAULTS : undefined,
  });
  const invocation: Invocation = { config, cli, secretKey: process.env.MAILROOM_SECRET_KEY };

  if (command === "serve") return serve(invocation);
  if (command === "mcp")
    return mcp(invocation, { apiKey: process.env.MAILROOM_API_KEY, url: process.env.MAILROOM_URL }, VERSION);
  if (command === "print-config") return printConfig(invocation);
  if (command === "secrets" && sub === "seal") return sealSecret(invocation);
  // Before any store is opened: a restore needs an empty data directory, and opening a store would fill it.
  if (command === "restore") return restore(invocation, sub);
  if (!config.store.url && command !== "init") {
    // The CLI acts on the server's store: run elsewhere, it must not quietly make a second, empty one.
    const database = resolve(databasePath(config));
    if (!existsSync(database)) {
      fail(
        `no Mailroom store at ${database}. Run this where the server runs (or point at its data: --config FILE or MAILROOM_DATA_DIR=…); to create a new store here: ${cli} init`,
      );
    }
    note(`store ${database}`);
  }

  // Its log goes through the CLI's output too, so that a log line and a printed line never cut into each other.
  const logger = createLogger(config.log.level as LogLevel, logLine);
  const services = await createServices(config, { secretKey: invocation.secretKey, logger });
  try {
    // Before anything else touches the store: the organisation init creates comes with the first key.
    if (command === "init") return await init(services, invocation);
    const actor = operatorActor((await services.organizations.ensureDefault()).id);
    // Grouped commands have a verb (`keys create`); the others take their argument directly (`backup FILE`).
    const entry = STORE_COMMANDS[command];
    const grouped = entry !== undefined && typeof entry !== "function";
    const handler = grouped ? entry[sub ?? ""] : entry;
    if (!handler) fail(`unknown command "${[command, sub].filter(Boolean).join(" ")}"\n\n${USAGE}`, 2);
    await handler({
      ...invocation,
      services,
      actor,
      options,
      args: positionals.slice(grouped ? 2 : 1),
      print: printer(options.json),
    });
  } finally {
    // Everything a command may have opened, so that the process ends once its work is done (cron runs some of them,
    // docs/operations.md#command-line): pooled SMTP sessions (a TLS report mailed through Mailroom's own
    // delivery), the CPU pool's threads, then the store.
    await services.tlsReports.settled();
    await services.closeProviders();
    await services.store.close();
  }
}

try {
  await run(Bun.argv.slice(2));
} catch (error) {
  if (error instanceof ConfigError) fail(`configuration: ${error.message}`, 2);
  if (error instanceof AppError) {
    // The message already names the first problem; list the details only when there are more.
    const more =
      error.details && error.details.length > 1
        ? `\n${error.details.map((d) => `  ${d.path}: ${d.message}`).join("\n")}`
        : "";
    fail(`${error.name}: ${error.message}${more}`);
  }
  // parseArgs' own errors (an unknown flag, a flag without its value) are the user's typing, not a crash; said in
  // our words, since its own text ends on an unbalanced quote.
  const code = String((error as { code?: unknown }).code ?? "");
  if (code.startsWith("ERR_PARSE_ARGS")) {
    const option = /'(-{1,2}[^' ]+)/.exec((error as Error).message)?.[1];
    const problem =
      code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option
        ? `unknown option "${option}"`
        : code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option
          ? `option "${option}" needs a value`
          : (error as Error).message;
    fail(`${problem}\n\n${USAGE}`, 2);
  }
  throw error;
}
