# Generated from the OpenAPI document by `npm run generate` — do not edit.
"""The request and response shapes of Mailroom's API, as its OpenAPI document (/openapi.json) names them.

Each route's contract writes its schemas into the document, and ``npm run generate`` prints them here, so these
shapes and the server's answers cannot differ. They describe the decoded JSON for type checkers and readers and
are not checked at run time; ``mailroom.types`` re-exports them under the names the client has always used.
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union


class _AddSuppressionOptionsRequired(TypedDict):
    email: str


class AddSuppressionOptions(_AddSuppressionOptionsRequired, total=False):
    """An address to suppress by hand (origin manual). Sent to POST /v1/suppressions."""

    reason: Optional[str]
    """Why, for your records (null: none)."""


class AiStatus(TypedDict):
    """Answered by GET /v1/ai."""

    object: Literal["ai"]
    model_configured: bool
    model: Optional[str]
    """The configured model's name (never its server or key)."""
    message: Optional[str]
    """What to configure, when no model is."""


class ApiKey(TypedDict):
    """Answered by GET /v1/api-keys."""

    object: Literal["api_key"]
    id: str
    name: str
    mode: Literal["live", "test"]
    """test keys send into the sandbox only."""
    token_prefix: str
    """The first characters of the key, enough to recognise it, never enough to use it."""
    scopes: List[
        Literal[
            "emails:send",
            "emails:read",
            "domains:read",
            "domains:write",
            "templates:read",
            "templates:write",
            "webhooks:read",
            "webhooks:write",
            "suppressions:read",
            "suppressions:write",
            "inbound:read",
            "api_keys:read",
            "api_keys:write",
            "ai:use",
            "deliveries:read",
            "deliveries:write",
            "organization:read",
            "organization:write",
            "members:read",
            "members:write",
            "audit:read",
            "contacts:read",
            "contacts:write",
            "logs:read",
        ]
    ]
    domains: Optional[List[str]]
    """The sending domains it is restricted to; null: any."""
    rate_limit_per_minute: Optional[int]
    daily_quota: Optional[int]
    """Messages per UTC day; null: none of its own."""
    created_at: str
    last_used_at: Optional[str]
    revoked_at: Optional[str]


class AuditActor(TypedDict):
    type: Literal["user", "api_key", "cli", "system"]
    id: Optional[str]
    """The user's or key's id; null for the operator and the system."""
    name: Optional[str]
    """The person's email, the key's name, operator or Mailroom."""


class AuditTarget(TypedDict):
    type: str
    id: Optional[str]
    name: Optional[str]


class AuditEvent(TypedDict):
    """Answered by GET /v1/audit-log."""

    object: Literal["audit_event"]
    id: str
    created_at: str
    organization_id: Optional[str]
    actor: AuditActor
    action: str
    """<object>.<verb>: api_key.created, member.invited, …."""
    target: Optional[AuditTarget]
    """Null for an action that concerns no one object."""
    ip: Optional[str]
    user_agent: Optional[str]
    changes: Optional[Dict[str, Any]]
    """The settings changed and their values (or {from, to}); null when the action has none."""


class _BatchAddSuppressionsOptionsRequired(TypedDict):
    emails: List[str]


class BatchAddSuppressionsOptions(_BatchAddSuppressionsOptionsRequired, total=False):
    """Addresses to suppress; those already suppressed keep their entry. Sent to POST /v1/suppressions/batch/add."""

    reason: Optional[str]
    """Why, for your records (null: none)."""


class BatchRemoveSuppressionsOptions(TypedDict, total=False):
    """Suppressions to remove, by address (emails) or by id (ids): one of the two. Sent to POST
    /v1/suppressions/batch/remove.
    """

    emails: List[str]
    ids: List[str]


class BlocklistListing(TypedDict):
    address: str
    list: str
    listed: bool
    reason: Optional[str]
    checked_at: str


class BroadcastCountsByStatus(TypedDict):
    """Recipients per status."""

    queued: int
    sent: int
    delivered: int
    deferred: int
    bounced: int
    complained: int
    failed: int
    suppressed: int
    canceled: int
    held: int


class BroadcastCounts(TypedDict):
    """Mailroom's figures (docs/broadcasts.md#counts)."""

    contacts_reached: int
    """Contacts of the segment the fan-out has reached so far."""
    messages: int
    """Messages made: one per eligible contact."""
    skipped: int
    """Contacts reached who were unsubscribed or suppressed: no message."""
    by_status: BroadcastCountsByStatus
    """Recipients per status."""


class _BroadcastTemplateRequired(TypedDict):
    id: str
    """The template's id or alias (its published version is sent)."""


class BroadcastTemplate(_BroadcastTemplateRequired, total=False):
    """A saved template in place of html and text, rendered once at send."""

    variables: Dict[str, Any]
    """The template's own variables."""


# Answered by GET /v1/broadcasts/{id}.
Broadcast = TypedDict(
    "Broadcast",
    {
        "object": Literal["broadcast"],
        "id": str,
        "name": str,
        "segment_id": Optional[str],
        "audience_id": Optional[str],
        "from": Optional[str],
        "subject": Optional[str],
        "reply_to": Optional[List[str]],
        "preview_text": Optional[str],
        "status": Literal["draft", "queued", "sent", "canceled"],
        "created_at": str,
        "scheduled_at": Optional[str],
        "sent_at": Optional[str],
        "topic_id": Optional[str],
        "html": Optional[str],
        "text": Optional[str],
        "template": Optional[BroadcastTemplate],
        "counts": BroadcastCounts,
    },
)


class BroadcastClickedLink(TypedDict):
    """Answered by GET /v1/broadcasts/{id}/clicked-links."""

    id: str
    """A cursor for paging, not an entity."""
    url: str
    clicks: int
    unique_clicks: int


class BroadcastRecipientClickedLink(TypedDict):
    url: str
    clicks: int


class _BroadcastRecipientRequired(TypedDict):
    id: str
    """The message's id (GET /emails/{id})."""
    contact_id: Optional[str]
    email: str


class BroadcastRecipient(_BroadcastRecipientRequired, total=False):
    """Answered by GET /v1/broadcasts/{id}/recipients."""

    count: int
    """opened, clicked: how many times."""
    clicked_links: List[BroadcastRecipientClickedLink]
    bounce_type: Literal["permanent", "transient", "undetermined"]


class BroadcastSummary(TypedDict):
    """Answered by GET /v1/broadcasts."""

    id: str
    name: str
    audience_id: Optional[str]
    segment_id: Optional[str]
    status: Literal["draft", "queued", "sent", "canceled"]
    created_at: str
    scheduled_at: Optional[str]
    sent_at: Optional[str]


QueueStatus = Literal["queued", "deferred", "held", "sending"]
"""A waiting status, or sending while an attempt is under way."""


class BulkDeliveriesOptions(TypedDict, total=False):
    """At least one filter. Sent to POST /v1/deliveries/cancel, POST /v1/deliveries/release, POST
    /v1/deliveries/retry.
    """

    status: QueueStatus
    domain: str
    """The recipients' domain."""
    provider: str
    """The provider of their last attempt."""
    email_id: str
    """One message's recipients."""


class BulkDeliveriesResponse(TypedDict):
    """Answered by POST /v1/deliveries/cancel, POST /v1/deliveries/release, POST /v1/deliveries/retry."""

    object: Literal["bulk"]
    matched: int
    """Recipients of the filter the action applies to, those being attempted now included."""
    changed: int
    """Those it changed."""


class CancelEmailResponse(TypedDict):
    """Answered by POST /v1/emails/{id}/cancel."""

    object: Literal["email"]
    id: str
    status: Literal["canceled"]


class ContactPropertyValue(TypedDict):
    """A contact's value of one property, with the property's type."""

    type: Literal["string", "number"]
    value: Union[str, float]


class _ContactRequired(TypedDict):
    object: Literal["contact"]
    id: str
    email: str
    first_name: Optional[str]
    last_name: Optional[str]
    unsubscribed: bool
    """Out of every broadcast and every topic."""
    created_at: str
    updated_at: str


class Contact(_ContactRequired, total=False):
    """A contact of the organisation: one per address. Answered by GET /v1/audiences/{id}/contacts, POST
    /v1/audiences/{id}/contacts, GET /v1/audiences/{id}/contacts/{contact}, PATCH
    /v1/audiences/{id}/contacts/{contact}, GET /v1/contacts, POST /v1/contacts, GET /v1/contacts/{id}, PATCH
    /v1/contacts/{id}, GET /v1/segments/{id}/contacts.
    """

    properties: Dict[str, ContactPropertyValue]
    """Each property's value, or its fallback where the contact has none (get only)."""


class ContactImportCounts(TypedDict):
    total: int
    created: int
    updated: int
    skipped: int
    failed: int


class ContactImportError(TypedDict):
    line: int
    message: str


