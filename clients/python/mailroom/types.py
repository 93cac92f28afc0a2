"""Typed shapes of request parameters and responses, with the wire's snake_case field names.

Responses are the decoded JSON dicts as the server sends them; these TypedDicts describe them for type checkers
and readers, they are not validated at run time. Shapes with a ``from`` field use the functional TypedDict syntax
because ``from`` is a Python keyword. ``total=False`` marks optional fields (``NotRequired`` needs Python 3.11).
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

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


class Attachment(TypedDict, total=False):
    filename: str
    content: str
    """Base64 of the file's bytes (``mailroom.attachment()`` builds the entry from bytes)."""
    path: str
    """An https URL the server fetches at acceptance, instead of ``content``."""
    content_type: str
    content_id: str
    """Makes the attachment inline, referenced from the html as ``cid:<content_id>``."""


class Tag(TypedDict):
    name: str
    value: str


class EmailTemplateRef(TypedDict, total=False):
    id: str
    """A template id or alias (its published version is used)."""
    variables: Dict[str, Union[str, int, float]]


class Tracking(TypedDict, total=False):
    opens: bool
    clicks: bool


SendParams = TypedDict(
    "SendParams",
    {
        "from": str,
        "to": Recipients,
        "cc": Recipients,
        "bcc": Recipients,
        "reply_to": Recipients,
        "subject": str,
        "html": str,
        "text": str,
        "headers": Dict[str, str],
        "attachments": List[Attachment],
        "tags": List[Tag],
        "scheduled_at": str,
        "template": EmailTemplateRef,
        "tracking": Tracking,
        "unsubscribe": bool,
    },
    total=False,
)


class SendOptions(TypedDict, total=False):
    idempotency_key: str


class BatchSendOptions(TypedDict, total=False):
    idempotency_key: str
    batch_validation: Literal["strict", "permissive"]


class SendEmailResponse(TypedDict, total=False):
    id: str
    message: str


class BatchError(TypedDict):
    index: int
    message: str


class BatchSendResponse(TypedDict, total=False):
    data: List[ObjectRef]
    errors: List[BatchError]
    """Only in permissive mode: the items refused, by their index in the request."""


# Pagination plus the filters; ``tag`` is ``name`` or ``name:value``.
EmailListParams = TypedDict(
    "EmailListParams",
    {"limit": int, "after": str, "before": str, "status": str, "to": str, "from": str, "tag": str},
    total=False,
)


class UpdateEmailParams(TypedDict):
    id: str
    scheduled_at: str


class EmailRecipient(TypedDict, total=False):
    email: str
    status: str
    attempts: int
    last_response: Optional[str]
    provider: Optional[str]
    provider_message_id: Optional[str]
    updated_at: str


class EmailEvent(TypedDict, total=False):
    type: str
    created_at: str
    recipient: Optional[str]
    data: Dict[str, Any]


Email = TypedDict(
    "Email",
    {
        "object": str,
        "id": str,
        "message_id": str,
        "source": str,
        "from": str,
        "to": List[str],
        "cc": List[str],
        "bcc": List[str],
        "reply_to": List[str],
        "subject": str,
        "html": Optional[str],
        "text": Optional[str],
        "tags": List[Tag],
        "status": str,
        "last_event": str,
        "created_at": str,
        "scheduled_at": Optional[str],
        "template_id": Optional[str],
        # When retention removed the raw message, bodies and attachments (the record, recipients and events stay):
        # raw() and the attachments then raise GoneError. None while the content is kept.
        "content_removed_at": Optional[str],
        "recipients": List[EmailRecipient],
        "events": List[EmailEvent],
    },
    total=False,
)


class EmailList(TypedDict):
    object: str
    has_more: bool
    data: List[Email]


class UpdateEmailResponse(TypedDict, total=False):
    object: str
    id: str


class CancelEmailResponse(TypedDict, total=False):
    object: str
    id: str
    status: str


class EmailAttachment(TypedDict, total=False):
    object: str
    id: str
    filename: str
    content_type: str
    content_id: Optional[str]
    content_disposition: str
    size: int
    download_url: str
    expires_at: str


