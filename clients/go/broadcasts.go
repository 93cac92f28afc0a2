// Broadcasts (docs/broadcasts.md, Resend's broadcasts): one message per contact of a segment, personalised
// ({{{FIRST_NAME|fallback}}}, {{{RESEND_UNSUBSCRIBE_URL}}}), sent in the broadcast lane so transactional mail goes
// first. Drafts are created, changed and deleted; Send sends one now or at a time, Cancel stops it; a broadcast's
// recipients by event and its clicked links follow it.
package mailroom

import (
	"context"
	"net/http"
	"net/url"
)

// Broadcast statuses (Broadcast.Status).
const (
	BroadcastDraft    = "draft"
	BroadcastQueued   = "queued"
	BroadcastSent     = "sent"
	BroadcastCanceled = "canceled"
)

type (
	// CreateBroadcastRequest is a broadcast to a segment: SegmentId, From, Subject, Html or Text (or Template),
	// optionally TopicId (only its subscribers receive it); a draft unless Send is true (now, or at ScheduledAt).
	CreateBroadcastRequest = CreateBroadcastOptions
	// UpdateBroadcastRequest changes a draft (a conflict error once it is queued or sent).
	UpdateBroadcastRequest = UpdateBroadcastOptions
	// SendBroadcastRequest sends a draft now, or at ScheduledAt (ISO 8601, or e.g. "in 2 hours").
	SendBroadcastRequest = SendBroadcastOptions
)

// ListBroadcastRecipientsOptions chooses which recipients Broadcasts.Recipients lists: Type (required) is the event
// they had — sent, delivered, opened, clicked, bounced, complained, unsubscribed or suppressed; Email keeps one
// recipient; BounceType (permanent, transient, undetermined) narrows bounced.
type ListBroadcastRecipientsOptions struct {
	Type       string
	Email      string
	BounceType string
	Limit      int
	After      string
	Before     string
}

func (o *ListBroadcastRecipientsOptions) values() url.Values {
	query := url.Values{}
	if o != nil {
		setPage(query, o.Limit, o.After, o.Before)
		setIf(query, "type", o.Type)
		setIf(query, "email", o.Email)
		setIf(query, "bounce_type", o.BounceType)
	}
	return query
}

// BroadcastsService manages broadcasts (scopes contacts:read and contacts:write; sending also emails:send).
type BroadcastsService struct {
	client *Client
}

func broadcastPath(broadcastId string, rest string) string {
	return "broadcasts/" + escape(broadcastId) + rest
}

// Create creates a broadcast, a draft unless params.Send is true; it answers the broadcast's id.
func (s *BroadcastsService) Create(params *CreateBroadcastRequest) (*ObjectRef, error) {
	return s.CreateWithContext(context.Background(), params)
}

// CreateWithContext creates a broadcast, a draft unless params.Send is true; it answers the broadcast's id.
func (s *BroadcastsService) CreateWithContext(ctx context.Context, params *CreateBroadcastRequest) (*ObjectRef, error) {
	return fetch[ObjectRef](ctx, s.client, call{method: http.MethodPost, path: "broadcasts", body: params})
}

// Get gets a broadcast with its counts per recipient status.
func (s *BroadcastsService) Get(broadcastId string) (*Broadcast, error) {
	return s.GetWithContext(context.Background(), broadcastId)
}

// GetWithContext gets a broadcast with its counts per recipient status.
func (s *BroadcastsService) GetWithContext(ctx context.Context, broadcastId string) (*Broadcast, error) {
	if err := required("broadcastId", broadcastId); err != nil {
		return nil, err
	}
	return fetch[Broadcast](ctx, s.client, call{method: http.MethodGet, path: broadcastPath(broadcastId, "")})
}

