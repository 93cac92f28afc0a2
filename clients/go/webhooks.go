// Webhook endpoints (docs/events-and-webhooks.md) on Resend's paths: create, get, list, update, remove, signing-secret rotation, test
// events, and the events sent to an endpoint with their attempts and replays. Verifying what arrives is
// webhook_verify.go.
package mailroom

import (
	"context"
	"net/http"
	"net/url"
)

// Event types a webhook may subscribe to.
const (
	EventEmailScheduled       = "email.scheduled"
	EventEmailQueued          = "email.queued"
	EventEmailSent            = "email.sent"
	EventEmailDelivered       = "email.delivered"
	EventEmailDeliveryDelayed = "email.delivery_delayed"
	EventEmailBounced         = "email.bounced"
	EventEmailComplained      = "email.complained"
	EventEmailOpened          = "email.opened"
	EventEmailClicked         = "email.clicked"
	EventEmailUnsubscribed    = "email.unsubscribed"
	EventEmailFailed          = "email.failed"
	EventEmailSuppressed      = "email.suppressed"
	EventEmailCanceled        = "email.canceled"
	EventEmailReceived        = "email.received"
	EventEmailHeld            = "email.held"
	EventDomainCreated        = "domain.created"
	EventDomainUpdated        = "domain.updated"
	EventDomainDeleted        = "domain.deleted"
	EventSuppressionAdded     = "suppression.added"
	EventSuppressionRemoved   = "suppression.removed"
	EventSendingPaused        = "sending.paused"
	EventSendingResumed       = "sending.resumed"
)

// A webhook's shapes are the document's (generated.go): an attempt (WebhookAttempt: its status code, nil when no
// answer came, the first 1 KB of the answer, the error and the duration), ReplayFailedResponse; and, under the names
// this client has always used, the bodies and the endpoint and event shapes.
type (
	// CreateWebhookRequest registers an endpoint (https on a public address unless the server allows otherwise).
	CreateWebhookRequest = CreateWebhookOptions
	// UpdateWebhookRequest changes an endpoint; empty fields are left as they are. Status is "enabled" or
	// "disabled"; Description takes Value("…") to set and Null[string]() to clear.
	UpdateWebhookRequest = UpdateWebhookOptions
	// Webhook is an endpoint. SigningSecret (whsec_…) is only in the answers of Create and RotateSigningSecret.
	Webhook = WebhookWithSecret
	// TestWebhookRequest chooses the type of a sample event (default email.sent).
	TestWebhookRequest = TestWebhookOptions
	// WebhookDelivery is one event sent (or to be sent) to one endpoint: Resend's webhook event (object
	// "webhook_event"). Its Id is the webhook-id header of every attempt. Status is pending, attempting, success or
	// failed.
	WebhookDelivery = WebhookDeliveryEvent
	// WebhookDeliveryDetail is a delivery with the payload sent and every attempt.
	WebhookDeliveryDetail = WebhookDeliveryEventDetail
)

// ListWebhookEventsOptions pages the events of an endpoint; Status filters (pending, attempting, success, failed).
type ListWebhookEventsOptions struct {
	Limit  int
	After  string
	Before string
	Status string
}

// WebhooksService manages webhook endpoints and their events.
type WebhooksService struct {
	client *Client
}

func webhookPath(webhookId string, rest ...string) string {
	path := "webhooks/" + escape(webhookId)
	for _, segment := range rest {
		path += "/" + segment
	}
	return path
}

// Create registers an endpoint; the answer carries its signing secret.
func (s *WebhooksService) Create(params *CreateWebhookRequest) (*Webhook, error) {
	return s.CreateWithContext(context.Background(), params)
}

// CreateWithContext registers an endpoint; the answer carries its signing secret.
func (s *WebhooksService) CreateWithContext(ctx context.Context, params *CreateWebhookRequest) (*Webhook, error) {
	return fetch[Webhook](ctx, s.client, call{method: http.MethodPost, path: "webhooks", body: params})
}