class EmailAttachmentList(TypedDict):
    object: str
    has_more: bool
    data: List[EmailAttachment]


# ----------------------------------------------------------------------------------------------------------------
# Received email


ReceivedEmail = TypedDict(
    "ReceivedEmail",
    {
        "object": str,
        "id": str,
        "message_id": str,
        "from": str,
        "to": List[str],
        "cc": List[str],
        "bcc": List[str],
        "reply_to": List[str],
        "subject": str,
        "html": Optional[str],
        "text": Optional[str],
        "headers": Dict[str, Any],
        "attachments": List[EmailAttachment],
        "created_at": str,
        "in_reply_to_email_id": Optional[str],
        "auto_reply": bool,
    },
    total=False,
)


class ReceivedEmailList(TypedDict):
    object: str
    has_more: bool
    data: List[ReceivedEmail]


class ReceivedEmailGetParams(TypedDict, total=False):
    html_format: Literal["data_uri", "cid"]


# ----------------------------------------------------------------------------------------------------------------
# Domains


class DomainRecord(TypedDict, total=False):
    record: str
    """``DKIM``, ``SPF``, ``MX``, ``DMARC``, ``Inbound`` or ``Tracking`` (the tracking host's CNAME)."""
    name: str
    type: str
    """``TXT``, ``MX`` or ``CNAME``."""
    value: str
    ttl: Union[str, int]
    status: str
    priority: int
    found: Optional[Union[str, List[str]]]


class DomainCapabilities(TypedDict, total=False):
    sending: Literal["enabled", "disabled"]
    receiving: Literal["enabled", "disabled"]


TlsPolicy = Literal["opportunistic", "enforced"]
"""``enforced``: direct MX delivery only over STARTTLS with a certificate valid for the MX name; otherwise deferred,
then bounced with the reason. ``opportunistic`` (the default): STARTTLS when offered."""


class DomainDkim(TypedDict, total=False):
    ed25519: bool
    """An Ed25519 signature (RFC 8463) beside the RSA one, once its DKIM record is found; ``False`` retires it."""


HealthStatus = Literal["ok", "warning", "paused"]


class DomainHealth(TypedDict):
    """A domain's or the organisation's sending health: the guardrails' last measurement and what it led to."""

    bounce_rate: float
    complaint_rate: float
    window: str
    """The sliding window the rates cover, e.g. ``24h``."""
    recipients: int
    """Recipients that ended in the window: what the rates divide by."""
    status: HealthStatus
    reason: Optional[str]
    """Why the status is not ok, e.g. ``bounce rate 9.1 % over 24 h``; None when ok."""
    evaluated_at: Optional[str]
    """None before the first measurement."""


class CreateDomainParams(TypedDict, total=False):
    name: str
    return_path_subdomain: str
    open_tracking: bool
    click_tracking: bool
    receiving: bool
    providers: List[str]
    capabilities: DomainCapabilities
    tracking_subdomain: Optional[str]
    """A label (``links`` → links.<domain>): its CNAME to the server joins the records."""
    tls: TlsPolicy
    dkim: DomainDkim
    ip_pool: Optional[str]
    """A configured ``[ip_pools.<name>]`` direct delivery sends from (else ``ValidationError``); None: none."""


class UpdateDomainParams(TypedDict, total=False):
    id: str
    """The domain's id or name: the path, not sent in the body."""
    return_path_subdomain: str
    open_tracking: bool
    click_tracking: bool
    receiving: bool
    providers: List[str]
    capabilities: DomainCapabilities
    tracking_subdomain: Optional[str]
    """A label (``links`` → links.<domain>): its CNAME to the server joins the records; once DNS shows it, the
    domain's open, click and unsubscribe links use https://links.<domain>. None removes it."""
    tls: TlsPolicy
    dkim: DomainDkim
    ip_pool: Optional[str]
    """A configured ``[ip_pools.<name>]``: direct delivery of the domain's mail binds its source addresses, with their
    warm-up (an unknown name raises ``ValidationError``). None: the machine's default address."""


