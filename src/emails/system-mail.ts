/**
 * Mail Mailroom sends for itself: a password link to a person who asked for one (DESIGN §13), from an organisation
 * of theirs with a verified sending domain, through the one outgoing funnel (`emails.submit`), so it is signed,
 * logged and delivered as that organisation's mail is.
 * Invariant: what such a message carries is a credential, so no member reads it — its record holds no html or
 * text, its raw MIME answers 410 to every reader (`PRIVATE_CONTENT_TAG`, a tag name no client can give), and it
 * is neither open- nor click-tracked, so the link appears in no event either.
 */
import { operatorActor } from "../access.ts";
import type { DomainService } from "../domains/service.ts";
import type { PasswordLinkSender } from "../people/service.ts";
import type { EmailIntake } from "./intake.ts";
import { PRIVATE_CONTENT_TAG } from "./model.ts";
import { checkSendRequest } from "./validate.ts";

export function createPasswordMailer(deps: {
  emails: EmailIntake;
  domains: DomainService;
  maxRecipients: number;
}): PasswordLinkSender {
  return {
    async sendPasswordLink({ organizationIds, to, url, validMinutes }) {
      for (const organizationId of organizationIds) {
        const actor = operatorActor(organizationId);
        const domain = (await deps.domains.list(actor)).data.find((d) => d.status === "verified");
        if (!domain) continue;
        const fields = await checkSendRequest(
          {
            from: `Mailroom <no-reply@${domain.name}>`,
            to,
            subject: "Set a new Mailroom password",
            text: `Someone, probably you, asked to set a new password for ${to} on Mailroom.\n\nSet it here (the link works once, for ${validMinutes} minutes):\n${url}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
          },
          { now: Date.now(), maxRecipients: deps.maxRecipients },
        );
        fields.tags.push(PRIVATE_CONTENT_TAG);
        fields.tracking = { opens: false, clicks: false };
        await deps.emails.submit({ kind: "fields", source: "api", fields }, actor);
        return true;
      }
      return false;
    },
  };
}
