# frozen_string_literal: true

# The organisation's people and invitations (docs/teams.md): who belongs with which role (owner, admin, developer,
# viewer), one-time invitation links (valid 7 days), role changes and removals. Reading needs the members:read scope,
# changing members:write (full_access includes both). Only owners make, change or remove owners, so an API key may
# grant and change every role but owner (InsufficientScopeError); the last owner can be neither demoted nor removed
# (ConflictError). Every change is in the audit log (audit_log.list).
module Mailroom
  class Members < Resource
    # GET /v1/members → Types::MemberList: the members, oldest first (id is the person's), and every pending
    # invitation, without its link.
    def list
      http_get("/members")
    end

    # POST /v1/members/invitations Types::InviteMemberOptions → Types::CreatedInvitation: the invitation with url:,
    # its one-time link, never shown again (hand it over yourself when emailed: is false). ConflictError when the
    # address is a member already.
    def invite(params)
      http_post("/members/invitations", symbolized(params))
    end

    # DELETE /v1/members/invitations/:id → { object: "invitation", id:, deleted: true }; the link stops working.
    # NotFoundError once it was accepted.
    def revoke_invitation(invitation_id)
      http_delete("/members/invitations/#{segment(invitation_id)}")
    end

    # PATCH /v1/members/:id Types::UpdateMemberRoleOptions → Types::Member, after the change.
    # update_role(member_id, role: "admin") and update_role(id: member_id, role: "admin") both work.
    def update_role(id_or_params, params = {})
      member_id, body = id_and_params(id_or_params, params, :member_id, :id)
      http_patch("/members/#{segment(member_id)}", body)
    end

    # DELETE /v1/members/:id → { object: "member", id:, deleted: true }: out of the organisation (the person's
    # account stays, with its other organisations).
    def remove(member_id)
      http_delete("/members/#{segment(member_id)}")
    end
  end
end