class Domain(TypedDict, total=False):
    object: str
    id: str
    name: str
    status: str
    verified_override: bool
    open_tracking: bool
    click_tracking: bool
    return_path_subdomain: str
    receiving_enabled: bool
    providers: List[str]
    capabilities: DomainCapabilities
    records: List[DomainRecord]
    dkim: DomainDkim
    tracking_subdomain: Optional[str]
    """The tracking host's label; None: the domain's links use the server's own host."""
    tls: TlsPolicy
    ip_pool: Optional[str]
    """The ``[ip_pools.<name>]`` direct delivery sends from; None: the machine's default address."""
    health: DomainHealth
    last_checked_at: Optional[str]
    created_at: str
    updated_at: str


class DomainList(TypedDict):
    object: str
    has_more: bool
    data: List[Domain]


class DmarcReportListParams(TypedDict, total=False):
    """Newest first: ``after`` a report's id continues towards older reports, ``before`` one back towards newer."""

    limit: int
    after: str
    before: str


class DmarcRow(TypedDict):
    """One row of a report: a source address and what the receiver saw of its messages."""

    source_ip: str
    count: int
    disposition: Literal["none", "quarantine", "reject"]
    dkim: Literal["pass", "fail"]
    spf: Literal["pass", "fail"]
    header_from: str


class DmarcReport(TypedDict):
    """A DMARC aggregate report a receiver sent about the domain, to the ``rua`` of its DMARC record."""

    object: str
    id: str
    reporter: str
    report_id: str
    begin: str
    end: str
    """The period the report covers (ISO 8601, UTC)."""
    rows: List[DmarcRow]
    """The report's first 20 rows at most, heaviest source first; the rest through ``dmarc_report_rows``."""
    row_count: int


class DmarcReportList(TypedDict):
    object: str
    has_more: bool
    data: List[DmarcReport]


class DmarcReportRow(DmarcRow):
    """A row as ``dmarc_report_rows`` pages them: its ``id`` is the pages' cursor."""

    id: str


class DmarcReportRowList(TypedDict):
    object: str
    has_more: bool
    data: List[DmarcReportRow]


class DmarcSource(TypedDict):
    """One address that sent as the domain over the summary's days."""

    source_ip: str
    messages: int
    aligned_pass_rate: float
    """The share of ``messages`` (0–1) that passed DKIM or SPF aligned, so passed DMARC."""
    own: bool
    """The address is one of Mailroom's (``public_ips``, or the domain's SPF at its return path passes for it)."""


class DmarcSummary(TypedDict):
    """Who sends as the domain: the reports of the last ``days`` summed per source address, most messages first."""

    object: str
    domain: str
    days: int
    reports: int
    """How many reports were summed."""
    data: List[DmarcSource]


# ----------------------------------------------------------------------------------------------------------------
# API keys


class CreateApiKeyParams(TypedDict, total=False):
    name: str
    permission: Literal["full_access", "sending_access"]
    domain_id: str
    scopes: List[str]
    mode: Literal["live", "test"]
    rate_limit: int
    """Requests per minute for this key."""
    daily_quota: int
    """Live messages per UTC day this key may send (at least 1); past it ``DailyQuotaExceededError``."""


class ApiKeyListParams(ListParams, total=False):
    include_revoked: bool


class UpdateApiKeyParams(TypedDict):
    id: str
    name: str


class ApiKey(TypedDict, total=False):
    object: str
    id: str
    name: str
    mode: str
    token_prefix: str
    scopes: List[str]
    domains: Optional[List[str]]
    rate_limit_per_minute: Optional[int]
    daily_quota: Optional[int]
    """Messages per UTC day of its own; None: only the organisation's quota applies."""
    created_at: str
    last_used_at: Optional[str]
    revoked_at: Optional[str]


class CreateApiKeyResponse(ApiKey, total=False):
    token: str
    """The key itself: shown once, keep it."""


class ApiKeyList(TypedDict):
    object: str
    has_more: bool
    data: List[ApiKey]


# ----------------------------------------------------------------------------------------------------------------
# Webhooks


