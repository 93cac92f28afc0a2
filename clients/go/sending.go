// Sending pauses (docs/operations.md, scopes deliveries:read and deliveries:write): the organisation's sending, one of its
// sending domains or a provider paused and resumed. While a pause applies, mail is still accepted and its recipients
// wait as held (Deliveries.List with DeliveryStatusHeld shows them), never attempted; on resume they go out, oldest
// first. And the sending health the guardrails measure (docs/deliverability.md, scope domains:read).
package mailroom

import (
	"context"
	"net/http"
)

// A pause's scope is a PauseScope: PauseScopeOrganization, PauseScopeDomain or PauseScopeProvider. SendingPause is
// one pause that applies (Name is the domain or provider, empty for the organisation; PausedBy is the id of the key
// that paused, or "operator" for the command line) and SendingState the pauses that apply now, oldest first; both,
// as the pause's request bodies, are the document's (generated.go).
type (
	// PauseSendingRequest names what to pause: Scope, and Name, the domain (one of the organisation's) or the
	// provider (a configured one), none for the organisation. Reason is kept for the record and shown in each held
	// recipient's LastResponse.
	PauseSendingRequest = PauseSendingOptions
	// ResumeSendingRequest names the pause to end: its Scope and Name, as it was paused.
	ResumeSendingRequest = ResumeSendingOptions
	// ResumeSendingResponse answers Resume: the pauses left, and Released, how many held recipients went back to the
	// queue (every held recipient of the organisation that no remaining pause holds, whichever pause held it).
	ResumeSendingResponse = SendingResumed
)

// SendingService pauses and resumes sending. Pausing a domain that is not the organisation's is a 404 not_found,
// an unknown provider or an organisation pause with a Name a 400 validation_error; pausing what is paused already
// keeps the first pause (its reason and time); resuming what is not paused is a 404 not_found.
type SendingService struct {
	client *Client
}

// Get answers the pauses that apply now.
func (s *SendingService) Get() (*SendingState, error) {
	return s.GetWithContext(context.Background())
}

// GetWithContext answers the pauses that apply now.
func (s *SendingService) GetWithContext(ctx context.Context) (*SendingState, error) {
	return fetch[SendingState](ctx, s.client, call{method: http.MethodGet, path: "sending"})
}

// Health answers the guardrails' bounce and complaint rates over their window, for the organisation and each
// sending domain, and what they led to (scope domains:read).
func (s *SendingService) Health() (*SendingHealthOverview, error) {
	return s.HealthWithContext(context.Background())
}

// HealthWithContext answers the guardrails' bounce and complaint rates over their window, for the organisation and
// each sending domain, and what they led to (scope domains:read).
func (s *SendingService) HealthWithContext(ctx context.Context) (*SendingHealthOverview, error) {
	return fetch[SendingHealthOverview](ctx, s.client, call{method: http.MethodGet, path: "sending/health"})
}

// Pause pauses sending for the organisation, a sending domain or a provider: its mail is accepted and held. It
// answers the pauses that apply after it. A nil request is sent as {}, so the server names what is missing.
func (s *SendingService) Pause(params *PauseSendingRequest) (*SendingState, error) {
	return s.PauseWithContext(context.Background(), params)
}

// PauseWithContext pauses sending for the organisation, a sending domain or a provider: its mail is accepted and
// held. It answers the pauses that apply after it. A nil request is sent as {}, so the server names what is missing.
func (s *SendingService) PauseWithContext(ctx context.Context, params *PauseSendingRequest) (*SendingState, error) {
	if params == nil {
		params = &PauseSendingRequest{}
	}
	return fetch[SendingState](ctx, s.client, call{method: http.MethodPost, path: "sending/pause", body: params})
}

// Resume ends a pause: what it held goes out, oldest first. It answers the pauses left and how many held recipients
// were released. A nil request is sent as {}, so the server names what is missing.
func (s *SendingService) Resume(params *ResumeSendingRequest) (*ResumeSendingResponse, error) {
	return s.ResumeWithContext(context.Background(), params)
}

// ResumeWithContext ends a pause: what it held goes out, oldest first. It answers the pauses left and how many held
// recipients were released. A nil request is sent as {}, so the server names what is missing.
func (s *SendingService) ResumeWithContext(ctx context.Context, params *ResumeSendingRequest) (*ResumeSendingResponse, error) {
	if params == nil {
		params = &ResumeSendingRequest{}
	}
	return fetch[ResumeSendingResponse](ctx, s.client, call{method: http.MethodPost, path: "sending/resume", body: params})
}
