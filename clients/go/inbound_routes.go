// Inbound routes (docs/inbound.md#routes, Mailroom's own): ordered rules for received mail — match a recipient (or a
// wildcard) and optionally a header, then store, notify chosen webhooks, forward, reject or drop, with an optional
// spam threshold — and the call that says which route decides for an address. Reached as Emails.Receiving.Routes,
// beside the received mail they act on.
package mailroom

import (
	"context"
	"net/http"
)

// Route actions (InboundRoute.Action).
const (
	InboundActionStore   = "store"
	InboundActionWebhook = "webhook"
	InboundActionForward = "forward"
	InboundActionReject  = "reject"
	InboundActionDrop    = "drop"
)

type (
	// CreateInboundRouteRequest is a new route: Match (Recipient such as "support@example.com" or "*@example.com",
	// and an optional Header), Action, ForwardTo, WebhookIds, SpamThreshold and Position (default: last).
	CreateInboundRouteRequest = CreateInboundRouteOptions
	// UpdateInboundRouteRequest changes a route or moves it (Position); Null[float64]() clears SpamThreshold.
	UpdateInboundRouteRequest = UpdateInboundRouteOptions
	// TestInboundRouteRequest is an address (and the headers of an imagined message) to test against the routes.
	TestInboundRouteRequest = TestInboundRouteOptions
)

// InboundRoutesService manages inbound routes (reading: scope inbound:read; changing: domains:write).
type InboundRoutesService struct {
	client *Client
}

func inboundRoutePath(routeId string) string {
	return "inbound/routes/" + escape(routeId)
}

// Create creates a route.
func (s *InboundRoutesService) Create(params *CreateInboundRouteRequest) (*InboundRoute, error) {
	return s.CreateWithContext(context.Background(), params)
}

// CreateWithContext creates a route.
func (s *InboundRoutesService) CreateWithContext(ctx context.Context, params *CreateInboundRouteRequest) (*InboundRoute, error) {
	return fetch[InboundRoute](ctx, s.client, call{method: http.MethodPost, path: "inbound/routes", body: params})
}

// Get gets a route.
func (s *InboundRoutesService) Get(routeId string) (*InboundRoute, error) {
	return s.GetWithContext(context.Background(), routeId)
}

// GetWithContext gets a route.
func (s *InboundRoutesService) GetWithContext(ctx context.Context, routeId string) (*InboundRoute, error) {
	if err := required("routeId", routeId); err != nil {
		return nil, err
	}
	return fetch[InboundRoute](ctx, s.client, call{method: http.MethodGet, path: inboundRoutePath(routeId)})
}

// List lists the routes in the order they are tried (options may be nil).
func (s *InboundRoutesService) List(options *ListOptions) (*List[InboundRoute], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists the routes in the order they are tried (options may be nil).
func (s *InboundRoutesService) ListWithContext(ctx context.Context, options *ListOptions) (*List[InboundRoute], error) {
	return fetch[List[InboundRoute]](ctx, s.client, call{method: http.MethodGet, path: "inbound/routes", query: options.values()})
}

// Update changes or moves a route and answers it.
func (s *InboundRoutesService) Update(routeId string, params *UpdateInboundRouteRequest) (*InboundRoute, error) {
	return s.UpdateWithContext(context.Background(), routeId, params)
}

// UpdateWithContext changes or moves a route and answers it.
func (s *InboundRoutesService) UpdateWithContext(ctx context.Context, routeId string, params *UpdateInboundRouteRequest) (*InboundRoute, error) {
	if err := required("routeId", routeId); err != nil {
		return nil, err
	}
	if params == nil {
		params = &UpdateInboundRouteRequest{}
	}
	return fetch[InboundRoute](ctx, s.client, call{method: http.MethodPatch, path: inboundRoutePath(routeId), body: params})
}

// Remove deletes a route; the routes after it move up.
func (s *InboundRoutesService) Remove(routeId string) (*DeletedObject, error) {
	return s.RemoveWithContext(context.Background(), routeId)
}

// RemoveWithContext deletes a route; the routes after it move up.
func (s *InboundRoutesService) RemoveWithContext(ctx context.Context, routeId string) (*DeletedObject, error) {
	if err := required("routeId", routeId); err != nil {
		return nil, err
	}
	return fetch[DeletedObject](ctx, s.client, call{method: http.MethodDelete, path: inboundRoutePath(routeId)})
}

// Test answers which route decides for an address (and headers), and what becomes of its mail; nothing is
// received or changed.
func (s *InboundRoutesService) Test(params *TestInboundRouteRequest) (*InboundRouteTest, error) {
	return s.TestWithContext(context.Background(), params)
}

// TestWithContext answers which route decides for an address (and headers), and what becomes of its mail;
// nothing is received or changed.
func (s *InboundRoutesService) TestWithContext(ctx context.Context, params *TestInboundRouteRequest) (*InboundRouteTest, error) {
	return fetch[InboundRouteTest](ctx, s.client, call{method: http.MethodPost, path: "inbound/routes/test", body: params})
}