class ContactImport(TypedDict):
    """A CSV import of contacts and its live counts. Answered by GET /v1/contacts/imports, GET
    /v1/contacts/imports/{id}.
    """

    object: Literal["contact_import"]
    id: str
    status: Literal["queued", "in_progress", "completed", "failed"]
    created_at: str
    completed_at: Optional[str]
    counts: ContactImportCounts
    errors: List[ContactImportError]
    """The first lines that failed, each with its line number in the file."""
    error: Optional[str]
    """Why the whole import failed (status failed)."""


class ContactProperty(TypedDict):
    """A property contacts may carry; a value must match its type. Answered by GET /v1/contact-properties, POST
    /v1/contact-properties, GET /v1/contact-properties/{id}, PATCH /v1/contact-properties/{id}.
    """

    object: Literal["contact_property"]
    id: str
    key: str
    type: Literal["string", "number"]
    fallback_value: Optional[Union[str, float]]
    created_at: str


class ContactTopic(TypedDict):
    """A topic with one contact's effective subscription. Answered by GET /v1/contacts/{id}/topics."""

    id: str
    name: str
    description: Optional[str]
    subscription: Literal["opt_in", "opt_out"]
    """The contact's effective choice."""


class _CreateApiKeyOptionsRequired(TypedDict):
    name: str


class CreateApiKeyOptions(_CreateApiKeyOptionsRequired, total=False):
    """Sent to POST /v1/api-keys."""

    permission: Literal["full_access", "sending_access"]
    """Resend's presets (default full_access)."""
    domain_id: str
    """Restrict sending to this domain (id or name)."""
    scopes: List[str]
    """Fine-grained scopes instead of permission."""
    mode: Literal["live", "test"]
    domains: List[str]
    """Restrict sending to these domains."""
    rate_limit: int
    """Requests per minute for this key."""
    rate_limit_per_minute: int
    """Earlier name of rate_limit."""
    daily_quota: int
    """Messages per UTC day this key may send."""


class CreateApiKeyResponse(TypedDict):
    """Answered by POST /v1/api-keys."""

    object: Literal["api_key"]
    id: str
    name: str
    mode: Literal["live", "test"]
    """test keys send into the sandbox only."""
    token_prefix: str
    """The first characters of the key, enough to recognise it, never enough to use it."""
    scopes: List[
        Literal[
            "emails:send",
            "emails:read",
            "domains:read",
            "domains:write",
            "templates:read",
            "templates:write",
            "webhooks:read",
            "webhooks:write",
            "suppressions:read",
            "suppressions:write",
            "inbound:read",
            "api_keys:read",
            "api_keys:write",
            "ai:use",
            "deliveries:read",
            "deliveries:write",
            "organization:read",
            "organization:write",
            "members:read",
            "members:write",
            "audit:read",
            "contacts:read",
            "contacts:write",
            "logs:read",
        ]
    ]
    domains: Optional[List[str]]
    """The sending domains it is restricted to; null: any."""
    rate_limit_per_minute: Optional[int]
    daily_quota: Optional[int]
    """Messages per UTC day; null: none of its own."""
    created_at: str
    last_used_at: Optional[str]
    revoked_at: Optional[str]
    token: str
    """The full key: shown in this answer only."""


class CreateBatchResponseData(TypedDict):
    id: str


class CreateBatchResponseError(TypedDict):
    index: int
    message: str


class _CreateBatchResponseRequired(TypedDict):
    data: List[CreateBatchResponseData]
    """The messages sent, in order."""


class CreateBatchResponse(_CreateBatchResponseRequired, total=False):
    """Answered by POST /v1/emails/batch."""

    errors: List[CreateBatchResponseError]
    """Permissive batches: the messages refused, by their index."""


class _CreateBroadcastOptionsTemplateRequired(TypedDict):
    id: str
    """The template's id or alias (its published version is sent)."""


class CreateBroadcastOptionsTemplate(_CreateBroadcastOptionsTemplateRequired, total=False):
    """A saved template in place of html and text, rendered once at send."""

    variables: Dict[str, Any]
    """The template's own variables."""


# A broadcast to a segment. Sent to POST /v1/broadcasts.
CreateBroadcastOptions = TypedDict(
    "CreateBroadcastOptions",
    {
        "name": str,
        "segment_id": str,
        "audience_id": str,
        "from": str,
        "subject": str,
        "reply_to": Union[str, List[str]],
        "preview_text": Optional[str],
        "html": str,
        "text": str,
        "template": CreateBroadcastOptionsTemplate,
        "topic_id": Optional[str],
        "send": bool,
        "scheduled_at": str,
    },
    total=False,
)


class CreateContactOptionsSegment(TypedDict):
    id: str


class CreateContactOptionsTopic(TypedDict):
    id: str
    subscription: Literal["opt_in", "opt_out"]


class _CreateContactOptionsRequired(TypedDict):
    email: str


class CreateContactOptions(_CreateContactOptionsRequired, total=False):
    """A new contact. Sent to POST /v1/audiences/{id}/contacts, POST /v1/contacts."""

    first_name: Optional[str]
    last_name: Optional[str]
    unsubscribed: bool
    """Out of every broadcast and every topic."""
    properties: Dict[str, Optional[Union[str, float]]]
    """Values of defined contact properties, by key."""
    segments: List[CreateContactOptionsSegment]
    topics: List[CreateContactOptionsTopic]
    """Topic choices, each ``{id, subscription}``."""


class _CreateContactPropertyOptionsRequired(TypedDict):
    key: str
    """Letters, digits and underscores, starting with a letter."""
    type: Literal["string", "number"]


class CreateContactPropertyOptions(_CreateContactPropertyOptionsRequired, total=False):
    """A property contacts may carry. Sent to POST /v1/contact-properties."""

    fallback_value: Optional[Union[str, float]]


Role = Literal["owner", "admin", "developer", "viewer"]
"""A member's role: owner everything; admin everything but owners and deleting the organisation; developer the mail
and its settings, no people; viewer reads.
"""


class Invitation(TypedDict):
    """An invitation not yet accepted: the role its link grants, until ``expires_at`` (7 days after it was made)."""

    object: Literal["invitation"]
    id: str
    email: str
    role: Role
    created_at: str
    expires_at: str


class CreatedInvitation(Invitation):
    """A new invitation with its one-time link, ``url``: when it was not mailed, the link is yours to hand over.
    Answered by POST /v1/members/invitations.
    """

    url: str
    """The one-time link: never shown again."""
    emailed: bool
    """Whether the link was also mailed to the address invited."""
    note: Optional[str]
    """Why it was not mailed (no public address configured, no verified domain), when it was not."""


class CreateDomainOptionsCapabilities(TypedDict, total=False):
    """Resend's form: receiving enabled or disabled."""

    sending: Literal["enabled"]
    receiving: Literal["enabled", "disabled"]


class CreateDomainOptionsDkim(TypedDict, total=False):
    ed25519: bool
    """Sign with an Ed25519 key (RFC 8463) beside the RSA one: adds its DKIM record; the signature is added once the
    record is found.
    """


class _CreateDomainOptionsRequired(TypedDict):
    name: str
    """Domain name; Unicode names are stored as punycode."""


class CreateDomainOptions(_CreateDomainOptionsRequired, total=False):
    """Sent to POST /v1/domains."""

    return_path_subdomain: str
    """Subdomain for the return path and its SPF and MX records (default send)."""
    open_tracking: bool
    """Track opens of mail from this domain by default."""
    click_tracking: bool
    """Track clicks in mail from this domain by default."""
    receiving_enabled: bool
    """Accept inbound mail for the domain (adds the Inbound MX record)."""
    receiving: bool
    """The same as receiving_enabled."""
    providers: List[str]
    """Names of the providers that take the domain's mail, first choice first; the next takes over while one fails.
    Empty: [delivery] default_provider.
    """
    tracking_subdomain: Optional[str]
    """A label (links → links.<domain>): its CNAME to this server is added to the records, and once found the
    domain's open, click and unsubscribe links use https://links.<domain>; null removes it.
    """
    tls: Literal["opportunistic", "enforced"]
    """enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name (MTA-STS or not);
    otherwise deferred, then bounced with the reason.
    """
    ip_pool: Optional[str]
    """The [ip_pools.<name>] direct delivery of the domain's mail binds its source addresses from (with their
    warm-up); null: the machine's default address.
    """
    dkim: CreateDomainOptionsDkim
    capabilities: CreateDomainOptionsCapabilities
    """Resend's form: receiving enabled or disabled."""


class CreatedOrganization(TypedDict):
    """A new organisation; its creator is its owner. Answered by POST /v1/organizations."""

    object: Literal["organization"]
    id: str
    name: str


class _CreateEmailOptionsAttachmentRequired(TypedDict):
    filename: str


class CreateEmailOptionsAttachment(_CreateEmailOptionsAttachmentRequired, total=False):
    content: str
    """base64; or give path."""
    path: str
    """an https URL fetched at acceptance instead of content (public addresses only, at most the message size limit)."""
    content_type: str
    content_id: str


class CreateEmailOptionsTag(TypedDict):
    name: str
    value: str


