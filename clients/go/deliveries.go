// The delivery queue (docs/operations.md, scopes deliveries:read and deliveries:write): each recipient still waiting, with
// its attempts, next attempt and last reply; counts by status, destination domain and provider; and the actions on
// waiting recipients — retry now, cancel, release — one at a time or in bulk by filter (Deliveries.Bulk).
package mailroom

import (
	"context"
	"net/http"
	"net/url"
)

// Statuses the queue lists and filters by: the waiting ones, and sending for a waiting recipient being attempted
// now. After an action a Delivery may show any recipient status, such as "canceled".
const (
	DeliveryStatusQueued   = "queued"
	DeliveryStatusDeferred = "deferred"
	DeliveryStatusHeld     = "held"
	DeliveryStatusSending  = "sending"
)

// Delivery (generated.go) is one recipient of one message in the queue. Provider is that of the last attempt and
// NextAttemptAt when the next is due (both empty when none); LastResponse is the last reply or the operator's last
// action.

// ListDeliveriesOptions pages and filters the queue: Status (queued, deferred, held, sending), Domain (the
// recipients' domain), Provider (that of the last attempt) and EmailId (one message's recipients).
type ListDeliveriesOptions struct {
	Limit    int
	After    string
	Before   string
	Status   string
	Domain   string
	Provider string
	EmailId  string
}

// The queue's counts (QueueSummary, QueueDomainCounts, QueueProviderCounts) and the bulk actions' filter and answer
// are the document's (generated.go), under the names this client has always used.
type (
	// QueueCounts counts waiting recipients by status.
	QueueCounts = QueueStatusCounts
	// BulkDeliveriesRequest names the recipients a bulk action applies to: at least one of Status (queued,
	// deferred, held, sending), Domain, Provider and EmailId; without any the server answers a validation_error.
	BulkDeliveriesRequest = BulkDeliveriesOptions
)

// DeliveriesService shows and steers the delivery queue. An action on one delivery answers a 409 conflict while
// it is being attempted, or when the action does not apply to its status.
type DeliveriesService struct {
	client *Client
	// Bulk retries, cancels and releases every delivery of a filter.
	Bulk *DeliveriesBulkService
}

// List lists the recipients waiting (queued, deferred, held, sending), oldest first (options may be nil).
func (s *DeliveriesService) List(options *ListDeliveriesOptions) (*List[Delivery], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists the recipients waiting (queued, deferred, held, sending), oldest first (options may be
// nil).
func (s *DeliveriesService) ListWithContext(ctx context.Context, options *ListDeliveriesOptions) (*List[Delivery], error) {
	query := url.Values{}
	if options != nil {
		setPage(query, options.Limit, options.After, options.Before)
		setIf(query, "status", options.Status)
		setIf(query, "domain", options.Domain)
		setIf(query, "provider", options.Provider)
		setIf(query, "email_id", options.EmailId)
	}
	return fetch[List[Delivery]](ctx, s.client, call{method: http.MethodGet, path: "deliveries", query: query})
}

// Summary counts what waits: by status, by destination domain and by provider, and the oldest.
func (s *DeliveriesService) Summary() (*QueueSummary, error) {
	return s.SummaryWithContext(context.Background())
}

// SummaryWithContext counts what waits: by status, by destination domain and by provider, and the oldest.
func (s *DeliveriesService) SummaryWithContext(ctx context.Context) (*QueueSummary, error) {
	return fetch[QueueSummary](ctx, s.client, call{method: http.MethodGet, path: "deliveries/summary"})
}

// Retry makes a deferred delivery due at once (its attempts so far still count).
func (s *DeliveriesService) Retry(deliveryId string) (*Delivery, error) {
	return s.RetryWithContext(context.Background(), deliveryId)
}

// RetryWithContext makes a deferred delivery due at once (its attempts so far still count).
func (s *DeliveriesService) RetryWithContext(ctx context.Context, deliveryId string) (*Delivery, error) {
	return s.act(ctx, deliveryId, "retry")
}

// Cancel stops a queued, deferred or held delivery: that recipient is not sent the message.
func (s *DeliveriesService) Cancel(deliveryId string) (*Delivery, error) {
	return s.CancelWithContext(context.Background(), deliveryId)
}

// CancelWithContext stops a queued, deferred or held delivery: that recipient is not sent the message.
func (s *DeliveriesService) CancelWithContext(ctx context.Context, deliveryId string) (*Delivery, error) {
	return s.act(ctx, deliveryId, "cancel")
}

// Release sends a held delivery now, whatever pause held it.
func (s *DeliveriesService) Release(deliveryId string) (*Delivery, error) {
	return s.ReleaseWithContext(context.Background(), deliveryId)
}

// ReleaseWithContext sends a held delivery now, whatever pause held it.
func (s *DeliveriesService) ReleaseWithContext(ctx context.Context, deliveryId string) (*Delivery, error) {
	return s.act(ctx, deliveryId, "release")
}

// act runs an action on one delivery and answers the delivery after it.
func (s *DeliveriesService) act(ctx context.Context, deliveryId, action string) (*Delivery, error) {
	if err := required("deliveryId", deliveryId); err != nil {
		return nil, err
	}
	return fetch[Delivery](ctx, s.client, call{method: http.MethodPost, path: "deliveries/" + escape(deliveryId) + "/" + action})
}

// DeliveriesBulkService retries, cancels and releases every delivery of a filter in one request. Recipients being
// attempted now are counted in Matched and left to their attempt.
type DeliveriesBulkService struct {
	client *Client
}

// Retry makes every deferred delivery of the filter due at once.
func (s *DeliveriesBulkService) Retry(params *BulkDeliveriesRequest) (*BulkDeliveriesResponse, error) {
	return s.RetryWithContext(context.Background(), params)
}

// RetryWithContext makes every deferred delivery of the filter due at once.
func (s *DeliveriesBulkService) RetryWithContext(ctx context.Context, params *BulkDeliveriesRequest) (*BulkDeliveriesResponse, error) {
	return s.act(ctx, params, "retry")
}

// Cancel stops every queued, deferred or held delivery of the filter.
func (s *DeliveriesBulkService) Cancel(params *BulkDeliveriesRequest) (*BulkDeliveriesResponse, error) {
	return s.CancelWithContext(context.Background(), params)
}

// CancelWithContext stops every queued, deferred or held delivery of the filter.
func (s *DeliveriesBulkService) CancelWithContext(ctx context.Context, params *BulkDeliveriesRequest) (*BulkDeliveriesResponse, error) {
	return s.act(ctx, params, "cancel")
}

// Release sends every held delivery of the filter now.
func (s *DeliveriesBulkService) Release(params *BulkDeliveriesRequest) (*BulkDeliveriesResponse, error) {
	return s.ReleaseWithContext(context.Background(), params)
}

// ReleaseWithContext sends every held delivery of the filter now.
func (s *DeliveriesBulkService) ReleaseWithContext(ctx context.Context, params *BulkDeliveriesRequest) (*BulkDeliveriesResponse, error) {
	return s.act(ctx, params, "release")
}

// act runs a bulk action. A nil filter is sent as {}, so the server names what is missing.
func (s *DeliveriesBulkService) act(ctx context.Context, params *BulkDeliveriesRequest, action string) (*BulkDeliveriesResponse, error) {
	if params == nil {
		params = &BulkDeliveriesRequest{}
	}
	return fetch[BulkDeliveriesResponse](ctx, s.client, call{method: http.MethodPost, path: "deliveries/" + action, body: params})
}
