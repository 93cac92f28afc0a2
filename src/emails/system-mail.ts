/**
 * Mail Mailroom sends for itself about people's accounts (docs/teams.md#system-mail): password links, invitations
 * and notices such as a locked sign-in, from an organisation of theirs with a verified sending domain, through the
 * one outgoing funnel (`emails.submit`), so it is signed, delivered, retried and bounce-handled as that
 * organisation's mail is.
 * Invariant: the funnel records it as system mail (`SubmitOptions.system`, which only this module gives), so it is
 * not the organisation's: left out of its lists, counts and webhooks, and of its daily quota; its record holds no
 * html or text and its raw MIME answers 410, and it is neither open- nor click-tracked, so a link it carries appears
 * in no event either.
 */
import { operatorActor } from "../access.ts";
import type { DomainService } from "../domains/service.ts";
import type { Logger } from "../lib/logger.ts";
import type { AccountMail } from "../people/accounts.ts";
import type { EmailIntake } from "./intake.ts";
import { checkSendRequest } from "./validate.ts";

export function createAccountMailer(deps: {
  emails: EmailIntake;
  domains: DomainService;
  maxRecipients: number;
  logger?: Logger;
}): AccountMail {
  return {
    async send({ organizationIds, to, subject, text, private: privateKind }) {
      for (const organizationId of organizationIds) {
        const actor = operatorActor(organizationId);
        const domain = (await deps.domains.list(actor)).data.find((d) => d.status === "verified");
        if (!domain) continue;
        const fields = await checkSendRequest(
          { from: `Mailroom <no-reply@${domain.name}>`, to, subject, text },
          { now: Date.now(), maxRecipients: deps.maxRecipients },
        );
        fields.tracking = { opens: false, clicks: false };
        const system = privateKind ?? "notice";
        const { id } = await deps.emails.submit({ kind: "fields", source: "api", fields }, actor, { system });
        // The operator's way to it, since no list of the organisation shows it (docs/teams.md#system-mail): ids only.
        deps.logger?.info("system mail accepted", { email_id: id, organization_id: organizationId, kind: system });
        return true;
      }
      return false;
    },
  };
}
