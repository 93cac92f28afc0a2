"""Typed shapes of request parameters and responses, with the wire's snake_case field names.

Responses are the decoded JSON dicts as the server sends them; these TypedDicts describe them for type checkers
and readers, they are not validated at run time. The shapes the server's OpenAPI document names are generated into
``generated.py`` (``npm run generate``) and re-exported here under the names the client has always used. Shapes
with a ``from`` field use the functional TypedDict syntax because ``from`` is a Python keyword. ``total=False`` marks
optional fields (``NotRequired`` needs Python 3.11).
"""

from __future__ import annotations

from typing import Dict, List, Literal, Optional, TypedDict, Union

from .generated import (
    AddSuppressionOptions as AddSuppressionOptions,
    AiStatus as AiStatus,
    ApiKey as ApiKey,
    AuditActor as AuditActor,
    AuditEvent as AuditEvent,
    AuditTarget as AuditTarget,
    BatchAddSuppressionsOptions as BatchAddSuppressionsOptions,
    BatchRemoveSuppressionsOptions as BatchRemoveSuppressionsOptions,
    BlocklistListing as BlocklistListing,
    BulkDeliveriesOptions as BulkDeliveriesOptions,
    BulkDeliveriesResponse as BulkDeliveriesResponse,
    CancelEmailResponse as CancelEmailResponse,
    CreateApiKeyOptions as CreateApiKeyOptions,
    CreateApiKeyResponse as CreateApiKeyResponse,
    CreateBatchResponse as CreateBatchResponse,
    CreateBatchResponseError as CreateBatchResponseError,
    CreateDomainOptions as CreateDomainOptions,
    CreateEmailOptions as CreateEmailOptions,
    CreateEmailOptionsAttachment as CreateEmailOptionsAttachment,
    CreateEmailOptionsTemplate as CreateEmailOptionsTemplate,
    CreateEmailOptionsTracking as CreateEmailOptionsTracking,
    CreateEmailResponse as CreateEmailResponse,
    CreateTemplateOptions as CreateTemplateOptions,
    CreateWebhookOptions as CreateWebhookOptions,
    CreatedInvitation as CreatedInvitation,
    Delivery as Delivery,
    DmarcReport as DmarcReport,
    DmarcReportRow as DmarcReportRow,
    DmarcRow as DmarcRow,
    DmarcSource as DmarcSource,
    DmarcSummary as DmarcSummary,
    Domain as Domain,
    DomainCapabilities as DomainCapabilities,
    DomainDkim as DomainDkim,
    DomainHealth as DomainHealth,
    DomainHealthEntry as DomainHealthEntry,
    DomainRecord as DomainRecord,
    Email as Email,
    EmailAttachment as EmailAttachment,
    EmailEvent as EmailEvent,
    EmailRecipient as EmailRecipient,
    ErrorBody as ErrorBody,
    Invitation as Invitation,
    InviteMemberOptions as InviteMemberOptions,
    IpPool as IpPool,
    IpPoolAddress as IpPoolAddress,
    IpPoolBackOff as IpPoolBackOff,
    Member as Member,
    MemberList as MemberList,
    Organization as Organization,
    OrganizationMembership as OrganizationMembership,
    OrganizationRetention as OrganizationRetention,
    OrganizationStorage as OrganizationStorage,
    PauseScope as PauseScope,
    PauseSendingOptions as PauseSendingOptions,
    QueueDomainCounts as QueueDomainCounts,
    QueueProviderCounts as QueueProviderCounts,
    QueueStatus as QueueStatus,
    QueueStatusCounts as QueueStatusCounts,
    QueueSummary as QueueSummary,
    ReceivedEmail as ReceivedEmail,
    RemovedSuppression as RemovedSuppression,
    RenderTemplateOptions as RenderTemplateOptions,
    RenderedTemplate as RenderedTemplate,
    ReplayFailedResponse as ReplayFailedResponse,
    ResumeSendingOptions as ResumeSendingOptions,
    Role as Role,
    SendingHealthOverview as SendingHealthOverview,
    SendingPause as SendingPause,
    SendingResumed as SendingResumed,
    SendingState as SendingState,
    SubjectFinding as SubjectFinding,
    SubjectOptions as SubjectOptions,
    SubjectScore as SubjectScore,
    Suppression as Suppression,
    Tag as Tag,
    Template as Template,
    TemplateResponse as TemplateResponse,
    TemplateSummary as TemplateSummary,
    TemplateValidation as TemplateValidation,
    TemplateValidationError as TemplateValidationError,
    TemplateVariable as TemplateVariable,
    UpdateApiKeyOptions as UpdateApiKeyOptions,
    UpdateDomainOptions as UpdateDomainOptions,
    UpdateEmailOptions as UpdateEmailOptions,
    UpdateEmailResponse as UpdateEmailResponse,
    UpdateMemberRoleOptions as UpdateMemberRoleOptions,
    UpdateOrganizationOptions as UpdateOrganizationOptions,
    UpdateOrganizationOptionsRetention as UpdateOrganizationOptionsRetention,
    UpdateTemplateOptions as UpdateTemplateOptions,
    UpdateWebhookOptions as UpdateWebhookOptions,
    ValidateTemplateOptions as ValidateTemplateOptions,
    WebhookAttempt as WebhookAttempt,
    WebhookDeliveryEventDetail as WebhookDeliveryEventDetail,
    WebhookEndpoint as WebhookEndpoint,
    WebhookPayload as WebhookPayload,
    WebhookWithSecret as WebhookWithSecret,
    WriteOptions as WriteOptions,
    WriteOptionsSaveAsTemplate as WriteOptionsSaveAsTemplate,
    WriteResponse as WriteResponse,
)

