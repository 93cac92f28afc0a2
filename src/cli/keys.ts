/**
 * `keys create|list|revoke`: the organisation's API keys, managed by the local operator through the same key service
 * the API uses. A new key's secret is printed once, at creation.
 */
import { createdKeyAnswer } from "../keys/model.ts";
import { type CommandGroup, settingOf } from "./context.ts";
import { fail, out } from "./output.ts";

export const keys = {
  async create({ services, actor, options, print }) {
    const key = await services.keys.create(actor, {
      name: options.name ?? "",
      scopes: options.scope ?? [],
      mode: options.test ? "test" : "live",
      domains: options.domain,
      rateLimitPerMinute: settingOf("rate-limit", options["rate-limit"], null),
      dailyQuota: settingOf("daily-quota", options["daily-quota"], null),
    });
    print(createdKeyAnswer(key), () => out(`${key.key}\n(id ${key.id}; shown once — store it now)`));
  },
  async list({ services, actor, print }) {
    const { data } = await services.keys.list(actor, { limit: Number.MAX_SAFE_INTEGER, includeRevoked: true });
    print(data, () =>
      data.forEach((k) =>
        out(
          `${k.id}  ${k.token_prefix}…  ${k.mode}  ${k.revoked_at ? "revoked" : "active "}  ${k.name}  [${k.scopes.join(" ")}]${k.domains ? ` domains: ${k.domains.join(",")}` : ""}`,
        ),
      ),
    );
  },
  async revoke({ services, actor, args: [id], print }) {
    if (!id) fail("keys revoke needs a key id");
    const key = await services.keys.revoke(actor, id);
    print(key, () => out(`revoked ${key.id} (${key.name})`));
  },
} satisfies CommandGroup;
