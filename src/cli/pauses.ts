/**
 * `pause` and `resume`: stop and restart sending for the organisation, one domain or one provider. Paused mail is
 * still accepted and waits as held; resuming releases it.
 */
import type { Command, Options } from "./context.ts";
import { fail, out } from "./output.ts";

/** What `--domain` or `--provider` (at most one of them) names; the organisation without either. */
function target(command: "pause" | "resume", options: Options) {
  if (options.domain && options.provider) fail(`${command} takes --domain or --provider, not both`, 2);
  const target = options.domain
    ? { scope: "domain" as const, name: options.domain[0] }
    : options.provider
      ? { scope: "provider" as const, name: options.provider }
      : { scope: "organization" as const };
  const what = target.scope === "organization" ? "the organisation" : `${target.scope} ${target.name}`;
  return { target, what };
}

export const pause: Command = async ({ services, actor, options, print }) => {
  const { target: paused, what } = target("pause", options);
  const state = await services.pauses.pause(actor, { ...paused, reason: options.reason ?? null });
  print(state, () => out(`sending paused for ${what}: its mail is accepted and held`));
};

export const resume: Command = async ({ services, actor, options, print }) => {
  const { target: resumed, what } = target("resume", options);
  const state = await services.pauses.resume(actor, resumed);
  print(state, () => out(`sending resumed for ${what}; ${state.released} held recipients released`));
};
