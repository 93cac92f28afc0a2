// Code generated from the OpenAPI document by `npm run generate` — DO NOT EDIT.

// The request and response types of Mailroom's API, as the OpenAPI document (/openapi.json) names them: each route's
// contract writes its schemas there, and `npm run generate` prints them here, so these types and the server's answers
// cannot differ. The services (emails.go, members.go, …) take and answer them.
package mailroom

// AddSuppressionOptions is an address to suppress by hand (origin manual). Sent to POST /v1/suppressions.
type AddSuppressionOptions struct {
	Email string `json:"email,omitempty"`
	// Reason: Why, for your records (null: none).
	Reason string `json:"reason,omitempty"`
}

// AiStatus is answered by GET /v1/ai.
type AiStatus struct {
	Object          string `json:"object"`
	ModelConfigured bool   `json:"model_configured"`
	// Model is the configured model's name (never its server or key).
	Model string `json:"model"`
	// Message: What to configure, when no model is.
	Message string `json:"message"`
}

// ApiKey is answered by GET /v1/api-keys.
type ApiKey struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	Name   string `json:"name"`
	// Mode: test keys send into the sandbox only.
	Mode string `json:"mode"`
	// TokenPrefix is the first characters of the key, enough to recognise it, never enough to use it.
	TokenPrefix string   `json:"token_prefix"`
	Scopes      []string `json:"scopes"`
	// Domains is the sending domains it is restricted to; null: any.
	Domains            []string `json:"domains"`
	RateLimitPerMinute *int     `json:"rate_limit_per_minute"`
	// DailyQuota: Messages per UTC day; null: none of its own.
	DailyQuota *int   `json:"daily_quota"`
	CreatedAt  string `json:"created_at"`
	LastUsedAt string `json:"last_used_at"`
	RevokedAt  string `json:"revoked_at"`
}

// AuditActor is a shape of the API.
type AuditActor struct {
	Type string `json:"type"`
	// Id is the user's or key's id; null for the operator and the system.
	Id string `json:"id"`
	// Name is the person's email, the key's name, operator or Mailroom.
	Name string `json:"name"`
}

// AuditEvent is answered by GET /v1/audit-log.
type AuditEvent struct {
	Object         string     `json:"object"`
	Id             string     `json:"id"`
	CreatedAt      string     `json:"created_at"`
	OrganizationId string     `json:"organization_id"`
	Actor          AuditActor `json:"actor"`
	// Action: <object>.<verb>: api_key.created, member.invited, ….
	Action string `json:"action"`
	// Target: Null for an action that concerns no one object.
	Target    *AuditTarget `json:"target"`
	Ip        string       `json:"ip"`
	UserAgent string       `json:"user_agent"`
	// Changes is the settings changed and their values (or {from, to}); null when the action has none.
	Changes map[string]any `json:"changes"`
}

// AuditTarget is a shape of the API.
type AuditTarget struct {
	Type string `json:"type"`
	Id   string `json:"id"`
	Name string `json:"name"`
}

// BatchAddSuppressionsOptions: Addresses to suppress; those already suppressed keep their entry. Sent to POST
// /v1/suppressions/batch/add.
type BatchAddSuppressionsOptions struct {
	Emails []string `json:"emails,omitempty"`
	// Reason: Why, for your records (null: none).
	Reason string `json:"reason,omitempty"`
}

// BatchRemoveSuppressionsOptions: Suppressions to remove, by address (emails) or by id (ids): one of the two. Sent to
// POST /v1/suppressions/batch/remove.
type BatchRemoveSuppressionsOptions struct {
	Emails []string `json:"emails,omitempty"`
	Ids    []string `json:"ids,omitempty"`
}

// BlocklistListing is a shape of the API.
type BlocklistListing struct {
	Address   string `json:"address"`
	List      string `json:"list"`
	Listed    bool   `json:"listed"`
	Reason    string `json:"reason"`
	CheckedAt string `json:"checked_at"`
}

// Broadcast is answered by GET /v1/broadcasts/{id}.
type Broadcast struct {
	Object      string   `json:"object"`
	Id          string   `json:"id"`
	Name        string   `json:"name"`
	SegmentId   string   `json:"segment_id"`
	AudienceId  string   `json:"audience_id"`
	From        string   `json:"from"`
	Subject     string   `json:"subject"`
	ReplyTo     []string `json:"reply_to"`
	PreviewText string   `json:"preview_text"`
	// Status: draft → queued (scheduled, or being fanned out) → sent; canceled: stopped while sending.
	Status      string             `json:"status"`
	CreatedAt   string             `json:"created_at"`
	ScheduledAt string             `json:"scheduled_at"`
	SentAt      string             `json:"sent_at"`
	TopicId     string             `json:"topic_id"`
	Html        string             `json:"html"`
	Text        string             `json:"text"`
	Template    *BroadcastTemplate `json:"template"`
	Counts      BroadcastCounts    `json:"counts"`
}

// BroadcastClickedLink is answered by GET /v1/broadcasts/{id}/clicked-links.
type BroadcastClickedLink struct {
	// Id is a cursor for paging, not an entity.
	Id           string `json:"id"`
	Url          string `json:"url"`
	Clicks       int    `json:"clicks"`
	UniqueClicks int    `json:"unique_clicks"`
}

// BroadcastCounts: Mailroom's figures (docs/broadcasts.md#counts).
type BroadcastCounts struct {
	// ContactsReached: Contacts of the segment the fan-out has reached so far.
	ContactsReached int `json:"contacts_reached"`
	// Messages: Messages made: one per eligible contact.
	Messages int `json:"messages"`
	// Skipped: Contacts reached who were unsubscribed or suppressed: no message.
	Skipped int `json:"skipped"`
	// ByStatus: Recipients per status.
	ByStatus BroadcastCountsByStatus `json:"by_status"`
}

// BroadcastCountsByStatus: Recipients per status.
type BroadcastCountsByStatus struct {
	Queued     int `json:"queued"`
	Sent       int `json:"sent"`
	Delivered  int `json:"delivered"`
	Deferred   int `json:"deferred"`
	Bounced    int `json:"bounced"`
	Complained int `json:"complained"`
	Failed     int `json:"failed"`
	Suppressed int `json:"suppressed"`
	Canceled   int `json:"canceled"`
	Held       int `json:"held"`
}

// BroadcastRecipient is answered by GET /v1/broadcasts/{id}/recipients.
type BroadcastRecipient struct {
	// Id is the message's id (GET /emails/{id}).
	Id        string `json:"id"`
	ContactId string `json:"contact_id"`
	Email     string `json:"email"`
	// Count: opened, clicked: how many times.
	Count        int                             `json:"count,omitempty"`
	ClickedLinks []BroadcastRecipientClickedLink `json:"clicked_links,omitempty"`
	BounceType   string                          `json:"bounce_type,omitempty"`
}

// BroadcastRecipientClickedLink is a shape of the API.
type BroadcastRecipientClickedLink struct {
	Url    string `json:"url"`
	Clicks int    `json:"clicks"`
}

// BroadcastSummary is answered by GET /v1/broadcasts.
type BroadcastSummary struct {
	Id          string `json:"id"`
	Name        string `json:"name"`
	AudienceId  string `json:"audience_id"`
	SegmentId   string `json:"segment_id"`
	Status      string `json:"status"`
	CreatedAt   string `json:"created_at"`
	ScheduledAt string `json:"scheduled_at"`
	SentAt      string `json:"sent_at"`
}

// BroadcastTemplate is a saved template in place of html and text, rendered once at send.
type BroadcastTemplate struct {
	// Id is the template's id or alias (its published version is sent).
	Id string `json:"id"`
	// Variables is the template's own variables.
	Variables map[string]any `json:"variables,omitempty"`
}

// BulkDeliveriesOptions: At least one filter. Sent to POST /v1/deliveries/cancel, POST /v1/deliveries/release, POST
// /v1/deliveries/retry.
type BulkDeliveriesOptions struct {
	Status QueueStatus `json:"status,omitempty"`
	// Domain is the recipients' domain.
	Domain string `json:"domain,omitempty"`
	// Provider is the provider of their last attempt.
	Provider string `json:"provider,omitempty"`
	// EmailId: One message's recipients.
	EmailId string `json:"email_id,omitempty"`
}

// BulkDeliveriesResponse is answered by POST /v1/deliveries/cancel, POST /v1/deliveries/release, POST
// /v1/deliveries/retry.
type BulkDeliveriesResponse struct {
	Object string `json:"object"`
	// Matched: Recipients of the filter the action applies to, those being attempted now included.
	Matched int `json:"matched"`
	// Changed: Those it changed.
	Changed int `json:"changed"`
}

// CancelEmailResponse is answered by POST /v1/emails/{id}/cancel.
type CancelEmailResponse struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	Status string `json:"status"`
}

// Contact is a contact of the organisation: one per address. Answered by GET /v1/audiences/{id}/contacts, POST
// /v1/audiences/{id}/contacts, GET /v1/audiences/{id}/contacts/{contact}, PATCH /v1/audiences/{id}/contacts/{contact},
// GET /v1/contacts, POST /v1/contacts, GET /v1/contacts/{id}, PATCH /v1/contacts/{id}, GET /v1/segments/{id}/contacts.
type Contact struct {
	Object    string `json:"object"`
	Id        string `json:"id"`
	Email     string `json:"email"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	// Unsubscribed: Out of every broadcast and every topic.
	Unsubscribed bool   `json:"unsubscribed"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
	// Properties: Each property's value, or its fallback where the contact has none (get only).
	Properties map[string]ContactPropertyValue `json:"properties,omitempty"`
}

// ContactImport is a CSV import of contacts and its live counts. Answered by GET /v1/contacts/imports, GET
// /v1/contacts/imports/{id}.
type ContactImport struct {
	Object      string              `json:"object"`
	Id          string              `json:"id"`
	Status      string              `json:"status"`
	CreatedAt   string              `json:"created_at"`
	CompletedAt string              `json:"completed_at"`
	Counts      ContactImportCounts `json:"counts"`
	// Errors is the first lines that failed, each with its line number in the file.
	Errors []ContactImportError `json:"errors"`
	// Error: Why the whole import failed (status failed).
	Error string `json:"error"`
}

// ContactImportCounts is a shape of the API.
type ContactImportCounts struct {
	Total   int `json:"total"`
	Created int `json:"created"`
	Updated int `json:"updated"`
	Skipped int `json:"skipped"`
	Failed  int `json:"failed"`
}

// ContactImportError is a shape of the API.
type ContactImportError struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// ContactProperty is a property contacts may carry; a value must match its type. Answered by GET
// /v1/contact-properties, POST /v1/contact-properties, GET /v1/contact-properties/{id}, PATCH
// /v1/contact-properties/{id}.
type ContactProperty struct {
	Object        string `json:"object"`
	Id            string `json:"id"`
	Key           string `json:"key"`
	Type          string `json:"type"`
	FallbackValue any    `json:"fallback_value"`
	CreatedAt     string `json:"created_at"`
}

// ContactPropertyValue is a contact's value of one property, with the property's type.
type ContactPropertyValue struct {
	Type  string `json:"type"`
	Value any    `json:"value"`
}

// ContactTopic is a topic with one contact's effective subscription. Answered by GET /v1/contacts/{id}/topics.
type ContactTopic struct {
	Id          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// Subscription is the contact's effective choice.
	Subscription string `json:"subscription"`
}

