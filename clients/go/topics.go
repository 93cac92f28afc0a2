// Topics (docs/contacts.md#topic-rules, Resend's topics): the kinds of mail a contact may choose to receive or not.
// A send with a topic (SendEmailRequest.TopicId) skips whoever left it (docs/contacts-preferences.md).
package mailroom

import (
	"context"
	"net/http"
)

type (
	// CreateTopicRequest is a new topic: Name, Description, DefaultSubscription ("opt_in" or "opt_out", fixed once
	// created) and Visibility ("public" topics are shown on the preference page, "private" ones are not).
	CreateTopicRequest = CreateTopicOptions
	// UpdateTopicRequest changes a topic's Name, Description (Null[string]() clears it) or Visibility.
	UpdateTopicRequest = UpdateTopicOptions
)

// TopicsService manages topics (scopes contacts:read and contacts:write).
type TopicsService struct {
	client *Client
}

func topicPath(topicId string) string {
	return "topics/" + escape(topicId)
}

// Create creates a topic.
func (s *TopicsService) Create(params *CreateTopicRequest) (*Topic, error) {
	return s.CreateWithContext(context.Background(), params)
}

// CreateWithContext creates a topic.
func (s *TopicsService) CreateWithContext(ctx context.Context, params *CreateTopicRequest) (*Topic, error) {
	return fetch[Topic](ctx, s.client, call{method: http.MethodPost, path: "topics", body: params})
}

// Get gets a topic.
func (s *TopicsService) Get(topicId string) (*Topic, error) {
	return s.GetWithContext(context.Background(), topicId)
}

// GetWithContext gets a topic.
func (s *TopicsService) GetWithContext(ctx context.Context, topicId string) (*Topic, error) {
	if err := required("topicId", topicId); err != nil {
		return nil, err
	}
	return fetch[Topic](ctx, s.client, call{method: http.MethodGet, path: topicPath(topicId)})
}

// List lists topics, newest first (options may be nil).
func (s *TopicsService) List(options *ListOptions) (*List[Topic], error) {
	return s.ListWithContext(context.Background(), options)
}

// ListWithContext lists topics, newest first (options may be nil).
func (s *TopicsService) ListWithContext(ctx context.Context, options *ListOptions) (*List[Topic], error) {
	return fetch[List[Topic]](ctx, s.client, call{method: http.MethodGet, path: "topics", query: options.values()})
}

// Update changes a topic and answers it.
func (s *TopicsService) Update(topicId string, params *UpdateTopicRequest) (*Topic, error) {
	return s.UpdateWithContext(context.Background(), topicId, params)
}

// UpdateWithContext changes a topic and answers it.
func (s *TopicsService) UpdateWithContext(ctx context.Context, topicId string, params *UpdateTopicRequest) (*Topic, error) {
	if err := required("topicId", topicId); err != nil {
		return nil, err
	}
	if params == nil {
		params = &UpdateTopicRequest{}
	}
	return fetch[Topic](ctx, s.client, call{method: http.MethodPatch, path: topicPath(topicId), body: params})
}

// Remove deletes a topic and every contact's choice of it.
func (s *TopicsService) Remove(topicId string) (*DeletedObject, error) {
	return s.RemoveWithContext(context.Background(), topicId)
}

// RemoveWithContext deletes a topic and every contact's choice of it.
func (s *TopicsService) RemoveWithContext(ctx context.Context, topicId string) (*DeletedObject, error) {
	if err := required("topicId", topicId); err != nil {
		return nil, err
	}
	return fetch[DeletedObject](ctx, s.client, call{method: http.MethodDelete, path: topicPath(topicId)})
}
