/**
 * `mailroom --help`: every command with its options, as the README prints them. The commands main.ts accepts are
 * the ones it dispatches to; this text is where a new command or flag is told.
 */
import { SCOPES } from "../access.ts";
import { VERSION } from "../server/app.ts";

export const USAGE = `mailroom ${VERSION} — self-hosted transactional email

Usage: mailroom [--config FILE] <command> [options]

Commands:
  serve                                   run the HTTP API and delivery workers (default)
  init                                    create the data directory, the organisation and a first test key
  mcp                                     MCP tools over stdio for a local agent, acting as the API key in
                                          MAILROOM_API_KEY (required; the tools follow its scopes) against the
                                          server at MAILROOM_URL (default: [http] public_url, else host:port)
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
  restore FILE                            a backup (and FILE.secret.key) into an empty data directory
  secrets seal                            seal the secret read from stdin under the master key; any secret
                                          option (a provider's password or key) may hold the sealed value
  print-config                            effective configuration, secrets redacted
  version                                 the version (also --version)

Configuration: --config FILE (or MAILROOM_CONFIG; else ./mailroom.toml when present), then MAILROOM_<SECTION>_<KEY>
environment variables. From a clone (npm start, npx mailroom) the SMTP ports default to 2587 and 2465, inbound to 2525.
Scopes: full_access, sending_access, ${SCOPES.join(", ")}`;