class _CreateEmailOptionsTemplateRequired(TypedDict):
    id: str
    """Template id or alias (its published version)."""


class CreateEmailOptionsTemplate(_CreateEmailOptionsTemplateRequired, total=False):
    """Render a saved template; from, subject, html and text come from it unless given here."""

    variables: Optional[Dict[str, Optional[Union[str, float]]]]


class CreateEmailOptionsTracking(TypedDict, total=False):
    """Overrides the sending domain's tracking defaults."""

    opens: bool
    clicks: bool


# Sent to POST /functions/v1/send-email, POST /v1/emails, POST /v1/emails/batch.
CreateEmailOptions = TypedDict(
    "CreateEmailOptions",
    {
        "from": str,
        "to": Union[str, List[str]],
        "cc": Optional[Union[str, List[str]]],
        "bcc": Optional[Union[str, List[str]]],
        "reply_to": Optional[Union[str, List[str]]],
        "reply-to": Optional[Union[str, List[str]]],
        "subject": str,
        "html": Optional[str],
        "text": Optional[str],
        "headers": Optional[Dict[str, str]],
        "attachments": Optional[List[CreateEmailOptionsAttachment]],
        "tags": Optional[List[CreateEmailOptionsTag]],
        "scheduled_at": Optional[str],
        "tracking": Optional[CreateEmailOptionsTracking],
        "unsubscribe": Optional[bool],
        "topic_id": Optional[str],
        "template": CreateEmailOptionsTemplate,
    },
    total=False,
)


class CreateEmailResponse(TypedDict):
    """Answered by POST /functions/v1/send-email, POST /v1/emails."""

    id: str
    message: Literal["Email sent."]


class InboundRouteHeaderMatch(TypedDict):
    """Matches when one of the message's header fields of this name contains the text."""

    name: str
    """A header field's name."""
    contains: str
    """Text its value contains (any case)."""


class CreateInboundRouteOptionsMatch(TypedDict, total=False):
    """What the route matches; an empty match matches every message."""

    recipient: Optional[str]
    header: Optional[InboundRouteHeaderMatch]


class _CreateInboundRouteOptionsRequired(TypedDict):
    action: Literal["store", "webhook", "forward", "reject", "drop"]


class CreateInboundRouteOptions(_CreateInboundRouteOptionsRequired, total=False):
    """Sent to POST /v1/inbound/routes."""

    match: CreateInboundRouteOptionsMatch
    """What the route matches; an empty match matches every message."""
    forward_to: List[str]
    """Where action forward sends a copy."""
    webhook_ids: List[str]
    """The webhooks action webhook notifies."""
    spam_threshold: Optional[float]
    position: int
    """Where the route goes; those at it and after move down. Default: last."""


class CreateSegmentOptions(TypedDict):
    """A segment. Sent to POST /v1/audiences, PATCH /v1/audiences/{id}, POST /v1/segments, PATCH /v1/segments/{id}."""

    name: str
    """The segment's name."""


class _CreateTemplateOptionsVariableRequired(TypedDict):
    key: str
    type: Literal["string", "number"]


class CreateTemplateOptionsVariable(_CreateTemplateOptionsVariableRequired, total=False):
    fallback_value: Optional[Union[str, float]]


# Sent to POST /v1/templates.
CreateTemplateOptions = TypedDict(
    "CreateTemplateOptions",
    {
        "name": str,
        "alias": Optional[str],
        "engine": Literal["handlebars", "mjml"],
        "subject": Optional[str],
        "from": Optional[str],
        "reply_to": Optional[Union[str, List[str]]],
        "html": str,
        "text": Optional[str],
        "variables": List[CreateTemplateOptionsVariable],
    },
    total=False,
)


class _CreateTopicOptionsRequired(TypedDict):
    name: str
    """The topic's name."""
    default_subscription: Literal["opt_in", "opt_out"]
    """What a contact who never chose receives (fixed once created)."""


class CreateTopicOptions(_CreateTopicOptionsRequired, total=False):
    """A new topic. Sent to POST /v1/topics."""

    description: Optional[str]
    visibility: Literal["public", "private"]


class _CreateWebhookOptionsRequired(TypedDict):
    endpoint: str
    """An https URL on a public address."""
    events: List[str]
    """Event types to receive, e.g. email.delivered."""


class CreateWebhookOptions(_CreateWebhookOptionsRequired, total=False):
    """Sent to POST /v1/webhooks."""

    description: Optional[str]


class CurrentApiKey(TypedDict):
    """Answered by GET /v1/api-keys/current."""

    object: Literal["api_key"]
    id: Optional[str]
    """The calling key's id; null for a signed-in person."""
    mode: Literal["live", "test"]
    """test keys send into the sandbox only."""
    scopes: List[
        Literal[
            "emails:send",
            "emails:read",
            "domains:read",
            "domains:write",
            "templates:read",
            "templates:write",
            "webhooks:read",
            "webhooks:write",
            "suppressions:read",
            "suppressions:write",
            "inbound:read",
            "api_keys:read",
            "api_keys:write",
            "ai:use",
            "deliveries:read",
            "deliveries:write",
            "organization:read",
            "organization:write",
            "members:read",
            "members:write",
            "audit:read",
            "contacts:read",
            "contacts:write",
            "logs:read",
        ]
    ]
    """The scopes it may use (a test key's within the sandbox)."""
    domains: Optional[List[str]]
    """The sending domains it is restricted to; null: any."""
    reads_message_content: bool
    """Whether it reads messages' html, text, raw and attachments (a viewer does not)."""


class DaneDestination(TypedDict):
    destination: str
    """The recipient domain."""
    mx_host: str
    """The MX host negotiated with; empty when its MX lookup failed validation."""
    tlsa: Literal["secure", "none", "bogus", "unchecked"]
    """secure: DNSSEC-secure TLSA records; none: no secure TLSA records (unsigned, or none published); bogus: the
    TLSA answer failed DNSSEC validation; unchecked: DANE was off.
    """
    outcome: Literal["verified", "mismatched", "bogus", "mta_sts", "tls_policy"]
    """The last negotiation: verified (the certificate matched a TLSA record), mismatched or bogus (deferred 4.7.5,
    nothing sent), mta_sts or tls_policy (no secure TLSA records: the MTA-STS policy, or the domain's tls setting,
    decided).
    """
    result: str
    """RFC 8460's result type of that negotiation: success, tlsa-invalid, …."""
    last_at: str
    sessions: int
    """Negotiations with this host over the window."""


class Delivery(TypedDict):
    """Answered by GET /v1/deliveries, POST /v1/deliveries/{id}/cancel, POST /v1/deliveries/{id}/release, POST
    /v1/deliveries/{id}/retry.
    """

    object: Literal["delivery"]
    id: str
    email_id: str
    recipient: str
    status: Literal[
        "queued",
        "sent",
        "delivered",
        "deferred",
        "bounced",
        "complained",
        "failed",
        "suppressed",
        "canceled",
        "held",
        "sending",
    ]
    """A recipient status, or sending while an attempt is under way."""
    provider: Optional[str]
    """The provider of the last attempt; null: not attempted yet."""
    attempts: int
    next_attempt_at: Optional[str]
    last_response: Optional[str]
    """The last remote reply (or the operator's action)."""
    created_at: str
    updated_at: str


class DmarcRow(TypedDict):
    source_ip: str
    count: int
    """Messages from that address the row counts."""
    disposition: Literal["none", "quarantine", "reject"]
    """What the receiver did with them under the domain's policy."""
    dkim: Literal["pass", "fail"]
    """DKIM and SPF as DMARC evaluated them (aligned with the From domain)."""
    spf: Literal["pass", "fail"]
    header_from: str


class DmarcReport(TypedDict):
    """Answered by GET /v1/domains/{id}/dmarc."""

    object: Literal["dmarc_report"]
    id: str
    reporter: str
    """The receiver's organisation, as it names itself (google.com, Yahoo, …)."""
    report_id: str
    """The receiver's id of the report."""
    begin: str
    """The period the report covers (ISO 8601, UTC)."""
    end: str
    rows: List[DmarcRow]
    """The report's first 20 rows at most, heaviest source first."""
    row_count: int
    """How many rows the report has: those past ``rows`` are read page by page."""


class DmarcReportRow(DmarcRow):
    """Answered by GET /v1/domains/{id}/dmarc/{report_id}/rows."""

    id: str


class DmarcSource(TypedDict):
    source_ip: str
    messages: int
    aligned_pass_rate: float
    """The share of messages (0–1) that passed DKIM or SPF aligned, so passed DMARC."""
    own: bool
    """One of Mailroom's addresses (public_ips, or the domain's SPF at its return path passes for it)."""


class DmarcSummary(TypedDict):
    """Answered by GET /v1/domains/{id}/dmarc/summary."""

    object: Literal["dmarc_summary"]
    domain: str
    days: int
    reports: int
    """How many reports were summed (those of the last days, newest first)."""
    data: List[DmarcSource]
    """Most messages first."""


class DomainCapabilities(TypedDict):
    """Resend's spelling of the same switches."""

    sending: Literal["enabled"]
    receiving: Literal["enabled", "disabled"]


