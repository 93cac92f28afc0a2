/**
 * Mail Mailroom sends for itself about people's accounts (docs/teams.md): password links, invitations and notices
 * such as a locked sign-in, from an organisation of theirs with a verified sending domain, through the one outgoing
 * funnel (`emails.submit`), so it is signed, logged and delivered as that organisation's mail is.
 * Invariant: what carries a credential (a link) is private, so no member reads it — its record holds no html or
 * text, its raw MIME answers 410 to every reader (`PRIVATE_CONTENT_TAG`, a tag name no client can give), and it
 * is neither open- nor click-tracked, so the link appears in no event either.
 */
import { operatorActor } from "../access.ts";
import type { DomainService } from "../domains/service.ts";
import type { AccountMail } from "../people/accounts.ts";
import type { EmailIntake } from "./intake.ts";
import { PRIVATE_CONTENT_TAG } from "./model.ts";
import { checkSendRequest } from "./validate.ts";

export function createAccountMailer(deps: {
  emails: EmailIntake;
  domains: DomainService;
  maxRecipients: number;
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
        if (privateKind) fields.tags.push({ ...PRIVATE_CONTENT_TAG, value: privateKind });
        fields.tracking = { opens: false, clicks: false };
        await deps.emails.submit({ kind: "fields", source: "api", fields }, actor);
        return true;
      }
      return false;
    },
  };
}
