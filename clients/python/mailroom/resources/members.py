"""The organisation's people and invitations: who belongs with which role, one-time invitation links (valid 7 days),
role changes and removals. Reading needs the ``members:read`` scope, changing ``members:write`` (both part of
``full_access``). Only owners make, change or remove owners, so an API key may grant and change every role but
``owner`` (``InsufficientScopeError``); the last owner can be neither demoted nor removed (``ConflictError``). Every
change is in the audit log (``audit_log.list()``)."""

from __future__ import annotations

from typing import cast

from .._http import path_segment
from ..types import CreatedInvitation, DeletedResponse, InviteMemberParams, Member, MemberList, UpdateMemberRoleParams
from ._base import Resource, split_id


class Members(Resource):
    def list(self) -> MemberList:
        """``{"object": "list", "has_more": False, "data": [member, …], "invitations": [invitation, …]}``: every
        member, oldest first, and every pending invitation (without its link)."""
        return cast(MemberList, self._transport.request("GET", "/v1/members"))

    def invite(self, params: InviteMemberParams) -> CreatedInvitation:
        """Invite ``{"email", "role"}``: the invitation with ``url``, its one-time link, in this answer only — hand it
        to the person, it is never shown again. ``ConflictError`` when the address is a member already."""
        return cast(CreatedInvitation, self._transport.request("POST", "/v1/members/invitations", body=dict(params)))

    def revoke_invitation(self, invitation_id: str) -> DeletedResponse:
        """Revoke a pending invitation: its link stops working. ``NotFoundError`` once it was accepted."""
        path = f"/v1/members/invitations/{path_segment(invitation_id)}"
        return cast(DeletedResponse, self._transport.request("DELETE", path))

    def update_role(self, params: UpdateMemberRoleParams) -> Member:
        """Change a member's role, ``{"id": member_id, "role": …}``, as ``update`` takes its id elsewhere. Answers
        the member after the change."""
        member_id, body = split_id(params, "id")
        return cast(Member, self._transport.request("PATCH", f"/v1/members/{member_id}", body=body))

    def remove(self, member_id: str) -> DeletedResponse:
        """Remove a member from the organisation (the person's account stays, with its other organisations)."""
        return cast(DeletedResponse, self._transport.request("DELETE", f"/v1/members/{path_segment(member_id)}"))
