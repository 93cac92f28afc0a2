// Contacts (docs/contacts.md, Resend's contacts API): one per address in the organisation, reached by id or by
// address; the segments a contact is in (Contacts.Segments) and its topic choices (Contacts.Topics). CSV imports are
// Contacts.Imports (contact_imports.go).
package mailroom

import (
	"context"
	"net/http"
	"net/url"
)

// A contact's shapes are the document's (generated.go): Contact (Properties on Get only), ContactTopic, a topic with
// the contact's effective Subscription; and the bodies, under this client's names.
type (
	// CreateContactRequest is a new contact: Email, names, Unsubscribed, Properties by key, the Segments it joins
	// and its Topics choices.
	CreateContactRequest = CreateContactOptions
	// UpdateContactRequest changes a contact; nil fields stay, Null[string]() clears a name, and a nil value in
	// Properties removes that property.
	UpdateContactRequest = UpdateContactOptions
	// TopicSubscription is a choice of one topic: Id and Subscription, "opt_in" or "opt_out".
	TopicSubscription = CreateContactOptionsTopic
	// SegmentRef names a segment by Id (CreateContactRequest.Segments, CreateContactImportRequest.Segments).
	SegmentRef = CreateContactOptionsSegment
)

// Topic subscriptions.
const (
	SubscriptionOptIn  = "opt_in"
	SubscriptionOptOut = "opt_out"
)

// ListContactsOptions pages through contacts, newest first; SegmentId lists that segment's only.
type ListContactsOptions struct {
	Limit     int
	After     string
	Before    string
	SegmentId string
}

func (o *ListContactsOptions) values() url.Values {
	query := url.Values{}
	if o != nil {
		setPage(query, o.Limit, o.After, o.Before)
		setIf(query, "segment_id", o.SegmentId)
	}
	return query
}

// RemovedContact answers Contacts.Remove: {object: "contact", id, contact (the id again, Resend's field), deleted}.
type RemovedContact struct {
	Object  string `json:"object"`
	Id      string `json:"id"`
	Contact string `json:"contact"`
	Deleted bool   `json:"deleted"`
}

// ContactsService manages contacts (scopes contacts:read and contacts:write). Wherever a contact's id goes, its
// address works too.
type ContactsService struct {
	client *Client
	// Segments adds a contact to segments, takes it out, and lists them.
	Segments *ContactSegmentsService
	// Topics lists and sets a contact's topic choices.
	Topics *ContactTopicsService
	// Imports creates contacts from a CSV file.
	Imports *ContactImportsService
}

func contactPath(idOrEmail string, rest string) string {
	return "contacts/" + escape(idOrEmail) + rest
}

// Create creates a contact (a conflict error if the address already is one).
func (s *ContactsService) Create(params *CreateContactRequest) (*Contact, error) {
	return s.CreateWithContext(context.Background(), params)
}

// CreateWithContext creates a contact (a conflict error if the address already is one).
func (s *ContactsService) CreateWithContext(ctx context.Context, params *CreateContactRequest) (*Contact, error) {
	return fetch[Contact](ctx, s.client, call{method: http.MethodPost, path: "contacts", body: params})
}

// Get gets a contact by id or address, with its property values.
func (s *ContactsService) Get(idOrEmail string) (*Contact, error) {
	return s.GetWithContext(context.Background(), idOrEmail)
}

// GetWithContext gets a contact by id or address, with its property values.
func (s *ContactsService) GetWithContext(ctx context.Context, idOrEmail string) (*Contact, error) {
	if err := required("idOrEmail", idOrEmail); err != nil {
		return nil, err
	}
	return fetch[Contact](ctx, s.client, call{method: http.MethodGet, path: contactPath(idOrEmail, "")})
}