// CreateApiKeyOptions is sent to POST /v1/api-keys.
type CreateApiKeyOptions struct {
	Name string `json:"name,omitempty"`
	// Permission: Resend's presets (default full_access).
	Permission string `json:"permission,omitempty"`
	// DomainId: Restrict sending to this domain (id or name).
	DomainId string `json:"domain_id,omitempty"`
	// Scopes: Fine-grained scopes instead of permission.
	Scopes []string `json:"scopes,omitempty"`
	Mode   string   `json:"mode,omitempty"`
	// Domains: Restrict sending to these domains.
	Domains []string `json:"domains,omitempty"`
	// RateLimit: Requests per minute for this key.
	RateLimit int `json:"rate_limit,omitempty"`
	// RateLimitPerMinute: Earlier name of rate_limit.
	RateLimitPerMinute int `json:"rate_limit_per_minute,omitempty"`
	// DailyQuota: Messages per UTC day this key may send.
	DailyQuota int `json:"daily_quota,omitempty"`
}

// CreateApiKeyResponse is answered by POST /v1/api-keys.
type CreateApiKeyResponse struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	Name   string `json:"name"`
	// Mode: test keys send into the sandbox only.
	Mode string `json:"mode"`
	// TokenPrefix is the first characters of the key, enough to recognise it, never enough to use it.
	TokenPrefix string   `json:"token_prefix"`
	Scopes      []string `json:"scopes"`
	// Domains is the sending domains it is restricted to; null: any.
	Domains            []string `json:"domains"`
	RateLimitPerMinute *int     `json:"rate_limit_per_minute"`
	// DailyQuota: Messages per UTC day; null: none of its own.
	DailyQuota *int   `json:"daily_quota"`
	CreatedAt  string `json:"created_at"`
	LastUsedAt string `json:"last_used_at"`
	RevokedAt  string `json:"revoked_at"`
	// Token is the full key: shown in this answer only.
	Token string `json:"token"`
}

// CreateBatchResponse is answered by POST /v1/emails/batch.
type CreateBatchResponse struct {
	// Data is the messages sent, in order.
	Data []CreateBatchResponseData `json:"data"`
	// Errors: Permissive batches: the messages refused, by their index.
	Errors []CreateBatchResponseError `json:"errors,omitempty"`
}

// CreateBatchResponseData is a shape of the API.
type CreateBatchResponseData struct {
	Id string `json:"id"`
}

// CreateBatchResponseError is a shape of the API.
type CreateBatchResponseError struct {
	Index   int    `json:"index"`
	Message string `json:"message"`
}

// CreateBroadcastOptions is a broadcast to a segment. Sent to POST /v1/broadcasts.
type CreateBroadcastOptions struct {
	Name string `json:"name,omitempty"`
	// SegmentId is the segment whose contacts receive it.
	SegmentId string `json:"segment_id,omitempty"`
	// AudienceId: segment_id's older name.
	AudienceId  string `json:"audience_id,omitempty"`
	From        string `json:"from,omitempty"`
	Subject     string `json:"subject,omitempty"`
	ReplyTo     any    `json:"reply_to,omitempty"`
	PreviewText string `json:"preview_text,omitempty"`
	// Html: May use {{{FIRST_NAME|fallback}}} and the other variables.
	Html string `json:"html,omitempty"`
	Text string `json:"text,omitempty"`
	// Template is a saved template in place of html and text, rendered once at send.
	Template *CreateBroadcastOptionsTemplate `json:"template,omitempty"`
	TopicId  string                          `json:"topic_id,omitempty"`
	// Send: Send now (or at scheduled_at) instead of keeping a draft.
	Send *bool `json:"send,omitempty"`
	// ScheduledAt: ISO 8601, or e.g. `in 2 hours`; with send: true.
	ScheduledAt string `json:"scheduled_at,omitempty"`
}

// CreateBroadcastOptionsTemplate is a saved template in place of html and text, rendered once at send.
type CreateBroadcastOptionsTemplate struct {
	// Id is the template's id or alias (its published version is sent).
	Id string `json:"id,omitempty"`
	// Variables is the template's own variables.
	Variables map[string]any `json:"variables,omitempty"`
}

// CreateContactOptions is a new contact. Sent to POST /v1/audiences/{id}/contacts, POST /v1/contacts.
type CreateContactOptions struct {
	Email     string `json:"email,omitempty"`
	FirstName string `json:"first_name,omitempty"`
	LastName  string `json:"last_name,omitempty"`
	// Unsubscribed: Out of every broadcast and every topic.
	Unsubscribed *bool `json:"unsubscribed,omitempty"`
	// Properties: Values of defined contact properties, by key.
	Properties map[string]any                `json:"properties,omitempty"`
	Segments   []CreateContactOptionsSegment `json:"segments,omitempty"`
	// Topics: Topic choices, each `{id, subscription}`.
	Topics []CreateContactOptionsTopic `json:"topics,omitempty"`
}

// CreateContactOptionsSegment is a shape of the API.
type CreateContactOptionsSegment struct {
	Id string `json:"id,omitempty"`
}

// CreateContactOptionsTopic is a shape of the API.
type CreateContactOptionsTopic struct {
	Id           string `json:"id,omitempty"`
	Subscription string `json:"subscription,omitempty"`
}

// CreateContactPropertyOptions is a property contacts may carry. Sent to POST /v1/contact-properties.
type CreateContactPropertyOptions struct {
	// Key: Letters, digits and underscores, starting with a letter.
	Key           string `json:"key,omitempty"`
	Type          string `json:"type,omitempty"`
	FallbackValue any    `json:"fallback_value,omitempty"`
}

// CreatedInvitation is a new invitation with its one-time link, `url`: when it was not mailed, the link is yours to
// hand over. Answered by POST /v1/members/invitations.
type CreatedInvitation struct {
	Invitation
	// Url is the one-time link: never shown again.
	Url string `json:"url"`
	// Emailed: Whether the link was also mailed to the address invited.
	Emailed bool `json:"emailed"`
	// Note: Why it was not mailed (no public address configured, no verified domain), when it was not.
	Note string `json:"note"`
}

// CreateDomainOptions is sent to POST /v1/domains.
type CreateDomainOptions struct {
	// Name: Domain name; Unicode names are stored as punycode.
	Name string `json:"name,omitempty"`
	// ReturnPathSubdomain: Subdomain for the return path and its SPF and MX records (default send).
	ReturnPathSubdomain string `json:"return_path_subdomain,omitempty"`
	// OpenTracking: Track opens of mail from this domain by default.
	OpenTracking *bool `json:"open_tracking,omitempty"`
	// ClickTracking: Track clicks in mail from this domain by default.
	ClickTracking *bool `json:"click_tracking,omitempty"`
	// ReceivingEnabled: Accept inbound mail for the domain (adds the Inbound MX record).
	ReceivingEnabled *bool `json:"receiving_enabled,omitempty"`
	// Receiving is the same as receiving_enabled.
	Receiving *bool `json:"receiving,omitempty"`
	// Providers: Names of the providers that take the domain's mail, first choice first; the next takes over while one
	// fails. Empty: [delivery] default_provider.
	Providers []string `json:"providers,omitempty"`
	// TrackingSubdomain is a label (links → links.<domain>): its CNAME to this server is added to the records, and once
	// found the domain's open, click and unsubscribe links use https://links.<domain>; null removes it.
	TrackingSubdomain string `json:"tracking_subdomain,omitempty"`
	// Tls: enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name (MTA-STS or not);
	// otherwise deferred, then bounced with the reason.
	Tls string `json:"tls,omitempty"`
	// IpPool is the [ip_pools.<name>] direct delivery of the domain's mail binds its source addresses from (with their
	// warm-up); null: the machine's default address.
	IpPool string                   `json:"ip_pool,omitempty"`
	Dkim   *CreateDomainOptionsDkim `json:"dkim,omitempty"`
	// Capabilities: Resend's form: receiving enabled or disabled.
	Capabilities *CreateDomainOptionsCapabilities `json:"capabilities,omitempty"`
}

// CreateDomainOptionsCapabilities: Resend's form: receiving enabled or disabled.
type CreateDomainOptionsCapabilities struct {
	Sending   string `json:"sending,omitempty"`
	Receiving string `json:"receiving,omitempty"`
}

// CreateDomainOptionsDkim is a shape of the API.
type CreateDomainOptionsDkim struct {
	// Ed25519: Sign with an Ed25519 key (RFC 8463) beside the RSA one: adds its DKIM record; the signature is added
	// once the record is found.
	Ed25519 *bool `json:"ed25519,omitempty"`
}

// CreatedOrganization is a new organisation; its creator is its owner. Answered by POST /v1/organizations.
type CreatedOrganization struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	Name   string `json:"name"`
}

// CreateEmailOptions is sent to POST /functions/v1/send-email, POST /v1/emails, POST /v1/emails/batch.
type CreateEmailOptions struct {
	// From: `addr` or `Display Name <addr>` on a verified domain; required unless the template gives it.
	From    string `json:"from,omitempty"`
	To      any    `json:"to"`
	Cc      any    `json:"cc,omitempty"`
	Bcc     any    `json:"bcc,omitempty"`
	ReplyTo any    `json:"reply_to,omitempty"`
	// Subject: Required unless the template gives it.
	Subject     string                         `json:"subject,omitempty"`
	Html        string                         `json:"html,omitempty"`
	Text        string                         `json:"text,omitempty"`
	Headers     map[string]string              `json:"headers,omitempty"`
	Attachments []CreateEmailOptionsAttachment `json:"attachments,omitempty"`
	Tags        []CreateEmailOptionsTag        `json:"tags,omitempty"`
	ScheduledAt string                         `json:"scheduled_at,omitempty"`
	Tracking    *CreateEmailOptionsTracking    `json:"tracking,omitempty"`
	Unsubscribe *bool                          `json:"unsubscribe,omitempty"`
	TopicId     string                         `json:"topic_id,omitempty"`
	// Template: Render a saved template; from, subject, html and text come from it unless given here.
	Template *CreateEmailOptionsTemplate `json:"template,omitempty"`
}

