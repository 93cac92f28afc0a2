# frozen_string_literal: true

# Teams against the real server: the organisation a key acts in, an invitation made, listed and revoked, one
# accepted by the person it names (their side, over plain HTTP, not the client's), their role changed and their
# membership removed, what a key may not do (make an owner) or see (a sending key), and each change found in the
# audit log by its action and by who acted, page by page; and, on a local server, the paths and bodies.
#
# The other libraries' suites run against the same server and invite too: every look is for the ids made here, and
# what a test makes it undoes whatever happens.
require "minitest/autorun"
require "json"
require "net/http"
require "test_helper"

class TeamsTest < Minitest::Test
  include MailroomTestHelper

  NOBODY = "00000000-0000-4000-8000-000000000000"

  # The events of `action` whose target is `target_id`, as the filtered audit log lists them.
  def audit_of(mailroom, action, target_id)
    events = mailroom.audit_log.list(action: action, limit: 100)[:data]
    assert(events.all? { |e| e[:action] == action }, events.inspect)
    events.select { |e| e[:target] && e[:target][:id] == target_id }
  end

  # Revokes an invitation a test may have left pending; gone already once revoked or accepted.
  def revoke_if_pending(mailroom, invitation_id)
    mailroom.members.revoke_invitation(invitation_id) if invitation_id
  rescue Mailroom::NotFoundError
    nil
  end

  # The invited person opens the link and sets a password: the admin UI's call, made here over plain HTTP.
  def accept(url, name, password)
    token = URI(url).fragment
    uri = URI("#{env('MAILROOM_BASE_URL')}/v1/invitations/accept")
    Net::HTTP.post(uri, JSON.generate(token: token, name: name, password: password),
                   "Content-Type" => "application/json")
  end

  def test_the_key_acts_in_one_organisation_its_own
    mailroom = client
    listed = mailroom.organizations.list
    own = mailroom.organization.get
    assert_equal ["list", false, 1], [listed[:object], listed[:has_more], listed[:data].size]
    organization = listed[:data][0]
    assert_equal({ object: "organization", id: own[:id], name: own[:name] }, organization.slice(:object, :id, :name))
    assert_includes Mailroom::Types::Role, organization[:role]
    # The generated shape names every key the server answers, and no other.
    assert_equal Mailroom::Types::OrganizationMembership.keys.sort, organization.keys.sort
  end

  def test_an_invitation_is_made_listed_revoked_and_audited
    mailroom = client
    email = "#{unique('Invitee')}@Example.org"
    invitation_id = nil
    before = mailroom.members.list
    assert_equal ["list", false], [before[:object], before[:has_more]]
    assert_kind_of Array, before[:data]
    assert_kind_of Array, before[:invitations]

    invitation = mailroom.members.invite(email: email, role: "developer")
    invitation_id = invitation[:id]
    assert_equal Mailroom::Types::CreatedInvitation.keys.sort, invitation.keys.sort
    assert_equal({ object: "invitation", email: email.downcase, role: "developer" },
                 invitation.slice(:object, :email, :role))
    # The link: the server's configured address, the invitation screen, the token after #.
    assert invitation[:url].start_with?("#{env('MAILROOM_PUBLIC_URL')}/invite#"), invitation[:url]
    token = URI(invitation[:url]).fragment
    assert_operator token.size, :>, 20
    assert_equal 7 * 86_400, Time.iso8601(invitation[:expires_at]) - Time.iso8601(invitation[:created_at])

    pending = mailroom.members.list[:invitations].select { |i| i[:id] == invitation_id }
    # Listed as made, without what only its creation answers: the link and whether it was mailed.
    assert_equal [invitation.slice(*Mailroom::Types::Invitation.keys)], pending, "listed, without its link"

    revoked = mailroom.members.revoke_invitation(invitation_id)
    assert_equal({ object: "invitation", id: invitation_id, deleted: true }, revoked)
    refute_includes mailroom.members.list[:invitations].map { |i| i[:id] }, invitation_id
    again = assert_raises(Mailroom::NotFoundError) { mailroom.members.revoke_invitation(invitation_id) }
    assert_equal 404, again.status_code

    invited = audit_of(mailroom, "member.invited", invitation_id)
    assert_equal 1, invited.size, invited.inspect
    event = invited[0]
    assert_equal "audit_event", event[:object]
    assert_equal mailroom.organization.get[:id], event[:organization_id]
    assert_equal "api_key", event[:actor][:type]
    assert_equal({ type: "invitation", id: invitation_id, name: email.downcase }, event[:target])
    assert_equal({ role: "developer" }, event[:changes])
    refute_includes JSON.generate(event), token, "the audit log never holds the link's token"
    revoked_events = audit_of(mailroom, "invitation.revoked", invitation_id)
    assert_equal [event[:actor]], revoked_events.map { |e| e[:actor] }
    # Newest first, by time-ordered ids.
    assert_operator revoked_events[0][:id], :>, event[:id]

    # By who acted: this key's events only, ours among them; then the cursors, over events older than ours (which
    # nothing written later can come between).
    key_id = event[:actor][:id]
    by_key = mailroom.audit_log.list(actor_id: key_id, limit: 100)[:data]
    assert_equal [key_id], by_key.map { |e| e[:actor][:id] }.uniq
    assert_includes by_key.map { |e| e[:id] }, event[:id]
    older = mailroom.audit_log.list("actor_id" => key_id, "limit" => 2, "after" => event[:id])[:data]
    assert_equal 2, older.size
    assert(older.all? { |e| e[:id] < event[:id] && e[:actor][:id] == key_id }, older.inspect)
    assert_operator older[0][:id], :>, older[1][:id]
    back = mailroom.audit_log.list(actor_id: key_id, limit: 1, before: older[1][:id])
    assert_equal [[older[0][:id]], true], [back[:data].map { |e| e[:id] }, back[:has_more]]
  ensure
    revoke_if_pending(mailroom, invitation_id)
  end

  def test_a_member_who_joined_changes_role_and_is_removed
    mailroom = client
    email = "#{unique('member')}@example.org"
    invitation_id = nil
    member_id = nil
    invitation = mailroom.members.invite(email: email, role: "developer")
    invitation_id = invitation[:id]
    assert_equal Mailroom::Types::CreatedInvitation.keys.sort, invitation.keys.sort
    joined = accept(invitation[:url], "Ruby Member", unique("a long password"))
    assert_equal "200", joined.code, joined.body

    members = mailroom.members.list
    member = members[:data].find { |m| m[:email] == email }
    refute_nil member, members.inspect
    member_id = member[:id]
    assert_equal({ object: "member", name: "Ruby Member", role: "developer" }, member.slice(:object, :name, :role))
    assert_kind_of Time, Time.iso8601(member[:created_at])
    # Accepted, the invitation is no longer pending, nor revocable; the address cannot be invited again.
    refute_includes members[:invitations].map { |i| i[:id] }, invitation_id
    assert_raises(Mailroom::NotFoundError) { mailroom.members.revoke_invitation(invitation_id) }
    conflict = assert_raises(Mailroom::ConflictError) { mailroom.members.invite(email: email, role: "viewer") }
    assert_equal 409, conflict.status_code

    changed = mailroom.members.update_role(member_id, role: "viewer")
    assert_equal member.merge(role: "viewer"), changed
    # Only owners make owners: a key may not, and the member keeps their role.
    refused = assert_raises(Mailroom::InsufficientScopeError) do
      mailroom.members.update_role(id: member_id, role: "owner")
    end
    assert_equal ["insufficient_scope", 403], [refused.name, refused.status_code]
    assert_raises(Mailroom::ValidationError) { mailroom.members.update_role(member_id, role: "boss") }
    assert_equal ["viewer"], mailroom.members.list[:data].select { |m| m[:id] == member_id }.map { |m| m[:role] }

    removed = mailroom.members.remove(member_id)
    assert_equal({ object: "member", id: member_id, deleted: true }, removed)
    refute_includes mailroom.members.list[:data].map { |m| m[:id] }, member_id
    removed_id = member_id
    member_id = nil
    assert_raises(Mailroom::NotFoundError) { mailroom.members.remove(removed_id) }
    assert_raises(Mailroom::NotFoundError) { mailroom.members.update_role(removed_id, role: "admin") }

    role_changed = audit_of(mailroom, "member.role_changed", removed_id)
    assert_equal 1, role_changed.size, role_changed.inspect
    assert_equal "api_key", role_changed[0][:actor][:type]
    assert_equal({ type: "user", id: removed_id, name: email }, role_changed[0][:target])
    assert_equal({ role: { from: "developer", to: "viewer" } }, role_changed[0][:changes])
    assert_equal 1, audit_of(mailroom, "member.removed", removed_id).size
    assert_equal 1, audit_of(mailroom, "invitation.accepted", removed_id).size
  ensure
    mailroom.members.remove(member_id) if member_id
    revoke_if_pending(mailroom, invitation_id)
  end

  def test_what_a_key_may_not_do
    mailroom = client
    { "owner" => Mailroom::InsufficientScopeError, "boss" => Mailroom::ValidationError }.each do |role, error|
      refused = assert_raises(error, role) do
        made = mailroom.members.invite(email: "#{unique(role)}@example.org", role: role)
        # Had the server taken it, the invitation must not outlive the test.
        revoke_if_pending(mailroom, made[:id])
      end
      assert_equal ["role"], refused.details.map { |d| d[:path] } if role == "boss"
    end
    assert_raises(Mailroom::ValidationError) { mailroom.members.invite(email: "not an address", role: "viewer") }
    assert_raises(Mailroom::NotFoundError) { mailroom.members.remove(NOBODY) }
    assert_raises(Mailroom::NotFoundError) { mailroom.members.update_role(NOBODY, role: "viewer") }
    assert_raises(Mailroom::NotFoundError) { mailroom.members.revoke_invitation(NOBODY) }
  end

  def test_a_sending_key_is_refused
    sending = client(api_key: env("MAILROOM_SENDING_KEY"))
    [-> { sending.organizations.list }, -> { sending.members.list }, -> { sending.audit_log.list }].each do |call|
      error = assert_raises(Mailroom::InsufficientScopeError) { call.call }
      assert_equal 403, error.status_code
    end
    assert_raises(Mailroom::InsufficientScopeError) do
      sending.members.invite(email: "#{unique('nobody')}@example.org", role: "viewer")
    end
  end

  def test_paths_and_bodies
    server = TinyHttpServer.scripted([200, {}, '{"object":"list","has_more":false,"data":[]}'])
    mailroom = Mailroom::Client.new(api_key: "mr_live_local", base_url: server.url)
    mailroom.organizations.list
    mailroom.members.list
    mailroom.members.invite("email" => "dev@example.org", "role" => "developer")
    mailroom.members.revoke_invitation("i/1")
    mailroom.members.update_role("u/1", role: "viewer")
    mailroom.members.update_role(member_id: "u2", role: "admin")
    mailroom.members.remove("u2")
    mailroom.audit_log.list
    mailroom.audit_log.list(action: "member.invited", actor_id: "k1", limit: 5, before: "a0")
    # An empty id would address the collection: refused before any request.
    assert_raises(ArgumentError) { mailroom.members.revoke_invitation("") }
    assert_raises(ArgumentError) { mailroom.members.update_role(nil, role: "admin") }
    assert_raises(ArgumentError) { mailroom.members.remove("") }
    assert_raises(ArgumentError) { mailroom.members.invite(nil) }

    requests = server.requests
    assert_equal [
      %w[GET /v1/organizations],
      %w[GET /v1/members],
      %w[POST /v1/members/invitations],
      %w[DELETE /v1/members/invitations/i%2F1],
      %w[PATCH /v1/members/u%2F1],
      %w[PATCH /v1/members/u2],
      %w[DELETE /v1/members/u2],
      %w[GET /v1/audit-log],
      %w[GET /v1/audit-log?action=member.invited&actor_id=k1&limit=5&before=a0]
    ], requests.map { |r| [r.method, r.path] }
    assert_equal ['{"email":"dev@example.org","role":"developer"}', '{"role":"viewer"}', '{"role":"admin"}'],
                 requests.map(&:body).reject { |body| body.nil? || body.empty? }
  ensure
    server&.close
  end
end
