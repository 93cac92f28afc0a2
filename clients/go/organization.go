// The organisation's settings (DESIGN §12, scopes organization:read and organization:write): its name, request
// limit, daily quota of live messages and retention, read with today's usage, what it stores and whether its
// sending is paused.
package mailroom

import (
	"context"
	"net/http"
)

// Organization is the organisation as its settings are in force: a setting it has not set shows the configured
// default.
type Organization struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	Name   string `json:"name"`
	// RateLimit is the requests per minute of all its keys together.
	RateLimit int `json:"rate_limit"`
	// DailyQuota is the live messages it may send per UTC day; nil: no quota.
	DailyQuota *int `json:"daily_quota"`
	// UsageToday counts the live messages accepted since 00:00 UTC.
	UsageToday int                   `json:"usage_today"`
	Retention  OrganizationRetention `json:"retention"`
	// Paused tells whether the whole organisation's sending is paused (Sending.Get lists every pause).
	Paused bool `json:"paused"`
	// Storage is nil until the retention job has first counted what the organisation stores.
	Storage   *OrganizationStorage `json:"storage"`
	CreatedAt string               `json:"created_at"`
}

// OrganizationRetention is how long finished messages are kept, in days: ContentDays for the raw message, bodies
// and attachments (the record then shows ContentRemovedAt), MetadataDays for the record and its events.
type OrganizationRetention struct {
	ContentDays  int `json:"content_days"`
	MetadataDays int `json:"metadata_days"`
}

// OrganizationStorage is what the organisation stores, as the retention job last counted it at MeasuredAt.
type OrganizationStorage struct {
	Messages     int64  `json:"messages"`
	ContentBytes int64  `json:"content_bytes"`
	MeasuredAt   string `json:"measured_at"`
}

// UpdateOrganizationRequest changes the settings that are set: a nil field keeps its setting, Value(v) changes it
// and Null[int]() returns it to the configured default (for DailyQuota: no quota). RateLimit and DailyQuota are at
// least 1.
type UpdateOrganizationRequest struct {
	Name       string                  `json:"name,omitempty"`
	RateLimit  *Nullable[int]          `json:"rate_limit,omitempty"`
	DailyQuota *Nullable[int]          `json:"daily_quota,omitempty"`
	Retention  *UpdateRetentionRequest `json:"retention,omitempty"`
}

// UpdateRetentionRequest changes the retention windows, each 1 to 36500 days, as UpdateOrganizationRequest its
// fields: nil keeps, Value(days) changes, Null[int]() returns to the configured default.
type UpdateRetentionRequest struct {
	ContentDays  *Nullable[int] `json:"content_days,omitempty"`
	MetadataDays *Nullable[int] `json:"metadata_days,omitempty"`
}

// OrganizationService reads and changes the organisation's settings. A key without the scope (a sending_access
// key, a test key) is a 403 insufficient_scope; a bad value a 400 validation_error naming its field.
type OrganizationService struct {
	client *Client
}

// Get answers the organisation's settings, today's usage, its storage and whether it is paused.
func (s *OrganizationService) Get() (*Organization, error) {
	return s.GetWithContext(context.Background())
}

// GetWithContext answers the organisation's settings, today's usage, its storage and whether it is paused.
func (s *OrganizationService) GetWithContext(ctx context.Context) (*Organization, error) {
	return fetch[Organization](ctx, s.client, call{method: http.MethodGet, path: "organization"})
}

// Update changes the settings the request sets and answers the organisation after the change. A nil request
// changes nothing.
func (s *OrganizationService) Update(params *UpdateOrganizationRequest) (*Organization, error) {
	return s.UpdateWithContext(context.Background(), params)
}

// UpdateWithContext changes the settings the request sets and answers the organisation after the change. A nil
// request changes nothing.
func (s *OrganizationService) UpdateWithContext(ctx context.Context, params *UpdateOrganizationRequest) (*Organization, error) {
	if params == nil {
		params = &UpdateOrganizationRequest{}
	}
	return fetch[Organization](ctx, s.client, call{method: http.MethodPatch, path: "organization", body: params})
}
