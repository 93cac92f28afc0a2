/**
 * `users create|list|reset-password`: the people who sign in to the admin UI. The CLI never sets a password: it
 * prints a one-time link, valid a day, at the address people reach this server by.
 */
import type { Role } from "../access.ts";
import { printedLinkBase } from "../config/links.ts";
import type { Config } from "../config/options.ts";
import { ROLES } from "../db/schema/people.ts";
import type { CommandGroup } from "./context.ts";
import { fail, out } from "./output.ts";

/** A one-time password link on its own line, and on the next where its address came from (config/links.ts). */
function printLink(config: Config, token: string) {
  const { base, source } = printedLinkBase(config);
  out(`  ${base}/password#${token}`);
  out(`  (this server's address ${source})`);
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
    const organization = (await services.people.listUsers())
      .find((u) => u.email === user.email)
      ?.organizations.find((o) => o.id === options.org);
    out(
      `${user.email} is ${options.role} of ${organization ? `${organization.name} (${options.org})` : options.org}. They set their password with this link, within a day:`,
    );
    printLink(config, token);
  },
  async list({ services, print }) {
    const people = await services.people.listUsers();
    print(people, () =>
      people.length === 0
        ? out(
            "No users yet: the first signs up with the setup link `mailroom serve` prints at its start, or is made with: mailroom users create --email E --org ORG_ID --role owner",
          )
        : people.forEach((u) =>
            out(
              `${u.email}  ${u.name}${u.instance_admin ? "  (instance admin)" : ""}  ${u.organizations.map((o) => `${o.name}:${o.role}`).join(", ")}`,
            ),
          ),
    );
  },
  async "reset-password"({ services, config, args: [email] }) {
    if (!email) fail("users reset-password needs the person's email");
    const token = await services.people.passwordLink(email);
    out(`${email} sets a new password with this link, within a day:`);
    printLink(config, token);
  },
} satisfies CommandGroup;
