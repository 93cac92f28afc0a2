// The organisations the caller acts in (DESIGN §13, scope organization:read): for an API key, its own. Creating an
// organisation is for instance admins signed in to the admin UI (or `mailroom org create` at the command line), not
// for API keys, so the client offers List only.
package mailroom

import (
	"context"
	"net/http"
)

// Roles of a member (DESIGN §13): an owner does everything; an admin everything but owners and deleting the
// organisation; a developer the mail and its settings, not people; a viewer reads.
const (
	RoleOwner     = "owner"
	RoleAdmin     = "admin"
	RoleDeveloper = "developer"
	RoleViewer    = "viewer"
)

// OrganizationMembership is an organisation the caller acts in, with the caller's Role there.
type OrganizationMembership struct {
	Object string `json:"object"`
	Id     string `json:"id"`
	Name   string `json:"name"`
	Role   string `json:"role"`
}

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
