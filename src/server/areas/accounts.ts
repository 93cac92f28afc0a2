/**
 * The accounts' areas, wired (docs/architecture.md#the-composition-root): organisations, people with their members
 * and single sign-on, API keys, the suppression list and the recipient lifecycle that writes to it, and the
 * audience (contacts, their topics and segments: sending with a topic asks it, so it stands before sending). Mail about
 * accounts goes out through the emails service, which is built later on these: `mailThrough` hands it in.
 */
import { publicLinkBase } from "../../config/links.ts";
import { createPropertyService, createSegmentService, createTopicService } from "../../contacts/audience.ts";
import { createContactImports } from "../../contacts/imports.ts";
import { createMembership } from "../../contacts/membership.ts";
import { createContactService } from "../../contacts/service.ts";
import { createLifecycle } from "../../deliveries/lifecycle.ts";
import { createKeyService } from "../../keys/service.ts";
import { createOrganizationService } from "../../organizations/service.ts";
import { createMembers } from "../../people/members.ts";
import { createPeople, type AccountMail } from "../../people/service.ts";
import { createSingleSignOn } from "../../people/sso.ts";
import { createSuppressionService } from "../../suppressions/service.ts";
import type { Foundation } from "../foundation.ts";

export function wireAccounts(base: Foundation) {
  const { db, writer, clock, config, store, events, logger, secrets } = base;
  let mailer: AccountMail | undefined;
  const mail: AccountMail = { send: async (input) => (await mailer?.send(input)) ?? false };
  const linkBase = publicLinkBase(config);
  const people = createPeople({
    db,
    writer,
    clock,
    secrets,
    totpIssuer: config.http.public_url ? `Mailroom (${new URL(config.http.public_url).host})` : "Mailroom",
    ssoRequired: config.oidc.required && Boolean(config.oidc.issuer),
    mail,
    linkBase,
    logger,
  });
  const suppressions = createSuppressionService({ db, writer, clock, events, listen: store.listen });
  const audience = { db, writer, clock, events, listen: store.listen };
  const contacts = createContactService(audience);
  return {
    organizations: createOrganizationService({ db, writer, clock, defaults: base.organizationDefaults }),
    people,
    members: createMembers({ db, writer, clock, people, mail, linkBase }),
    sso: createSingleSignOn({ db, writer, clock, config: config.oidc, people }),
    suppressions,
    contacts,
    membership: createMembership({ ...audience, contacts }),
    segments: createSegmentService(audience),
    topics: createTopicService(audience),
    contactProperties: createPropertyService(audience),
    contactImports: createContactImports({ ...audience, dataDir: config.data_dir, logger }),
    lifecycle: createLifecycle({ events, suppressions, clock }),
    keys: createKeyService({
      db,
      writer,
      clock,
      defaultKeyRateLimit: config.limits.key_requests_per_minute,
      listen: store.listen,
    }),
    /** Hands in the sender of mail about accounts, once the emails service exists. */
    mailThrough(sender: AccountMail) {
      mailer = sender;
    },
  };
}