// CreateEmailOptionsAttachment is a shape of the API.
type CreateEmailOptionsAttachment struct {
	Filename string `json:"filename,omitempty"`
	// Content: base64; or give path.
	Content string `json:"content,omitempty"`
	// Path: an https URL fetched at acceptance instead of content (public addresses only, at most the message size
	// limit).
	Path        string `json:"path,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	ContentId   string `json:"content_id,omitempty"`
}

// CreateEmailOptionsTag is a shape of the API.
type CreateEmailOptionsTag struct {
	Name  string `json:"name,omitempty"`
	Value string `json:"value,omitempty"`
}

// CreateEmailOptionsTemplate: Render a saved template; from, subject, html and text come from it unless given here.
type CreateEmailOptionsTemplate struct {
	// Id: Template id or alias (its published version).
	Id        string         `json:"id,omitempty"`
	Variables map[string]any `json:"variables,omitempty"`
}

// CreateEmailOptionsTracking: Overrides the sending domain's tracking defaults.
type CreateEmailOptionsTracking struct {
	Opens  *bool `json:"opens,omitempty"`
	Clicks *bool `json:"clicks,omitempty"`
}

// CreateEmailResponse is answered by POST /functions/v1/send-email, POST /v1/emails.
type CreateEmailResponse struct {
	Id      string `json:"id"`
	Message string `json:"message"`
}

// CreateInboundRouteOptions is sent to POST /v1/inbound/routes.
type CreateInboundRouteOptions struct {
	// Match: What the route matches; an empty match matches every message.
	Match *CreateInboundRouteOptionsMatch `json:"match,omitempty"`
	// ForwardTo: Where action forward sends a copy.
	ForwardTo []string `json:"forward_to,omitempty"`
	// WebhookIds is the webhooks action webhook notifies.
	WebhookIds    []string `json:"webhook_ids,omitempty"`
	SpamThreshold *float64 `json:"spam_threshold,omitempty"`
	// Position: Where the route goes; those at it and after move down. Default: last.
	Position int    `json:"position,omitempty"`
	Action   string `json:"action,omitempty"`
}

// CreateInboundRouteOptionsMatch: What the route matches; an empty match matches every message.
type CreateInboundRouteOptionsMatch struct {
	Recipient string                   `json:"recipient,omitempty"`
	Header    *InboundRouteHeaderMatch `json:"header,omitempty"`
}

// CreateSegmentOptions is a segment. Sent to POST /v1/audiences, PATCH /v1/audiences/{id}, POST /v1/segments, PATCH
// /v1/segments/{id}.
type CreateSegmentOptions struct {
	// Name is the segment's name.
	Name string `json:"name,omitempty"`
}

// CreateTemplateOptions is sent to POST /v1/templates.
type CreateTemplateOptions struct {
	Name string `json:"name,omitempty"`
	// Alias is a second, stable name to send with.
	Alias string `json:"alias,omitempty"`
	// Engine: How html is read (default: mjml when its root is <mjml>, else handlebars).
	Engine    string                          `json:"engine,omitempty"`
	Subject   string                          `json:"subject,omitempty"`
	From      string                          `json:"from,omitempty"`
	ReplyTo   any                             `json:"reply_to,omitempty"`
	Html      string                          `json:"html,omitempty"`
	Text      string                          `json:"text,omitempty"`
	Variables []CreateTemplateOptionsVariable `json:"variables,omitempty"`
}

// CreateTemplateOptionsVariable is a shape of the API.
type CreateTemplateOptionsVariable struct {
	Key           string `json:"key,omitempty"`
	Type          string `json:"type,omitempty"`
	FallbackValue any    `json:"fallback_value,omitempty"`
}

// CreateTopicOptions is a new topic. Sent to POST /v1/topics.
type CreateTopicOptions struct {
	// Name is the topic's name.
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// DefaultSubscription: What a contact who never chose receives (fixed once created).
	DefaultSubscription string `json:"default_subscription,omitempty"`
	Visibility          string `json:"visibility,omitempty"`
}

// CreateWebhookOptions is sent to POST /v1/webhooks.
type CreateWebhookOptions struct {
	// Endpoint is an https URL on a public address.
	Endpoint string `json:"endpoint,omitempty"`
	// Events: Event types to receive, e.g. email.delivered.
	Events      []string `json:"events,omitempty"`
	Description string   `json:"description,omitempty"`
}

// CurrentApiKey is answered by GET /v1/api-keys/current.
type CurrentApiKey struct {
	Object string `json:"object"`
	// Id is the calling key's id; null for a signed-in person.
	Id string `json:"id"`
	// Mode: test keys send into the sandbox only.
	Mode string `json:"mode"`
	// Scopes is the scopes it may use (a test key's within the sandbox).
	Scopes []string `json:"scopes"`
	// Domains is the sending domains it is restricted to; null: any.
	Domains []string `json:"domains"`
	// ReadsMessageContent: Whether it reads messages' html, text, raw and attachments (a viewer does not).
	ReadsMessageContent bool `json:"reads_message_content"`
}

// DaneDestination is a shape of the API.
type DaneDestination struct {
	// Destination is the recipient domain.
	Destination string `json:"destination"`
	// MxHost is the MX host negotiated with; empty when its MX lookup failed validation.
	MxHost string `json:"mx_host"`
	// Tlsa: secure: DNSSEC-secure TLSA records; none: no secure TLSA records (unsigned, or none published); bogus: the
	// TLSA answer failed DNSSEC validation; unchecked: DANE was off.
	Tlsa string `json:"tlsa"`
	// Outcome is the last negotiation: verified (the certificate matched a TLSA record), mismatched or bogus (deferred
	// 4.7.5, nothing sent), mta_sts or tls_policy (no secure TLSA records: the MTA-STS policy, or the domain's tls
	// setting, decided).
	Outcome string `json:"outcome"`
	// Result: RFC 8460's result type of that negotiation: success, tlsa-invalid, ….
	Result string `json:"result"`
	LastAt string `json:"last_at"`
	// Sessions: Negotiations with this host over the window.
	Sessions int `json:"sessions"`
}

// Delivery is answered by GET /v1/deliveries, POST /v1/deliveries/{id}/cancel, POST /v1/deliveries/{id}/release, POST
// /v1/deliveries/{id}/retry.
type Delivery struct {
	Object    string `json:"object"`
	Id        string `json:"id"`
	EmailId   string `json:"email_id"`
	Recipient string `json:"recipient"`
	// Status is a recipient status, or sending while an attempt is under way.
	Status string `json:"status"`
	// Provider is the provider of the last attempt; null: not attempted yet.
	Provider      string `json:"provider"`
	Attempts      int    `json:"attempts"`
	NextAttemptAt string `json:"next_attempt_at"`
	// LastResponse is the last remote reply (or the operator's action).
	LastResponse string `json:"last_response"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
}

// DmarcReport is answered by GET /v1/domains/{id}/dmarc.
type DmarcReport struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	// Reporter is the receiver's organisation, as it names itself (google.com, Yahoo, …).
	Reporter string `json:"reporter"`
	// ReportId is the receiver's id of the report.
	ReportId string `json:"report_id"`
	// Begin is the period the report covers (ISO 8601, UTC).
	Begin string `json:"begin"`
	End   string `json:"end"`
	// Rows is the report's first 20 rows at most, heaviest source first.
	Rows []DmarcRow `json:"rows"`
	// RowCount: How many rows the report has: those past `rows` are read page by page.
	RowCount int `json:"row_count"`
}

// DmarcReportRow is answered by GET /v1/domains/{id}/dmarc/{report_id}/rows.
type DmarcReportRow struct {
	DmarcRow
	Id string `json:"id"`
}

// DmarcRow is a shape of the API.
type DmarcRow struct {
	SourceIp string `json:"source_ip"`
	// Count: Messages from that address the row counts.
	Count int `json:"count"`
	// Disposition: What the receiver did with them under the domain's policy.
	Disposition string `json:"disposition"`
	// Dkim: DKIM and SPF as DMARC evaluated them (aligned with the From domain).
	Dkim       string `json:"dkim"`
	Spf        string `json:"spf"`
	HeaderFrom string `json:"header_from"`
}

// DmarcSource is a shape of the API.
type DmarcSource struct {
	SourceIp string `json:"source_ip"`
	Messages int    `json:"messages"`
	// AlignedPassRate is the share of messages (0–1) that passed DKIM or SPF aligned, so passed DMARC.
	AlignedPassRate float64 `json:"aligned_pass_rate"`
	// Own: One of Mailroom's addresses (public_ips, or the domain's SPF at its return path passes for it).
	Own bool `json:"own"`
}

// DmarcSummary is answered by GET /v1/domains/{id}/dmarc/summary.
type DmarcSummary struct {
	Object string `json:"object"`
	Domain string `json:"domain"`
	Days   int    `json:"days"`
	// Reports: How many reports were summed (those of the last days, newest first).
	Reports int `json:"reports"`
	// Data: Most messages first.
	Data []DmarcSource `json:"data"`
}

// Domain is answered by GET /v1/domains, POST /v1/domains, GET /v1/domains/{id}, PATCH /v1/domains/{id}, POST
// /v1/domains/{id}/dkim/rotate, POST /v1/domains/{id}/override, POST /v1/domains/{id}/verify.
type Domain struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"`
	// VerifiedOverride is the operator marked the domain verified without DNS checks (mailroom domains add --verified,
	// or an instance admin: POST /v1/domains/:id/override).
	VerifiedOverride    bool   `json:"verified_override"`
	OpenTracking        bool   `json:"open_tracking"`
	ClickTracking       bool   `json:"click_tracking"`
	ReturnPathSubdomain string `json:"return_path_subdomain"`
	ReceivingEnabled    bool   `json:"receiving_enabled"`
	// Providers is the providers that take the domain's mail, in order (the next takes over while one fails); empty:
	// the default.
	Providers []string `json:"providers"`
	// Capabilities: Resend's spelling of the same switches.
	Capabilities DomainCapabilities `json:"capabilities"`
	Records      []DomainRecord     `json:"records"`
	Dkim         DomainDkim         `json:"dkim"`
	// TrackingSubdomain is the label of the tracking host (links → links.<domain>), whose CNAME is among the records;
	// null: none.
	TrackingSubdomain string `json:"tracking_subdomain"`
	// Tls: enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name.
	Tls string `json:"tls"`
	// IpPool is the [ip_pools.<name>] direct delivery sends from; null: the machine's default address.
	IpPool        string       `json:"ip_pool"`
	Health        DomainHealth `json:"health"`
	LastCheckedAt string       `json:"last_checked_at"`
	CreatedAt     string       `json:"created_at"`
	UpdatedAt     string       `json:"updated_at"`
}

// DomainCapabilities: Resend's spelling of the same switches.
type DomainCapabilities struct {
	Sending   string `json:"sending"`
	Receiving string `json:"receiving"`
}

// DomainDane is answered by GET /v1/domains/{id}/dane.
type DomainDane struct {
	Object string `json:"object"`
	// Dane: Whether direct delivery checks TLSA records ([mx] dane).
	Dane string `json:"dane"`
	// Days is the window: destinations the domain's mail went to in these last days.
	Days int `json:"days"`
	// Data: Most recently negotiated first.
	Data []DaneDestination `json:"data"`
}

// DomainDeleted is answered by DELETE /v1/domains/{id}.
type DomainDeleted struct {
	Object  string `json:"object"`
	Id      string `json:"id"`
	Name    string `json:"name"`
	Deleted bool   `json:"deleted"`
}

// DomainDkim is a shape of the API.
type DomainDkim struct {
	// Ed25519 is an Ed25519 signature is added beside the RSA one once its record is found (RFC 8463).
	Ed25519 bool `json:"ed25519"`
}

// DomainHealth is a shape of the API.
type DomainHealth struct {
	BounceRate    float64 `json:"bounce_rate"`
	ComplaintRate float64 `json:"complaint_rate"`
	// Window is the window, e.g. 24h.
	Window string `json:"window"`
	// Recipients: Recipients that ended in the window (since a resume, when later): what the rates divide by.
	Recipients int    `json:"recipients"`
	Status     string `json:"status"`
	// Reason: Why the status is not ok, e.g. `bounce rate 9.1 % over 24 h`; null when ok.
	Reason string `json:"reason"`
	// EvaluatedAt: When the rates were measured; null before the first measurement.
	EvaluatedAt string `json:"evaluated_at"`
	// MinRecipients: Recipients that must end in the window before the rates are judged ([guardrails] min_recipients);
	// below it the status stays ok, not judged yet.
	MinRecipients int `json:"min_recipients"`
}

// DomainHealthEntry is a shape of the API.
type DomainHealthEntry struct {
	Id     string       `json:"id"`
	Name   string       `json:"name"`
	Health DomainHealth `json:"health"`
}

// DomainRecord is a shape of the API.
type DomainRecord struct {
	Record string `json:"record"`
	Name   string `json:"name"`
	Type   string `json:"type"`
	Value  string `json:"value"`
	// Priority: MX preference.
	Priority int    `json:"priority,omitempty"`
	Ttl      string `json:"ttl"`
	Status   string `json:"status"`
	// Found: After a check: what DNS answered at the record's name (TXT values, or `priority host` for MX), to set
	// beside value; null when the lookup failed. Absent before the first check.
	Found []string `json:"found,omitempty"`
	// Warning: Why the record as shown cannot work yet: it names this machine because [server] hostname is unset.
	Warning string `json:"warning,omitempty"`
	// KeyState: DKIM only: active signs now; next is a rotation's new key, taking over once its record is found.
	KeyState string `json:"key_state,omitempty"`
}