// List lists broadcasts, newest first (options may be nil).
func (s *BroadcastsService) List(options *ListOptions) (*List[BroadcastSummary], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists broadcasts, newest first (options may be nil).
func (s *BroadcastsService) ListWithContext(ctx context.Context, options *ListOptions) (*List[BroadcastSummary], error) {
	return fetch[List[BroadcastSummary]](ctx, s.client, call{method: http.MethodGet, path: "broadcasts", query: options.values()})
}

// Update changes a draft and answers its id.
func (s *BroadcastsService) Update(broadcastId string, params *UpdateBroadcastRequest) (*ObjectRef, error) {
	return s.UpdateWithContext(context.Background(), broadcastId, params)
}

// UpdateWithContext changes a draft and answers its id.
func (s *BroadcastsService) UpdateWithContext(ctx context.Context, broadcastId string, params *UpdateBroadcastRequest) (*ObjectRef, error) {
	if err := required("broadcastId", broadcastId); err != nil {
		return nil, err
	}
	if params == nil {
		params = &UpdateBroadcastRequest{}
	}
	return fetch[ObjectRef](ctx, s.client, call{method: http.MethodPatch, path: broadcastPath(broadcastId, ""), body: params})
}

// Remove deletes a draft (a conflict error otherwise).
func (s *BroadcastsService) Remove(broadcastId string) (*DeletedObject, error) {
	return s.RemoveWithContext(context.Background(), broadcastId)
}

// RemoveWithContext deletes a draft (a conflict error otherwise).
func (s *BroadcastsService) RemoveWithContext(ctx context.Context, broadcastId string) (*DeletedObject, error) {
	if err := required("broadcastId", broadcastId); err != nil {
		return nil, err
	}
	return fetch[DeletedObject](ctx, s.client, call{method: http.MethodDelete, path: broadcastPath(broadcastId, "")})
}

// Send sends a draft now, or at params.ScheduledAt (params may be nil).
func (s *BroadcastsService) Send(broadcastId string, params *SendBroadcastRequest) (*ObjectRef, error) {
	return s.SendWithContext(context.Background(), broadcastId, params)
}

// SendWithContext sends a draft now, or at params.ScheduledAt (params may be nil).
func (s *BroadcastsService) SendWithContext(ctx context.Context, broadcastId string, params *SendBroadcastRequest) (*ObjectRef, error) {
	if err := required("broadcastId", broadcastId); err != nil {
		return nil, err
	}
	if params == nil {
		params = &SendBroadcastRequest{}
	}
	return fetch[ObjectRef](ctx, s.client, call{method: http.MethodPost, path: broadcastPath(broadcastId, "/send"), body: params})
}

// Cancel returns a scheduled broadcast to draft, or stops one being sent as canceled (its waiting recipients are
// canceled; those already sent stay sent).
func (s *BroadcastsService) Cancel(broadcastId string) (*ObjectRef, error) {
	return s.CancelWithContext(context.Background(), broadcastId)
}

// CancelWithContext returns a scheduled broadcast to draft, or stops one being sent as canceled (its waiting
// recipients are canceled; those already sent stay sent).
func (s *BroadcastsService) CancelWithContext(ctx context.Context, broadcastId string) (*ObjectRef, error) {
	if err := required("broadcastId", broadcastId); err != nil {
		return nil, err
	}
	return fetch[ObjectRef](ctx, s.client, call{method: http.MethodPost, path: broadcastPath(broadcastId, "/cancel")})
}

// Duplicate copies a broadcast as a new draft and answers the copy's id.
func (s *BroadcastsService) Duplicate(broadcastId string) (*ObjectRef, error) {
	return s.DuplicateWithContext(context.Background(), broadcastId)
}

// DuplicateWithContext copies a broadcast as a new draft and answers the copy's id.
func (s *BroadcastsService) DuplicateWithContext(ctx context.Context, broadcastId string) (*ObjectRef, error) {
	if err := required("broadcastId", broadcastId); err != nil {
		return nil, err
	}
	return fetch[ObjectRef](ctx, s.client, call{method: http.MethodPost, path: broadcastPath(broadcastId, "/duplicate")})
}

// Recipients lists the broadcast's recipients that had one type of event (options.Type is required).
func (s *BroadcastsService) Recipients(broadcastId string, options *ListBroadcastRecipientsOptions) (*List[BroadcastRecipient], error) {
	return s.RecipientsWithContext(context.Background(), broadcastId, options)
}

// RecipientsWithContext lists the broadcast's recipients that had one type of event (options.Type is required).
func (s *BroadcastsService) RecipientsWithContext(ctx context.Context, broadcastId string, options *ListBroadcastRecipientsOptions) (*List[BroadcastRecipient], error) {
	if err := required("broadcastId", broadcastId); err != nil {
		return nil, err
	}
	return fetch[List[BroadcastRecipient]](ctx, s.client, call{method: http.MethodGet, path: broadcastPath(broadcastId, "/recipients"), query: options.values()})
}

// ClickedLinks lists the links clicked in the broadcast, most clicked first (options may be nil).
func (s *BroadcastsService) ClickedLinks(broadcastId string, options *ListOptions) (*List[BroadcastClickedLink], error) {
	return s.ClickedLinksWithContext(context.Background(), broadcastId, options)
}

// ClickedLinksWithContext lists the links clicked in the broadcast, most clicked first (options may be nil).
func (s *BroadcastsService) ClickedLinksWithContext(ctx context.Context, broadcastId string, options *ListOptions) (*List[BroadcastClickedLink], error) {
	if err := required("broadcastId", broadcastId); err != nil {
		return nil, err
	}
	return fetch[List[BroadcastClickedLink]](ctx, s.client, call{method: http.MethodGet, path: broadcastPath(broadcastId, "/clicked-links"), query: options.values()})
}