class CreateWebhookParams(TypedDict, total=False):
    endpoint: str
    events: List[str]
    description: str


class UpdateWebhookParams(TypedDict, total=False):
    webhook_id: str
    """The path, not sent in the body (Resend's name; ``id`` is accepted too)."""
    endpoint: str
    events: List[str]
    description: Optional[str]
    status: Literal["enabled", "disabled"]


class Webhook(TypedDict, total=False):
    object: str
    id: str
    endpoint: str
    events: List[str]
    description: Optional[str]
    status: str
    disabled_reason: Optional[str]
    disabled_at: Optional[str]
    created_at: str
    updated_at: str


class CreateWebhookResponse(Webhook, total=False):
    signing_secret: str
    """``whsec_…``: shown only here and on rotation."""


class RotateSigningSecretResponse(Webhook, total=False):
    signing_secret: str
    """The new secret; the previous one keeps signing alongside it for 24 h."""


class ReplayResponse(TypedDict, total=False):
    object: str
    webhook_id: str
    replayed: int


class WebhookList(TypedDict):
    object: str
    has_more: bool
    data: List[Webhook]


class WebhookEventListParams(ListParams, total=False):
    status: Literal["pending", "attempting", "success", "failed"]


class WebhookAttempt(TypedDict, total=False):
    object: str
    id: str
    sent_at: str
    http_status_code: Optional[int]
    response: Optional[str]
    """The first 1 KB of the endpoint's answer."""
    error: Optional[str]
    duration_ms: int


class WebhookEvent(TypedDict, total=False):
    """One event sent (or to be sent) to one endpoint. ``id`` is the ``webhook-id`` header of its requests."""

    object: str
    id: str
    webhook_id: str
    event_id: Optional[str]
    type: str
    status: Literal["pending", "attempting", "success", "failed"]
    attempt_count: int
    next_attempt_at: Optional[str]
    last_attempt_at: Optional[str]
    last_status_code: Optional[int]
    last_error: Optional[str]
    created_at: str
    payload: Dict[str, Any]
    """In ``events.get`` only, with ``attempts``."""
    attempts: List[WebhookAttempt]


class WebhookEventList(TypedDict):
    object: str
    has_more: bool
    data: List[WebhookEvent]


class WebhookAttemptList(TypedDict):
    object: str
    has_more: bool
    data: List[WebhookAttempt]


class WebhookPayload(TypedDict, total=False):
    """What a webhook delivers (and the verifier returns): Resend's event shape."""

    type: str
    created_at: str
    data: Dict[str, Any]


# ----------------------------------------------------------------------------------------------------------------
# Suppressions


class AddSuppressionParams(TypedDict, total=False):
    email: str
    reason: str


class SuppressionListParams(ListParams, total=False):
    origin: Literal["bounce", "complaint", "unsubscribe", "manual"]
    search: str


class Suppression(TypedDict, total=False):
    object: str
    id: str
    email: str
    origin: str
    source_id: Optional[str]
    reason: Optional[str]
    created_at: str


class SuppressionList(TypedDict):
    object: str
    has_more: bool
    data: List[Suppression]


class BatchAddSuppressionsParams(TypedDict, total=False):
    emails: List[str]
    reason: str


class BatchRemoveSuppressionsParams(TypedDict, total=False):
    """Either ``emails`` or ``ids``."""

    emails: List[str]
    ids: List[str]


class BatchAddSuppressionsResponse(TypedDict):
    data: List[Suppression]


class RemovedSuppression(TypedDict, total=False):
    object: str
    id: str
    email: str
    deleted: bool


class BatchRemoveSuppressionsResponse(TypedDict):
    data: List[RemovedSuppression]


# ----------------------------------------------------------------------------------------------------------------
# Deliveries (the queue)

QueueStatus = Literal["queued", "deferred", "held", "sending"]
"""What the queue lists: the waiting statuses, and ``sending`` for a waiting recipient being attempted now."""


class DeliveryListParams(ListParams, total=False):
    status: QueueStatus
    domain: str
    """The recipient's domain."""
    provider: str
    """The provider of the last attempt."""
    email_id: str


