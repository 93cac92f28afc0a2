// The organisations the caller acts in (docs/teams.md, scope organization:read): for an API key, its own. Creating an
// organisation is for instance admins signed in to the admin UI (or `mailroom org create` at the command line), not
// for API keys, so the client offers List only.
package mailroom

import (
	"context"
	"net/http"
)

// OrganizationsService lists the organisations the caller acts in.
type OrganizationsService struct {
	client *Client
}

// List answers the organisations the caller acts in, each with the caller's role: for an API key, its own.
func (s *OrganizationsService) List() (*List[OrganizationMembership], error) {
	return s.ListWithContext(context.Background())
}

// ListWithContext answers the organisations the caller acts in, each with the caller's role: for an API key, its
// own.
func (s *OrganizationsService) ListWithContext(ctx context.Context) (*List[OrganizationMembership], error) {
	return fetch[List[OrganizationMembership]](ctx, s.client, call{method: http.MethodGet, path: "organizations"})
}