// Email is answered by GET /functions/v1/send-email/{id}, GET /v1/emails/{id}.
type Email struct {
	Object      string      `json:"object"`
	Id          string      `json:"id"`
	MessageId   string      `json:"message_id"`
	Source      string      `json:"source"`
	From        string      `json:"from"`
	To          []string    `json:"to"`
	Cc          []string    `json:"cc"`
	Bcc         []string    `json:"bcc"`
	ReplyTo     []string    `json:"reply_to"`
	Subject     string      `json:"subject"`
	Tags        []Tag       `json:"tags"`
	Status      EmailStatus `json:"status"`
	LastEvent   EmailStatus `json:"last_event"`
	CreatedAt   string      `json:"created_at"`
	ScheduledAt string      `json:"scheduled_at"`
	TemplateId  string      `json:"template_id"`
	// TopicId is the topic it was sent for (docs/contacts-preferences.md).
	TopicId string `json:"topic_id"`
	// BroadcastId is the broadcast it was sent for (docs/broadcasts.md).
	BroadcastId string `json:"broadcast_id"`
	// Mode: test: sent with a test key, into the sandbox (docs/keys-and-limits.md#test-keys-are-a-sandbox); live
	// otherwise.
	Mode string `json:"mode"`
	Html string `json:"html"`
	Text string `json:"text"`
	// ContentRemovedAt: When retention removed the raw message, bodies and attachments; null while they are kept.
	ContentRemovedAt string           `json:"content_removed_at"`
	Recipients       []EmailRecipient `json:"recipients"`
	Events           []EmailEvent     `json:"events"`
}

// EmailAttachment is answered by GET /v1/emails/{id}/attachments, GET /v1/emails/{id}/attachments/{attachment_id}, GET
// /v1/emails/receiving/{id}/attachments, GET /v1/emails/receiving/{id}/attachments/{attachment_id}.
type EmailAttachment struct {
	Object             string `json:"object,omitempty"`
	Id                 string `json:"id"`
	Filename           string `json:"filename"`
	ContentType        string `json:"content_type"`
	ContentDisposition string `json:"content_disposition"`
	ContentId          string `json:"content_id"`
	// Size: Bytes.
	Size int `json:"size"`
	// DownloadUrl: Valid for an hour without an API key.
	DownloadUrl string `json:"download_url"`
	ExpiresAt   string `json:"expires_at"`
}

// EmailEvent is a shape of the API.
type EmailEvent struct {
	// Type: email.queued, email.delivered, ….
	Type      string         `json:"type"`
	CreatedAt string         `json:"created_at"`
	Recipient string         `json:"recipient"`
	Data      map[string]any `json:"data"`
}

// EmailMetrics is answered by GET /v1/emails/metrics.
type EmailMetrics struct {
	Object      string             `json:"object"`
	StartDate   string             `json:"start_date"`
	EndDate     string             `json:"end_date"`
	Metrics     []string           `json:"metrics"`
	Dimensions  []string           `json:"dimensions"`
	Granularity string             `json:"granularity"`
	Totals      EmailMetricsTotals `json:"totals"`
	Data        []EmailMetricsRow  `json:"data,omitempty"`
}

// EmailMetricsRow is a shape of the API.
type EmailMetricsRow struct {
	// Period is the period's start (UTC).
	Period              string  `json:"period"`
	Received            float64 `json:"received,omitempty"`
	Delivered           float64 `json:"delivered,omitempty"`
	Complained          float64 `json:"complained,omitempty"`
	Suppressed          float64 `json:"suppressed,omitempty"`
	Bounced             float64 `json:"bounced,omitempty"`
	BouncedTransient    float64 `json:"bounced_transient,omitempty"`
	BouncedPermanent    float64 `json:"bounced_permanent,omitempty"`
	BouncedUndetermined float64 `json:"bounced_undetermined,omitempty"`
	Opened              float64 `json:"opened,omitempty"`
	Clicked             float64 `json:"clicked,omitempty"`
	Unsubscribed        float64 `json:"unsubscribed,omitempty"`
	DeliveryDelayed     float64 `json:"delivery_delayed,omitempty"`
	Failed              float64 `json:"failed,omitempty"`
	Sent                float64 `json:"sent,omitempty"`
	UniqueOpened        float64 `json:"unique_opened,omitempty"`
	UniqueClicked       float64 `json:"unique_clicked,omitempty"`
	DeliveryRate        float64 `json:"delivery_rate,omitempty"`
	OpenRate            float64 `json:"open_rate,omitempty"`
	ClickRate           float64 `json:"click_rate,omitempty"`
	BounceRate          float64 `json:"bounce_rate,omitempty"`
	ComplaintRate       float64 `json:"complaint_rate,omitempty"`
	UnsubscribeRate     float64 `json:"unsubscribe_rate,omitempty"`
}

// EmailMetricsTotals is a shape of the API.
type EmailMetricsTotals struct {
	Received            float64 `json:"received,omitempty"`
	Delivered           float64 `json:"delivered,omitempty"`
	Complained          float64 `json:"complained,omitempty"`
	Suppressed          float64 `json:"suppressed,omitempty"`
	Bounced             float64 `json:"bounced,omitempty"`
	BouncedTransient    float64 `json:"bounced_transient,omitempty"`
	BouncedPermanent    float64 `json:"bounced_permanent,omitempty"`
	BouncedUndetermined float64 `json:"bounced_undetermined,omitempty"`
	Opened              float64 `json:"opened,omitempty"`
	Clicked             float64 `json:"clicked,omitempty"`
	Unsubscribed        float64 `json:"unsubscribed,omitempty"`
	DeliveryDelayed     float64 `json:"delivery_delayed,omitempty"`
	Failed              float64 `json:"failed,omitempty"`
	Sent                float64 `json:"sent,omitempty"`
	UniqueOpened        float64 `json:"unique_opened,omitempty"`
	UniqueClicked       float64 `json:"unique_clicked,omitempty"`
	DeliveryRate        float64 `json:"delivery_rate,omitempty"`
	OpenRate            float64 `json:"open_rate,omitempty"`
	ClickRate           float64 `json:"click_rate,omitempty"`
	BounceRate          float64 `json:"bounce_rate,omitempty"`
	ComplaintRate       float64 `json:"complaint_rate,omitempty"`
	UnsubscribeRate     float64 `json:"unsubscribe_rate,omitempty"`
}

// EmailRecipient is a shape of the API.
type EmailRecipient struct {
	Email    string          `json:"email"`
	Status   RecipientStatus `json:"status"`
	Attempts int             `json:"attempts"`
	// LastResponse is the receiving server's last reply.
	LastResponse string `json:"last_response"`
	// Provider is the provider of the last attempt (its name in the config).
	Provider string `json:"provider"`
	// ProviderMessageId is the id that provider gave the message.
	ProviderMessageId string `json:"provider_message_id"`
	UpdatedAt         string `json:"updated_at"`
}

// EmailStatCounts: `accepted` counts messages (email.queued, or the first email.scheduled); the others count
// recipients' events.
type EmailStatCounts struct {
	Accepted        int `json:"accepted"`
	Sent            int `json:"sent"`
	Delivered       int `json:"delivered"`
	DeliveryDelayed int `json:"delivery_delayed"`
	Bounced         int `json:"bounced"`
	Complained      int `json:"complained"`
	Failed          int `json:"failed"`
	Suppressed      int `json:"suppressed"`
}

// EmailStats is answered by GET /v1/emails/stats.
type EmailStats struct {
	Object   string             `json:"object"`
	Interval string             `json:"interval"`
	From     string             `json:"from"`
	To       string             `json:"to"`
	Buckets  []EmailStatsBucket `json:"buckets"`
	Totals   EmailStatCounts    `json:"totals"`
}

// EmailStatsBucket is a shape of the API.
type EmailStatsBucket struct {
	Start           string `json:"start"`
	Accepted        int    `json:"accepted"`
	Sent            int    `json:"sent"`
	Delivered       int    `json:"delivered"`
	DeliveryDelayed int    `json:"delivery_delayed"`
	Bounced         int    `json:"bounced"`
	Complained      int    `json:"complained"`
	Failed          int    `json:"failed"`
	Suppressed      int    `json:"suppressed"`
}

// EmailStatus is the last event.
type EmailStatus = string

// The values of EmailStatus.
const (
	EmailStatusScheduled       EmailStatus = "scheduled"
	EmailStatusQueued          EmailStatus = "queued"
	EmailStatusHeld            EmailStatus = "held"
	EmailStatusSent            EmailStatus = "sent"
	EmailStatusDelivered       EmailStatus = "delivered"
	EmailStatusDeliveryDelayed EmailStatus = "delivery_delayed"
	EmailStatusBounced         EmailStatus = "bounced"
	EmailStatusComplained      EmailStatus = "complained"
	EmailStatusOpened          EmailStatus = "opened"
	EmailStatusClicked         EmailStatus = "clicked"
	EmailStatusUnsubscribed    EmailStatus = "unsubscribed"
	EmailStatusFailed          EmailStatus = "failed"
	EmailStatusSuppressed      EmailStatus = "suppressed"
	EmailStatusCanceled        EmailStatus = "canceled"
)

// EmailSummary is answered by GET /v1/emails.
type EmailSummary struct {
	Object      string      `json:"object"`
	Id          string      `json:"id"`
	MessageId   string      `json:"message_id"`
	Source      string      `json:"source"`
	From        string      `json:"from"`
	To          []string    `json:"to"`
	Cc          []string    `json:"cc"`
	Bcc         []string    `json:"bcc"`
	ReplyTo     []string    `json:"reply_to"`
	Subject     string      `json:"subject"`
	Tags        []Tag       `json:"tags"`
	Status      EmailStatus `json:"status"`
	LastEvent   EmailStatus `json:"last_event"`
	CreatedAt   string      `json:"created_at"`
	ScheduledAt string      `json:"scheduled_at"`
	TemplateId  string      `json:"template_id"`
	// TopicId is the topic it was sent for (docs/contacts-preferences.md).
	TopicId string `json:"topic_id"`
	// BroadcastId is the broadcast it was sent for (docs/broadcasts.md).
	BroadcastId string `json:"broadcast_id"`
	// Mode: test: sent with a test key, into the sandbox (docs/keys-and-limits.md#test-keys-are-a-sandbox); live
	// otherwise.
	Mode string `json:"mode"`
}

// ErrorBody is a shape of the API.
type ErrorBody struct {
	// Error is the HTTP reason phrase.
	Error string `json:"error"`
	// Name: What went wrong, from the one error table.
	Name       string            `json:"name"`
	Message    string            `json:"message"`
	StatusCode int               `json:"statusCode"`
	Details    []ErrorBodyDetail `json:"details,omitempty"`
	RequestId  string            `json:"request_id,omitempty"`
}

// ErrorBodyDetail is a shape of the API.
type ErrorBodyDetail struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// InboundRoute is a rule for the organisation's received mail. Answered by GET /v1/inbound/routes, POST
// /v1/inbound/routes, GET /v1/inbound/routes/{id}, PATCH /v1/inbound/routes/{id}.
type InboundRoute struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	// Position: Routes are tried from position 1 up; the first match decides.
	Position int               `json:"position"`
	Match    InboundRouteMatch `json:"match"`
	// Action: store (the default), webhook (store; email.received only to webhook_ids), forward (store and forward),
	// reject (550 5.7.1) or drop (accept, store nothing).
	Action     string   `json:"action"`
	ForwardTo  []string `json:"forward_to"`
	WebhookIds []string `json:"webhook_ids"`
	// SpamThreshold: rspamd score at or over which the message is refused.
	SpamThreshold *float64 `json:"spam_threshold"`
	CreatedAt     string   `json:"created_at"`
	UpdatedAt     string   `json:"updated_at"`
}

