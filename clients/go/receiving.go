// Received mail (docs/inbound.md, Resend's emails.receiving): list, get with bodies, headers and authentication results,
// attachments with signed download links, and the raw message as it arrived.
package mailroom

import (
	"context"
	"net/http"
)

// ReceivedEmail (generated.go) is a received message; list items carry no Html, Text, Headers or Raw.
type (
	// ReceivedRaw is a signed link to the message as it arrived, valid until ExpiresAt.
	ReceivedRaw = ReceivedEmailRaw
	// ReceivedAuthentication is what SPF, DKIM, DMARC and ARC said about a received message; Header is the
	// Authentication-Results line as written.
	ReceivedAuthentication = ReceivedEmailAuthentication
)

// ReceivingService reads received mail (scope inbound:read).
type ReceivingService struct {
	client *Client
	// Routes decides what becomes of received mail (inbound_routes.go).
	Routes *InboundRoutesService
}

func receivedPath(emailId string, rest string) string {
	return "emails/receiving/" + escape(emailId) + rest
}

// List lists received emails, newest first (options may be nil).
func (s *ReceivingService) List(options *ListOptions) (*List[ReceivedEmail], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists received emails, newest first (options may be nil).
func (s *ReceivingService) ListWithContext(ctx context.Context, options *ListOptions) (*List[ReceivedEmail], error) {
	return fetch[List[ReceivedEmail]](ctx, s.client, call{method: http.MethodGet, path: "emails/receiving", query: options.values()})
}

// Get gets a received email.
func (s *ReceivingService) Get(emailId string) (*ReceivedEmail, error) {
	return s.GetWithContext(context.Background(), emailId)
}

// GetWithContext gets a received email.
func (s *ReceivingService) GetWithContext(ctx context.Context, emailId string) (*ReceivedEmail, error) {
	if err := required("emailId", emailId); err != nil {
		return nil, err
	}
	return fetch[ReceivedEmail](ctx, s.client, call{method: http.MethodGet, path: receivedPath(emailId, "")})
}

// ListAttachments lists a received email's attachments with download links (options may be nil).
func (s *ReceivingService) ListAttachments(emailId string, options *ListOptions) (*List[EmailAttachment], error) {
	return s.ListAttachmentsWithContext(context.Background(), emailId, options)
}

// ListAttachmentsWithContext lists a received email's attachments with download links (options may be nil).
func (s *ReceivingService) ListAttachmentsWithContext(ctx context.Context, emailId string, options *ListOptions) (*List[EmailAttachment], error) {
	if err := required("emailId", emailId); err != nil {
		return nil, err
	}
	return fetch[List[EmailAttachment]](ctx, s.client, call{method: http.MethodGet, path: receivedPath(emailId, "/attachments"), query: options.values()})
}

// GetAttachment gets one attachment of a received email with its download link.
func (s *ReceivingService) GetAttachment(emailId, attachmentId string) (*EmailAttachment, error) {
	return s.GetAttachmentWithContext(context.Background(), emailId, attachmentId)
}

// GetAttachmentWithContext gets one attachment of a received email with its download link.
func (s *ReceivingService) GetAttachmentWithContext(ctx context.Context, emailId, attachmentId string) (*EmailAttachment, error) {
	if err := requiredPair("emailId", emailId, "attachmentId", attachmentId); err != nil {
		return nil, err
	}
	return fetch[EmailAttachment](ctx, s.client, call{method: http.MethodGet, path: receivedPath(emailId, "/attachments/"+escape(attachmentId))})
}

// Raw answers a received email exactly as it arrived (message/rfc822).
func (s *ReceivingService) Raw(emailId string) ([]byte, error) {
	return s.RawWithContext(context.Background(), emailId)
}

// RawWithContext answers a received email exactly as it arrived (message/rfc822).
func (s *ReceivingService) RawWithContext(ctx context.Context, emailId string) ([]byte, error) {
	if err := required("emailId", emailId); err != nil {
		return nil, err
	}
	return s.client.do(ctx, call{method: http.MethodGet, path: receivedPath(emailId, "/raw")})
}