class Delivery(TypedDict, total=False):
    """One recipient of one message, as the queue sees it."""

    object: str
    id: str
    email_id: str
    recipient: str
    status: str
    """A recipient status (``queued``, ``deferred``, ``held``; after an action also ``canceled`` and the others),
    or ``sending`` while it is being attempted."""
    provider: Optional[str]
    attempts: int
    next_attempt_at: Optional[str]
    last_response: Optional[str]
    created_at: str
    updated_at: str


class DeliveryList(TypedDict):
    object: str
    has_more: bool
    data: List[Delivery]


class QueueCounts(TypedDict):
    queued: int
    deferred: int
    held: int
    sending: int


class DomainQueueCounts(QueueCounts):
    domain: str
    oldest_at: Optional[str]


class ProviderQueueCounts(QueueCounts):
    provider: Optional[str]
    """None: not attempted yet."""
    oldest_at: Optional[str]


class QueueSummary(TypedDict, total=False):
    object: str
    by_status: QueueCounts
    by_domain: List[DomainQueueCounts]
    """The 20 domains with the most recipients waiting."""
    by_provider: List[ProviderQueueCounts]
    """By the provider of the last attempt."""
    oldest_waiting_at: Optional[str]


class BulkDeliveriesParams(TypedDict, total=False):
    """The filter of a bulk action: at least one of these."""

    status: QueueStatus
    domain: str
    provider: str
    email_id: str


class BulkDeliveriesResponse(TypedDict):
    object: str
    matched: int
    """Deliveries of the filter the action applies to, those being attempted now included."""
    changed: int
    """Those it changed."""


# ----------------------------------------------------------------------------------------------------------------
# Sending pauses

PauseScope = Literal["organization", "domain", "provider"]
"""What a pause stops: the whole organisation, one sending domain, or one provider."""


class SendingTarget(TypedDict):
    scope: PauseScope


class ResumeSendingParams(SendingTarget, total=False):
    name: str
    """The domain or provider; none for the organisation."""


class PauseSendingParams(ResumeSendingParams, total=False):
    reason: Optional[str]
    """For the record (up to 500 characters)."""


class SendingPause(TypedDict):
    """Sending paused: its mail is accepted and waits as ``held`` until it is resumed."""

    scope: PauseScope
    name: Optional[str]
    """The domain or provider; None for the organisation."""
    reason: Optional[str]
    paused_at: str
    paused_by: Optional[str]
    """The key that paused (its id), or ``operator`` for the command line."""


class SendingState(TypedDict):
    """The pauses that apply now."""

    object: str
    pauses: List[SendingPause]


class SendingResumed(SendingState):
    """After a resume: the pauses left, and how many held recipients went back to the queue."""

    released: int


class DomainHealthEntry(TypedDict):
    id: str
    name: str
    health: DomainHealth


class BlocklistListing(TypedDict):
    """A DNS blocklist's last answer about one of the server's sending addresses."""

    address: str
    list: str
    listed: bool
    reason: Optional[str]
    checked_at: str


class SendingHealthOverview(TypedDict):
    """The guardrails' overview: the organisation's health across its domains, and each sending domain's."""

    object: str
    health: DomainHealth
    domains: List[DomainHealthEntry]
    blocklists: List[BlocklistListing]


# ----------------------------------------------------------------------------------------------------------------
# Sending IPs


class IpPoolBackOff(TypedDict):
    """A destination provider whose rate is halved for one address after it pushed back (a 421 or a 4.7.x rate
    reply)."""

    provider: str
    messages_per_minute: int
    """The rate in force now."""
    until: str
    """When the configured rate returns (ISO 8601)."""


class IpPoolAddress(TypedDict):
    """One source address of a pool, with its warm-up and today's traffic."""

    address: str
    ehlo_name: Optional[str]
    """The EHLO name it greets with (its PTR name); None: ``[mx] ehlo_name``."""
    warmup_day: Optional[int]
    """Day of warm-up (1: the day it first sent); None before it sent, or once warm-up is over."""
    daily_cap: Optional[int]
    """Today's cap per destination provider while warming up; None: uncapped."""
    today: Dict[str, int]
    """Messages delivered today (UTC), per destination provider (``gmail``, ``outlook``, ``yahoo``, ``other``, …)."""
    backed_off: List[IpPoolBackOff]


