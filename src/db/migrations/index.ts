import type { Database } from "bun:sqlite";
/**
 * Migrations embedded in the executable as SQL strings, one per engine, applied in order at start inside one
 * transaction each. Invariant: a migration once released is never edited; a change is a new numbered file
 * appended here, with its SQL for both engines (PostgreSQL support began at version 4, so its earlier steps
 * create the tables as they stand then, without the SQLite steps that moved data).
 */
import foundation, { postgres as foundationPg } from "./0001_foundation.ts";
import domains, { postgres as domainsPg } from "./0002_domains.ts";
import webhooks, { postgres as webhooksPg } from "./0003_webhooks.ts";
import emailContents, { postgres as emailContentsPg } from "./0004_email_contents.ts";
import sharedState, { postgres as sharedStatePg } from "./0005_shared_state.ts";
import receivedEmails, { postgres as receivedEmailsPg } from "./0006_received_emails.ts";
import templates, { postgres as templatesPg } from "./0007_templates.ts";
import providers, { postgres as providersPg } from "./0008_providers.ts";
import suppressionIds, { postgres as suppressionIdsPg } from "./0009_suppression_ids.ts";
import eventStats, { postgres as eventStatsPg } from "./0010_event_stats.ts";
import emailSearch, { postgres as emailSearchPg } from "./0011_email_search.ts";
import testModeMail, { postgres as testModeMailPg } from "./0012_test_mode_mail.ts";
import inboundUsage, { postgres as inboundUsagePg } from "./0013_inbound_usage.ts";
import contentParts, { postgres as contentPartsPg } from "./0014_content_parts.ts";
import rateWindows, { postgres as rateWindowsPg } from "./0015_rate_windows.ts";
import rateLeases, { postgres as rateLeasesPg } from "./0016_rate_leases.ts";
import operations, { postgres as operationsPg } from "./0017_operations.ts";
import retentionQuotas, { postgres as retentionQuotasPg } from "./0018_retention_quotas.ts";
import people, { postgres as peoplePg } from "./0019_people.ts";
import audit, { postgres as auditPg } from "./0020_audit.ts";
import invitations, { postgres as invitationsPg } from "./0021_invitations.ts";
import { sqlite as domainNames, postgres as domainNamesPg } from "./0022_domain_names.ts";
import signInFactors, { postgres as signInFactorsPg } from "./0023_sign_in_factors.ts";
import guardrails, { postgres as guardrailsPg } from "./0024_guardrails.ts";
import ed25519Dkim, { postgres as ed25519DkimPg } from "./0025_ed25519_dkim.ts";
import dmarcReports, { postgres as dmarcReportsPg } from "./0026_dmarc_reports.ts";
import domainTransport, { postgres as domainTransportPg } from "./0027_domain_transport.ts";
import tlsReports, { postgres as tlsReportsPg } from "./0028_tls_reports.ts";
import blocklists, { postgres as blocklistsPg } from "./0029_blocklists.ts";
import ipPools, { postgres as ipPoolsPg } from "./0030_ip_pools.ts";
import accountProtection, { postgres as accountProtectionPg } from "./0031_account_protection.ts";
import keyCreators, { postgres as keyCreatorsPg } from "./0032_key_creators.ts";
import contacts, { postgres as contactsPg } from "./0033_contacts.ts";
import contactScopes, { postgres as contactScopesPg } from "./0034_contact_scopes.ts";
import emailTopics, { postgres as emailTopicsPg } from "./0035_email_topics.ts";
import tlsLastSeen, { postgres as tlsLastSeenPg } from "./0040_tls_last_seen.ts";
import relayDsn, { postgres as relayDsnPg } from "./0043_relay_dsn.ts";
import systemMail, { postgres as systemMailPg } from "./0046_system_mail.ts";
import inboundRoutes, { postgres as inboundRoutesPg } from "./0041_inbound_routes.ts";
import broadcasts, { postgres as broadcastsPg } from "./0037_broadcasts.ts";
import requestLogs, { postgres as requestLogsPg } from "./0039_request_logs.ts";
import { sqlite as sendingLanes, postgres as sendingLanesPg } from "./0036_sending_lanes.ts";

export interface Migration {
  version: number;
  name: string;
  /** SQL, or a step that reads the schema it changes (a table rebuilt around a constraint SQLite cannot drop). */
  sqlite: string | ((db: Database) => void);
  postgres: string;
  /** Rebuilds tables: SQLite runs it with foreign keys off, and checks them before it commits. */
  rebuildsTables?: boolean;
}

