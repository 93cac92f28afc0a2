/**
 * `users create|list|reset-password`: the people who sign in to the admin UI. The CLI never sets a password: it
 * prints a one-time link, valid a day, at the address people reach this server by.
 */
import type { Role } from "../access.ts";
import { publicLinkBase } from "../config/links.ts";
import type { Config } from "../config/options.ts";
import { ROLES } from "../db/schema/people.ts";
import type { CommandGroup } from "./context.ts";
import { fail, out } from "./output.ts";

/** Where people reach this server: the configured public address (config/links.ts), else where it listens. */
function baseUrl(config: Config): string {
  const host = config.http.host === "0.0.0.0" ? "127.0.0.1" : config.http.host;
  return publicLinkBase(config) ?? `http://${host}:${config.http.port}`;
}

export const users = {
  async create({ services, config, options }) {
    if (!options.email || !options.org || !options.role)
      fail("users create needs --email, --org (an organisation id) and --role (owner, admin, developer or viewer)");
    if (!(ROLES as readonly string[]).includes(options.role))
      fail(`--role takes ${ROLES.join(", ")}, not ${options.role}`);
    const { user, token } = await services.people.createUser({
      email: options.email,
      name: options.name,
      organizationId: options.org,
      role: options.role as Role,
    });
    out(
      `${user.email} is ${options.role} of ${options.org}; their password, within a day: ${baseUrl(config)}/password#${token}`,
    );
  },
  async list({ services, print }) {
    const people = await services.people.listUsers();
    print(people, () =>
      people.forEach((u) =>
        out(
          `${u.email}  ${u.name}${u.instance_admin ? "  (instance admin)" : ""}  ${u.organizations.map((o) => `${o.name}:${o.role}`).join(", ")}`,
        ),
      ),
    );
  },
  async "reset-password"({ services, config, args: [email] }) {
    if (!email) fail("users reset-password needs the person's email");
    const token = await services.people.passwordLink(email);
    out(`a new password for ${email}, within a day: ${baseUrl(config)}/password#${token}`);
  },
} satisfies CommandGroup;