class DomainDkim(TypedDict):
    ed25519: bool
    """An Ed25519 signature is added beside the RSA one once its record is found (RFC 8463)."""


class DomainHealth(TypedDict):
    bounce_rate: float
    complaint_rate: float
    window: str
    """The window, e.g. 24h."""
    recipients: int
    """Recipients that ended in the window (since a resume, when later): what the rates divide by."""
    status: Literal["ok", "warning", "paused"]
    reason: Optional[str]
    """Why the status is not ok, e.g. ``bounce rate 9.1 % over 24 h``; null when ok."""
    evaluated_at: Optional[str]
    """When the rates were measured; null before the first measurement."""
    min_recipients: int
    """Recipients that must end in the window before the rates are judged ([guardrails] min_recipients); below it the
    status stays ok, not judged yet.
    """


class _DomainRecordRequired(TypedDict):
    record: Literal["DKIM", "SPF", "MX", "DMARC", "Inbound", "Tracking"]
    name: str
    type: Literal["TXT", "MX", "CNAME"]
    value: str
    ttl: Literal["Auto"]
    status: Literal["not_started", "pending", "verified", "failed", "temporary_failure"]


class DomainRecord(_DomainRecordRequired, total=False):
    priority: int
    """MX preference."""
    found: Optional[List[str]]
    """After a check: what DNS answered at the record's name (TXT values, or ``priority host`` for MX), to set beside
    value; null when the lookup failed. Absent before the first check.
    """
    warning: str
    """Why the record as shown cannot work yet: it names this machine because [server] hostname is unset."""
    key_state: Literal["active", "next"]
    """DKIM only: active signs now; next is a rotation's new key, taking over once its record is found."""


class Domain(TypedDict):
    """Answered by GET /v1/domains, POST /v1/domains, GET /v1/domains/{id}, PATCH /v1/domains/{id}, POST
    /v1/domains/{id}/dkim/rotate, POST /v1/domains/{id}/override, POST /v1/domains/{id}/verify.
    """

    object: Literal["domain"]
    id: str
    name: str
    status: Literal["not_started", "pending", "verified", "partially_verified", "failed", "temporary_failure"]
    verified_override: bool
    """The operator marked the domain verified without DNS checks (mailroom domains add --verified, or an instance
    admin: POST /v1/domains/:id/override).
    """
    open_tracking: bool
    click_tracking: bool
    return_path_subdomain: str
    receiving_enabled: bool
    providers: List[str]
    """The providers that take the domain's mail, in order (the next takes over while one fails); empty: the default."""
    capabilities: DomainCapabilities
    """Resend's spelling of the same switches."""
    records: List[DomainRecord]
    dkim: DomainDkim
    tracking_subdomain: Optional[str]
    """The label of the tracking host (links → links.<domain>), whose CNAME is among the records; null: none."""
    tls: Literal["opportunistic", "enforced"]
    """enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name."""
    ip_pool: Optional[str]
    """The [ip_pools.<name>] direct delivery sends from; null: the machine's default address."""
    health: DomainHealth
    last_checked_at: Optional[str]
    created_at: str
    updated_at: str


class DomainDane(TypedDict):
    """Answered by GET /v1/domains/{id}/dane."""

    object: Literal["dane_status"]
    dane: Literal["on", "off"]
    """Whether direct delivery checks TLSA records ([mx] dane)."""
    days: int
    """The window: destinations the domain's mail went to in these last days."""
    data: List[DaneDestination]
    """Most recently negotiated first."""


class DomainDeleted(TypedDict):
    """Answered by DELETE /v1/domains/{id}."""

    object: Literal["domain"]
    id: str
    name: str
    deleted: Literal[True]


class DomainHealthEntry(TypedDict):
    id: str
    name: str
    health: DomainHealth


class EmailEvent(TypedDict):
    type: str
    """email.queued, email.delivered, …."""
    created_at: str
    recipient: Optional[str]
    data: Dict[str, Any]


RecipientStatus = Literal[
    "queued",
    "sent",
    "delivered",
    "deferred",
    "bounced",
    "complained",
    "failed",
    "suppressed",
    "canceled",
    "held",
]


class EmailRecipient(TypedDict):
    email: str
    status: RecipientStatus
    attempts: int
    last_response: Optional[str]
    """The receiving server's last reply."""
    provider: Optional[str]
    """The provider of the last attempt (its name in the config)."""
    provider_message_id: Optional[str]
    """The id that provider gave the message."""
    updated_at: str


EmailStatus = Literal[
    "scheduled",
    "queued",
    "held",
    "sent",
    "delivered",
    "delivery_delayed",
    "bounced",
    "complained",
    "opened",
    "clicked",
    "unsubscribed",
    "failed",
    "suppressed",
    "canceled",
]
"""The last event."""


class Tag(TypedDict):
    name: str
    value: str


# Answered by GET /functions/v1/send-email/{id}, GET /v1/emails/{id}.
Email = TypedDict(
    "Email",
    {
        "object": Literal["email"],
        "id": str,
        "message_id": str,
        "source": Literal["api", "smtp", "cli", "forward"],
        "from": str,
        "to": List[str],
        "cc": List[str],
        "bcc": List[str],
        "reply_to": List[str],
        "subject": str,
        "tags": List[Tag],
        "status": EmailStatus,
        "last_event": EmailStatus,
        "created_at": str,
        "scheduled_at": Optional[str],
        "template_id": Optional[str],
        "topic_id": Optional[str],
        "broadcast_id": Optional[str],
        "mode": Literal["live", "test"],
        "html": Optional[str],
        "text": Optional[str],
        "content_removed_at": Optional[str],
        "recipients": List[EmailRecipient],
        "events": List[EmailEvent],
    },
)


class _EmailAttachmentRequired(TypedDict):
    id: str
    filename: Optional[str]
    content_type: str
    content_disposition: Literal["inline", "attachment"]
    content_id: Optional[str]
    size: int
    """Bytes."""
    download_url: str
    """Valid for an hour without an API key."""
    expires_at: str


class EmailAttachment(_EmailAttachmentRequired, total=False):
    """Answered by GET /v1/emails/{id}/attachments, GET /v1/emails/{id}/attachments/{attachment_id}, GET
    /v1/emails/receiving/{id}/attachments, GET /v1/emails/receiving/{id}/attachments/{attachment_id}.
    """

    object: Literal["attachment"]


class _EmailMetricsRowRequired(TypedDict):
    period: str
    """The period's start (UTC)."""


class EmailMetricsRow(_EmailMetricsRowRequired, total=False):
    received: float
    delivered: float
    complained: float
    suppressed: float
    bounced: float
    bounced_transient: float
    bounced_permanent: float
    bounced_undetermined: float
    opened: float
    clicked: float
    unsubscribed: float
    delivery_delayed: float
    failed: float
    sent: float
    unique_opened: float
    unique_clicked: float
    delivery_rate: float
    open_rate: float
    click_rate: float
    bounce_rate: float
    complaint_rate: float
    unsubscribe_rate: float


class EmailMetricsTotals(TypedDict, total=False):
    received: float
    delivered: float
    complained: float
    suppressed: float
    bounced: float
    bounced_transient: float
    bounced_permanent: float
    bounced_undetermined: float
    opened: float
    clicked: float
    unsubscribed: float
    delivery_delayed: float
    failed: float
    sent: float
    unique_opened: float
    unique_clicked: float
    delivery_rate: float
    open_rate: float
    click_rate: float
    bounce_rate: float
    complaint_rate: float
    unsubscribe_rate: float


class _EmailMetricsRequired(TypedDict):
    object: Literal["metrics"]
    start_date: str
    end_date: str
    metrics: List[
        Literal[
            "received",
            "delivered",
            "complained",
            "suppressed",
            "bounced",
            "bounced_transient",
            "bounced_permanent",
            "bounced_undetermined",
            "opened",
            "clicked",
            "unsubscribed",
            "delivery_delayed",
            "failed",
            "sent",
            "unique_opened",
            "unique_clicked",
            "delivery_rate",
            "open_rate",
            "click_rate",
            "bounce_rate",
            "complaint_rate",
            "unsubscribe_rate",
        ]
    ]
    dimensions: List[Literal["period", "domain", "email", "broadcast"]]
    granularity: Literal["hourly", "daily", "weekly", "monthly"]
    totals: EmailMetricsTotals


class EmailMetrics(_EmailMetricsRequired, total=False):
    """Answered by GET /v1/emails/metrics."""

    data: List[EmailMetricsRow]


class EmailStatCounts(TypedDict):
    """``accepted`` counts messages (email.queued, or the first email.scheduled); the others count recipients'
    events.
    """

    accepted: int
    sent: int
    delivered: int
    delivery_delayed: int
    bounced: int
    complained: int
    failed: int
    suppressed: int


class EmailStatsBucket(TypedDict):
    start: str
    accepted: int
    sent: int
    delivered: int
    delivery_delayed: int
    bounced: int
    complained: int
    failed: int
    suppressed: int