// InboundRouteHeaderMatch: Matches when one of the message's header fields of this name contains the text.
type InboundRouteHeaderMatch struct {
	// Name is a header field's name.
	Name string `json:"name,omitempty"`
	// Contains: Text its value contains (any case).
	Contains string `json:"contains,omitempty"`
}

// InboundRouteMatch is a shape of the API.
type InboundRouteMatch struct {
	Recipient string                   `json:"recipient"`
	Header    *InboundRouteHeaderMatch `json:"header"`
}

// InboundRouteTest is answered by POST /v1/inbound/routes/test.
type InboundRouteTest struct {
	Object    string `json:"object"`
	Recipient string `json:"recipient"`
	// Receiving: Whether the MX takes mail for this address for the organisation.
	Receiving bool `json:"receiving"`
	// Route is the route that decides; null: none matches.
	Route *InboundRoute `json:"route"`
	// Action: What becomes of the message (store when no route matches).
	Action string `json:"action"`
}

// Invitation is an invitation not yet accepted: the role its link grants, until `expires_at` (7 days after it was
// made).
type Invitation struct {
	Object    string `json:"object"`
	Id        string `json:"id"`
	Email     string `json:"email"`
	Role      Role   `json:"role"`
	CreatedAt string `json:"created_at"`
	ExpiresAt string `json:"expires_at"`
}

// InvitationPreview is an open invitation as its link's holder sees it: the organisation, the role and the address.
// Answered by POST /v1/invitations/preview.
type InvitationPreview struct {
	Object string `json:"object"`
	// Email is the address invited: only this account may join with it.
	Email string `json:"email"`
	Role  Role   `json:"role"`
	// Organization is the organisation it joins.
	Organization InvitationPreviewOrganization `json:"organization"`
	ExpiresAt    string                        `json:"expires_at"`
}

// InvitationPreviewOrganization is the organisation it joins.
type InvitationPreviewOrganization struct {
	Name string `json:"name"`
}

// InviteMemberOptions is an invitation to make: an API key may grant every role but owner (only owners make owners).
// Sent to POST /v1/members/invitations.
type InviteMemberOptions struct {
	// Email is the address the link is for; stored lower-cased.
	Email string `json:"email,omitempty"`
	Role  Role   `json:"role,omitempty"`
}

// IpPool is answered by GET /v1/ip-pools.
type IpPool struct {
	Name string `json:"name"`
	// Warmup: How long an address warms up from its first use, e.g. 30d (0d: none).
	Warmup    string          `json:"warmup"`
	Addresses []IpPoolAddress `json:"addresses"`
}

// IpPoolAddress is a shape of the API.
type IpPoolAddress struct {
	Address string `json:"address"`
	// EhloName is the EHLO name it greets with (its PTR name); null: [mx] ehlo_name.
	EhloName string `json:"ehlo_name"`
	// WarmupDay: Day of warm-up (1 = the day it first sent); null before it sent, or once warm-up is over.
	WarmupDay *int `json:"warmup_day"`
	// DailyCap: Today's cap per provider while warming up; null: uncapped.
	DailyCap *int `json:"daily_cap"`
	// Today: Messages delivered today (UTC), per destination provider.
	Today map[string]int `json:"today"`
	// BackedOff: Providers whose rate is halved now, with the rate in force and until when.
	BackedOff []IpPoolBackOff `json:"backed_off"`
}

// IpPoolBackOff is a shape of the API.
type IpPoolBackOff struct {
	// Provider is the destination provider (gmail, outlook, yahoo, a [shaping.<provider>], or other).
	Provider string `json:"provider"`
	// MessagesPerMinute is the rate in force now, per minute.
	MessagesPerMinute int `json:"messages_per_minute"`
	// Until: When the rate returns to the configured one.
	Until string `json:"until"`
}

// Log is answered by GET /v1/logs/{id}.
type Log struct {
	Object    string `json:"object"`
	Id        string `json:"id"`
	CreatedAt string `json:"created_at"`
	// Endpoint is the path, as Resend's: /emails/<id> (no /v1).
	Endpoint       string `json:"endpoint"`
	Method         string `json:"method"`
	ResponseStatus int    `json:"response_status"`
	UserAgent      string `json:"user_agent"`
	ApiKeyId       string `json:"api_key_id"`
	// RequestBody is the JSON body sent, secrets replaced by "[redacted]"; null without one.
	RequestBody any `json:"request_body"`
	// ResponseBody is the JSON answer, secrets replaced by "[redacted]"; null when not JSON.
	ResponseBody any `json:"response_body"`
}

// LogList is answered by GET /v1/logs.
type LogList struct {
	Object  string        `json:"object"`
	HasMore bool          `json:"has_more"`
	Data    []LogListItem `json:"data"`
	// RetentionDays: [retention] logs in days: entries older than this are removed.
	RetentionDays float64 `json:"retention_days"`
	// Recording: Whether requests are recorded now ([http] request_log).
	Recording bool `json:"recording"`
}

// LogListItem is a shape of the API.
type LogListItem struct {
	Id        string `json:"id"`
	CreatedAt string `json:"created_at"`
	// Endpoint is the path, as Resend's: /emails/<id> (no /v1).
	Endpoint       string `json:"endpoint"`
	Method         string `json:"method"`
	ResponseStatus int    `json:"response_status"`
	UserAgent      string `json:"user_agent"`
	ApiKeyId       string `json:"api_key_id"`
}

