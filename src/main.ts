#!/usr/bin/env bun
/**
 * The command line: `serve` and the operator commands. The only module that reads argv and the environment and
 * writes to stdout; everything it does goes through the same services the API uses.
 */
import { publicLinkBase } from "./config/links.ts";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, delimiter, dirname, isAbsolute, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createApp, createServices, VERSION, type Services } from "./server/app.ts";
import { databasePath } from "./db/open.ts";
import { ConfigError, loadConfig, redactedConfig } from "./config/load.ts";
import type { Config } from "./config/schema.ts";
import { SEALED_PREFIX, unsealConfig } from "./config/sealed.ts";
import type { DomainView } from "./domains/model.ts";
import { checkSendRequest } from "./emails/validate.ts";
import { AppError } from "./errors.ts";
import { createdKeyAnswer } from "./keys/model.ts";
import type { OrganizationView } from "./organizations/service.ts";
import { OrganizationPatchSchema, parseOrganizationPatch } from "./organizations/validate.ts";
import { checkShape } from "./schema-check.ts";
import { operatorActor, SCOPES, type Actor, type Role } from "./access.ts";
import { ROLES } from "./db/schema/people.ts";
import { QUEUE_STATUSES, type QueueStatus } from "./deliveries/queue.ts";
import { createLogger } from "./lib/logger.ts";
import { PRIVATE_FILE_MODE } from "./lib/private-files.ts";
import { createSecretBox, loadMasterKey, masterKeyFile, parseMasterKey } from "./lib/secrets.ts";
import { stringify as toToml } from "smol-toml";

const USAGE = `mailroom ${VERSION} — self-hosted transactional email

Usage: mailroom [--config FILE] <command> [options]

Commands:
  serve                                   run the HTTP API and delivery workers (default)
  init                                    create the data directory, the organisation and a first test key
  keys create --name N --scope S [--scope S…] [--test] [--domain D…] [--rate-limit N] [--daily-quota N] [--json]
  keys list [--json]
  keys revoke ID
  domains add NAME [--verified] [--providers P,Q] [--json]
                                          prints the DNS records to publish; --verified: operator override,
                                          skips the DNS requirement (labelled as such); --providers: the
                                          providers that take its mail, first choice first
  domains providers NAME [P,Q]            set (or, without a list, clear) the domain's providers
  domains list [--json]
  domains verify NAME [--json]            check the domain's DNS records now and print their status
  domains remove NAME [--force]           refused while mail from it is queued; --force fails that mail
  suppressions list [--json] | add EMAIL [--reason R] | remove EMAIL
  org create NAME [--json]                a new organisation (invite its owner with users create --org ID)
  org show [--json]                       limits, daily quota and today's usage, retention, storage, pause
  org set [--name N] [--rate-limit N|default] [--daily-quota N|none] [--content-days N|default]
          [--metadata-days N|default] [--json]
                                          change the organisation's settings; default: the configured value
  users create --email E --org ID --role owner|admin|developer|viewer [--name N]
                                          a person, member of the organisation; prints a one-time link to set
                                          their password (valid a day)
  users list [--json]                     people, their organisations and roles
  users reset-password EMAIL              prints a one-time link to set a new password; their sessions end when
                                          it is used
  queue summary [--json]                  what waits: by status, destination domain and provider, and the oldest
  queue list [--status S] [--domain D] [--provider P] [--email E] [--json]
                                          the recipients waiting, oldest first, with attempts and last reply
  queue retry|cancel|release [ID] [--status S] [--domain D] [--provider P] [--email E]
                                          one delivery by id, or every one of the filter (at least one)
  pause [--domain D | --provider P] [--reason R]   pause sending (the organisation's, without an option): mail is
                                          still accepted and waits as held
  resume [--domain D | --provider P]      resume: what the pause held goes out
  tls-rpt send [--json]                   send the TLS reports (RFC 8460) of every period that has ended now
  send --from F --to T [--to T…] --subject S (--html H | --text T) [--test]   --test: captured, never delivered
  backup FILE                             consistent copy of the database while running
  secrets seal                            seal the secret read from stdin under the master key; any secret
                                          option (a provider's password or key) may hold the sealed value
  print-config                            effective configuration, secrets redacted
  version                                 the version (also --version)

Configuration: --config FILE (or MAILROOM_CONFIG; else ./mailroom.toml when present), then MAILROOM_<SECTION>_<KEY>
environment variables. From a clone (npm start, npx mailroom) the SMTP ports default to 2587 and 2465, inbound to 2525.
Scopes: full_access, sending_access, ${SCOPES.join(", ")}`;