# Answered by GET /v1/emails/stats.
EmailStats = TypedDict(
    "EmailStats",
    {
        "object": Literal["email_stats"],
        "interval": Literal["hour", "day"],
        "from": str,
        "to": str,
        "buckets": List[EmailStatsBucket],
        "totals": EmailStatCounts,
    },
)


# Answered by GET /v1/emails.
EmailSummary = TypedDict(
    "EmailSummary",
    {
        "object": Literal["email"],
        "id": str,
        "message_id": str,
        "source": Literal["api", "smtp", "cli", "forward"],
        "from": str,
        "to": List[str],
        "cc": List[str],
        "bcc": List[str],
        "reply_to": List[str],
        "subject": str,
        "tags": List[Tag],
        "status": EmailStatus,
        "last_event": EmailStatus,
        "created_at": str,
        "scheduled_at": Optional[str],
        "template_id": Optional[str],
        "topic_id": Optional[str],
        "broadcast_id": Optional[str],
        "mode": Literal["live", "test"],
    },
)


class ErrorBodyDetail(TypedDict):
    path: str
    message: str


class _ErrorBodyRequired(TypedDict):
    error: str
    """The HTTP reason phrase."""
    name: Literal[
        "validation_error",
        "invalid_idempotency_key",
        "unauthorized",
        "insufficient_scope",
        "not_found",
        "method_not_allowed",
        "invalid_idempotent_request",
        "concurrent_idempotent_requests",
        "conflict",
        "payload_too_large",
        "domain_not_verified",
        "rate_limit_exceeded",
        "daily_quota_exceeded",
        "gone",
        "internal_error",
        "service_unavailable",
    ]
    """What went wrong, from the one error table."""
    message: str
    statusCode: int


class ErrorBody(_ErrorBodyRequired, total=False):
    details: List[ErrorBodyDetail]
    request_id: str


class InboundRouteMatch(TypedDict):
    recipient: Optional[str]
    header: Optional[InboundRouteHeaderMatch]


class InboundRoute(TypedDict):
    """A rule for the organisation's received mail. Answered by GET /v1/inbound/routes, POST /v1/inbound/routes, GET
    /v1/inbound/routes/{id}, PATCH /v1/inbound/routes/{id}.
    """

    object: Literal["inbound_route"]
    id: str
    position: int
    """Routes are tried from position 1 up; the first match decides."""
    match: InboundRouteMatch
    action: Literal["store", "webhook", "forward", "reject", "drop"]
    """store (the default), webhook (store; email.received only to webhook_ids), forward (store and forward), reject
    (550 5.7.1) or drop (accept, store nothing).
    """
    forward_to: List[str]
    webhook_ids: List[str]
    spam_threshold: Optional[float]
    """rspamd score at or over which the message is refused."""
    created_at: str
    updated_at: str


class InboundRouteTest(TypedDict):
    """Answered by POST /v1/inbound/routes/test."""

    object: Literal["inbound_route_test"]
    recipient: str
    receiving: bool
    """Whether the MX takes mail for this address for the organisation."""
    route: Optional[InboundRoute]
    """The route that decides; null: none matches."""
    action: Literal["store", "webhook", "forward", "reject", "drop"]
    """What becomes of the message (store when no route matches)."""


class InvitationPreviewOrganization(TypedDict):
    """The organisation it joins."""

    name: str


class InvitationPreview(TypedDict):
    """An open invitation as its link's holder sees it: the organisation, the role and the address. Answered by POST
    /v1/invitations/preview.
    """

    object: Literal["invitation_preview"]
    email: str
    """The address invited: only this account may join with it."""
    role: Role
    organization: InvitationPreviewOrganization
    """The organisation it joins."""
    expires_at: str


class InviteMemberOptions(TypedDict):
    """An invitation to make: an API key may grant every role but owner (only owners make owners). Sent to POST
    /v1/members/invitations.
    """

    email: str
    """The address the link is for; stored lower-cased."""
    role: Role


class IpPoolBackOff(TypedDict):
    provider: str
    """The destination provider (gmail, outlook, yahoo, a [shaping.<provider>], or other)."""
    messages_per_minute: int
    """The rate in force now, per minute."""
    until: str
    """When the rate returns to the configured one."""


class IpPoolAddress(TypedDict):
    address: str
    ehlo_name: Optional[str]
    """The EHLO name it greets with (its PTR name); null: [mx] ehlo_name."""
    warmup_day: Optional[int]
    """Day of warm-up (1 = the day it first sent); null before it sent, or once warm-up is over."""
    daily_cap: Optional[int]
    """Today's cap per provider while warming up; null: uncapped."""
    today: Dict[str, int]
    """Messages delivered today (UTC), per destination provider."""
    backed_off: List[IpPoolBackOff]
    """Providers whose rate is halved now, with the rate in force and until when."""


class IpPool(TypedDict):
    """Answered by GET /v1/ip-pools."""

    name: str
    warmup: str
    """How long an address warms up from its first use, e.g. 30d (0d: none)."""
    addresses: List[IpPoolAddress]


class Log(TypedDict):
    """Answered by GET /v1/logs/{id}."""

    object: Literal["log"]
    id: str
    created_at: str
    endpoint: str
    """The path, as Resend's: /emails/<id> (no /v1)."""
    method: str
    response_status: int
    user_agent: Optional[str]
    api_key_id: Optional[str]
    request_body: Any
    """The JSON body sent, secrets replaced by "[redacted]"; null without one."""
    response_body: Any
    """The JSON answer, secrets replaced by "[redacted]"; null when not JSON."""


class LogListItem(TypedDict):
    id: str
    created_at: str
    endpoint: str
    """The path, as Resend's: /emails/<id> (no /v1)."""
    method: str
    response_status: int
    user_agent: Optional[str]
    api_key_id: Optional[str]


class LogList(TypedDict):
    """Answered by GET /v1/logs."""

    object: Literal["list"]
    has_more: bool
    data: List[LogListItem]
    retention_days: float
    """[retention] logs in days: entries older than this are removed."""
    recording: bool
    """Whether requests are recorded now ([http] request_log)."""


class Member(TypedDict):
    """A person who belongs to the organisation; ``id`` is the person's (a user id), as changing a role and removing
    take it. Answered by PATCH /v1/members/{id}.
    """

    object: Literal["member"]
    id: str
    """The person's id."""
    email: str
    name: str
    role: Role
    created_at: str
    """When they joined the organisation."""


class MemberList(TypedDict):
    """A page of members (oldest first), and every pending invitation. Answered by GET /v1/members."""

    object: Literal["list"]
    has_more: bool
    data: List[Member]
    invitations: List[Invitation]
    """Every pending invitation, without its link."""


class Membership(TypedDict):
    """An organisation the signed-in person belongs to, with their role there."""

    id: str
    name: str
    role: Role


class OrganizationRetention(TypedDict):
    content_days: float
    metadata_days: float


class OrganizationStorage(TypedDict):
    messages: int
    content_bytes: int
    measured_at: str


class Organization(TypedDict):
    """Answered by GET /v1/organization, PATCH /v1/organization."""

    object: Literal["organization"]
    id: str
    name: str
    rate_limit: int
    """Requests per minute, all keys together: the organisation's own or the configured default."""
    daily_quota: Optional[int]
    """Live messages per UTC day; null: none."""
    usage_today: int
    """Live messages accepted since 00:00 UTC."""
    retention: OrganizationRetention
    paused: bool
    """Sending of the whole organisation is paused (GET /v1/sending lists every pause)."""
    storage: Optional[OrganizationStorage]
    """Null until the retention job has counted once."""
    created_at: str


class OrganizationMembership(TypedDict):
    """An organisation the caller acts in, with the caller's role there (an API key: its own organisation). Answered
    by GET /v1/organizations.
    """

    object: Literal["organization"]
    id: str
    name: str
    role: Role


PauseScope = Literal["organization", "domain", "provider", "lane"]
"""What is paused: the organisation, one sending domain, one provider, or one lane (transactional, broadcast)."""


class _PauseSendingOptionsRequired(TypedDict):
    scope: PauseScope


class PauseSendingOptions(_PauseSendingOptionsRequired, total=False):
    """Sent to POST /v1/sending/pause."""

    name: str
    """The domain, provider or lane — transactional or broadcast (none for the organisation)."""
    reason: Optional[str]
    """For the record."""


class QueueDomainCounts(TypedDict):
    domain: str
    queued: int
    deferred: int
    held: int
    sending: int
    oldest_at: Optional[str]
    """When the oldest of them was queued."""


class QueueLaneCounts(TypedDict):
    lane: Literal["transactional", "broadcast"]
    queued: int
    deferred: int
    held: int
    sending: int
    oldest_at: Optional[str]
    """When the oldest of them was queued."""


class QueueProviderCounts(TypedDict):
    provider: Optional[str]
    """The provider of the last attempt; null: not attempted yet."""
    queued: int
    deferred: int
    held: int
    sending: int
    oldest_at: Optional[str]
    """When the oldest of them was queued."""


