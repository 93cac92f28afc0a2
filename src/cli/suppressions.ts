/**
 * `suppressions list|add|remove`: the addresses the organisation never sends to (after a bounce, a complaint or an
 * unsubscribe, or by hand), through the suppression service the API uses.
 */
import type { CommandGroup } from "./context.ts";
import { fail, out } from "./output.ts";

export const suppressions = {
  async list({ services, actor, print }) {
    const page = await services.suppressions.list(actor, { limit: 100_000 });
    print(page.data, () =>
      page.data.forEach((s) => out(`${s.email}  ${s.origin}  ${s.created_at}${s.reason ? `  ${s.reason}` : ""}`)),
    );
  },
  async add({ services, actor, options, args: [email], print }) {
    if (!email) fail("suppressions add needs an address");
    const entry = await services.suppressions.add(actor, { email, reason: options.reason ?? null });
    print(entry, () => out(`suppressed ${entry.email}`));
  },
  async remove({ services, actor, args: [email], print }) {
    if (!email) fail("suppressions remove needs an address");
    const entry = await services.suppressions.remove(actor, email);
    print(entry, () => out(`removed ${entry.email}`));
  },
} satisfies CommandGroup;
