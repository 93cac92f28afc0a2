/**
 * `send`: one message from the command line, checked by the schema and rules of `POST /v1/emails` and submitted
 * through the same funnel (`emails.submit`); the running server delivers it. `--test` captures it instead.
 */
import type { Actor } from "../access.ts";
import { checkSendRequest } from "../emails/validate.ts";
import type { Command } from "./context.ts";
import { out } from "./output.ts";

export const send: Command = async ({ services, config, actor, options, print }) => {
  const fields = await checkSendRequest(
    { from: options.from, to: options.to, subject: options.subject, html: options.html, text: options.text },
    { now: Date.now(), maxRecipients: config.limits.max_recipients },
  );
  // --test sends as a test key would: from any domain, captured, never delivered.
  const sender: Actor = options.test ? { ...actor, mode: "test" } : actor;
  const { id } = await services.emails.submit({ kind: "fields", source: "cli", fields }, sender);
  print({ id }, () =>
    out(`queued ${id} (${options.test ? "test mode: captured, never delivered" : "delivered by the running server"})`),
  );
};
