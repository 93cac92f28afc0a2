// Sending and looking up email (docs/sending.md): send, get, list with filters, reschedule (Update), cancel, a sent
// email's attachments and its stored MIME. Received mail is Emails.Receiving (receiving.go).
package mailroom

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// SendEmailRequest is the body of a send. Addresses are "addr" or "Display Name <addr>". From and Subject may come
// from a template; at least one of Html, Text and Template is needed.
type SendEmailRequest struct {
	From        string            `json:"from,omitempty"`
	To          []string          `json:"to,omitempty"`
	Cc          []string          `json:"cc,omitempty"`
	Bcc         []string          `json:"bcc,omitempty"`
	ReplyTo     []string          `json:"reply_to,omitempty"`
	Subject     string            `json:"subject,omitempty"`
	Html        string            `json:"html,omitempty"`
	Text        string            `json:"text,omitempty"`
	Headers     map[string]string `json:"headers,omitempty"`
	Attachments []*Attachment     `json:"attachments,omitempty"`
	Tags        []Tag             `json:"tags,omitempty"`
	// ScheduledAt is an ISO 8601 time at most 30 days ahead, e.g. time.Now().Add(time.Hour).Format(time.RFC3339).
	ScheduledAt string         `json:"scheduled_at,omitempty"`
	Template    *EmailTemplate `json:"template,omitempty"`
	Tracking    *Tracking      `json:"tracking,omitempty"`
	// Unsubscribe adds RFC 8058 one-click unsubscribe headers and fills {{unsubscribe_url}} (one recipient only).
	Unsubscribe bool `json:"unsubscribe,omitempty"`
	// TopicId sends the email for a topic (docs/contacts-preferences.md#sending-with-a-topic): a recipient who left
	// it is recorded suppressed (reason topic_unsubscribed), never attempted.
	TopicId string `json:"topic_id,omitempty"`
}