/** The commands, with the verbs of those that take one (`keys create`): checked before any store is opened. */
const COMMANDS: Record<string, readonly string[] | null> = {
  serve: null,
  init: null,
  keys: ["create", "list", "revoke"],
  domains: ["add", "providers", "list", "verify", "remove"],
  suppressions: ["list", "add", "remove"],
  org: ["create", "show", "set"],
  users: ["create", "list", "reset-password"],
  queue: ["summary", "list", "retry", "cancel", "release"],
  "tls-rpt": ["send"],
  pause: null,
  resume: null,
  send: null,
  backup: null,
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
/** How to run this CLI again, with the `--config` it was given (set once the arguments are read). */
let CLI = cliName();

/**
 * A clone (`npm start` and `npx mailroom`, which both name the CLI `npx mailroom`) listens on unprivileged ports
 * unless its configuration says otherwise: one place, so that the server and the CLI run beside it agree.
 */
const CLONE_DEFAULTS = { smtp: { submission_port: 2587, smtps_port: 2465 }, inbound: { port: 2525 } };

/** Read when present and no other file is named: the configuration of whoever runs Mailroom from this directory. */
const LOCAL_CONFIG = "mailroom.toml";

const out = (text: string): void => {
  process.stdout.write(`${text}\n`);
};

/**
 * A numeric setting given on the command line: a positive whole number, `reset` (the word that returns it to its
 * default, or to none) as null, absent as undefined.
 */
function settingOf(option: string, given: string | undefined, reset: "default" | "none" | null) {
  if (given === undefined) return undefined;
  if (reset !== null && given === reset) return null;
  if (!/^[1-9][0-9]{0,9}$/.test(given))
    fail(`--${option} takes a positive whole number${reset === null ? "" : ` or ${reset}`}, not ${given}`);
  return Number(given);
}

/** Where people reach this server: the configured public address (config/links.ts), else where it listens. */
function baseUrl(config: Config): string {
  const host = config.http.host === "0.0.0.0" ? "127.0.0.1" : config.http.host;
  return publicLinkBase(config) ?? `http://${host}:${config.http.port}`;
}

function describeOrganization(organization: OrganizationView): void {
  const { retention, storage } = organization;
  out(`${organization.name} (${organization.id})${organization.paused ? "  — sending paused" : ""}`);
  out(`  request limit: ${organization.rate_limit} per minute, all keys together`);
  out(`  daily quota:   ${organization.daily_quota ?? "none"}; ${organization.usage_today} live messages today (UTC)`);
  out(`  retention:     content ${retention.content_days} days, records ${retention.metadata_days} days`);
  out(
    storage
      ? `  storage:       ${storage.messages} messages, ${storage.content_bytes} bytes of content (counted ${storage.measured_at})`
      : "  storage:       not counted yet (the retention job counts it)",
  );
}

function fail(message: string, code = 1): never {
  process.stderr.write(`mailroom: ${message}\n`);
  process.exit(code);
}

function domainLine(domain: DomainView): string {
  const providers = domain.providers.length ? `  providers: ${domain.providers.join(", ")}` : "";
  return `${domain.name}  ${domain.status}${domain.verified_override ? " (operator override)" : ""}${providers}`;
}

/** `--status` of the queue commands, one of the statuses the queue lists. */
function queueStatus(status: string): QueueStatus {
  if (!(QUEUE_STATUSES as readonly string[]).includes(status))
    fail(`--status must be one of ${QUEUE_STATUSES.join(", ")}`, 2);
  return status as QueueStatus;
}

/** `a,b` (or `a b`) → ["a", "b"]; absent → undefined. */
const providerList = (text: string | undefined) => text?.split(/[\s,]+/).filter(Boolean);

/** Each record to publish, then (after a check) what DNS answered beside it, and why it cannot work yet if it cannot. */
function recordLines(domain: DomainView): string {
  return domain.records
    .map((r) => {
      const lines = [
        `  ${r.record.padEnd(7)} ${r.type.padEnd(3)} ${r.name}  ${r.priority !== undefined ? `${r.priority} ` : ""}${r.value}  [${r.status}]`,
      ];
      if (r.found !== undefined && r.status !== "verified")
        lines.push(
          `          found: ${r.found === null ? "(lookup failed)" : r.found.length ? r.found.join(" | ") : "nothing"}`,
        );
      if (r.warning) lines.push(`          warning: ${r.warning}`);
      return lines.join("\n");
    })
    .join("\n");
}

/** The local operator: full access to the default organisation, as a live sender. */
async function operator(services: Services): Promise<Actor> {
  return operatorActor((await services.organizations.ensureDefault()).id);
}

/** Creates the organisation and, on a fresh store, a test key printed once. */
async function initialise(services: Services): Promise<void> {
  const org = await services.organizations.ensureDefault();
  if (!org.created) return;
  const key = await services.keys.create(operatorActor(org.id), {
    name: "Getting started (test mode)",
    scopes: ["full_access"],
    mode: "test",
  });
  out(`Created the organisation and a test-mode API key (shown once, mail is captured, never delivered):`);
  out(`  ${key.key}`);
  out(`Create a live key with: ${CLI} keys create --name production --scope sending_access`);
}

async function serve(config: Config): Promise<void> {
  const app = await createApp(config, { secretKey: process.env.MAILROOM_SECRET_KEY });
  // The first-run key is made only once every listener is up: a start that fails (a port taken, no permission for
  // 587) must leave it to the next start rather than print it and exit.
  const listeners = await app.start();
  await initialise(app.services);
  const http = listeners.find((l) => l.name === "http")!;
  const base = config.http.public_url || `http://${http.host === "0.0.0.0" ? "127.0.0.1" : http.host}:${http.port}`;
  out(
    `Admin UI: ${base}/   (sign in with email and password, or with an API key; a new one: ${CLI} keys create --name admin --scope full_access)`,
  );
  // Printed at each start until it is used: whoever runs the server creates the first user, and only they see it.
  const setup = await app.services.people.setupLink();
  if (setup)
    out(`First user: ${base}/setup#${setup}   (one-time link: creates the owner who signs in with a password)`);
  out(`API docs: ${base}/docs`);
  out(`mailroom ready ${listeners.map((l) => `${l.name}=${l.host}:${l.port}`).join(" ")}`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    app.services.logger.info("shutting down", { signal });
    await app.stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

/**
 * Reads a secret from stdin (never argv: it would show in `ps` and the shell's history) and prints it sealed under
 * the master key, as a secret option's value.
 */
async function sealSecret(config: Config): Promise<void> {
  const secret = (await new Response(Bun.stdin.stream()).text()).replace(/\r?\n$/, "");
  if (!secret) fail(`secrets seal reads the secret from stdin, e.g.: printf %s "$PASSWORD" | ${CLI} secrets seal`);
  const box = createSecretBox(loadMasterKey(process.env.MAILROOM_SECRET_KEY, config.data_dir, createLogger("warn")));
  out(SEALED_PREFIX + box.seal(secret));
}

/** An unknown command or verb is the user's typing: one line naming it and what there is, exit 2. */
function checkCommand(command: string, sub: string | undefined): void {
  if (!(command in COMMANDS))
    fail(
      `unknown command "${command}"; the commands are ${Object.keys(COMMANDS).join(", ")} (${CLI} --help shows their options)`,
      2,
    );
  const verbs = COMMANDS[command];
  if (verbs && !verbs.includes(sub ?? ""))
    fail(
      sub
        ? `unknown command "${command} ${sub}"; ${command} takes ${verbs.join(", ")}`
        : `"${command}" needs one of ${verbs.join(", ")} (e.g. ${CLI} ${command} ${verbs[0]})`,
      2,
    );
}

/**
 * A sealed secret shown as `<redacted>` must be one that opens, as `serve` would open it: else the same error, here.
 * Reads the master key without creating one (print-config makes nothing).
 */
function checkSealedSecrets(config: Config): void {
  const keyFile = masterKeyFile(config.data_dir);
  const key = process.env.MAILROOM_SECRET_KEY ?? (existsSync(keyFile) ? readFileSync(keyFile, "utf8") : undefined);
  const unopenable = {
    open(): string {
      throw new Error("no master key");
    },
  };
  unsealConfig(config, key ? createSecretBox(parseMasterKey(key)) : unopenable);
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
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
  });
  if (values.help) return out(USAGE);
  const [command = "serve", sub, arg] = positionals;
  if (values.version || command === "version") return out(VERSION);
  checkCommand(command, sub);
  if (positionals.length === 0) out(`mailroom: no command given, so serving (${CLI} --help lists the commands)`);
  if (values.config) CLI = `${CLI} --config ${shellWord(values.config)}`;
  const file = values.config ?? process.env.MAILROOM_CONFIG ?? (existsSync(LOCAL_CONFIG) ? LOCAL_CONFIG : undefined);
  const config = await loadConfig({
    file,
    env: process.env,
    defaults: process.env.MAILROOM_CLI_NAME === "npx mailroom" ? CLONE_DEFAULTS : undefined,
  });

  if (command === "serve") return serve(config);
  if (command === "print-config") {
    checkSealedSecrets(config);
    return out(toToml(redactedConfig(config)));
  }
  if (command === "secrets" && sub === "seal") return sealSecret(config);
  if (!config.store.url && command !== "init") {
    // The CLI acts on the server's store: run elsewhere, it must not quietly make a second, empty one.
    const database = resolve(databasePath(config));
    if (!existsSync(database)) {
      fail(
        `no Mailroom store at ${database}. Run this where the server runs (or point at its data: --config FILE or MAILROOM_DATA_DIR=…); to create a new store here: ${CLI} init`,
      );
    }
    process.stderr.write(`mailroom: store ${database}\n`);
  }

  const services = await createServices(config, { secretKey: process.env.MAILROOM_SECRET_KEY });
  try {
    // Before anything else touches the store: the organisation init creates comes with the first key.
    if (command === "init") {
      await initialise(services);
      return out(`Data directory ready: ${config.data_dir}`);
    }
    const actor = await operator(services);
    const print = (value: unknown, human: () => void) => (values.json ? out(JSON.stringify(value, null, 2)) : human());
    // Grouped commands have a verb (`keys create`); the others take their argument directly (`backup FILE`).
    const grouped = ["keys", "domains", "suppressions", "org", "users", "queue", "tls-rpt"].includes(command);
    const queueFilter = () => ({
      status: values.status === undefined ? undefined : queueStatus(values.status),
      domain: values.domain?.[0],
      provider: values.provider,
      emailId: values.email,
    });
    switch (grouped ? `${command} ${sub ?? ""}`.trim() : command) {
      case "tls-rpt send": {
        const tally = await services.tlsReports.sendDue();
        return print(tally, () =>
          out(
            `TLS reports: ${tally.sent} sent, ${tally.notAsked} not asked for (no _smtp._tls record), ${tally.failed} not delivered (tried again later)`,
          ),
        );
      }
      case "keys create": {
        const key = await services.keys.create(actor, {
          name: values.name ?? "",
          scopes: values.scope ?? [],
          mode: values.test ? "test" : "live",
          domains: values.domain,
          rateLimitPerMinute: settingOf("rate-limit", values["rate-limit"], null),
          dailyQuota: settingOf("daily-quota", values["daily-quota"], null),
        });
        return print(createdKeyAnswer(key), () => out(`${key.key}\n(id ${key.id}; shown once — store it now)`));
      }
      case "keys list": {
        const { data: keys } = await services.keys.list(actor, {
          limit: Number.MAX_SAFE_INTEGER,
          includeRevoked: true,
        });
        return print(keys, () =>
          keys.forEach((k) =>
            out(
              `${k.id}  ${k.token_prefix}…  ${k.mode}  ${k.revoked_at ? "revoked" : "active "}  ${k.name}  [${k.scopes.join(" ")}]${k.domains ? ` domains: ${k.domains.join(",")}` : ""}`,
            ),
          ),
        );
      }
      case "keys revoke": {
        if (!arg) fail("keys revoke needs a key id");
        const key = await services.keys.revoke(actor, arg);
        return print(key, () => out(`revoked ${key.id} (${key.name})`));
      }
      case "domains add": {
        if (!arg) fail("domains add needs a domain name");
        const domain = await services.domains.add(actor, arg, {
          verifiedOverride: values.verified,
          providers: providerList(values.providers),
        });
        return print(domain, () => {
          out(domainLine(domain));
          out(`Publish these DNS records, then run: ${CLI} domains verify ${domain.name}`);
          out(recordLines(domain));
        });
      }
      case "domains list": {
        const { data: domains } = await services.domains.list(actor, { limit: Number.MAX_SAFE_INTEGER });
        return print(domains, () => domains.forEach((d) => out(domainLine(d))));
      }
      case "domains verify": {
        if (!arg) fail("domains verify needs a domain name");
        const domain = await services.domains.verify(actor, arg);
        return print(domain, () => {
          out(domainLine(domain));
          out(recordLines(domain));
        });
      }
      case "domains providers": {
        if (!arg) fail("domains providers needs a domain name");
        const domain = await services.domains.update(actor, arg, {
          providers: providerList(positionals.slice(3).join(",")) ?? [],
        });
        return print(domain, () => {
          out(domainLine(domain));
          out(recordLines(domain));
        });
      }
      case "domains remove": {
        if (!arg) fail("domains remove needs a domain name");
        const removed = await services.domains.remove(actor, arg, { force: values.force });
        return print(removed, () => out(`removed ${removed.name}`));
      }
      case "suppressions list": {
        const page = await services.suppressions.list(actor, { limit: 100_000 });
        return print(page.data, () =>
          page.data.forEach((s) => out(`${s.email}  ${s.origin}  ${s.created_at}${s.reason ? `  ${s.reason}` : ""}`)),
        );
      }
      case "suppressions add": {
        if (!arg) fail("suppressions add needs an address");
        const entry = await services.suppressions.add(actor, { email: arg, reason: values.reason ?? null });
        return print(entry, () => out(`suppressed ${entry.email}`));
      }
      case "suppressions remove": {
        if (!arg) fail("suppressions remove needs an address");
        const entry = await services.suppressions.remove(actor, arg);
        return print(entry, () => out(`removed ${entry.email}`));
      }
      case "org create": {
        if (!arg) fail("org create needs the organisation's name");
        const created = await services.people.createOrganization(actor, arg);
        return print(created, () =>
          out(
            `created organisation ${created.name} (${created.id}); its owner: ${CLI} users create --email E --org ${created.id} --role owner`,
          ),
        );
      }
      case "users create": {
        if (!values.email || !values.org || !values.role)
          fail("users create needs --email, --org (an organisation id) and --role (owner, admin, developer or viewer)");
        if (!(ROLES as readonly string[]).includes(values.role))
          fail(`--role takes ${ROLES.join(", ")}, not ${values.role}`);
        const { user, token } = await services.people.createUser({
          email: values.email,
          name: values.name,
          organizationId: values.org,
          role: values.role as Role,
        });
        return out(
          `${user.email} is ${values.role} of ${values.org}; their password, within a day: ${baseUrl(config)}/password#${token}`,
        );
      }
      case "users list": {
        const people = await services.people.listUsers();
        return print(people, () =>
          people.forEach((u) =>
            out(
              `${u.email}  ${u.name}${u.instance_admin ? "  (instance admin)" : ""}  ${u.organizations.map((o) => `${o.name}:${o.role}`).join(", ")}`,
            ),
          ),
        );
      }
      case "users reset-password": {
        if (!arg) fail("users reset-password needs the person's email");
        const token = await services.people.passwordLink(arg);
        return out(`a new password for ${arg}, within a day: ${baseUrl(config)}/password#${token}`);
      }
      case "org show":
      case "org set": {
        const organization =
          sub === "show"
            ? await services.organizations.show(actor)
            : await services.organizations.update(
                actor,
                parseOrganizationPatch(
                  checkShape(OrganizationPatchSchema, {
                    name: values.name,
                    rate_limit: settingOf("rate-limit", values["rate-limit"], "default"),
                    daily_quota: settingOf("daily-quota", values["daily-quota"], "none"),
                    retention: {
                      content_days: settingOf("content-days", values["content-days"], "default"),
                      metadata_days: settingOf("metadata-days", values["metadata-days"], "default"),
                    },
                  }),
                ),
              );
        return print(organization, () => describeOrganization(organization));
      }
      case "queue summary": {
        const summary = await services.queue.summary(actor);
        return print(summary, () => {
          const { queued, deferred, held, sending } = summary.by_status;
          out(`waiting: ${queued} queued, ${deferred} deferred, ${held} held, ${sending} sending`);
          out(`oldest waiting since: ${summary.oldest_waiting_at ?? "nothing waits"}`);
          for (const row of summary.by_domain)
            out(
              `  ${row.domain}  ${row.queued} queued, ${row.deferred} deferred, ${row.held} held  since ${row.oldest_at}`,
            );
        });
      }
      case "queue list": {
        const page = await services.queue.list(actor, { limit: 100, ...queueFilter() });
        return print(page.data, () =>
          page.data.forEach((d) =>
            out(
              `${d.id}  ${d.recipient}  ${d.status}  attempts ${d.attempts}  next ${d.next_attempt_at ?? "-"}  ${d.last_response ?? ""}`,
            ),
          ),
        );
      }
      case "queue retry":
      case "queue cancel":
      case "queue release": {
        const action = sub as "retry" | "cancel" | "release";
        if (arg) {
          const delivery = await services.queue.act(actor, action, arg);
          return print(delivery, () => out(`${delivery.id}  ${delivery.recipient}  now ${delivery.status}`));
        }
        const result = await services.queue.actOnAll(actor, action, queueFilter());
        return print(result, () => out(`${action}: ${result.changed} of ${result.matched} matching changed`));
      }
      case "pause":
      case "resume": {
        if (values.domain && values.provider) fail(`${command} takes --domain or --provider, not both`, 2);
        const target = values.domain
          ? { scope: "domain" as const, name: values.domain[0] }
          : values.provider
            ? { scope: "provider" as const, name: values.provider }
            : { scope: "organization" as const };
        const what = target.scope === "organization" ? "the organisation" : `${target.scope} ${target.name}`;
        if (command === "pause") {
          const state = await services.pauses.pause(actor, { ...target, reason: values.reason ?? null });
          return print(state, () => out(`sending paused for ${what}: its mail is accepted and held`));
        }
        const state = await services.pauses.resume(actor, target);
        return print(state, () => out(`sending resumed for ${what}; ${state.released} held recipients released`));
      }
      case "send": {
        const fields = await checkSendRequest(
          { from: values.from, to: values.to, subject: values.subject, html: values.html, text: values.text },
          { now: Date.now(), maxRecipients: config.limits.max_recipients },
        );
        // --test sends as a test key would: from any domain, captured, never delivered.
        const sender: Actor = values.test ? { ...actor, mode: "test" } : actor;
        const { id } = await services.emails.submit({ kind: "fields", source: "cli", fields }, sender);
        return print({ id }, () =>
          out(
            `queued ${id} (${values.test ? "test mode: captured, never delivered" : "delivered by the running server"})`,
          ),
        );
      }
      case "backup": {
        if (!sub) fail("backup needs a destination file");
        const keyCopy = `${sub}.secret.key`;
        for (const file of [sub, keyCopy]) if (existsSync(file)) fail(`${file} exists; choose a new file`);
        if (services.store.engine === "postgres")
          fail("the store is PostgreSQL: back it up with pg_dump (see the README, Backup)");
        // VACUUM INTO writes a consistent snapshot while other connections keep reading and writing (WAL).
        try {
          await services.store.backup(sub);
        } catch (error) {
          fail(`backup to ${sub} failed: ${(error as Error).message}`);
        }
        out(`backed up ${databasePath(config)} to ${sub}`);
        // DKIM keys and webhook secrets in the copy open only with the master key: a backup without it cannot be restored.
        if (process.env.MAILROOM_SECRET_KEY)
          return out(
            "The master key is MAILROOM_SECRET_KEY: keep its value with this backup; without it the DKIM keys and webhook secrets in it cannot be read.",
          );
        // Owner-only from its creation, like the database copy (store.backup): the key opens every secret in that copy.
        writeFileSync(keyCopy, readFileSync(masterKeyFile(config.data_dir)), { mode: PRIVATE_FILE_MODE, flag: "wx" });
        return out(
          `copied the master key to ${keyCopy} (mode 0600): restore it as secret.key in the data directory with the database; without it the DKIM keys and webhook secrets cannot be read.`,
        );
      }
      default:
        fail(`unknown command "${[command, sub].filter(Boolean).join(" ")}"\n\n${USAGE}`, 2);
    }
  } finally {
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