// Get gets an endpoint.
func (s *WebhooksService) Get(webhookId string) (*Webhook, error) {
	return s.GetWithContext(context.Background(), webhookId)
}

// GetWithContext gets an endpoint.
func (s *WebhooksService) GetWithContext(ctx context.Context, webhookId string) (*Webhook, error) {
	if err := required("webhookId", webhookId); err != nil {
		return nil, err
	}
	return fetch[Webhook](ctx, s.client, call{method: http.MethodGet, path: webhookPath(webhookId)})
}

// List lists endpoints, newest first (options may be nil).
func (s *WebhooksService) List(options *ListOptions) (*List[Webhook], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists endpoints, newest first (options may be nil).
func (s *WebhooksService) ListWithContext(ctx context.Context, options *ListOptions) (*List[Webhook], error) {
	return fetch[List[Webhook]](ctx, s.client, call{method: http.MethodGet, path: "webhooks", query: options.values()})
}

// Update changes an endpoint's URL, events or description, or enables or disables it.
func (s *WebhooksService) Update(webhookId string, params *UpdateWebhookRequest) (*Webhook, error) {
	return s.UpdateWithContext(context.Background(), webhookId, params)
}

// UpdateWithContext changes an endpoint's URL, events or description, or enables or disables it.
func (s *WebhooksService) UpdateWithContext(ctx context.Context, webhookId string, params *UpdateWebhookRequest) (*Webhook, error) {
	if err := required("webhookId", webhookId); err != nil {
		return nil, err
	}
	if params == nil {
		params = &UpdateWebhookRequest{}
	}
	return fetch[Webhook](ctx, s.client, call{method: http.MethodPatch, path: webhookPath(webhookId), body: params})
}

// Remove deletes an endpoint and its delivery log.
func (s *WebhooksService) Remove(webhookId string) (*DeletedObject, error) {
	return s.RemoveWithContext(context.Background(), webhookId)
}

// RemoveWithContext deletes an endpoint and its delivery log.
func (s *WebhooksService) RemoveWithContext(ctx context.Context, webhookId string) (*DeletedObject, error) {
	if err := required("webhookId", webhookId); err != nil {
		return nil, err
	}
	return fetch[DeletedObject](ctx, s.client, call{method: http.MethodDelete, path: webhookPath(webhookId)})
}

// RotateSigningSecret gives the endpoint a new signing secret (in the answer); the old one keeps signing beside
// it for 24 h, so receivers can switch without losing events.
func (s *WebhooksService) RotateSigningSecret(webhookId string) (*Webhook, error) {
	return s.RotateSigningSecretWithContext(context.Background(), webhookId)
}

// RotateSigningSecretWithContext gives the endpoint a new signing secret (in the answer); the old one keeps
// signing beside it for 24 h.
func (s *WebhooksService) RotateSigningSecretWithContext(ctx context.Context, webhookId string) (*Webhook, error) {
	if err := required("webhookId", webhookId); err != nil {
		return nil, err
	}
	return fetch[Webhook](ctx, s.client, call{method: http.MethodPost, path: webhookPath(webhookId, "signing-secret", "rotate")})
}

// Test queues a signed sample event for the endpoint (params may be nil: email.sent).
func (s *WebhooksService) Test(webhookId string, params *TestWebhookRequest) (*WebhookDelivery, error) {
	return s.TestWithContext(context.Background(), webhookId, params)
}

// TestWithContext queues a signed sample event for the endpoint (params may be nil: email.sent).
func (s *WebhooksService) TestWithContext(ctx context.Context, webhookId string, params *TestWebhookRequest) (*WebhookDelivery, error) {
	if err := required("webhookId", webhookId); err != nil {
		return nil, err
	}
	if params == nil {
		params = &TestWebhookRequest{}
	}
	return fetch[WebhookDelivery](ctx, s.client, call{method: http.MethodPost, path: webhookPath(webhookId, "test"), body: params})
}

// ListEvents lists the events sent to the endpoint, newest first (options may be nil).
func (s *WebhooksService) ListEvents(webhookId string, options *ListWebhookEventsOptions) (*List[WebhookDelivery], error) {
	return s.ListEventsWithContext(context.Background(), webhookId, options)
}

// ListEventsWithContext lists the events sent to the endpoint, newest first (options may be nil).
func (s *WebhooksService) ListEventsWithContext(ctx context.Context, webhookId string, options *ListWebhookEventsOptions) (*List[WebhookDelivery], error) {
	if err := required("webhookId", webhookId); err != nil {
		return nil, err
	}
	query := url.Values{}
	if options != nil {
		setPage(query, options.Limit, options.After, options.Before)
		setIf(query, "status", options.Status)
	}
	return fetch[List[WebhookDelivery]](ctx, s.client, call{method: http.MethodGet, path: webhookPath(webhookId, "events"), query: query})
}

// GetEvent gets an event sent to the endpoint, with its payload and every attempt.
func (s *WebhooksService) GetEvent(webhookId, eventId string) (*WebhookDeliveryDetail, error) {
	return s.GetEventWithContext(context.Background(), webhookId, eventId)
}

// GetEventWithContext gets an event sent to the endpoint, with its payload and every attempt.
func (s *WebhooksService) GetEventWithContext(ctx context.Context, webhookId, eventId string) (*WebhookDeliveryDetail, error) {
	if err := requiredPair("webhookId", webhookId, "eventId", eventId); err != nil {
		return nil, err
	}
	return fetch[WebhookDeliveryDetail](ctx, s.client, call{method: http.MethodGet, path: webhookPath(webhookId, "events", escape(eventId))})
}

// ListEventAttempts lists the attempts of an event, newest first (options may be nil).
func (s *WebhooksService) ListEventAttempts(webhookId, eventId string, options *ListOptions) (*List[WebhookAttempt], error) {
	return s.ListEventAttemptsWithContext(context.Background(), webhookId, eventId, options)
}

// ListEventAttemptsWithContext lists the attempts of an event, newest first (options may be nil).
func (s *WebhooksService) ListEventAttemptsWithContext(ctx context.Context, webhookId, eventId string, options *ListOptions) (*List[WebhookAttempt], error) {
	if err := requiredPair("webhookId", webhookId, "eventId", eventId); err != nil {
		return nil, err
	}
	return fetch[List[WebhookAttempt]](ctx, s.client, call{method: http.MethodGet, path: webhookPath(webhookId, "events", escape(eventId), "attempts"), query: options.values()})
}

// ReplayEvent sends an event again from the start of the retry schedule, with the same webhook-id (409 conflict
// while it is still being attempted).
func (s *WebhooksService) ReplayEvent(webhookId, eventId string) (*WebhookDelivery, error) {
	return s.ReplayEventWithContext(context.Background(), webhookId, eventId)
}

// ReplayEventWithContext sends an event again from the start of the retry schedule, with the same webhook-id.
func (s *WebhooksService) ReplayEventWithContext(ctx context.Context, webhookId, eventId string) (*WebhookDelivery, error) {
	if err := requiredPair("webhookId", webhookId, "eventId", eventId); err != nil {
		return nil, err
	}
	return fetch[WebhookDelivery](ctx, s.client, call{method: http.MethodPost, path: webhookPath(webhookId, "events", escape(eventId), "replay")})
}

// ReplayFailed sends every failed event of the endpoint again.
func (s *WebhooksService) ReplayFailed(webhookId string) (*ReplayFailedResponse, error) {
	return s.ReplayFailedWithContext(context.Background(), webhookId)
}

// ReplayFailedWithContext sends every failed event of the endpoint again.
func (s *WebhooksService) ReplayFailedWithContext(ctx context.Context, webhookId string) (*ReplayFailedResponse, error) {
	if err := required("webhookId", webhookId); err != nil {
		return nil, err
	}
	return fetch[ReplayFailedResponse](ctx, s.client, call{method: http.MethodPost, path: webhookPath(webhookId, "replay")})
}