// Member is a person who belongs to the organisation; `id` is the person's (a user id), as changing a role and removing
// take it. Answered by PATCH /v1/members/{id}.
type Member struct {
	Object string `json:"object"`
	// Id is the person's id.
	Id    string `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
	Role  Role   `json:"role"`
	// CreatedAt: When they joined the organisation.
	CreatedAt string `json:"created_at"`
}

// MemberList is a page of members (oldest first), and every pending invitation. Answered by GET /v1/members.
type MemberList struct {
	Object  string   `json:"object"`
	HasMore bool     `json:"has_more"`
	Data    []Member `json:"data"`
	// Invitations: Every pending invitation, without its link.
	Invitations []Invitation `json:"invitations"`
}

// Membership is an organisation the signed-in person belongs to, with their role there.
type Membership struct {
	Id   string `json:"id"`
	Name string `json:"name"`
	Role Role   `json:"role"`
}

// Organization is answered by GET /v1/organization, PATCH /v1/organization.
type Organization struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	Name   string `json:"name"`
	// RateLimit: Requests per minute, all keys together: the organisation's own or the configured default.
	RateLimit int `json:"rate_limit"`
	// DailyQuota: Live messages per UTC day; null: none.
	DailyQuota *int `json:"daily_quota"`
	// UsageToday: Live messages accepted since 00:00 UTC.
	UsageToday int                   `json:"usage_today"`
	Retention  OrganizationRetention `json:"retention"`
	// Paused: Sending of the whole organisation is paused (GET /v1/sending lists every pause).
	Paused bool `json:"paused"`
	// Storage: Null until the retention job has counted once.
	Storage   *OrganizationStorage `json:"storage"`
	CreatedAt string               `json:"created_at"`
}

// OrganizationMembership is an organisation the caller acts in, with the caller's role there (an API key: its own
// organisation). Answered by GET /v1/organizations.
type OrganizationMembership struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	Name   string `json:"name"`
	Role   Role   `json:"role"`
}

// OrganizationRetention is a shape of the API.
type OrganizationRetention struct {
	ContentDays  float64 `json:"content_days"`
	MetadataDays float64 `json:"metadata_days"`
}

// OrganizationStorage is a shape of the API.
type OrganizationStorage struct {
	Messages     int    `json:"messages"`
	ContentBytes int    `json:"content_bytes"`
	MeasuredAt   string `json:"measured_at"`
}

// PauseScope: What is paused: the organisation, one sending domain, one provider, or one lane (transactional,
// broadcast).
type PauseScope = string

// The values of PauseScope.
const (
	PauseScopeOrganization PauseScope = "organization"
	PauseScopeDomain       PauseScope = "domain"
	PauseScopeProvider     PauseScope = "provider"
	PauseScopeLane         PauseScope = "lane"
)

// PauseSendingOptions is sent to POST /v1/sending/pause.
type PauseSendingOptions struct {
	Scope PauseScope `json:"scope,omitempty"`
	// Name is the domain, provider or lane — transactional or broadcast (none for the organisation).
	Name string `json:"name,omitempty"`
	// Reason: For the record.
	Reason string `json:"reason,omitempty"`
}

// QueueDomainCounts is a shape of the API.
type QueueDomainCounts struct {
	Domain   string `json:"domain"`
	Queued   int    `json:"queued"`
	Deferred int    `json:"deferred"`
	Held     int    `json:"held"`
	Sending  int    `json:"sending"`
	// OldestAt: When the oldest of them was queued.
	OldestAt string `json:"oldest_at"`
}

// QueueLaneCounts is a shape of the API.
type QueueLaneCounts struct {
	Lane     string `json:"lane"`
	Queued   int    `json:"queued"`
	Deferred int    `json:"deferred"`
	Held     int    `json:"held"`
	Sending  int    `json:"sending"`
	// OldestAt: When the oldest of them was queued.
	OldestAt string `json:"oldest_at"`
}

// QueueProviderCounts is a shape of the API.
type QueueProviderCounts struct {
	// Provider is the provider of the last attempt; null: not attempted yet.
	Provider string `json:"provider"`
	Queued   int    `json:"queued"`
	Deferred int    `json:"deferred"`
	Held     int    `json:"held"`
	Sending  int    `json:"sending"`
	// OldestAt: When the oldest of them was queued.
	OldestAt string `json:"oldest_at"`
}

// QueueStatus is a waiting status, or sending while an attempt is under way.
type QueueStatus = string

// The values of QueueStatus.
const (
	QueueStatusQueued   QueueStatus = "queued"
	QueueStatusDeferred QueueStatus = "deferred"
	QueueStatusHeld     QueueStatus = "held"
	QueueStatusSending  QueueStatus = "sending"
)

// QueueStatusCounts is a shape of the API.
type QueueStatusCounts struct {
	Queued   int `json:"queued"`
	Deferred int `json:"deferred"`
	Held     int `json:"held"`
	Sending  int `json:"sending"`
}

// QueueSummary is answered by GET /v1/deliveries/summary.
type QueueSummary struct {
	Object   string            `json:"object"`
	ByStatus QueueStatusCounts `json:"by_status"`
	// ByDomain is the 20 domains with the most recipients waiting.
	ByDomain   []QueueDomainCounts   `json:"by_domain"`
	ByProvider []QueueProviderCounts `json:"by_provider"`
	// ByLane: Each sending lane: transactional, then broadcast (docs/operations.md#sending-lanes).
	ByLane []QueueLaneCounts `json:"by_lane"`
	// OldestWaitingAt: When the oldest waiting recipient was queued.
	OldestWaitingAt string `json:"oldest_waiting_at"`
}

// ReceivedAttachment is a shape of the API.
type ReceivedAttachment struct {
	Id                 string `json:"id"`
	Filename           string `json:"filename"`
	ContentType        string `json:"content_type"`
	ContentDisposition string `json:"content_disposition"`
	ContentId          string `json:"content_id"`
	// Size: Bytes.
	Size int `json:"size"`
}

// ReceivedEmail is answered by GET /v1/emails/receiving/{id}.
type ReceivedEmail struct {
	Object    string   `json:"object"`
	Id        string   `json:"id"`
	To        []string `json:"to"`
	From      string   `json:"from"`
	CreatedAt string   `json:"created_at"`
	Subject   string   `json:"subject"`
	Bcc       []string `json:"bcc"`
	Cc        []string `json:"cc"`
	ReplyTo   []string `json:"reply_to"`
	// ReceivedFor is the envelope recipients of this organisation (RCPT TO).
	ReceivedFor []string             `json:"received_for"`
	MessageId   string               `json:"message_id"`
	Attachments []ReceivedAttachment `json:"attachments"`
	// InReplyToEmailId is the sent email this one answers (In-Reply-To / References).
	InReplyToEmailId string                      `json:"in_reply_to_email_id"`
	AutoReply        string                      `json:"auto_reply"`
	Authentication   ReceivedEmailAuthentication `json:"authentication"`
	// Spam: rspamd's verdict; null when none is configured or it did not answer in time.
	Spam *ReceivedEmailSpam `json:"spam"`
	// RouteId is the inbound route that decided; null: none matched (stored).
	RouteId string            `json:"route_id"`
	Html    string            `json:"html"`
	Text    string            `json:"text"`
	Headers map[string]string `json:"headers"`
	// Raw is the raw message's signed link.
	Raw ReceivedEmailRaw `json:"raw"`
}

// ReceivedEmailAuthentication is a shape of the API.
type ReceivedEmailAuthentication struct {
	Spf    *ReceivedEmailAuthenticationSpf   `json:"spf"`
	Dkim   []ReceivedEmailAuthenticationDkim `json:"dkim"`
	Dmarc  *ReceivedEmailAuthenticationDmarc `json:"dmarc"`
	Arc    *ReceivedEmailAuthenticationArc   `json:"arc"`
	Header string                            `json:"header"`
}

// ReceivedEmailAuthenticationArc is a shape of the API.
type ReceivedEmailAuthenticationArc struct {
	Result string `json:"result"`
}

// ReceivedEmailAuthenticationDkim is a shape of the API.
type ReceivedEmailAuthenticationDkim struct {
	Result   string `json:"result"`
	Domain   string `json:"domain"`
	Selector string `json:"selector"`
	Aligned  bool   `json:"aligned"`
}

// ReceivedEmailAuthenticationDmarc is a shape of the API.
type ReceivedEmailAuthenticationDmarc struct {
	Result string `json:"result"`
	Policy string `json:"policy"`
	Domain string `json:"domain"`
}

// ReceivedEmailAuthenticationSpf is a shape of the API.
type ReceivedEmailAuthenticationSpf struct {
	Result string `json:"result"`
	Domain string `json:"domain"`
}

// ReceivedEmailRaw is the raw message's signed link.
type ReceivedEmailRaw struct {
	// DownloadUrl is the message as it arrived; valid for an hour without an API key.
	DownloadUrl string `json:"download_url"`
	ExpiresAt   string `json:"expires_at"`
}

// ReceivedEmailSpam is a shape of the API.
type ReceivedEmailSpam struct {
	Score float64 `json:"score"`
	// Action: rspamd's action: no action, greylist, add header, rewrite subject, soft reject, reject.
	Action string `json:"action"`
	// Symbols is the rules that fired, highest first.
	Symbols []ReceivedEmailSpamSymbol `json:"symbols"`
}

// ReceivedEmailSpamSymbol is a shape of the API.
type ReceivedEmailSpamSymbol struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

// ReceivedEmailSummary is answered by GET /v1/emails/receiving.
type ReceivedEmailSummary struct {
	Id        string   `json:"id"`
	To        []string `json:"to"`
	From      string   `json:"from"`
	CreatedAt string   `json:"created_at"`
	Subject   string   `json:"subject"`
	Bcc       []string `json:"bcc"`
	Cc        []string `json:"cc"`
	ReplyTo   []string `json:"reply_to"`
	// ReceivedFor is the envelope recipients of this organisation (RCPT TO).
	ReceivedFor []string             `json:"received_for"`
	MessageId   string               `json:"message_id"`
	Attachments []ReceivedAttachment `json:"attachments"`
	// InReplyToEmailId is the sent email this one answers (In-Reply-To / References).
	InReplyToEmailId string                      `json:"in_reply_to_email_id"`
	AutoReply        string                      `json:"auto_reply"`
	Authentication   ReceivedEmailAuthentication `json:"authentication"`
	// Spam: rspamd's verdict; null when none is configured or it did not answer in time.
	Spam *ReceivedEmailSpam `json:"spam"`
	// RouteId is the inbound route that decided; null: none matched (stored).
	RouteId string `json:"route_id"`
}

// RecipientStatus is a shape of the API.
type RecipientStatus = string

// The values of RecipientStatus.
const (
	RecipientStatusQueued     RecipientStatus = "queued"
	RecipientStatusSent       RecipientStatus = "sent"
	RecipientStatusDelivered  RecipientStatus = "delivered"
	RecipientStatusDeferred   RecipientStatus = "deferred"
	RecipientStatusBounced    RecipientStatus = "bounced"
	RecipientStatusComplained RecipientStatus = "complained"
	RecipientStatusFailed     RecipientStatus = "failed"
	RecipientStatusSuppressed RecipientStatus = "suppressed"
	RecipientStatusCanceled   RecipientStatus = "canceled"
	RecipientStatusHeld       RecipientStatus = "held"
)

// RemovedSuppression: One address or id of a batch removal: found and removed, or not on the list (`deleted: false`,
// and the part not given null). Answered by POST /v1/suppressions/batch/remove.
type RemovedSuppression struct {
	Object  string `json:"object"`
	Id      string `json:"id"`
	Email   string `json:"email"`
	Deleted bool   `json:"deleted"`
}

// RenderedTemplate is answered by POST /v1/templates/{id}/render.
type RenderedTemplate struct {
	Subject string `json:"subject"`
	Html    string `json:"html"`
	Text    string `json:"text"`
}

// RenderTemplateOptions is sent to POST /v1/templates/{id}/render.
type RenderTemplateOptions struct {
	// Variables: Values of the template's variables: strings and numbers.
	Variables map[string]any `json:"variables,omitempty"`
}

// ReplayFailedResponse is answered by POST /v1/webhooks/{id}/replay.
type ReplayFailedResponse struct {
	Object    string `json:"object"`
	WebhookId string `json:"webhook_id"`
	// Replayed: How many failed events are due again.
	Replayed int `json:"replayed"`
}

// ResumeSendingOptions is sent to POST /v1/sending/resume.
type ResumeSendingOptions struct {
	Scope PauseScope `json:"scope,omitempty"`
	// Name is the domain, provider or lane — transactional or broadcast (none for the organisation).
	Name string `json:"name,omitempty"`
}

// Role is a member's role: owner everything; admin everything but owners and deleting the organisation; developer the
// mail and its settings, no people; viewer reads.
type Role = string

// The values of Role.
const (
	RoleOwner     Role = "owner"
	RoleAdmin     Role = "admin"
	RoleDeveloper Role = "developer"
	RoleViewer    Role = "viewer"
)

// Segment is a named group of contacts (Resend's audience). Answered by GET /v1/audiences, POST /v1/audiences, GET
// /v1/audiences/{id}, PATCH /v1/audiences/{id}, GET /v1/contacts/{id}/segments, GET /v1/segments, POST /v1/segments,
// GET /v1/segments/{id}, PATCH /v1/segments/{id}.
type Segment struct {
	Object    string `json:"object"`
	Id        string `json:"id"`
	Name      string `json:"name"`
	CreatedAt string `json:"created_at"`
}

// SegmentCount: Mailroom's extra: how many contacts a segment holds (docs/contacts.md#tables). Answered by GET
// /v1/segments/{id}/count.
type SegmentCount struct {
	Object    string `json:"object"`
	SegmentId string `json:"segment_id"`
	// Contacts: Contacts in the segment now, unsubscribed and suppressed ones included.
	Contacts int `json:"contacts"`
}

// SendBroadcastOptions is sent to POST /v1/broadcasts/{id}/send.
type SendBroadcastOptions struct {
	// ScheduledAt: ISO 8601, or e.g. `in 2 hours`; absent: now.
	ScheduledAt string `json:"scheduled_at,omitempty"`
}

// SendingHealthOverview is answered by GET /v1/sending/health.
type SendingHealthOverview struct {
	Object  string              `json:"object"`
	Health  DomainHealth        `json:"health"`
	Domains []DomainHealthEntry `json:"domains"`
	// Blocklists: Listed ones first; empty without [deliverability] dnsbl.
	Blocklists []BlocklistListing `json:"blocklists"`
}

// SendingPause is a shape of the API.
type SendingPause struct {
	Scope PauseScope `json:"scope"`
	// Name is the domain, provider or lane; null for the organisation.
	Name     string `json:"name"`
	Reason   string `json:"reason"`
	PausedAt string `json:"paused_at"`
	// PausedBy is the key that paused (its id), operator for the command line, or system for a guardrail.
	PausedBy string `json:"paused_by"`
}

// SendingResumed is answered by POST /v1/sending/resume.
type SendingResumed struct {
	Object string         `json:"object"`
	Pauses []SendingPause `json:"pauses"`
	// Released: Held recipients that went back to the queue.
	Released int `json:"released"`
}

// SendingState is answered by GET /v1/sending, POST /v1/sending/pause.
type SendingState struct {
	Object string         `json:"object"`
	Pauses []SendingPause `json:"pauses"`
}

// Session is the signed-in person and the organisations they belong to. Answered by POST /v1/invitations/accept, GET
// /v1/me, POST /v1/session, POST /v1/setup.
type Session struct {
	Object        string       `json:"object"`
	User          User         `json:"user"`
	Organizations []Membership `json:"organizations"`
}

// SessionState: Whether this browser is signed in: the person, or `user: null` (never a 401). Answered by GET
// /v1/session.
type SessionState struct {
	Object        string       `json:"object"`
	User          *User        `json:"user"`
	Organizations []Membership `json:"organizations"`
}

// SnsMessage: SubscribeURL and Token are required of confirmations.
type SnsMessage struct {
	Type      string `json:"Type"`
	MessageId string `json:"MessageId"`
	// TopicArn: One of [sns] topics.
	TopicArn string `json:"TopicArn"`
	Subject  string `json:"Subject,omitempty"`
	// Message: For a notification, the SES event record as JSON.
	Message   string `json:"Message"`
	Timestamp string `json:"Timestamp"`
	// SignatureVersion: 1: SHA1withRSA, 2: SHA256withRSA.
	SignatureVersion string `json:"SignatureVersion"`
	Signature        string `json:"Signature"`
	// SigningCertURL: https on the SNS host of the topic's region.
	SigningCertURL string `json:"SigningCertURL"`
	// SubscribeURL: Confirmations: visiting it confirms the subscription.
	SubscribeURL string `json:"SubscribeURL,omitempty"`
	// Token: Confirmations.
	Token          string `json:"Token,omitempty"`
	UnsubscribeURL string `json:"UnsubscribeURL,omitempty"`
}

// SnsReceipt is answered by POST /v1/providers/ses/sns.
type SnsReceipt struct {
	Type string `json:"type"`
	// Applied is a notification: whether it changed a delivery (false: repeated, unknown message, or an event Mailroom
	// ignores).
	Applied bool `json:"applied,omitempty"`
}

// SubjectFinding is a shape of the API.
type SubjectFinding struct {
	// Rule is the rule's stable dotted id, e.g. length.too_long.
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	// Fix: What to change.
	Fix string `json:"fix"`
}

// SubjectOptions is sent to POST /v1/ai/subject.
type SubjectOptions struct {
	Subject string `json:"subject,omitempty"`
	Html    string `json:"html,omitempty"`
	Text    string `json:"text,omitempty"`
}

// SubjectResponse is answered by POST /v1/ai/subject.
type SubjectResponse struct {
	Score    int              `json:"score"`
	Findings []SubjectFinding `json:"findings"`
	// Suggestions: Better subjects from the model, best first; empty without one.
	Suggestions []SubjectScore `json:"suggestions"`
	// SuggestionsUnavailable: Why there are no suggestions, when the model is not configured or failed.
	SuggestionsUnavailable string `json:"suggestions_unavailable,omitempty"`
	PromptVersion          string `json:"prompt_version"`
}

// SubjectScore is a shape of the API.
type SubjectScore struct {
	Subject  string           `json:"subject"`
	Score    int              `json:"score"`
	Findings []SubjectFinding `json:"findings"`
}

// Suppression is an address on the organisation's suppression list: no message is delivered to it. Answered by GET
// /v1/suppressions, POST /v1/suppressions, GET /v1/suppressions/{id}, POST /v1/suppressions/batch/add.
type Suppression struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	Email  string `json:"email"`
	// Origin: What put the address on the list.
	Origin string `json:"origin"`
	// SourceId is the message or event that did (a bounce's, a complaint's).
	SourceId  string `json:"source_id"`
	Reason    string `json:"reason"`
	CreatedAt string `json:"created_at"`
}

// Tag is a shape of the API.
type Tag struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Template is answered by GET /v1/templates/{id}.
type Template struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	Name   string `json:"name"`
	Alias  string `json:"alias"`
	// Engine: How html is read: Handlebars, or MJML with Handlebars.
	Engine string `json:"engine"`
	// Status: published once a version was published.
	Status      string             `json:"status"`
	Subject     string             `json:"subject"`
	From        string             `json:"from"`
	ReplyTo     []string           `json:"reply_to"`
	Html        string             `json:"html"`
	Text        string             `json:"text"`
	Variables   []TemplateVariable `json:"variables"`
	PublishedAt string             `json:"published_at"`
	CreatedAt   string             `json:"created_at"`
	UpdatedAt   string             `json:"updated_at"`
	// HasUnpublishedVersions is the current version is not the published one.
	HasUnpublishedVersions bool `json:"has_unpublished_versions"`
	// CurrentVersionId is the version get shows and an update replaces.
	CurrentVersionId string `json:"current_version_id"`
}

// TemplateResponse is answered by POST /v1/templates, PATCH /v1/templates/{id}, POST /v1/templates/{id}/duplicate, POST
// /v1/templates/{id}/publish.
type TemplateResponse struct {
	Object string `json:"object"`
	Id     string `json:"id"`
}

// TemplateSummary is answered by GET /v1/templates.
type TemplateSummary struct {
	Id    string `json:"id"`
	Name  string `json:"name"`
	Alias string `json:"alias"`
	// Status: published once a version was published.
	Status      string `json:"status"`
	PublishedAt string `json:"published_at"`
	CreatedAt   string `json:"created_at"`
	UpdatedAt   string `json:"updated_at"`
	// Engine: How html is read: Handlebars, or MJML with Handlebars.
	Engine string `json:"engine"`
}

// TemplateValidation is answered by POST /v1/templates/validate.
type TemplateValidation struct {
	Valid  bool                      `json:"valid"`
	Errors []TemplateValidationError `json:"errors"`
}

// TemplateValidationError is a shape of the API.
type TemplateValidationError struct {
	// Field: html, subject or text.
	Field   string `json:"field"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// TemplateVariable is a shape of the API.
type TemplateVariable struct {
	Key  string `json:"key"`
	Type string `json:"type"`
	// FallbackValue: Used when a send gives none.
	FallbackValue any    `json:"fallback_value"`
	CreatedAt     string `json:"created_at"`
	UpdatedAt     string `json:"updated_at"`
}

// TestInboundRouteOptions is sent to POST /v1/inbound/routes/test.
type TestInboundRouteOptions struct {
	Recipient string `json:"recipient,omitempty"`
	// Headers: Header fields of an imagined message, name → value.
	Headers map[string]string `json:"headers,omitempty"`
}

// TestWebhookOptions is sent to POST /v1/webhooks/{id}/test.
type TestWebhookOptions struct {
	// Type: Event type of the sample (default email.sent).
	Type string `json:"type,omitempty"`
}

// Topic is a kind of mail a contact may choose to receive or not. Answered by GET /v1/topics, POST /v1/topics, GET
// /v1/topics/{id}, PATCH /v1/topics/{id}.
type Topic struct {
	Object      string `json:"object"`
	Id          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// DefaultSubscription: What a contact who never chose receives: opt_in receives, opt_out does not.
	DefaultSubscription string `json:"default_subscription"`
	// Visibility: public topics are shown on the preference page.
	Visibility string `json:"visibility"`
	CreatedAt  string `json:"created_at"`
	UpdatedAt  string `json:"updated_at"`
}

// TotpEnrolment: Two-step sign-in begun: the secret for an authenticator app, on once a code of it is confirmed.
// Answered by POST /v1/me/totp.
type TotpEnrolment struct {
	Object string `json:"object"`
	// Secret is the new secret, base32: type it into the app, or scan otpauth_url.
	Secret     string `json:"secret"`
	OtpauthUrl string `json:"otpauth_url"`
}

// TotpOff: Two-step sign-in off: a password alone signs in. Answered by POST /v1/me/totp/disable.
type TotpOff struct {
	Object  string `json:"object"`
	Enabled bool   `json:"enabled"`
}

// TotpOn: Two-step sign-in on, with new recovery codes. Answered by POST /v1/me/totp/confirm, POST
// /v1/me/totp/recovery-codes.
type TotpOn struct {
	Object  string `json:"object"`
	Enabled bool   `json:"enabled"`
	// RecoveryCodes: Shown this once: each signs in once without the app.
	RecoveryCodes []string `json:"recovery_codes"`
}

// UpdateApiKeyOptions is sent to PATCH /v1/api-keys/{id}.
type UpdateApiKeyOptions struct {
	Name string `json:"name,omitempty"`
}

// UpdateApiKeyResponse is answered by PATCH /v1/api-keys/{id}.
type UpdateApiKeyResponse struct {
	Object string `json:"object"`
	Id     string `json:"id"`
}

// UpdateBroadcastOptions: Changes to a draft. Sent to PATCH /v1/broadcasts/{id}.
type UpdateBroadcastOptions struct {
	Name string `json:"name,omitempty"`
	// SegmentId is the segment whose contacts receive it.
	SegmentId string `json:"segment_id,omitempty"`
	// AudienceId: segment_id's older name.
	AudienceId  string            `json:"audience_id,omitempty"`
	From        string            `json:"from,omitempty"`
	Subject     string            `json:"subject,omitempty"`
	ReplyTo     any               `json:"reply_to,omitempty"`
	PreviewText *Nullable[string] `json:"preview_text,omitempty"`
	// Html: May use {{{FIRST_NAME|fallback}}} and the other variables.
	Html string `json:"html,omitempty"`
	Text string `json:"text,omitempty"`
	// Template is a saved template in place of html and text, rendered once at send.
	Template *UpdateBroadcastOptionsTemplate `json:"template,omitempty"`
	TopicId  *Nullable[string]               `json:"topic_id,omitempty"`
}

// UpdateBroadcastOptionsTemplate is a saved template in place of html and text, rendered once at send.
type UpdateBroadcastOptionsTemplate struct {
	// Id is the template's id or alias (its published version is sent).
	Id string `json:"id,omitempty"`
	// Variables is the template's own variables.
	Variables map[string]any `json:"variables,omitempty"`
}

// UpdateContactOptions: Changes to a contact. Sent to PATCH /v1/audiences/{id}/contacts/{contact}, PATCH
// /v1/contacts/{id}.
type UpdateContactOptions struct {
	FirstName    *Nullable[string] `json:"first_name,omitempty"`
	LastName     *Nullable[string] `json:"last_name,omitempty"`
	Unsubscribed *bool             `json:"unsubscribed,omitempty"`
	// Properties: Values to set, by key (null removes one).
	Properties map[string]any `json:"properties,omitempty"`
}

// UpdateContactPropertyOptions is a property's new fallback (its key and type cannot change). Sent to PATCH
// /v1/contact-properties/{id}.
type UpdateContactPropertyOptions struct {
	FallbackValue *Nullable[any] `json:"fallback_value,omitempty"`
}

// UpdateDomainOptions is sent to PATCH /v1/domains/{id}.
type UpdateDomainOptions struct {
	// ReturnPathSubdomain: Subdomain for the return path and its SPF and MX records (default send).
	ReturnPathSubdomain string `json:"return_path_subdomain,omitempty"`
	// OpenTracking: Track opens of mail from this domain by default.
	OpenTracking *bool `json:"open_tracking,omitempty"`
	// ClickTracking: Track clicks in mail from this domain by default.
	ClickTracking *bool `json:"click_tracking,omitempty"`
	// ReceivingEnabled: Accept inbound mail for the domain (adds the Inbound MX record).
	ReceivingEnabled *bool `json:"receiving_enabled,omitempty"`
	// Receiving is the same as receiving_enabled.
	Receiving *bool `json:"receiving,omitempty"`
	// Providers: Names of the providers that take the domain's mail, first choice first; the next takes over while one
	// fails. Empty: [delivery] default_provider.
	Providers []string `json:"providers,omitempty"`
	// TrackingSubdomain is a label (links → links.<domain>): its CNAME to this server is added to the records, and once
	// found the domain's open, click and unsubscribe links use https://links.<domain>; null removes it.
	TrackingSubdomain *Nullable[string] `json:"tracking_subdomain,omitempty"`
	// Tls: enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name (MTA-STS or not);
	// otherwise deferred, then bounced with the reason.
	Tls string `json:"tls,omitempty"`
	// IpPool is the [ip_pools.<name>] direct delivery of the domain's mail binds its source addresses from (with their
	// warm-up); null: the machine's default address.
	IpPool *Nullable[string]        `json:"ip_pool,omitempty"`
	Dkim   *UpdateDomainOptionsDkim `json:"dkim,omitempty"`
	// Capabilities: Resend's form: receiving enabled or disabled.
	Capabilities *UpdateDomainOptionsCapabilities `json:"capabilities,omitempty"`
}

// UpdateDomainOptionsCapabilities: Resend's form: receiving enabled or disabled.
type UpdateDomainOptionsCapabilities struct {
	Sending   string `json:"sending,omitempty"`
	Receiving string `json:"receiving,omitempty"`
}

// UpdateDomainOptionsDkim is a shape of the API.
type UpdateDomainOptionsDkim struct {
	// Ed25519: Sign with an Ed25519 key (RFC 8463) beside the RSA one: adds its DKIM record; the signature is added
	// once the record is found.
	Ed25519 *bool `json:"ed25519,omitempty"`
}

// UpdateEmailOptions is sent to PATCH /v1/emails/{id}.
type UpdateEmailOptions struct {
	ScheduledAt string `json:"scheduled_at,omitempty"`
}

// UpdateEmailResponse is answered by PATCH /v1/emails/{id}.
type UpdateEmailResponse struct {
	Object string `json:"object"`
	Id     string `json:"id"`
}

// UpdateInboundRouteOptions is sent to PATCH /v1/inbound/routes/{id}.
type UpdateInboundRouteOptions struct {
	// Match: What the route matches; an empty match matches every message.
	Match *UpdateInboundRouteOptionsMatch `json:"match,omitempty"`
	// ForwardTo: Where action forward sends a copy.
	ForwardTo []string `json:"forward_to,omitempty"`
	// WebhookIds is the webhooks action webhook notifies.
	WebhookIds    []string           `json:"webhook_ids,omitempty"`
	SpamThreshold *Nullable[float64] `json:"spam_threshold,omitempty"`
	// Position: Where the route goes; those at it and after move down. Default: last.
	Position int    `json:"position,omitempty"`
	Action   string `json:"action,omitempty"`
}

// UpdateInboundRouteOptionsMatch: What the route matches; an empty match matches every message.
type UpdateInboundRouteOptionsMatch struct {
	Recipient *Nullable[string]                  `json:"recipient,omitempty"`
	Header    *Nullable[InboundRouteHeaderMatch] `json:"header,omitempty"`
}

// UpdateMemberRoleOptions is a member's new role. Sent to PATCH /v1/members/{id}.
type UpdateMemberRoleOptions struct {
	Role Role `json:"role,omitempty"`
}

// UpdateOrganizationOptions is sent to PATCH /v1/organization.
type UpdateOrganizationOptions struct {
	// Name: 1 to 100 characters on one line.
	Name string `json:"name,omitempty"`
	// RateLimit: Requests per minute, all keys together; null returns to the configured default.
	RateLimit *Nullable[int] `json:"rate_limit,omitempty"`
	// DailyQuota: Live messages per UTC day; null: none.
	DailyQuota *Nullable[int]                      `json:"daily_quota,omitempty"`
	Retention  *UpdateOrganizationOptionsRetention `json:"retention,omitempty"`
}

// UpdateOrganizationOptionsRetention is a shape of the API.
type UpdateOrganizationOptionsRetention struct {
	// ContentDays: Days before the content of a finished message is removed; null returns to the configured default.
	ContentDays *Nullable[int] `json:"content_days,omitempty"`
	// MetadataDays: Days before a finished message's record and events are removed; null returns to the configured
	// default.
	MetadataDays *Nullable[int] `json:"metadata_days,omitempty"`
}

// UpdateTemplateOptions is sent to PATCH /v1/templates/{id}.
type UpdateTemplateOptions struct {
	Name string `json:"name,omitempty"`
	// Alias is a second, stable name to send with.
	Alias *Nullable[string] `json:"alias,omitempty"`
	// Engine: How html is read (default: mjml when its root is <mjml>, else handlebars).
	Engine    string                          `json:"engine,omitempty"`
	Subject   *Nullable[string]               `json:"subject,omitempty"`
	From      *Nullable[string]               `json:"from,omitempty"`
	ReplyTo   *Nullable[any]                  `json:"reply_to,omitempty"`
	Html      string                          `json:"html,omitempty"`
	Text      *Nullable[string]               `json:"text,omitempty"`
	Variables []UpdateTemplateOptionsVariable `json:"variables,omitempty"`
}

// UpdateTemplateOptionsVariable is a shape of the API.
type UpdateTemplateOptionsVariable struct {
	Key           string         `json:"key,omitempty"`
	Type          string         `json:"type,omitempty"`
	FallbackValue *Nullable[any] `json:"fallback_value,omitempty"`
}

// UpdateTopicOptions: Changes to a topic (its default_subscription cannot change). Sent to PATCH /v1/topics/{id}.
type UpdateTopicOptions struct {
	// Id: Ignored (Resend's SDK sends it).
	Id string `json:"id,omitempty"`
	// Name is the topic's name.
	Name        string            `json:"name,omitempty"`
	Description *Nullable[string] `json:"description,omitempty"`
	Visibility  string            `json:"visibility,omitempty"`
}

// UpdateWebhookOptions is sent to PATCH /v1/webhooks/{id}.
type UpdateWebhookOptions struct {
	Endpoint    string            `json:"endpoint,omitempty"`
	Events      []string          `json:"events,omitempty"`
	Description *Nullable[string] `json:"description,omitempty"`
	Status      string            `json:"status,omitempty"`
}

// Usage is answered by GET /v1/usage.
type Usage struct {
	Object         string              `json:"object"`
	Emails         UsageEmails         `json:"emails"`
	Contacts       UsageContacts       `json:"contacts"`
	Segments       UsageSegments       `json:"segments"`
	Broadcasts     UsageBroadcasts     `json:"broadcasts"`
	AiCredits      UsageAiCredits      `json:"ai_credits"`
	AutomationRuns UsageAutomationRuns `json:"automation_runs"`
	Domains        UsageDomains        `json:"domains"`
	RateLimit      UsageRateLimit      `json:"rate_limit"`
}

// UsageAiCredits is a shape of the API.
type UsageAiCredits struct {
	Used int `json:"used"`
	// Limit: Null: Mailroom sets no such limit.
	Limit          *int   `json:"limit"`
	NextIncreaseAt string `json:"next_increase_at"`
}

// UsageAutomationRuns is a shape of the API.
type UsageAutomationRuns struct {
	Used int `json:"used"`
	// Limit: Null: Mailroom sets no such limit.
	Limit    *int   `json:"limit"`
	ResetsAt string `json:"resets_at"`
}

// UsageBroadcasts is a shape of the API.
type UsageBroadcasts struct {
	Used  int `json:"used"`
	Limit any `json:"limit"`
}

// UsageContacts is a shape of the API.
type UsageContacts struct {
	Used int `json:"used"`
	// Limit: Null: Mailroom sets no such limit.
	Limit *int `json:"limit"`
}

// UsageDomains is a shape of the API.
type UsageDomains struct {
	Used int `json:"used"`
	// Limit: Null: Mailroom sets no such limit.
	Limit *int `json:"limit"`
}

// UsageEmails is a shape of the API.
type UsageEmails struct {
	Daily   UsageEmailsDaily   `json:"daily"`
	Monthly UsageEmailsMonthly `json:"monthly"`
}

// UsageEmailsDaily is a shape of the API.
type UsageEmailsDaily struct {
	// Used: Messages accepted (sent) in the period.
	Used int `json:"used"`
	// Limit: Null: Mailroom sets no such limit.
	Limit    *int   `json:"limit"`
	Sent     int    `json:"sent"`
	Received int    `json:"received"`
	ResetsAt string `json:"resets_at"`
}

// UsageEmailsMonthly is a shape of the API.
type UsageEmailsMonthly struct {
	// Used: Messages accepted (sent) in the period.
	Used int `json:"used"`
	// Limit: Null: Mailroom sets no such limit.
	Limit    *int   `json:"limit"`
	Sent     int    `json:"sent"`
	Received int    `json:"received"`
	ResetsAt string `json:"resets_at"`
}

// UsageRateLimit is a shape of the API.
type UsageRateLimit struct {
	// Limit: Requests per window, the organisation's.
	Limit int `json:"limit"`
	// Duration is the window: 60s.
	Duration string `json:"duration"`
}

// UsageSegments is a shape of the API.
type UsageSegments struct {
	Used int `json:"used"`
	// Limit: Null: Mailroom sets no such limit.
	Limit *int `json:"limit"`
}

// User is a person with an account: signs in to the admin UI and belongs to organisations.
type User struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	Email  string `json:"email"`
	Name   string `json:"name"`
	// InstanceAdmin: May create organisations.
	InstanceAdmin bool `json:"instance_admin"`
	// TotpEnabled: Sign-in with a password also asks for an authenticator app's code.
	TotpEnabled bool   `json:"totp_enabled"`
	CreatedAt   string `json:"created_at"`
}