class QueueStatusCounts(TypedDict):
    queued: int
    deferred: int
    held: int
    sending: int


class QueueSummary(TypedDict):
    """Answered by GET /v1/deliveries/summary."""

    object: Literal["queue_summary"]
    by_status: QueueStatusCounts
    by_domain: List[QueueDomainCounts]
    """The 20 domains with the most recipients waiting."""
    by_provider: List[QueueProviderCounts]
    by_lane: List[QueueLaneCounts]
    """Each sending lane: transactional, then broadcast (docs/operations.md#sending-lanes)."""
    oldest_waiting_at: Optional[str]
    """When the oldest waiting recipient was queued."""


class ReceivedAttachment(TypedDict):
    id: str
    filename: Optional[str]
    content_type: str
    content_disposition: Literal["inline", "attachment"]
    content_id: Optional[str]
    size: int
    """Bytes."""


class ReceivedEmailAuthenticationArc(TypedDict):
    result: str


class ReceivedEmailAuthenticationDkim(TypedDict):
    result: str
    domain: Optional[str]
    selector: Optional[str]
    aligned: bool


class ReceivedEmailAuthenticationDmarc(TypedDict):
    result: str
    policy: Optional[str]
    domain: Optional[str]


class ReceivedEmailAuthenticationSpf(TypedDict):
    result: str
    domain: Optional[str]


class ReceivedEmailAuthentication(TypedDict):
    spf: Optional[ReceivedEmailAuthenticationSpf]
    dkim: List[ReceivedEmailAuthenticationDkim]
    dmarc: Optional[ReceivedEmailAuthenticationDmarc]
    arc: Optional[ReceivedEmailAuthenticationArc]
    header: str


class ReceivedEmailRaw(TypedDict):
    """The raw message's signed link."""

    download_url: str
    """The message as it arrived; valid for an hour without an API key."""
    expires_at: str


class ReceivedEmailSpamSymbol(TypedDict):
    name: str
    score: float


class ReceivedEmailSpam(TypedDict):
    score: float
    action: str
    """rspamd's action: no action, greylist, add header, rewrite subject, soft reject, reject."""
    symbols: List[ReceivedEmailSpamSymbol]
    """The rules that fired, highest first."""


# Answered by GET /v1/emails/receiving/{id}.
ReceivedEmail = TypedDict(
    "ReceivedEmail",
    {
        "object": Literal["email"],
        "id": str,
        "to": List[str],
        "from": str,
        "created_at": str,
        "subject": str,
        "bcc": Optional[List[str]],
        "cc": Optional[List[str]],
        "reply_to": Optional[List[str]],
        "received_for": List[str],
        "message_id": Optional[str],
        "attachments": List[ReceivedAttachment],
        "in_reply_to_email_id": Optional[str],
        "auto_reply": Optional[Literal["auto_reply", "challenge_response"]],
        "authentication": ReceivedEmailAuthentication,
        "spam": Optional[ReceivedEmailSpam],
        "route_id": Optional[str],
        "html": Optional[str],
        "text": Optional[str],
        "headers": Dict[str, str],
        "raw": ReceivedEmailRaw,
    },
)


# Answered by GET /v1/emails/receiving.
ReceivedEmailSummary = TypedDict(
    "ReceivedEmailSummary",
    {
        "id": str,
        "to": List[str],
        "from": str,
        "created_at": str,
        "subject": str,
        "bcc": Optional[List[str]],
        "cc": Optional[List[str]],
        "reply_to": Optional[List[str]],
        "received_for": List[str],
        "message_id": Optional[str],
        "attachments": List[ReceivedAttachment],
        "in_reply_to_email_id": Optional[str],
        "auto_reply": Optional[Literal["auto_reply", "challenge_response"]],
        "authentication": ReceivedEmailAuthentication,
        "spam": Optional[ReceivedEmailSpam],
        "route_id": Optional[str],
    },
)


class RemovedSuppression(TypedDict):
    """One address or id of a batch removal: found and removed, or not on the list (``deleted: false``, and the part
    not given null). Answered by POST /v1/suppressions/batch/remove.
    """

    object: Literal["suppression"]
    id: Optional[str]
    email: Optional[str]
    deleted: bool


class RenderedTemplate(TypedDict):
    """Answered by POST /v1/templates/{id}/render."""

    subject: Optional[str]
    html: str
    text: str


class RenderTemplateOptions(TypedDict, total=False):
    """Sent to POST /v1/templates/{id}/render."""

    variables: Dict[str, Optional[Union[str, float]]]
    """Values of the template's variables: strings and numbers."""


class ReplayFailedResponse(TypedDict):
    """Answered by POST /v1/webhooks/{id}/replay."""

    object: Literal["replay"]
    webhook_id: str
    replayed: int
    """How many failed events are due again."""


class _ResumeSendingOptionsRequired(TypedDict):
    scope: PauseScope


class ResumeSendingOptions(_ResumeSendingOptionsRequired, total=False):
    """Sent to POST /v1/sending/resume."""

    name: str
    """The domain, provider or lane — transactional or broadcast (none for the organisation)."""


class Segment(TypedDict):
    """A named group of contacts (Resend's audience). Answered by GET /v1/audiences, POST /v1/audiences, GET
    /v1/audiences/{id}, PATCH /v1/audiences/{id}, GET /v1/contacts/{id}/segments, GET /v1/segments, POST
    /v1/segments, GET /v1/segments/{id}, PATCH /v1/segments/{id}.
    """

    object: Literal["segment"]
    id: str
    name: str
    created_at: str


class SegmentCount(TypedDict):
    """Mailroom's extra: how many contacts a segment holds (docs/contacts.md#tables). Answered by GET
    /v1/segments/{id}/count.
    """

    object: Literal["segment_count"]
    segment_id: str
    contacts: int
    """Contacts in the segment now, unsubscribed and suppressed ones included."""


class SendBroadcastOptions(TypedDict, total=False):
    """Sent to POST /v1/broadcasts/{id}/send."""

    scheduled_at: str
    """ISO 8601, or e.g. ``in 2 hours``; absent: now."""


class SendingHealthOverview(TypedDict):
    """Answered by GET /v1/sending/health."""

    object: Literal["sending_health"]
    health: DomainHealth
    domains: List[DomainHealthEntry]
    blocklists: List[BlocklistListing]
    """Listed ones first; empty without [deliverability] dnsbl."""


class SendingPause(TypedDict):
    scope: PauseScope
    name: Optional[str]
    """The domain, provider or lane; null for the organisation."""
    reason: Optional[str]
    paused_at: str
    paused_by: Optional[str]
    """The key that paused (its id), operator for the command line, or system for a guardrail."""


class SendingResumed(TypedDict):
    """Answered by POST /v1/sending/resume."""

    object: Literal["sending"]
    pauses: List[SendingPause]
    released: int
    """Held recipients that went back to the queue."""


class SendingState(TypedDict):
    """Answered by GET /v1/sending, POST /v1/sending/pause."""

    object: Literal["sending"]
    pauses: List[SendingPause]


class User(TypedDict):
    """A person with an account: signs in to the admin UI and belongs to organisations."""

    object: Literal["user"]
    id: str
    email: str
    name: str
    instance_admin: bool
    """May create organisations."""
    totp_enabled: bool
    """Sign-in with a password also asks for an authenticator app's code."""
    created_at: str


class Session(TypedDict):
    """The signed-in person and the organisations they belong to. Answered by POST /v1/invitations/accept, GET
    /v1/me, POST /v1/session, POST /v1/setup.
    """

    object: Literal["session"]
    user: User
    organizations: List[Membership]


class SessionState(TypedDict):
    """Whether this browser is signed in: the person, or ``user: null`` (never a 401). Answered by GET /v1/session."""

    object: Literal["session"]
    user: Optional[User]
    organizations: List[Membership]


class _SnsMessageRequired(TypedDict):
    Type: Literal["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"]
    MessageId: str
    TopicArn: str
    """One of [sns] topics."""
    Message: str
    """For a notification, the SES event record as JSON."""
    Timestamp: str
    SignatureVersion: Literal["1", "2"]
    """1: SHA1withRSA, 2: SHA256withRSA."""
    Signature: str
    SigningCertURL: str
    """https on the SNS host of the topic's region."""


class SnsMessage(_SnsMessageRequired, total=False):
    """SubscribeURL and Token are required of confirmations."""

    Subject: Optional[str]
    SubscribeURL: str
    """Confirmations: visiting it confirms the subscription."""
    Token: str
    """Confirmations."""
    UnsubscribeURL: Optional[str]


class _SnsReceiptRequired(TypedDict):
    type: Literal["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"]


class SnsReceipt(_SnsReceiptRequired, total=False):
    """Answered by POST /v1/providers/ses/sns."""

    applied: bool
    """A notification: whether it changed a delivery (false: repeated, unknown message, or an event Mailroom
    ignores).
    """


