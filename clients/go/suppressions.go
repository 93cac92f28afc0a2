// The organisation's suppression list (docs/delivery.md#suppressions): add, get and remove by id or address, list, and the batch add
// and remove (Suppressions.Batch). A suppressed address receives nothing more.
package mailroom

import (
	"context"
	"net/http"
	"net/url"
)

// Origins of a suppression.
const (
	SuppressionOriginBounce      = "bounce"
	SuppressionOriginComplaint   = "complaint"
	SuppressionOriginUnsubscribe = "unsubscribe"
	SuppressionOriginManual      = "manual"
)

// AddSuppressionRequest suppresses one address by hand (origin manual): the document's AddSuppressionOptions
// (generated.go), as are Suppression and RemovedSuppression.
type AddSuppressionRequest = AddSuppressionOptions

// ListSuppressionsOptions pages and filters the list: Origin (bounce, complaint, unsubscribe, manual) and Search,
// a part of the address.
type ListSuppressionsOptions struct {
	Limit  int
	After  string
	Before string
	Origin string
	Search string
}

// RemoveSuppressionResponse answers a removal. In a batch removal, an address or id that was not suppressed has
// Deleted false (and the part not given empty).
type RemoveSuppressionResponse = RemovedSuppression

// BatchAddSuppressionsRequest suppresses several addresses; those already suppressed keep their entry.
type BatchAddSuppressionsRequest = BatchAddSuppressionsOptions

// BatchAddSuppressionsResponse answers each address's entry, new or existing.
type BatchAddSuppressionsResponse struct {
	Data []Suppression `json:"data"`
}

// BatchRemoveSuppressionsRequest removes by address (Emails) or by id (Ids): one of the two.
type BatchRemoveSuppressionsRequest = BatchRemoveSuppressionsOptions

// BatchRemoveSuppressionsResponse answers each address or id given, with whether it was suppressed.
type BatchRemoveSuppressionsResponse struct {
	Data []RemoveSuppressionResponse `json:"data"`
}

// SuppressionsService manages the suppression list.
type SuppressionsService struct {
	client *Client
	// Batch adds and removes several addresses at once.
	Batch *SuppressionsBatchService
}

// Add suppresses an address.
func (s *SuppressionsService) Add(params *AddSuppressionRequest) (*Suppression, error) {
	return s.AddWithContext(context.Background(), params)
}

// AddWithContext suppresses an address.
func (s *SuppressionsService) AddWithContext(ctx context.Context, params *AddSuppressionRequest) (*Suppression, error) {
	return fetch[Suppression](ctx, s.client, call{method: http.MethodPost, path: "suppressions", body: params})
}

// Get looks a suppression up by id or address.
func (s *SuppressionsService) Get(idOrEmail string) (*Suppression, error) {
	return s.GetWithContext(context.Background(), idOrEmail)
}

// GetWithContext looks a suppression up by id or address.
func (s *SuppressionsService) GetWithContext(ctx context.Context, idOrEmail string) (*Suppression, error) {
	if err := required("idOrEmail", idOrEmail); err != nil {
		return nil, err
	}
	return fetch[Suppression](ctx, s.client, call{method: http.MethodGet, path: "suppressions/" + escape(idOrEmail)})
}

// List lists suppressed addresses, newest first (options may be nil).
func (s *SuppressionsService) List(options *ListSuppressionsOptions) (*List[Suppression], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists suppressed addresses, newest first (options may be nil).
func (s *SuppressionsService) ListWithContext(ctx context.Context, options *ListSuppressionsOptions) (*List[Suppression], error) {
	query := url.Values{}
	if options != nil {
		setPage(query, options.Limit, options.After, options.Before)
		setIf(query, "origin", options.Origin)
		setIf(query, "search", options.Search)
	}
	return fetch[List[Suppression]](ctx, s.client, call{method: http.MethodGet, path: "suppressions", query: query})
}

// Remove removes a suppression by id or address: the address may receive mail again.
func (s *SuppressionsService) Remove(idOrEmail string) (*RemoveSuppressionResponse, error) {
	return s.RemoveWithContext(context.Background(), idOrEmail)
}

// RemoveWithContext removes a suppression by id or address: the address may receive mail again.
func (s *SuppressionsService) RemoveWithContext(ctx context.Context, idOrEmail string) (*RemoveSuppressionResponse, error) {
	if err := required("idOrEmail", idOrEmail); err != nil {
		return nil, err
	}
	return fetch[RemoveSuppressionResponse](ctx, s.client, call{method: http.MethodDelete, path: "suppressions/" + escape(idOrEmail)})
}

// SuppressionsBatchService adds and removes several addresses in one request.
type SuppressionsBatchService struct {
	client *Client
}

// Add suppresses several addresses.
func (s *SuppressionsBatchService) Add(params *BatchAddSuppressionsRequest) (*BatchAddSuppressionsResponse, error) {
	return s.AddWithContext(context.Background(), params)
}

// AddWithContext suppresses several addresses.
func (s *SuppressionsBatchService) AddWithContext(ctx context.Context, params *BatchAddSuppressionsRequest) (*BatchAddSuppressionsResponse, error) {
	return fetch[BatchAddSuppressionsResponse](ctx, s.client, call{method: http.MethodPost, path: "suppressions/batch/add", body: params})
}

// Remove removes several suppressions, by address or by id.
func (s *SuppressionsBatchService) Remove(params *BatchRemoveSuppressionsRequest) (*BatchRemoveSuppressionsResponse, error) {
	return s.RemoveWithContext(context.Background(), params)
}

// RemoveWithContext removes several suppressions, by address or by id.
func (s *SuppressionsBatchService) RemoveWithContext(ctx context.Context, params *BatchRemoveSuppressionsRequest) (*BatchRemoveSuppressionsResponse, error) {
	return fetch[BatchRemoveSuppressionsResponse](ctx, s.client, call{method: http.MethodPost, path: "suppressions/batch/remove", body: params})
}