class IpPool(TypedDict):
    """An ``[ip_pools.<name>]`` of the server: the addresses direct delivery of the domains naming it binds."""

    name: str
    warmup: str
    """How long an address warms up from its first use, e.g. ``30d`` (``0d``: no warm-up)."""
    addresses: List[IpPoolAddress]


class IpPoolList(TypedDict):
    """Every configured pool in one answer: no pages."""

    object: str
    data: List[IpPool]


# ----------------------------------------------------------------------------------------------------------------
# The organisation


class OrganizationRetention(TypedDict):
    """The retention in force, in days: the organisation's own, or the server's configured default."""

    content_days: int
    """Days before the raw message, bodies and attachments of a finished message are removed."""
    metadata_days: int
    """Days before a finished message's record and events are removed."""


class OrganizationStorage(TypedDict):
    """What the organisation stores, as the retention job last counted it."""

    messages: int
    content_bytes: int
    measured_at: str


class Organization(TypedDict):
    object: str
    id: str
    name: str
    rate_limit: int
    """Requests per minute, all keys together."""
    daily_quota: Optional[int]
    """Live messages per UTC day; None: no quota."""
    usage_today: int
    """Live messages accepted since 00:00 UTC."""
    retention: OrganizationRetention
    paused: bool
    """Sending of the whole organisation is paused (``sending.get()`` lists every pause)."""
    storage: Optional[OrganizationStorage]
    """None until the retention job has first counted."""
    created_at: str


class RetentionParams(TypedDict, total=False):
    content_days: Optional[int]
    """1 to 36500; None returns to the configured default."""
    metadata_days: Optional[int]
    """1 to 36500; None returns to the configured default."""


class UpdateOrganizationParams(TypedDict, total=False):
    """The settings to change; one left out stays as it is, None returns it to its default."""

    name: str
    rate_limit: Optional[int]
    """At least 1."""
    daily_quota: Optional[int]
    """At least 1; None: no quota."""
    retention: RetentionParams


# ----------------------------------------------------------------------------------------------------------------
# Teams: organisations, members and invitations, the audit log

Role = Literal["owner", "admin", "developer", "viewer"]
"""A member's role: ``owner`` everything; ``admin`` everything but owners and deleting the organisation;
``developer`` the mail and its settings, no people; ``viewer`` reads."""


class OrganizationMembership(TypedDict):
    """An organisation the caller acts in, with the caller's role there (an API key: its own organisation)."""

    object: str
    id: str
    name: str
    role: Role


class OrganizationMembershipList(TypedDict):
    object: str
    has_more: bool
    data: List[OrganizationMembership]


class Member(TypedDict):
    """A person who belongs to the organisation; ``id`` is the person's (a user id)."""

    object: str
    id: str
    email: str
    name: str
    role: Role
    created_at: str
    """When they joined the organisation."""


class Invitation(TypedDict):
    """An invitation not yet accepted: the role its link grants, until ``expires_at`` (7 days after it was made)."""

    object: str
    id: str
    email: str
    role: Role
    created_at: str
    expires_at: str


class CreatedInvitation(Invitation):
    url: str
    """The one-time link: it is never shown again."""
    emailed: bool
    """Whether the link was also mailed to the address invited."""
    note: Optional[str]
    """Why it was not mailed (no public address configured, no verified domain), or None."""


class MemberList(TypedDict):
    """Every member (oldest first) and every pending invitation: one page, never more."""

    object: str
    has_more: bool
    data: List[Member]
    invitations: List[Invitation]


class InviteMemberParams(TypedDict):
    email: str
    """The address the link is for; stored lower-cased."""
    role: Role
    """An API key may grant every role but ``owner`` (only owners make owners)."""


class UpdateMemberRoleParams(TypedDict):
    id: str
    """The member's (the person's) id."""
    role: Role


