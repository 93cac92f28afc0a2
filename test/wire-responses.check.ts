/**
 * The Node client's response types are the server's views (issue 25: one definition of each wire type). The views
 * are TypeScript interfaces in each area's model.ts, not schemas, so they cannot be printed into wire.ts; instead
 * `tsc --noEmit` (the first step of `npm test`) compiles this file, and a client type that says less, more or
 * otherwise than the view it describes fails the build, naming both.
 */
import type { Static } from "@sinclair/typebox";
import type { ApiErrorName } from "../clients/node/src/errors.ts";
import type * as Client from "../clients/node/src/types.ts";
import type { Role } from "../src/access.ts";
import type { AiStatus } from "../src/ai/service.ts";
import type { AuditEventView, readAuditLog } from "../src/audit/reads.ts";
import type {
  BulkResult,
  DeliveryQueue,
  QueueStatus,
  QueueSummary,
  DeliveryView as QueueDeliveryView,
} from "../src/deliveries/queue.ts";
import type { PauseScope, PauseView, SendingPauses, SendingState } from "../src/deliveries/pauses.ts";
import type { BulkActionSchema, PauseSchema, ResumeSchema } from "../src/deliveries/validate.ts";
import type { DomainView } from "../src/domains/model.ts";
import type { EmailRecord, EmailSummary } from "../src/emails/model.ts";
import type { ErrorName } from "../src/errors.ts";
import type {
  AttachmentView,
  ReceivedAttachment,
  ReceivedEmailSummary,
  ReceivedEmailView,
} from "../src/inbound/model.ts";
import type { ApiKeyView } from "../src/keys/model.ts";
import type { BlocklistListing } from "../src/deliverability/blocklists.ts";
import type { DmarcReportView, DmarcRowView, DmarcSummary } from "../src/deliverability/dmarc.ts";
import type { SendingHealthOverview } from "../src/deliverability/guardrails.ts";
import type { OrganizationView } from "../src/organizations/service.ts";
import type { OrganizationPatchSchema } from "../src/organizations/validate.ts";
import type { InvitationView, Members, MemberView } from "../src/people/members.ts";
import type { People } from "../src/people/service.ts";
import type { AddressState, PoolState } from "../src/providers/sending-ips.ts";
import type { TemplateView } from "../src/templates/model.ts";
import type { AttemptView, DeliveryDetail, DeliveryView, WebhookView } from "../src/webhooks/model.ts";

/** True only when each type is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only for `true`: a mismatch fails here with both types in the message. */
type Expect<T extends true> = T;
/** What a service method resolves to. */
type Answer<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

export type Checks = [
  Expect<Same<Client.SendingHealthOverview, SendingHealthOverview & { blocklists: BlocklistListing[] }>>,
  Expect<Same<Client.DmarcReport, DmarcReportView>>,
  Expect<Same<Client.DmarcReportRow, DmarcRowView>>,
  Expect<Same<Client.DmarcSummary, DmarcSummary>>,
  Expect<Same<Client.IpPool, PoolState>>,
  Expect<Same<Client.IpPoolAddress, AddressState>>,
  Expect<Same<Client.EmailSummary, EmailSummary>>,
  Expect<Same<Client.Email, EmailRecord>>,
  Expect<Same<Client.Domain, DomainView>>,
  Expect<Same<Client.ApiKey, ApiKeyView>>,
  Expect<Same<Client.Template, TemplateView>>,
  Expect<Same<Client.ReceivedEmailSummary, ReceivedEmailSummary>>,
  Expect<Same<Client.ReceivedEmail, ReceivedEmailView>>,
  Expect<Same<Client.ReceivedAttachment, Omit<ReceivedAttachment, "index">>>,
  Expect<Same<Client.EmailAttachment, AttachmentView>>,
  Expect<Same<Client.WebhookEndpoint, WebhookView>>,
  Expect<Same<Client.WebhookDeliveryEvent, DeliveryView>>,
  Expect<Same<Client.WebhookDeliveryEventDetail, DeliveryDetail>>,
  Expect<Same<Client.WebhookAttempt, AttemptView>>,
  Expect<Same<Client.AiStatus, AiStatus>>,
  Expect<Same<Client.Delivery, QueueDeliveryView>>,
  Expect<Same<Client.List<Client.Delivery>, Awaited<ReturnType<DeliveryQueue["list"]>>>>,
  Expect<Same<Client.QueueSummary, QueueSummary>>,
  Expect<Same<Client.QueueStatusCounts, QueueSummary["by_status"]>>,
  Expect<Same<Client.QueueDomainCounts, QueueSummary["by_domain"][number]>>,
  Expect<Same<Client.QueueProviderCounts, QueueSummary["by_provider"][number]>>,
  Expect<Same<Client.BulkDeliveriesResponse, BulkResult>>,
  // The queue's vocabulary, which wire.ts does not carry: its statuses and the bulk actions' filter.
  Expect<Same<Client.QueueStatus, QueueStatus>>,
  Expect<Same<Client.BulkDeliveriesOptions, Static<typeof BulkActionSchema>>>,
  Expect<Same<Client.SendingPause, PauseView>>,
  Expect<Same<Client.SendingState, SendingState>>,
  Expect<Same<Client.SendingResumed, Awaited<ReturnType<SendingPauses["resume"]>>>>,
  Expect<Same<Client.PauseScope, PauseScope>>,
  Expect<Same<Client.PauseSendingOptions, Static<typeof PauseSchema>>>,
  Expect<Same<Client.ResumeSendingOptions, Static<typeof ResumeSchema>>>,
  Expect<Same<Client.Organization, OrganizationView>>,
  Expect<Same<Client.UpdateOrganizationOptions, Static<typeof OrganizationPatchSchema>>>,
  // Teams: the roles, the organisations a caller acts in, members and invitations (the server's list says has_more
  // false, always: one page, which the client's List type says as a boolean), and the audit log.
  Expect<Same<Client.Role, Role>>,
  Expect<Same<Client.OrganizationMembership, Answer<People["organizations"]>["data"][number]>>,
  Expect<Same<Client.Member, MemberView>>,
  Expect<Same<Client.Invitation, InvitationView>>,
  Expect<Same<Client.CreatedInvitation, Answer<Members["invite"]>>>,
  Expect<Same<Omit<Client.MemberList, "has_more">, Omit<Answer<Members["list"]>, "has_more">>>,
  Expect<Same<Client.Deleted<"invitation">, Answer<Members["revokeInvitation"]>>>,
  Expect<Same<Client.Deleted<"member">, Answer<Members["remove"]>>>,
  Expect<Same<Client.AuditEvent, AuditEventView>>,
  Expect<Same<Client.List<Client.AuditEvent>, Answer<typeof readAuditLog>>>,
  // The error names a caller branches on: a name the server adds fails here until the client lists it.
  Expect<Same<ApiErrorName, ErrorName>>,
];
