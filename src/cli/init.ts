/**
 * `init` and the first run: the default organisation and, on a fresh store only, a test-mode key printed once.
 * `serve` calls the same first run once its listeners are up.
 */
import { operatorActor } from "../access.ts";
import type { Services } from "../server/app.ts";
import type { Invocation } from "./context.ts";
import { out } from "./output.ts";

/** Creates the organisation and, on a fresh store, a test key printed once. */
export async function initialise(services: Services, cli: string): Promise<void> {
  const org = await services.organizations.ensureDefault();
  if (!org.created) return;
  const key = await services.keys.create(operatorActor(org.id), {
    name: "Getting started (test mode)",
    scopes: ["full_access"],
    mode: "test",
  });
  out(`Created the organisation and a test-mode API key (shown once, mail is captured, never delivered):`);
  out(`  ${key.key}`);
  out(`Create a live key with: ${cli} keys create --name production --scope sending_access`);
}

/** `init`: run before anything else touches the store, so the organisation it creates comes with the first key. */
export async function init(services: Services, { config, cli }: Invocation): Promise<void> {
  await initialise(services, cli);
  out(`Data directory ready: ${config.data_dir}`);
}
