// Segments (docs/contacts.md, Resend's segments) and audiences, Resend's older name for the same groups: create, get,
// list, rename, remove, and list a segment's contacts. Membership is changed from the contact's side
// (Contacts.Segments).
package mailroom

import (
	"context"
	"net/http"
)

type (
	// CreateSegmentRequest names a new segment.
	CreateSegmentRequest = CreateSegmentOptions
	// UpdateSegmentRequest renames a segment.
	UpdateSegmentRequest = CreateSegmentOptions
	// CreateAudienceRequest names a new audience (a segment).
	CreateAudienceRequest = CreateSegmentOptions
)

// SegmentsService manages segments, named groups of contacts (scopes contacts:read and contacts:write). Deleting a
// segment keeps its contacts.
type SegmentsService struct {
	client *Client
	// base is "segments", or "audiences" for Client.Audiences.
	base string
}

// AudiencesService is SegmentsService on Resend's older paths (/v1/audiences): an audience is a segment.
type AudiencesService = SegmentsService

func (s *SegmentsService) path(id string, rest string) string {
	return s.base + "/" + escape(id) + rest
}

// Create creates a segment.
func (s *SegmentsService) Create(params *CreateSegmentRequest) (*Segment, error) {
	return s.CreateWithContext(context.Background(), params)
}

// CreateWithContext creates a segment.
func (s *SegmentsService) CreateWithContext(ctx context.Context, params *CreateSegmentRequest) (*Segment, error) {
	return fetch[Segment](ctx, s.client, call{method: http.MethodPost, path: s.base, body: params})
}

// Get gets a segment.
func (s *SegmentsService) Get(segmentId string) (*Segment, error) {
	return s.GetWithContext(context.Background(), segmentId)
}

// GetWithContext gets a segment.
func (s *SegmentsService) GetWithContext(ctx context.Context, segmentId string) (*Segment, error) {
	if err := required("segmentId", segmentId); err != nil {
		return nil, err
	}
	return fetch[Segment](ctx, s.client, call{method: http.MethodGet, path: s.path(segmentId, "")})
}

// List lists segments, newest first (options may be nil).
func (s *SegmentsService) List(options *ListOptions) (*List[Segment], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists segments, newest first (options may be nil).
func (s *SegmentsService) ListWithContext(ctx context.Context, options *ListOptions) (*List[Segment], error) {
	return fetch[List[Segment]](ctx, s.client, call{method: http.MethodGet, path: s.base, query: options.values()})
}

// Update renames a segment.
func (s *SegmentsService) Update(segmentId string, params *UpdateSegmentRequest) (*Segment, error) {
	return s.UpdateWithContext(context.Background(), segmentId, params)
}

// UpdateWithContext renames a segment.
func (s *SegmentsService) UpdateWithContext(ctx context.Context, segmentId string, params *UpdateSegmentRequest) (*Segment, error) {
	if err := required("segmentId", segmentId); err != nil {
		return nil, err
	}
	if params == nil {
		params = &UpdateSegmentRequest{}
	}
	return fetch[Segment](ctx, s.client, call{method: http.MethodPatch, path: s.path(segmentId, ""), body: params})
}

// Remove deletes a segment; its contacts stay.
func (s *SegmentsService) Remove(segmentId string) (*DeletedObject, error) {
	return s.RemoveWithContext(context.Background(), segmentId)
}

// RemoveWithContext deletes a segment; its contacts stay.
func (s *SegmentsService) RemoveWithContext(ctx context.Context, segmentId string) (*DeletedObject, error) {
	if err := required("segmentId", segmentId); err != nil {
		return nil, err
	}
	return fetch[DeletedObject](ctx, s.client, call{method: http.MethodDelete, path: s.path(segmentId, "")})
}

// ListContacts lists a segment's contacts, newest first (options may be nil).
func (s *SegmentsService) ListContacts(segmentId string, options *ListOptions) (*List[Contact], error) {
	return s.ListContactsWithContext(context.Background(), segmentId, options)
}

// ListContactsWithContext lists a segment's contacts, newest first (options may be nil).
func (s *SegmentsService) ListContactsWithContext(ctx context.Context, segmentId string, options *ListOptions) (*List[Contact], error) {
	if err := required("segmentId", segmentId); err != nil {
		return nil, err
	}
	return fetch[List[Contact]](ctx, s.client, call{method: http.MethodGet, path: s.path(segmentId, "/contacts"), query: options.values()})
}