export const MIGRATIONS: Migration[] = [
  { version: 1, name: "foundation", sqlite: foundation, postgres: foundationPg },
  { version: 2, name: "domains", sqlite: domains, postgres: domainsPg },
  { version: 3, name: "webhooks", sqlite: webhooks, postgres: webhooksPg },
  { version: 4, name: "email_contents", sqlite: emailContents, postgres: emailContentsPg },
  { version: 5, name: "shared_state", sqlite: sharedState, postgres: sharedStatePg },
  { version: 6, name: "received_emails", sqlite: receivedEmails, postgres: receivedEmailsPg },
  { version: 7, name: "templates", sqlite: templates, postgres: templatesPg },
  { version: 8, name: "providers", sqlite: providers, postgres: providersPg },
  { version: 9, name: "suppression_ids", sqlite: suppressionIds, postgres: suppressionIdsPg },
  { version: 10, name: "event_stats", sqlite: eventStats, postgres: eventStatsPg },
  { version: 11, name: "email_search", sqlite: emailSearch, postgres: emailSearchPg },
  { version: 12, name: "test_mode_mail", sqlite: testModeMail, postgres: testModeMailPg },
  { version: 13, name: "inbound_usage", sqlite: inboundUsage, postgres: inboundUsagePg },
  { version: 14, name: "content_parts", sqlite: contentParts, postgres: contentPartsPg },
  { version: 15, name: "rate_windows", sqlite: rateWindows, postgres: rateWindowsPg },
  { version: 16, name: "rate_leases", sqlite: rateLeases, postgres: rateLeasesPg },
  { version: 17, name: "operations", sqlite: operations, postgres: operationsPg },
  { version: 18, name: "retention_quotas", sqlite: retentionQuotas, postgres: retentionQuotasPg },
  { version: 19, name: "people", sqlite: people, postgres: peoplePg },
  { version: 20, name: "audit", sqlite: audit, postgres: auditPg },
  { version: 21, name: "invitations", sqlite: invitations, postgres: invitationsPg },
  {
    version: 22,
    name: "domain_names",
    sqlite: domainNames,
    postgres: domainNamesPg,
    rebuildsTables: true,
  },
  { version: 23, name: "sign_in_factors", sqlite: signInFactors, postgres: signInFactorsPg },
  { version: 24, name: "guardrails", sqlite: guardrails, postgres: guardrailsPg },
  { version: 25, name: "ed25519_dkim", sqlite: ed25519Dkim, postgres: ed25519DkimPg },
  { version: 26, name: "dmarc_reports", sqlite: dmarcReports, postgres: dmarcReportsPg },
  { version: 27, name: "domain_transport", sqlite: domainTransport, postgres: domainTransportPg },
  { version: 28, name: "tls_reports", sqlite: tlsReports, postgres: tlsReportsPg },
  { version: 29, name: "blocklists", sqlite: blocklists, postgres: blocklistsPg },
  { version: 30, name: "ip_pools", sqlite: ipPools, postgres: ipPoolsPg },
  { version: 31, name: "account_protection", sqlite: accountProtection, postgres: accountProtectionPg },
  { version: 32, name: "key_creators", sqlite: keyCreators, postgres: keyCreatorsPg },
  { version: 33, name: "contacts", sqlite: contacts, postgres: contactsPg },
  { version: 34, name: "contact_scopes", sqlite: contactScopes, postgres: contactScopesPg },
  { version: 35, name: "email_topics", sqlite: emailTopics, postgres: emailTopicsPg },
  { version: 36, name: "sending_lanes", sqlite: sendingLanes, postgres: sendingLanesPg, rebuildsTables: true },
  { version: 37, name: "broadcasts", sqlite: broadcasts, postgres: broadcastsPg },
  { version: 39, name: "request_logs", sqlite: requestLogs, postgres: requestLogsPg },
  { version: 40, name: "tls_last_seen", sqlite: tlsLastSeen, postgres: tlsLastSeenPg },
  { version: 41, name: "inbound_routes", sqlite: inboundRoutes, postgres: inboundRoutesPg },
  { version: 43, name: "relay_dsn", sqlite: relayDsn, postgres: relayDsnPg },
  { version: 46, name: "system_mail", sqlite: systemMail, postgres: systemMailPg },
];