// ValidateTemplateOptions is sent to POST /v1/templates/validate.
type ValidateTemplateOptions struct {
	// Engine: How html is read (default: mjml when its root is <mjml>, else handlebars).
	Engine  string `json:"engine,omitempty"`
	Html    string `json:"html,omitempty"`
	Subject string `json:"subject,omitempty"`
	Text    string `json:"text,omitempty"`
}

// WebhookAttempt is answered by GET /v1/webhooks/{id}/events/{event_id}/attempts.
type WebhookAttempt struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	SentAt string `json:"sent_at"`
	// HttpStatusCode: Null when no HTTP answer came (timeout, refused connection, refused address).
	HttpStatusCode *int `json:"http_status_code"`
	// Response is the first 1 KB of the endpoint's answer.
	Response   string `json:"response"`
	Error      string `json:"error"`
	DurationMs int    `json:"duration_ms"`
}

// WebhookDeliveryEvent is answered by GET /v1/webhooks/{id}/events, POST /v1/webhooks/{id}/events/{event_id}/replay,
// POST /v1/webhooks/{id}/test.
type WebhookDeliveryEvent struct {
	Object string `json:"object"`
	// Id is the webhook-id header of every attempt of this event.
	Id        string `json:"id"`
	WebhookId string `json:"webhook_id"`
	// EventId is the event it carries; null for a test event.
	EventId        string `json:"event_id"`
	Type           string `json:"type"`
	Status         string `json:"status"`
	AttemptCount   int    `json:"attempt_count"`
	NextAttemptAt  string `json:"next_attempt_at"`
	LastAttemptAt  string `json:"last_attempt_at"`
	LastStatusCode *int   `json:"last_status_code"`
	LastError      string `json:"last_error"`
	CreatedAt      string `json:"created_at"`
}

