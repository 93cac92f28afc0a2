// The organisation's settings (docs/operations.md, scopes organization:read and organization:write): its name, request
// limit, daily quota of live messages and retention, read with today's usage, what it stores and whether its
// sending is paused.
package mailroom

import (
	"context"
	"net/http"
)

// Organization (generated.go) is the organisation as its settings are in force: a setting it has not set shows the
// configured default. Its Retention (OrganizationRetention) is how long finished messages are kept, in days, and its
// Storage (OrganizationStorage) what it stores as the retention job last counted it: nil until the job first has.
type (
	// UpdateOrganizationRequest changes the settings that are set: a nil field keeps its setting, Value(v) changes
	// it and Null[int]() returns it to the configured default (for DailyQuota: no quota). RateLimit and DailyQuota
	// are at least 1.
	UpdateOrganizationRequest = UpdateOrganizationOptions
	// UpdateRetentionRequest changes the retention windows, each 1 to 36500 days, as UpdateOrganizationRequest its
	// fields: nil keeps, Value(days) changes, Null[int]() returns to the configured default.
	UpdateRetentionRequest = UpdateOrganizationOptionsRetention
)

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