# The generated names are this module's too (``from mailroom.types import Member``, re-exported ``as`` themselves for
# strict type checkers); the client's own names for the same shapes are aliases of the document's.
AddSuppressionParams = AddSuppressionOptions
Attachment = CreateEmailOptionsAttachment
BatchAddSuppressionsParams = BatchAddSuppressionsOptions
BatchError = CreateBatchResponseError
BatchRemoveSuppressionsParams = BatchRemoveSuppressionsOptions
BatchSendResponse = CreateBatchResponse
BulkDeliveriesParams = BulkDeliveriesOptions
CreateApiKeyParams = CreateApiKeyOptions
CreateDomainParams = CreateDomainOptions
CreateTemplateParams = CreateTemplateOptions
CreateWebhookParams = CreateWebhookOptions
CreateWebhookResponse = WebhookWithSecret
DomainQueueCounts = QueueDomainCounts
EmailTemplateRef = CreateEmailOptionsTemplate
InviteMemberParams = InviteMemberOptions
PauseSendingParams = PauseSendingOptions
ProviderQueueCounts = QueueProviderCounts
QueueCounts = QueueStatusCounts
ReplayResponse = ReplayFailedResponse
ResumeSendingParams = ResumeSendingOptions
RetentionParams = UpdateOrganizationOptionsRetention
RotateSigningSecretResponse = WebhookWithSecret
SaveAsTemplate = WriteOptionsSaveAsTemplate
SendEmailResponse = CreateEmailResponse
SendParams = CreateEmailOptions
SubjectParams = SubjectOptions
TemplateProblem = TemplateValidationError
Tracking = CreateEmailOptionsTracking
UpdateOrganizationParams = UpdateOrganizationOptions
ValidateTemplateParams = ValidateTemplateOptions
ValidateTemplateResponse = TemplateValidation
Webhook = WebhookEndpoint
WebhookEvent = WebhookDeliveryEventDetail
WriteParams = WriteOptions

# ----------------------------------------------------------------------------------------------------------------
# Shared


class ErrorDetail(TypedDict):
    path: str
    message: str


class ListParams(TypedDict, total=False):
    """Cursor pagination, the same for every list: ``limit`` 1–100 (default 20), ``after`` or ``before`` an id."""

    limit: int
    after: str
    before: str


class DeletedResponse(TypedDict):
    object: str
    id: str
    deleted: bool


class ObjectRef(TypedDict):
    object: str
    id: str


Recipients = Union[str, List[str]]

# ----------------------------------------------------------------------------------------------------------------
# Emails


class SendOptions(TypedDict, total=False):
    idempotency_key: str


class BatchSendOptions(TypedDict, total=False):
    idempotency_key: str
    batch_validation: Literal["strict", "permissive"]


# Pagination plus the filters; ``tag`` is ``name`` or ``name:value``.
EmailListParams = TypedDict(
    "EmailListParams",
    {"limit": int, "after": str, "before": str, "status": str, "to": str, "from": str, "tag": str},
    total=False,
)


class UpdateEmailParams(UpdateEmailOptions):
    id: str
    """The scheduled email's id."""


class EmailList(TypedDict):
    object: str
    has_more: bool
    data: List[Email]


class EmailAttachmentList(TypedDict):
    object: str
    has_more: bool
    data: List[EmailAttachment]


