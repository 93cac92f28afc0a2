/**
 * `mailroom.members`: the organisation's people and invitations (docs/teams.md) — who belongs with which role, one-time
 * invitation links (valid 7 days), role changes and removals. Reading needs the `members:read` scope, changing
 * `members:write` (`full_access` has both). Only owners make, change or remove owners, so an API key may grant and
 * change every role but `owner` (`insufficient_scope`); the last owner can be neither demoted nor removed
 * (`conflict`). Every change is in the audit log (`auditLog.list()`).
 */
import { segment, type Transport } from "./http.js";
import { missing } from "./results.js";
import type {
  CreatedInvitation,
  Deleted,
  InviteMemberOptions,
  MailroomResponse,
  Member,
  MemberList,
  RequestOptions,
  UpdateMemberRoleOptions,
} from "./types.js";

export class Members {
  constructor(private readonly transport: Transport) {}

  /** Every member, oldest first, and every pending invitation (`invitations`, without their links). */
  async list(options: RequestOptions = {}): Promise<MailroomResponse<MemberList>> {
    return this.transport.request({ ...options, method: "GET", path: "/members" });
  }

  /**
   * Invites `email` with `role`: answers the invitation with `url`, its one-time link, in this answer only — hand it
   * to the person, it is never shown again. `conflict` when the address is a member already.
   */
  async invite(
    payload: InviteMemberOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<CreatedInvitation>> {
    return this.transport.request({ ...options, method: "POST", path: "/members/invitations", body: payload });
  }

  /** Revokes a pending invitation: its link stops working. `not_found` once it was accepted. */
  async revokeInvitation(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Deleted<"invitation">>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "DELETE", path: `/members/invitations/${segment(id)}` })
    );
  }

  /** Changes a member's role and answers the member after the change. */
  async updateRole(
    id: string,
    payload: UpdateMemberRoleOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<Member>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "PATCH", path: `/members/${segment(id)}`, body: payload })
    );
  }

  /** Removes a member from the organisation (the person's account stays, with its other organisations). */
  async remove(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Deleted<"member">>> {
    return (
      missing(id, "id") ?? this.transport.request({ ...options, method: "DELETE", path: `/members/${segment(id)}` })
    );
  }
}
