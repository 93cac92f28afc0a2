/**
 * `org create|show|set`: organisations and their settings — request limit, daily quota, retention — with today's
 * usage and stored size. A setting given as `default` (or `none`) returns to the configured value.
 */
import type { OrganizationView } from "../organizations/service.ts";
import { OrganizationPatchSchema, parseOrganizationPatch } from "../organizations/validate.ts";
import { checkShape } from "../shape-check.ts";
import { type CommandGroup, settingOf } from "./context.ts";
import { fail, out } from "./output.ts";

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

export const org = {
  async create({ services, actor, args: [name], cli, print }) {
    if (!name) fail("org create needs the organisation's name");
    const created = await services.people.createOrganization(actor, name);
    print(created, () =>
      out(
        `created organisation ${created.name} (${created.id}); its owner: ${cli} users create --email E --org ${created.id} --role owner`,
      ),
    );
  },
  async show({ services, actor, print }) {
    const organization = await services.organizations.show(actor);
    print(organization, () => describeOrganization(organization));
  },
  async set({ services, actor, options, print }) {
    const organization = await services.organizations.update(
      actor,
      parseOrganizationPatch(
        checkShape(OrganizationPatchSchema, {
          name: options.name,
          rate_limit: settingOf("rate-limit", options["rate-limit"], "default"),
          daily_quota: settingOf("daily-quota", options["daily-quota"], "none"),
          retention: {
            content_days: settingOf("content-days", options["content-days"], "default"),
            metadata_days: settingOf("metadata-days", options["metadata-days"], "default"),
          },
        }),
      ),
    );
    print(organization, () => describeOrganization(organization));
  },
} satisfies CommandGroup;
