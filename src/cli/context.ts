/**
 * What main.ts hands a command: the options it parsed from argv (the one table of flags, below), what it read from
 * the environment, the configuration and, for the commands that act on the store, its services and the local
 * operator. A command reads neither argv nor the environment itself.
 */
import type { parseArgs } from "node:util";
import type { Actor } from "../access.ts";
import type { Config } from "../config/options.ts";
import type { Services } from "../server/app.ts";
import { fail, type Print } from "./output.ts";

/** Every flag of every command: parseArgs refuses any other. */
export const ARGUMENTS = {
  allowPositionals: true,
  options: {
    config: { type: "string" },
    name: { type: "string" },
    scope: { type: "string", multiple: true },
    domain: { type: "string", multiple: true },
    test: { type: "boolean" },
    "rate-limit": { type: "string" },
    "daily-quota": { type: "string" },
    "content-days": { type: "string" },
    "metadata-days": { type: "string" },
    org: { type: "string" },
    role: { type: "string" },
    json: { type: "boolean" },
    verified: { type: "boolean" },
    providers: { type: "string" },
    force: { type: "boolean" },
    reason: { type: "string" },
    status: { type: "string" },
    provider: { type: "string" },
    email: { type: "string" },
    from: { type: "string" },
    to: { type: "string", multiple: true },
    subject: { type: "string" },
    html: { type: "string" },
    text: { type: "string" },
    help: { type: "boolean", short: "h" },
    version: { type: "boolean" },
  },
} as const;

export type Options = ReturnType<typeof parseArgs<typeof ARGUMENTS>>["values"];

/** What every command may use: the configuration and what main.ts read from the environment for it. */
export interface Invocation {
  config: Config;
  /** How to run this CLI again, with the `--config` it was given: for the commands it prints, so they paste. */
  cli: string;
  /** MAILROOM_SECRET_KEY, the master key when it is given in the environment rather than in the data directory. */
  secretKey: string | undefined;
}

/** What a command that acts on the store gets. */
export interface CommandContext extends Invocation {
  services: Services;
  /** The local operator: full access to the default organisation, as a live sender. */
  actor: Actor;
  options: Options;
  /** The words after the command and its verb: `domains providers NAME P,Q` → [NAME, "P,Q"]; `backup FILE` → [FILE]. */
  args: readonly string[];
  print: Print;
}

export type Command = (context: CommandContext) => Promise<void>;

/** A command group's verbs (`keys create`), in the order `--help` and its errors name them. */
export type CommandGroup = Readonly<Record<string, Command>>;

/**
 * A numeric setting given on the command line: a positive whole number, `reset` (the word that returns it to its
 * default, or to none) as null, absent as undefined.
 */
export function settingOf(option: string, given: string | undefined, reset: "default" | "none" | null) {
  if (given === undefined) return undefined;
  if (reset !== null && given === reset) return null;
  if (!/^[1-9][0-9]{0,9}$/.test(given))
    fail(`--${option} takes a positive whole number${reset === null ? "" : ` or ${reset}`}, not ${given}`);
  return Number(given);
}