class SubjectFinding(TypedDict):
    rule: str
    """The rule's stable dotted id, e.g. length.too_long."""
    severity: Literal["error", "warning", "info"]
    message: str
    fix: str
    """What to change."""


class _SubjectOptionsRequired(TypedDict):
    subject: str


class SubjectOptions(_SubjectOptionsRequired, total=False):
    """Sent to POST /v1/ai/subject."""

    html: Optional[str]
    text: Optional[str]


class SubjectScore(TypedDict):
    subject: str
    score: int
    findings: List[SubjectFinding]


class _SubjectResponseRequired(TypedDict):
    score: int
    findings: List[SubjectFinding]
    suggestions: List[SubjectScore]
    """Better subjects from the model, best first; empty without one."""
    prompt_version: str


class SubjectResponse(_SubjectResponseRequired, total=False):
    """Answered by POST /v1/ai/subject."""

    suggestions_unavailable: str
    """Why there are no suggestions, when the model is not configured or failed."""


class Suppression(TypedDict):
    """An address on the organisation's suppression list: no message is delivered to it. Answered by GET
    /v1/suppressions, POST /v1/suppressions, GET /v1/suppressions/{id}, POST /v1/suppressions/batch/add.
    """

    object: Literal["suppression"]
    id: str
    email: str
    origin: Literal["bounce", "complaint", "unsubscribe", "manual"]
    """What put the address on the list."""
    source_id: Optional[str]
    """The message or event that did (a bounce's, a complaint's)."""
    reason: Optional[str]
    created_at: str


class TemplateVariable(TypedDict):
    key: str
    type: Literal["string", "number"]
    fallback_value: Optional[Union[str, float]]
    """Used when a send gives none."""
    created_at: str
    updated_at: str


# Answered by GET /v1/templates/{id}.
Template = TypedDict(
    "Template",
    {
        "object": Literal["template"],
        "id": str,
        "name": str,
        "alias": Optional[str],
        "engine": Literal["handlebars", "mjml"],
        "status": Literal["draft", "published"],
        "subject": Optional[str],
        "from": Optional[str],
        "reply_to": Optional[List[str]],
        "html": str,
        "text": Optional[str],
        "variables": List[TemplateVariable],
        "published_at": Optional[str],
        "created_at": str,
        "updated_at": str,
        "has_unpublished_versions": bool,
        "current_version_id": str,
    },
)


class TemplateResponse(TypedDict):
    """Answered by POST /v1/templates, PATCH /v1/templates/{id}, POST /v1/templates/{id}/duplicate, POST
    /v1/templates/{id}/publish.
    """

    object: Literal["template"]
    id: str


class TemplateSummary(TypedDict):
    """Answered by GET /v1/templates."""

    id: str
    name: str
    alias: Optional[str]
    status: Literal["draft", "published"]
    """published once a version was published."""
    published_at: Optional[str]
    created_at: str
    updated_at: str
    engine: Literal["handlebars", "mjml"]
    """How html is read: Handlebars, or MJML with Handlebars."""


class TemplateValidationError(TypedDict):
    field: str
    """html, subject or text."""
    line: int
    column: int
    message: str


class TemplateValidation(TypedDict):
    """Answered by POST /v1/templates/validate."""

    valid: bool
    errors: List[TemplateValidationError]


class _TestInboundRouteOptionsRequired(TypedDict):
    recipient: str


class TestInboundRouteOptions(_TestInboundRouteOptionsRequired, total=False):
    """Sent to POST /v1/inbound/routes/test."""

    headers: Dict[str, str]
    """Header fields of an imagined message, name → value."""


class TestWebhookOptions(TypedDict, total=False):
    """Sent to POST /v1/webhooks/{id}/test."""

    type: str
    """Event type of the sample (default email.sent)."""


class Topic(TypedDict):
    """A kind of mail a contact may choose to receive or not. Answered by GET /v1/topics, POST /v1/topics, GET
    /v1/topics/{id}, PATCH /v1/topics/{id}.
    """

    object: Literal["topic"]
    id: str
    name: str
    description: Optional[str]
    default_subscription: Literal["opt_in", "opt_out"]
    """What a contact who never chose receives: opt_in receives, opt_out does not."""
    visibility: Literal["public", "private"]
    """public topics are shown on the preference page."""
    created_at: str
    updated_at: str


class TotpEnrolment(TypedDict):
    """Two-step sign-in begun: the secret for an authenticator app, on once a code of it is confirmed. Answered by
    POST /v1/me/totp.
    """

    object: Literal["totp_enrolment"]
    secret: str
    """The new secret, base32: type it into the app, or scan otpauth_url."""
    otpauth_url: str


class TotpOff(TypedDict):
    """Two-step sign-in off: a password alone signs in. Answered by POST /v1/me/totp/disable."""

    object: Literal["totp"]
    enabled: Literal[False]


class TotpOn(TypedDict):
    """Two-step sign-in on, with new recovery codes. Answered by POST /v1/me/totp/confirm, POST
    /v1/me/totp/recovery-codes.
    """

    object: Literal["totp"]
    enabled: Literal[True]
    recovery_codes: List[str]
    """Shown this once: each signs in once without the app."""


class UpdateApiKeyOptions(TypedDict):
    """Sent to PATCH /v1/api-keys/{id}."""

    name: str


class UpdateApiKeyResponse(TypedDict):
    """Answered by PATCH /v1/api-keys/{id}."""

    object: Literal["api_key"]
    id: str


class _UpdateBroadcastOptionsTemplateRequired(TypedDict):
    id: str
    """The template's id or alias (its published version is sent)."""


class UpdateBroadcastOptionsTemplate(_UpdateBroadcastOptionsTemplateRequired, total=False):
    """A saved template in place of html and text, rendered once at send."""

    variables: Dict[str, Any]
    """The template's own variables."""


# Changes to a draft. Sent to PATCH /v1/broadcasts/{id}.
UpdateBroadcastOptions = TypedDict(
    "UpdateBroadcastOptions",
    {
        "name": str,
        "segment_id": str,
        "audience_id": str,
        "from": str,
        "subject": str,
        "reply_to": Union[str, List[str]],
        "preview_text": Optional[str],
        "html": str,
        "text": str,
        "template": UpdateBroadcastOptionsTemplate,
        "topic_id": Optional[str],
    },
    total=False,
)


class UpdateContactOptions(TypedDict, total=False):
    """Changes to a contact. Sent to PATCH /v1/audiences/{id}/contacts/{contact}, PATCH /v1/contacts/{id}."""

    first_name: Optional[str]
    last_name: Optional[str]
    unsubscribed: bool
    properties: Dict[str, Optional[Union[str, float, bool]]]
    """Values to set, by key (null removes one)."""


class UpdateContactPropertyOptions(TypedDict, total=False):
    """A property's new fallback (its key and type cannot change). Sent to PATCH /v1/contact-properties/{id}."""

    fallback_value: Optional[Union[str, float]]


class UpdateDomainOptionsCapabilities(TypedDict, total=False):
    """Resend's form: receiving enabled or disabled."""

    sending: Literal["enabled"]
    receiving: Literal["enabled", "disabled"]


class UpdateDomainOptionsDkim(TypedDict, total=False):
    ed25519: bool
    """Sign with an Ed25519 key (RFC 8463) beside the RSA one: adds its DKIM record; the signature is added once the
    record is found.
    """


class UpdateDomainOptions(TypedDict, total=False):
    """Sent to PATCH /v1/domains/{id}."""

    return_path_subdomain: str
    """Subdomain for the return path and its SPF and MX records (default send)."""
    open_tracking: bool
    """Track opens of mail from this domain by default."""
    click_tracking: bool
    """Track clicks in mail from this domain by default."""
    receiving_enabled: bool
    """Accept inbound mail for the domain (adds the Inbound MX record)."""
    receiving: bool
    """The same as receiving_enabled."""
    providers: List[str]
    """Names of the providers that take the domain's mail, first choice first; the next takes over while one fails.
    Empty: [delivery] default_provider.
    """
    tracking_subdomain: Optional[str]
    """A label (links → links.<domain>): its CNAME to this server is added to the records, and once found the
    domain's open, click and unsubscribe links use https://links.<domain>; null removes it.
    """
    tls: Literal["opportunistic", "enforced"]
    """enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name (MTA-STS or not);
    otherwise deferred, then bounced with the reason.
    """
    ip_pool: Optional[str]
    """The [ip_pools.<name>] direct delivery of the domain's mail binds its source addresses from (with their
    warm-up); null: the machine's default address.
    """
    dkim: UpdateDomainOptionsDkim
    capabilities: UpdateDomainOptionsCapabilities
    """Resend's form: receiving enabled or disabled."""


class UpdateEmailOptions(TypedDict):
    """Sent to PATCH /v1/emails/{id}."""

    scheduled_at: str


class UpdateEmailResponse(TypedDict):
    """Answered by PATCH /v1/emails/{id}."""

    object: Literal["email"]
    id: str


class UpdateInboundRouteOptionsMatch(TypedDict, total=False):
    """What the route matches; an empty match matches every message."""

    recipient: Optional[str]
    header: Optional[InboundRouteHeaderMatch]