class AuditActor(TypedDict):
    """Who acted: ``type`` ``user``, ``api_key``, ``cli`` (the operator) or ``system``."""

    type: str
    id: Optional[str]
    """The user's or key's id; None for the operator and the system."""
    name: Optional[str]
    """The person's email, the key's name, ``operator`` or ``Mailroom``."""


class AuditTarget(TypedDict):
    """What an action concerned: ``{"type": "invitation", "id", "name": email}``, ``{"type": "api_key", …}``, …"""

    type: str
    id: Optional[str]
    name: Optional[str]


class AuditEvent(TypedDict):
    """One entry of the audit log: who did what, to what, from where. Never holds a secret or a token."""

    object: str
    id: str
    created_at: str
    organization_id: Optional[str]
    actor: AuditActor
    action: str
    """``<object>.<verb>``: ``api_key.created``, ``member.invited``, ``invitation.revoked``, …"""
    target: Optional[AuditTarget]
    ip: Optional[str]
    user_agent: Optional[str]
    changes: Optional[Dict[str, Any]]
    """The settings changed and their values (or ``{"from", "to"}``); None when the action has none."""


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


class TemplateVariable(TypedDict, total=False):
    key: str
    type: Literal["string", "number"]
    fallback_value: Union[str, int, float]


CreateTemplateParams = TypedDict(
    "CreateTemplateParams",
    {
        "name": str,
        "html": str,
        "subject": str,
        "text": str,
        "alias": str,
        "from": str,
        "reply_to": Recipients,
        "variables": List[TemplateVariable],
        "engine": Literal["handlebars", "mjml"],
    },
    total=False,
)

UpdateTemplateParams = TypedDict(
    "UpdateTemplateParams",
    {
        "id": str,
        "name": str,
        "html": str,
        "subject": str,
        "text": str,
        "alias": str,
        "from": str,
        "reply_to": Recipients,
        "variables": List[TemplateVariable],
        "engine": Literal["handlebars", "mjml"],
    },
    total=False,
)

Template = TypedDict(
    "Template",
    {
        "object": str,
        "id": str,
        "name": str,
        "alias": Optional[str],
        "status": str,
        "from": Optional[str],
        "reply_to": Optional[List[str]],
        "subject": Optional[str],
        "html": str,
        "text": Optional[str],
        "engine": str,
        "variables": List[TemplateVariable],
        "has_unpublished_versions": bool,
        "published_at": Optional[str],
        "created_at": str,
        "updated_at": str,
    },
    total=False,
)


class TemplateList(TypedDict):
    object: str
    has_more: bool
    data: List[Template]


class RenderedTemplate(TypedDict, total=False):
    subject: str
    html: str
    text: str


class ValidateTemplateParams(TypedDict, total=False):
    html: str
    subject: str
    text: str
    engine: Literal["handlebars", "mjml"]


class TemplateProblem(TypedDict, total=False):
    field: str
    line: int
    column: int
    message: str


class ValidateTemplateResponse(TypedDict):
    valid: bool
    errors: List[TemplateProblem]


# ----------------------------------------------------------------------------------------------------------------
# AI


class AiStatus(TypedDict):
    """Whether drafts and subject suggestions are available: ``model`` is None without a configured model, and
    ``message`` then says what to configure (None when one is)."""

    object: str
    model_configured: bool
    model: Optional[str]
    message: Optional[str]


class SubjectParams(TypedDict, total=False):
    subject: str
    html: str
    text: str


class SubjectFinding(TypedDict, total=False):
    rule: str
    severity: str
    message: str
    fix: str


class SubjectScore(TypedDict, total=False):
    score: int
    findings: List[SubjectFinding]
    suggestions: List[Any]
    suggestions_unavailable: str


class SaveAsTemplate(TypedDict, total=False):
    name: str
    alias: str


class WriteParams(TypedDict, total=False):
    brief: str
    tone: str
    audience: str
    format: Literal["html", "mjml"]
    save_as_template: SaveAsTemplate


class WriteResponse(TypedDict, total=False):
    subject: str
    html: str
    text: str
    engine: str
    variables: List[Any]
    prompt_version: str
    template_id: str
