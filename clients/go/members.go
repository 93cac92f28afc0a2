// The organisation's people and invitations (docs/teams.md, scopes members:read and members:write): who belongs with
// which role, one-time invitation links (valid 7 days), role changes and removals. Only owners make, change or
// remove owners, so an API key may grant and change every role but RoleOwner (403 insufficient_scope); the last owner
// can be neither demoted nor removed (409 conflict). Every change is in the audit log (AuditLog.List).
package mailroom

import (
	"context"
	"net/http"
)

// InviteMemberRequest invites Email (stored lower-cased) with Role (RoleAdmin, RoleDeveloper or RoleViewer for an
// API key; only owners invite owners): the document's InviteMemberOptions (generated.go).
type InviteMemberRequest = InviteMemberOptions

// UpdateMemberRoleRequest is a member's new Role: the document's UpdateMemberRoleOptions (generated.go).
type UpdateMemberRoleRequest = UpdateMemberRoleOptions

// MembersService manages the organisation's members and invitations.
type MembersService struct {
	client *Client
}

// List answers every member and every pending invitation.
func (s *MembersService) List() (*MemberList, error) {
	return s.ListWithContext(context.Background())
}

// ListWithContext answers every member and every pending invitation.
func (s *MembersService) ListWithContext(ctx context.Context) (*MemberList, error) {
	return fetch[MemberList](ctx, s.client, call{method: http.MethodGet, path: "members"})
}

// Invite makes an invitation and answers it with its one-time link. An address that is a member already is a 409
// conflict. A nil request is sent as {}, so the server names what is missing.
func (s *MembersService) Invite(params *InviteMemberRequest) (*CreatedInvitation, error) {
	return s.InviteWithContext(context.Background(), params)
}

// InviteWithContext makes an invitation and answers it with its one-time link. An address that is a member already
// is a 409 conflict. A nil request is sent as {}, so the server names what is missing.
func (s *MembersService) InviteWithContext(ctx context.Context, params *InviteMemberRequest) (*CreatedInvitation, error) {
	if params == nil {
		params = &InviteMemberRequest{}
	}
	return fetch[CreatedInvitation](ctx, s.client, call{method: http.MethodPost, path: "members/invitations", body: params})
}

// RevokeInvitation revokes a pending invitation: its link stops working. Once accepted it is a 404 not_found.
func (s *MembersService) RevokeInvitation(invitationId string) (*DeletedObject, error) {
	return s.RevokeInvitationWithContext(context.Background(), invitationId)
}

// RevokeInvitationWithContext revokes a pending invitation: its link stops working. Once accepted it is a 404
// not_found.
func (s *MembersService) RevokeInvitationWithContext(ctx context.Context, invitationId string) (*DeletedObject, error) {
	if err := required("invitationId", invitationId); err != nil {
		return nil, err
	}
	return fetch[DeletedObject](ctx, s.client, call{method: http.MethodDelete, path: "members/invitations/" + escape(invitationId)})
}

// UpdateRole changes a member's role and answers the member after the change. A nil request is sent as {}, so the
// server names what is missing.
func (s *MembersService) UpdateRole(memberId string, params *UpdateMemberRoleRequest) (*Member, error) {
	return s.UpdateRoleWithContext(context.Background(), memberId, params)
}

// UpdateRoleWithContext changes a member's role and answers the member after the change. A nil request is sent as
// {}, so the server names what is missing.
func (s *MembersService) UpdateRoleWithContext(ctx context.Context, memberId string, params *UpdateMemberRoleRequest) (*Member, error) {
	if err := required("memberId", memberId); err != nil {
		return nil, err
	}
	if params == nil {
		params = &UpdateMemberRoleRequest{}
	}
	return fetch[Member](ctx, s.client, call{method: http.MethodPatch, path: "members/" + escape(memberId), body: params})
}

// Remove removes a member from the organisation (the person's account stays, with its other organisations).
func (s *MembersService) Remove(memberId string) (*DeletedObject, error) {
	return s.RemoveWithContext(context.Background(), memberId)
}

// RemoveWithContext removes a member from the organisation (the person's account stays, with its other
// organisations).
func (s *MembersService) RemoveWithContext(ctx context.Context, memberId string) (*DeletedObject, error) {
	if err := required("memberId", memberId); err != nil {
		return nil, err
	}
	return fetch[DeletedObject](ctx, s.client, call{method: http.MethodDelete, path: "members/" + escape(memberId)})
}