// Attachment is a file sent with an email: Content (sent base64-encoded) or Path, an https URL the server fetches.
// ContentId makes it inline, referenced from the html as cid:<ContentId>.
type Attachment struct {
	Filename    string `json:"filename"`
	Content     []byte `json:"content,omitempty"`
	Path        string `json:"path,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	ContentId   string `json:"content_id,omitempty"`
}

// EmailTemplate renders a saved template's published version: Id is its id or alias. Values are strings or numbers.
type EmailTemplate struct {
	Id        string                 `json:"id"`
	Variables map[string]interface{} `json:"variables,omitempty"`
}

// Tracking overrides the sending domain's open and click tracking for one email (nil: the domain's default).
type Tracking = CreateEmailOptionsTracking

// SendEmailOptions are the per-call options of a send.
type SendEmailOptions struct {
	// IdempotencyKey (1–256 characters): the same key with the same body within 24 h answers the first result
	// again instead of sending twice.
	IdempotencyKey string
}

// A sent email's shapes are the document's (generated.go): Email, the look-up record (Resend's email object plus
// each recipient's state, EmailRecipient, and the event history, EmailEvent; list items carry the same fields
// without Html, Text, Recipients, Events and ContentRemovedAt), its Tags, and an attachment, EmailAttachment, whose
// DownloadUrl is signed (no API key needed) and valid until ExpiresAt.
type (
	// SendEmailResponse answers a send: the new email's id, stored durably before this answer.
	SendEmailResponse = CreateEmailResponse
	// CancelScheduledEmailResponse answers a cancel (Status "canceled"), of a scheduled email or of the recipients
	// of one on its way that still waited.
	CancelScheduledEmailResponse = CancelEmailResponse
)

// ListEmailsOptions pages and filters the list of sent emails. Tag is "name" or "name:value".
type ListEmailsOptions struct {
	Limit  int
	After  string
	Before string
	Status string
	To     string
	From   string
	Tag    string
}

// UpdateEmailRequest reschedules a scheduled email: Id names it, ScheduledAt is the new ISO 8601 time.
type UpdateEmailRequest struct {
	Id          string `json:"-"`
	ScheduledAt string `json:"scheduled_at"`
}

// EmailsService sends and looks up email.
type EmailsService struct {
	client *Client
	// Receiving reads received mail.
	Receiving *ReceivingService
}

// Send sends an email.
func (s *EmailsService) Send(params *SendEmailRequest) (*SendEmailResponse, error) {
	return s.SendWithOptions(context.Background(), params, nil)
}

// SendWithContext sends an email.
func (s *EmailsService) SendWithContext(ctx context.Context, params *SendEmailRequest) (*SendEmailResponse, error) {
	return s.SendWithOptions(ctx, params, nil)
}

// SendWithOptions sends an email with an idempotency key.
func (s *EmailsService) SendWithOptions(ctx context.Context, params *SendEmailRequest, options *SendEmailOptions) (*SendEmailResponse, error) {
	header := http.Header{}
	if options != nil {
		header.Set("Idempotency-Key", options.IdempotencyKey)
	}
	return fetch[SendEmailResponse](ctx, s.client, call{method: http.MethodPost, path: "emails", body: bodyOf(params), header: header, send: true})
}

// Get looks up an email by id.
func (s *EmailsService) Get(emailId string) (*Email, error) {
	return s.GetWithContext(context.Background(), emailId)
}

// GetWithContext looks up an email by id.
func (s *EmailsService) GetWithContext(ctx context.Context, emailId string) (*Email, error) {
	if err := required("emailId", emailId); err != nil {
		return nil, err
	}
	return fetch[Email](ctx, s.client, call{method: http.MethodGet, path: "emails/" + escape(emailId)})
}

// List lists sent emails, newest first (options may be nil).
func (s *EmailsService) List(options *ListEmailsOptions) (*List[Email], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists sent emails, newest first (options may be nil).
func (s *EmailsService) ListWithContext(ctx context.Context, options *ListEmailsOptions) (*List[Email], error) {
	query := url.Values{}
	if options != nil {
		setPage(query, options.Limit, options.After, options.Before)
		setIf(query, "status", options.Status)
		setIf(query, "to", options.To)
		setIf(query, "from", options.From)
		setIf(query, "tag", options.Tag)
	}
	return fetch[List[Email]](ctx, s.client, call{method: http.MethodGet, path: "emails", query: query})
}

// Update reschedules a scheduled email.
func (s *EmailsService) Update(params *UpdateEmailRequest) (*ObjectRef, error) {
	return s.UpdateWithContext(context.Background(), params)
}

// UpdateWithContext reschedules a scheduled email.
func (s *EmailsService) UpdateWithContext(ctx context.Context, params *UpdateEmailRequest) (*ObjectRef, error) {
	if params == nil {
		return nil, fmt.Errorf("mailroom: UpdateEmailRequest is required")
	}
	if err := required("Id", params.Id); err != nil {
		return nil, err
	}
	return fetch[ObjectRef](ctx, s.client, call{method: http.MethodPatch, path: "emails/" + escape(params.Id), body: params})
}

// Cancel cancels an email not yet sent: a scheduled one, or each recipient of one on its way that still waits
// (queued, deferred or held); a recipient being attempted now is left to its attempt. A 409 conflict when nothing
// waits any more. One recipient alone: Deliveries.Cancel.
func (s *EmailsService) Cancel(emailId string) (*CancelScheduledEmailResponse, error) {
	return s.CancelWithContext(context.Background(), emailId)
}

// CancelWithContext cancels an email not yet sent: a scheduled one, or each recipient of one on its way that still
// waits (queued, deferred or held); a recipient being attempted now is left to its attempt. A 409 conflict when
// nothing waits any more. One recipient alone: Deliveries.CancelWithContext.
func (s *EmailsService) CancelWithContext(ctx context.Context, emailId string) (*CancelScheduledEmailResponse, error) {
	if err := required("emailId", emailId); err != nil {
		return nil, err
	}
	return fetch[CancelScheduledEmailResponse](ctx, s.client, call{method: http.MethodPost, path: "emails/" + escape(emailId) + "/cancel"})
}

// ListAttachments lists a sent email's attachments with download links (options may be nil).
func (s *EmailsService) ListAttachments(emailId string, options *ListOptions) (*List[EmailAttachment], error) {
	return s.ListAttachmentsWithContext(context.Background(), emailId, options)
}

// ListAttachmentsWithContext lists a sent email's attachments with download links (options may be nil).
func (s *EmailsService) ListAttachmentsWithContext(ctx context.Context, emailId string, options *ListOptions) (*List[EmailAttachment], error) {
	if err := required("emailId", emailId); err != nil {
		return nil, err
	}
	return fetch[List[EmailAttachment]](ctx, s.client, call{method: http.MethodGet, path: "emails/" + escape(emailId) + "/attachments", query: options.values()})
}

// GetAttachment gets one attachment of a sent email with its download link.
func (s *EmailsService) GetAttachment(emailId, attachmentId string) (*EmailAttachment, error) {
	return s.GetAttachmentWithContext(context.Background(), emailId, attachmentId)
}

// GetAttachmentWithContext gets one attachment of a sent email with its download link.
func (s *EmailsService) GetAttachmentWithContext(ctx context.Context, emailId, attachmentId string) (*EmailAttachment, error) {
	if err := required("emailId", emailId); err != nil {
		return nil, err
	}
	if err := required("attachmentId", attachmentId); err != nil {
		return nil, err
	}
	return fetch[EmailAttachment](ctx, s.client, call{method: http.MethodGet, path: "emails/" + escape(emailId) + "/attachments/" + escape(attachmentId)})
}

// Raw answers the stored MIME message (message/rfc822) of a sent email; a 410 gone once retention removed it.
func (s *EmailsService) Raw(emailId string) ([]byte, error) {
	return s.RawWithContext(context.Background(), emailId)
}

// RawWithContext answers the stored MIME message (message/rfc822) of a sent email; a 410 gone once retention
// removed it.
func (s *EmailsService) RawWithContext(ctx context.Context, emailId string) ([]byte, error) {
	if err := required("emailId", emailId); err != nil {
		return nil, err
	}
	return s.client.do(ctx, call{method: http.MethodGet, path: "emails/" + escape(emailId) + "/raw"})
}

// bodyOf keeps a nil request from being sent as the JSON null; the server then reports the missing fields.
func bodyOf(params *SendEmailRequest) interface{} {
	if params == nil {
		return struct{}{}
	}
	return params
}