// WebhookDeliveryEventDetail is answered by GET /v1/webhooks/{id}/events/{event_id}.
type WebhookDeliveryEventDetail struct {
	WebhookDeliveryEvent
	Payload WebhookPayload `json:"payload"`
	// Attempts: Every attempt, oldest first.
	Attempts []WebhookAttempt `json:"attempts"`
}

// WebhookEndpoint is answered by GET /v1/webhooks, GET /v1/webhooks/{id}, PATCH /v1/webhooks/{id}.
type WebhookEndpoint struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	// Endpoint is the https URL events are posted to.
	Endpoint string `json:"endpoint"`
	// Events is the event types it receives.
	Events      []string `json:"events"`
	Description string   `json:"description"`
	Status      string   `json:"status"`
	// DisabledReason: Why it was disabled (410 Gone, repeated failures, or by the user).
	DisabledReason string `json:"disabled_reason"`
	DisabledAt     string `json:"disabled_at"`
	CreatedAt      string `json:"created_at"`
	UpdatedAt      string `json:"updated_at"`
}

// WebhookPayload is a shape of the API.
type WebhookPayload struct {
	Type      string         `json:"type"`
	CreatedAt string         `json:"created_at"`
	Data      map[string]any `json:"data"`
}

// WebhookWithSecret is answered by POST /v1/webhooks, POST /v1/webhooks/{id}/signing-secret/rotate.
type WebhookWithSecret struct {
	WebhookEndpoint
	// SigningSecret: `whsec_<base64 key>`: what a verifier takes.
	SigningSecret string `json:"signing_secret"`
}

// WriteOptions is sent to POST /v1/ai/write.
type WriteOptions struct {
	// Brief: What the email should say.
	Brief    string `json:"brief,omitempty"`
	Tone     string `json:"tone,omitempty"`
	Audience string `json:"audience,omitempty"`
	// Format: Default html.
	Format string `json:"format,omitempty"`
	// SaveAsTemplate: Save the draft as a draft template.
	SaveAsTemplate *WriteOptionsSaveAsTemplate `json:"save_as_template,omitempty"`
}

// WriteOptionsSaveAsTemplate is a shape of the API.
type WriteOptionsSaveAsTemplate struct {
	Name  string `json:"name,omitempty"`
	Alias string `json:"alias,omitempty"`
}

// WriteResponse is answered by POST /v1/ai/write.
type WriteResponse struct {
	Object  string `json:"object"`
	Subject string `json:"subject"`
	Html    string `json:"html"`
	Text    string `json:"text"`
	Engine  string `json:"engine"`
	// Variables is the placeholders the draft uses: the variables a send fills.
	Variables []string `json:"variables"`
	// TemplateId is the draft template it was saved as, when asked.
	TemplateId    string `json:"template_id"`
	PromptVersion string `json:"prompt_version"`
}
