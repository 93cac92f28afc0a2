/**
 * `domains add|providers|list|verify|remove`: the sending domains, and the DNS records each must publish — printed
 * with what DNS answered after a check, so the operator sees why a domain cannot send yet.
 */
import type { DomainView } from "../domains/model.ts";
import type { CommandGroup } from "./context.ts";
import { fail, out } from "./output.ts";

function domainLine(domain: DomainView): string {
  const providers = domain.providers.length ? `  providers: ${domain.providers.join(", ")}` : "";
  return `${domain.name}  ${domain.status}${domain.verified_override ? " (operator override)" : ""}${providers}`;
}

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

/** `a,b` (or `a b`) → ["a", "b"]; absent → undefined. */
const providerList = (text: string | undefined) => text?.split(/[\s,]+/).filter(Boolean);

/** The domain and its records, as `verify` and `providers` answer. */
const describe = (domain: DomainView) => () => {
  out(domainLine(domain));
  out(recordLines(domain));
};

// In the order `--help` and the errors name them.
export const domains = {
  async add({ services, actor, options, args: [name], cli, print }) {
    if (!name) fail("domains add needs a domain name");
    const domain = await services.domains.add(actor, name, {
      verifiedOverride: options.verified,
      providers: providerList(options.providers),
    });
    print(domain, () => {
      out(domainLine(domain));
      out(`Publish these DNS records, then run: ${cli} domains verify ${domain.name}`);
      out(recordLines(domain));
    });
  },
  async providers({ services, actor, args: [name, ...providers], print }) {
    if (!name) fail("domains providers needs a domain name");
    const domain = await services.domains.update(actor, name, {
      providers: providerList(providers.join(",")) ?? [],
    });
    print(domain, describe(domain));
  },
  async list({ services, actor, print }) {
    const { data } = await services.domains.list(actor, { limit: Number.MAX_SAFE_INTEGER });
    print(data, () => data.forEach((d) => out(domainLine(d))));
  },
  async verify({ services, actor, args: [name], print }) {
    if (!name) fail("domains verify needs a domain name");
    const domain = await services.domains.verify(actor, name);
    print(domain, describe(domain));
  },
  async remove({ services, actor, options, args: [name], print }) {
    if (!name) fail("domains remove needs a domain name");
    const removed = await services.domains.remove(actor, name, { force: options.force });
    print(removed, () => out(`removed ${removed.name}`));
  },
} satisfies CommandGroup;