class UpdateInboundRouteOptions(TypedDict, total=False):
    """Sent to PATCH /v1/inbound/routes/{id}."""

    match: UpdateInboundRouteOptionsMatch
    """What the route matches; an empty match matches every message."""
    forward_to: List[str]
    """Where action forward sends a copy."""
    webhook_ids: List[str]
    """The webhooks action webhook notifies."""
    spam_threshold: Optional[float]
    position: int
    """Where the route goes; those at it and after move down. Default: last."""
    action: Literal["store", "webhook", "forward", "reject", "drop"]


class UpdateMemberRoleOptions(TypedDict):
    """A member's new role. Sent to PATCH /v1/members/{id}."""

    role: Role


class UpdateOrganizationOptionsRetention(TypedDict, total=False):
    content_days: Optional[int]
    """Days before the content of a finished message is removed; null returns to the configured default."""
    metadata_days: Optional[int]
    """Days before a finished message's record and events are removed; null returns to the configured default."""


class UpdateOrganizationOptions(TypedDict, total=False):
    """Sent to PATCH /v1/organization."""

    name: str
    """1 to 100 characters on one line."""
    rate_limit: Optional[int]
    """Requests per minute, all keys together; null returns to the configured default."""
    daily_quota: Optional[int]
    """Live messages per UTC day; null: none."""
    retention: UpdateOrganizationOptionsRetention


class _UpdateTemplateOptionsVariableRequired(TypedDict):
    key: str
    type: Literal["string", "number"]


class UpdateTemplateOptionsVariable(_UpdateTemplateOptionsVariableRequired, total=False):
    fallback_value: Optional[Union[str, float]]


# Sent to PATCH /v1/templates/{id}.
UpdateTemplateOptions = TypedDict(
    "UpdateTemplateOptions",
    {
        "name": str,
        "alias": Optional[str],
        "engine": Literal["handlebars", "mjml"],
        "subject": Optional[str],
        "from": Optional[str],
        "reply_to": Optional[Union[str, List[str]]],
        "html": str,
        "text": Optional[str],
        "variables": List[UpdateTemplateOptionsVariable],
    },
    total=False,
)


class UpdateTopicOptions(TypedDict, total=False):
    """Changes to a topic (its default_subscription cannot change). Sent to PATCH /v1/topics/{id}."""

    id: str
    """Ignored (Resend's SDK sends it)."""
    name: str
    """The topic's name."""
    description: Optional[str]
    visibility: Literal["public", "private"]


class UpdateWebhookOptions(TypedDict, total=False):
    """Sent to PATCH /v1/webhooks/{id}."""

    endpoint: str
    events: List[str]
    description: Optional[str]
    status: Literal["enabled", "disabled"]


class UsageAiCredits(TypedDict):
    used: int
    limit: Optional[int]
    """Null: Mailroom sets no such limit."""
    next_increase_at: Optional[str]


class UsageAutomationRuns(TypedDict):
    used: int
    limit: Optional[int]
    """Null: Mailroom sets no such limit."""
    resets_at: str


class UsageBroadcasts(TypedDict):
    used: int
    limit: Optional[Any]


class UsageContacts(TypedDict):
    used: int
    limit: Optional[int]
    """Null: Mailroom sets no such limit."""


class UsageDomains(TypedDict):
    used: int
    limit: Optional[int]
    """Null: Mailroom sets no such limit."""


class UsageEmailsDaily(TypedDict):
    used: int
    """Messages accepted (sent) in the period."""
    limit: Optional[int]
    """Null: Mailroom sets no such limit."""
    sent: int
    received: int
    resets_at: str


class UsageEmailsMonthly(TypedDict):
    used: int
    """Messages accepted (sent) in the period."""
    limit: Optional[int]
    """Null: Mailroom sets no such limit."""
    sent: int
    received: int
    resets_at: str


class UsageEmails(TypedDict):
    daily: UsageEmailsDaily
    monthly: UsageEmailsMonthly


class UsageRateLimit(TypedDict):
    limit: int
    """Requests per window, the organisation's."""
    duration: str
    """The window: 60s."""


class UsageSegments(TypedDict):
    used: int
    limit: Optional[int]
    """Null: Mailroom sets no such limit."""


class Usage(TypedDict):
    """Answered by GET /v1/usage."""

    object: Literal["usage"]
    emails: UsageEmails
    contacts: UsageContacts
    segments: UsageSegments
    broadcasts: UsageBroadcasts
    ai_credits: UsageAiCredits
    automation_runs: UsageAutomationRuns
    domains: UsageDomains
    rate_limit: UsageRateLimit


class _ValidateTemplateOptionsRequired(TypedDict):
    html: str


class ValidateTemplateOptions(_ValidateTemplateOptionsRequired, total=False):
    """Sent to POST /v1/templates/validate."""

    engine: Literal["handlebars", "mjml"]
    """How html is read (default: mjml when its root is <mjml>, else handlebars)."""
    subject: str
    text: str


class WebhookAttempt(TypedDict):
    """Answered by GET /v1/webhooks/{id}/events/{event_id}/attempts."""

    object: Literal["webhook_attempt"]
    id: str
    sent_at: str
    http_status_code: Optional[int]
    """Null when no HTTP answer came (timeout, refused connection, refused address)."""
    response: Optional[str]
    """The first 1 KB of the endpoint's answer."""
    error: Optional[str]
    duration_ms: int


class WebhookDeliveryEvent(TypedDict):
    """Answered by GET /v1/webhooks/{id}/events, POST /v1/webhooks/{id}/events/{event_id}/replay, POST
    /v1/webhooks/{id}/test.
    """

    object: Literal["webhook_event"]
    id: str
    """The webhook-id header of every attempt of this event."""
    webhook_id: str
    event_id: Optional[str]
    """The event it carries; null for a test event."""
    type: str
    status: Literal["pending", "attempting", "success", "failed"]
    attempt_count: int
    next_attempt_at: Optional[str]
    last_attempt_at: Optional[str]
    last_status_code: Optional[int]
    last_error: Optional[str]
    created_at: str


class WebhookPayload(TypedDict):
    type: str
    created_at: str
    data: Dict[str, Any]


class WebhookDeliveryEventDetail(WebhookDeliveryEvent):
    """Answered by GET /v1/webhooks/{id}/events/{event_id}."""

    payload: WebhookPayload
    attempts: List[WebhookAttempt]
    """Every attempt, oldest first."""


class WebhookEndpoint(TypedDict):
    """Answered by GET /v1/webhooks, GET /v1/webhooks/{id}, PATCH /v1/webhooks/{id}."""

    object: Literal["webhook"]
    id: str
    endpoint: str
    """The https URL events are posted to."""
    events: List[
        Literal[
            "email.scheduled",
            "email.queued",
            "email.sent",
            "email.delivered",
            "email.delivery_delayed",
            "email.bounced",
            "email.complained",
            "email.opened",
            "email.clicked",
            "email.unsubscribed",
            "email.failed",
            "email.suppressed",
            "email.canceled",
            "email.received",
            "email.held",
            "domain.created",
            "domain.updated",
            "domain.deleted",
            "suppression.added",
            "suppression.removed",
            "sending.paused",
            "sending.resumed",
            "contact.created",
            "contact.updated",
            "contact.deleted",
            "contact.topics.updated",
            "topic.created",
            "topic.updated",
            "topic.deleted",
        ]
    ]
    """The event types it receives."""
    description: Optional[str]
    status: Literal["enabled", "disabled"]
    disabled_reason: Optional[str]
    """Why it was disabled (410 Gone, repeated failures, or by the user)."""
    disabled_at: Optional[str]
    created_at: str
    updated_at: str


class WebhookWithSecret(WebhookEndpoint):
    """Answered by POST /v1/webhooks, POST /v1/webhooks/{id}/signing-secret/rotate."""

    signing_secret: str
    """``whsec_<base64 key>``: what a verifier takes."""


class _WriteOptionsSaveAsTemplateRequired(TypedDict):
    name: str


class WriteOptionsSaveAsTemplate(_WriteOptionsSaveAsTemplateRequired, total=False):
    alias: Optional[str]


class _WriteOptionsRequired(TypedDict):
    brief: str
    """What the email should say."""


class WriteOptions(_WriteOptionsRequired, total=False):
    """Sent to POST /v1/ai/write."""

    tone: Optional[str]
    audience: Optional[str]
    format: Literal["html", "mjml"]
    """Default html."""
    save_as_template: Optional[Union[WriteOptionsSaveAsTemplate, Literal[False]]]
    """Save the draft as a draft template."""


class WriteResponse(TypedDict):
    """Answered by POST /v1/ai/write."""

    object: Literal["draft"]
    subject: str
    html: str
    text: str
    engine: Literal["handlebars", "mjml"]
    variables: List[str]
    """The placeholders the draft uses: the variables a send fills."""
    template_id: Optional[str]
    """The draft template it was saved as, when asked."""
    prompt_version: str