// List lists contacts, newest first (options may be nil).
func (s *ContactsService) List(options *ListContactsOptions) (*List[Contact], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists contacts, newest first (options may be nil).
func (s *ContactsService) ListWithContext(ctx context.Context, options *ListContactsOptions) (*List[Contact], error) {
	return fetch[List[Contact]](ctx, s.client, call{method: http.MethodGet, path: "contacts", query: options.values()})
}

// Update changes a contact found by id or address, and answers it.
func (s *ContactsService) Update(idOrEmail string, params *UpdateContactRequest) (*Contact, error) {
	return s.UpdateWithContext(context.Background(), idOrEmail, params)
}

// UpdateWithContext changes a contact found by id or address, and answers it.
func (s *ContactsService) UpdateWithContext(ctx context.Context, idOrEmail string, params *UpdateContactRequest) (*Contact, error) {
	if err := required("idOrEmail", idOrEmail); err != nil {
		return nil, err
	}
	if params == nil {
		params = &UpdateContactRequest{}
	}
	return fetch[Contact](ctx, s.client, call{method: http.MethodPatch, path: contactPath(idOrEmail, ""), body: params})
}

// Remove deletes a contact found by id or address.
func (s *ContactsService) Remove(idOrEmail string) (*RemovedContact, error) {
	return s.RemoveWithContext(context.Background(), idOrEmail)
}

// RemoveWithContext deletes a contact found by id or address.
func (s *ContactsService) RemoveWithContext(ctx context.Context, idOrEmail string) (*RemovedContact, error) {
	if err := required("idOrEmail", idOrEmail); err != nil {
		return nil, err
	}
	return fetch[RemovedContact](ctx, s.client, call{method: http.MethodDelete, path: contactPath(idOrEmail, "")})
}

// ContactSegmentMembership answers Contacts.Segments.Add and Remove: the segment's Id, the contact's, and on
// Remove, Deleted.
type ContactSegmentMembership struct {
	Id        string `json:"id"`
	ContactId string `json:"contact_id"`
	Deleted   bool   `json:"deleted,omitempty"`
}

// ContactSegmentsService puts contacts in segments and takes them out; neither the contact nor the segment is
// deleted.
type ContactSegmentsService struct {
	client *Client
}

// Add adds a contact (by id or address) to a segment.
func (s *ContactSegmentsService) Add(idOrEmail, segmentId string) (*ContactSegmentMembership, error) {
	return s.AddWithContext(context.Background(), idOrEmail, segmentId)
}

// AddWithContext adds a contact (by id or address) to a segment.
func (s *ContactSegmentsService) AddWithContext(ctx context.Context, idOrEmail, segmentId string) (*ContactSegmentMembership, error) {
	if err := requiredPair("idOrEmail", idOrEmail, "segmentId", segmentId); err != nil {
		return nil, err
	}
	return fetch[ContactSegmentMembership](ctx, s.client, call{method: http.MethodPost, path: contactPath(idOrEmail, "/segments/"+escape(segmentId))})
}

// Remove takes a contact (by id or address) out of a segment.
func (s *ContactSegmentsService) Remove(idOrEmail, segmentId string) (*ContactSegmentMembership, error) {
	return s.RemoveWithContext(context.Background(), idOrEmail, segmentId)
}

// RemoveWithContext takes a contact (by id or address) out of a segment.
func (s *ContactSegmentsService) RemoveWithContext(ctx context.Context, idOrEmail, segmentId string) (*ContactSegmentMembership, error) {
	if err := requiredPair("idOrEmail", idOrEmail, "segmentId", segmentId); err != nil {
		return nil, err
	}
	return fetch[ContactSegmentMembership](ctx, s.client, call{method: http.MethodDelete, path: contactPath(idOrEmail, "/segments/"+escape(segmentId))})
}

// List lists the segments a contact (by id or address) is in (options may be nil).
func (s *ContactSegmentsService) List(idOrEmail string, options *ListOptions) (*List[Segment], error) {
	return s.ListWithContext(context.Background(), idOrEmail, options)
}

// ListWithContext lists the segments a contact (by id or address) is in (options may be nil).
func (s *ContactSegmentsService) ListWithContext(ctx context.Context, idOrEmail string, options *ListOptions) (*List[Segment], error) {
	if err := required("idOrEmail", idOrEmail); err != nil {
		return nil, err
	}
	return fetch[List[Segment]](ctx, s.client, call{method: http.MethodGet, path: contactPath(idOrEmail, "/segments"), query: options.values()})
}

// ContactTopicsService reads and sets a contact's topic choices (docs/contacts.md#topic-rules).
type ContactTopicsService struct {
	client *Client
}

// List lists every topic with the contact's effective subscription (options may be nil).
func (s *ContactTopicsService) List(idOrEmail string, options *ListOptions) (*List[ContactTopic], error) {
	return s.ListWithContext(context.Background(), idOrEmail, options)
}

// ListWithContext lists every topic with the contact's effective subscription (options may be nil).
func (s *ContactTopicsService) ListWithContext(ctx context.Context, idOrEmail string, options *ListOptions) (*List[ContactTopic], error) {
	if err := required("idOrEmail", idOrEmail); err != nil {
		return nil, err
	}
	return fetch[List[ContactTopic]](ctx, s.client, call{method: http.MethodGet, path: contactPath(idOrEmail, "/topics"), query: options.values()})
}

// Update sets the contact's choice of each topic given, and answers the contact's id.
func (s *ContactTopicsService) Update(idOrEmail string, topics []TopicSubscription) (*ObjectRef, error) {
	return s.UpdateWithContext(context.Background(), idOrEmail, topics)
}

// UpdateWithContext sets the contact's choice of each topic given, and answers the contact's id.
func (s *ContactTopicsService) UpdateWithContext(ctx context.Context, idOrEmail string, topics []TopicSubscription) (*ObjectRef, error) {
	if err := required("idOrEmail", idOrEmail); err != nil {
		return nil, err
	}
	if topics == nil {
		topics = []TopicSubscription{}
	}
	// Resend's wire: the list itself is the body.
	return fetch[ObjectRef](ctx, s.client, call{method: http.MethodPatch, path: contactPath(idOrEmail, "/topics"), body: topics})
}