# ----------------------------------------------------------------------------------------------------------------
# Received email


class ReceivedEmailList(TypedDict):
    object: str
    has_more: bool
    data: List[ReceivedEmail]


class ReceivedEmailGetParams(TypedDict, total=False):
    html_format: Literal["data_uri", "cid"]


# ----------------------------------------------------------------------------------------------------------------
# Domains


TlsPolicy = Literal["opportunistic", "enforced"]
"""``enforced``: direct MX delivery only over STARTTLS with a certificate valid for the MX name; otherwise deferred,
then bounced with the reason. ``opportunistic`` (the default): STARTTLS when offered."""


HealthStatus = Literal["ok", "warning", "paused"]


class UpdateDomainParams(UpdateDomainOptions):
    id: str
    """The domain's id or name."""


class DomainList(TypedDict):
    object: str
    has_more: bool
    data: List[Domain]


class DmarcReportListParams(TypedDict, total=False):
    """Newest first: ``after`` a report's id continues towards older reports, ``before`` one back towards newer."""

    limit: int
    after: str
    before: str


class DmarcReportList(TypedDict):
    object: str
    has_more: bool
    data: List[DmarcReport]


class DmarcReportRowList(TypedDict):
    object: str
    has_more: bool
    data: List[DmarcReportRow]


# ----------------------------------------------------------------------------------------------------------------
# API keys


class ApiKeyListParams(ListParams, total=False):
    include_revoked: bool


class UpdateApiKeyParams(UpdateApiKeyOptions):
    id: str
    """The key's id."""


class ApiKeyList(TypedDict):
    object: str
    has_more: bool
    data: List[ApiKey]


# ----------------------------------------------------------------------------------------------------------------
# Webhooks


class UpdateWebhookParams(UpdateWebhookOptions):
    webhook_id: str
    """The endpoint's id."""


class WebhookList(TypedDict):
    object: str
    has_more: bool
    data: List[Webhook]


class WebhookEventListParams(ListParams, total=False):
    status: Literal["pending", "attempting", "success", "failed"]


class WebhookEventList(TypedDict):
    object: str
    has_more: bool
    data: List[WebhookEvent]


class WebhookAttemptList(TypedDict):
    object: str
    has_more: bool
    data: List[WebhookAttempt]


# ----------------------------------------------------------------------------------------------------------------
# Suppressions


class SuppressionListParams(ListParams, total=False):
    origin: Literal["bounce", "complaint", "unsubscribe", "manual"]
    search: str


class SuppressionList(TypedDict):
    object: str
    has_more: bool
    data: List[Suppression]


class BatchAddSuppressionsResponse(TypedDict):
    data: List[Suppression]


class BatchRemoveSuppressionsResponse(TypedDict):
    data: List[RemovedSuppression]


# ----------------------------------------------------------------------------------------------------------------
# Deliveries (the queue)


class DeliveryListParams(ListParams, total=False):
    status: QueueStatus
    domain: str
    """The recipient's domain."""
    provider: str
    """The provider of the last attempt."""
    email_id: str


class DeliveryList(TypedDict):
    object: str
    has_more: bool
    data: List[Delivery]


# ----------------------------------------------------------------------------------------------------------------
# Sending pauses


# ----------------------------------------------------------------------------------------------------------------
# Sending IPs


class IpPoolList(TypedDict):
    """The pools open to the organisation, by name: 100 to a page unless ``limit`` says otherwise."""

    object: str
    has_more: bool
    data: List[IpPool]


# ----------------------------------------------------------------------------------------------------------------
# Teams: organisations, members and invitations, the audit log


class OrganizationMembershipList(TypedDict):
    object: str
    has_more: bool
    data: List[OrganizationMembership]


class UpdateMemberRoleParams(UpdateMemberRoleOptions):
    id: str
    """The member's (the person's) id."""


class AuditEventList(TypedDict):
    object: str
    has_more: bool
    data: List[AuditEvent]


class AuditLogListParams(ListParams, total=False):
    """Newest first: ``after`` continues towards older events, ``before`` back towards newer ones."""

    action: str
    """Only this action, e.g. ``member.invited``."""
    actor_id: str
    """Only what this actor did: an event's ``actor["id"]``."""


# ----------------------------------------------------------------------------------------------------------------
# Templates


class UpdateTemplateParams(UpdateTemplateOptions):
    id: str
    """The template's id or alias."""


class TemplateList(TypedDict):
    object: str
    has_more: bool
    data: List[Template]


