// Live tests of teams: an invitation made (its one-time link), listed, revoked, in the audit log (read by action and
// by who acted, page by page); a member who joined by an invitation, their role changed, removed; and the refusals
// (an owner made by a key, an unknown role or address, unknown ids, a sending key).
package mailroom

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// auditOf answers the events of action whose target is targetId, as the filtered audit log lists them.
func auditOf(t *testing.T, client *Client, action, targetId string) []AuditEvent {
	t.Helper()
	log, err := client.AuditLog.List(&ListAuditLogOptions{Action: action, Limit: 100})
	if err != nil {
		t.Fatalf("the audit log of %s: %v", action, err)
	}
	var found []AuditEvent
	for _, event := range log.Data {
		if event.Action != action {
			t.Fatalf("filtered by %s, the log lists %+v", action, event)
		}
		if event.Target != nil && event.Target.Id == targetId {
			found = append(found, event)
		}
	}
	return found
}

// revokeIfPending revokes an invitation a test may have left pending; it is gone already once revoked or accepted.
func revokeIfPending(t *testing.T, client *Client, invitationId string) {
	t.Helper()
	if invitationId == "" {
		return
	}
	if _, err := client.Members.RevokeInvitation(invitationId); err != nil && !IsNotFound(err) {
		t.Errorf("revoking invitation %s: %v", invitationId, err)
	}
}

// acceptInvitation plays the invited person, who opens the link and sets a password: the admin UI's call, made here
// over plain HTTP.
func acceptInvitation(t *testing.T, env liveEnv, link, name string) {
	t.Helper()
	parsed, err := url.Parse(link)
	if err != nil {
		t.Fatalf("the invitation's link %q: %v", link, err)
	}
	body, _ := json.Marshal(map[string]string{"token": parsed.Fragment, "name": name, "password": unique("a long password")})
	response, err := http.Post(env.baseURL+"/v1/invitations/accept", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("accepting the invitation: %v", err)
	}
	defer response.Body.Close()
	if response.StatusCode != http.StatusOK {
		answer, _ := io.ReadAll(response.Body)
		t.Fatalf("accepting the invitation: %d %s", response.StatusCode, answer)
	}
}

// An invitation made (its one-time link), listed without the link, revoked, and both in the audit log, which is also
// read by who acted, page by page.
func TestLiveInvitationRoundTripAndAuditLog(t *testing.T) {
	env := live(t)
	client := env.client()
	email := unique("Invitee") + "@Example.org"
	before, err := client.Members.List()
	if err != nil || before.Object != "list" || before.HasMore || before.Data == nil || before.Invitations == nil {
		t.Fatalf("members: %+v (%v)", before, err)
	}

	invitation, err := client.Members.Invite(&InviteMemberRequest{Email: email, Role: RoleDeveloper})
	if err != nil {
		t.Fatalf("invite: %v", err)
	}
	defer revokeIfPending(t, client, invitation.Id)
	if invitation.Object != "invitation" || invitation.Email != strings.ToLower(email) || invitation.Role != RoleDeveloper {
		t.Fatalf("the invitation: %+v", invitation)
	}
	// The link: the server's configured address, the invitation screen, the token after #.
	link, err := url.Parse(invitation.Url)
	if err != nil || !strings.HasPrefix(invitation.Url, env.publicURL+"/invite#") || len(link.Fragment) < 20 {
		t.Fatalf("the one-time link: %q", invitation.Url)
	}
	created, _ := time.Parse(time.RFC3339, invitation.CreatedAt)
	expires, _ := time.Parse(time.RFC3339, invitation.ExpiresAt)
	if expires.Sub(created) != 7*24*time.Hour {
		t.Fatalf("valid 7 days: %s to %s", invitation.CreatedAt, invitation.ExpiresAt)
	}
	listed, err := client.Members.List()
	if err != nil {
		t.Fatalf("members: %v", err)
	}
	found := 0
	for _, pending := range listed.Invitations {
		if pending.Id == invitation.Id {
			found++
			if pending != invitation.Invitation {
				t.Fatalf("listed as made, without its link: %+v, want %+v", pending, invitation.Invitation)
			}
		}
	}
	if found != 1 {
		t.Fatalf("the invitation is listed once: %+v", listed.Invitations)
	}

	revoked, err := client.Members.RevokeInvitation(invitation.Id)
	if err != nil || *revoked != (DeletedObject{Object: "invitation", Id: invitation.Id, Deleted: true}) {
		t.Fatalf("revoke: %+v (%v)", revoked, err)
	}
	if after, err := client.Members.List(); err != nil {
		t.Fatalf("members: %v", err)
	} else {
		for _, pending := range after.Invitations {
			if pending.Id == invitation.Id {
				t.Fatalf("a revoked invitation is not listed: %+v", pending)
			}
		}
	}
	_, err = client.Members.RevokeInvitation(invitation.Id)
	apiError(t, err, NameNotFound, 404)

	invited := auditOf(t, client, "member.invited", invitation.Id)
	if len(invited) != 1 {
		t.Fatalf("one member.invited event: %+v", invited)
	}
	event := invited[0]
	own, _ := client.Organization.Get()
	if event.Object != "audit_event" || own == nil || event.OrganizationId != own.Id || event.Actor.Type != "api_key" || event.Actor.Id == "" ||
		*event.Target != (AuditTarget{Type: "invitation", Id: invitation.Id, Name: strings.ToLower(email)}) || event.Changes["role"] != RoleDeveloper {
		t.Fatalf("the invitation's event: %+v (target %+v)", event, event.Target)
	}
	if encoded, _ := json.Marshal(event); strings.Contains(string(encoded), link.Fragment) {
		t.Fatalf("the audit log never holds the link's token: %s", encoded)
	}
	revokedEvents := auditOf(t, client, "invitation.revoked", invitation.Id)
	if len(revokedEvents) != 1 || revokedEvents[0].Actor != event.Actor || revokedEvents[0].Id <= event.Id {
		t.Fatalf("one invitation.revoked event, by the same key, newer: %+v", revokedEvents)
	}

	// By who acted: this key's events only, ours among them; then the cursors, over events older than ours (which
	// nothing written later, by the tests running beside this one, can come between).
	byKey, err := client.AuditLog.List(&ListAuditLogOptions{ActorId: event.Actor.Id, Limit: 100})
	if err != nil {
		t.Fatalf("the key's events: %v", err)
	}
	ours := false
	for _, e := range byKey.Data {
		if e.Actor.Id != event.Actor.Id {
			t.Fatalf("filtered by actor %s, the log lists %+v", event.Actor.Id, e)
		}
		ours = ours || e.Id == event.Id
	}
	if !ours {
		t.Fatalf("the key's events include %s", event.Id)
	}
	older, err := client.AuditLog.List(&ListAuditLogOptions{ActorId: event.Actor.Id, Limit: 2, After: event.Id})
	if err != nil || len(older.Data) != 2 || older.Data[0].Id >= event.Id || older.Data[1].Id >= older.Data[0].Id {
		t.Fatalf("two older events, newest first: %+v (%v)", older, err)
	}
	back, err := client.AuditLog.ListWithContext(context.Background(), &ListAuditLogOptions{ActorId: event.Actor.Id, Limit: 1, Before: older.Data[1].Id})
	if err != nil || len(back.Data) != 1 || back.Data[0].Id != older.Data[0].Id || !back.HasMore {
		t.Fatalf("one back from %s: %+v (%v)", older.Data[1].Id, back, err)
	}
}

// A member who joined by an invitation: their role changed, a change to owner refused, removed; each change in the
// audit log.
func TestLiveMemberJoinsChangesRoleAndIsRemoved(t *testing.T) {
	env := live(t)
	client := env.client()
	email := unique("member") + "@example.org"
	invitation, err := client.Members.Invite(&InviteMemberRequest{Email: email, Role: RoleDeveloper})
	if err != nil {
		t.Fatalf("invite: %v", err)
	}
	defer revokeIfPending(t, client, invitation.Id)
	acceptInvitation(t, env, invitation.Url, "Go Member")

	members, err := client.Members.List()
	if err != nil {
		t.Fatalf("members: %v", err)
	}
	var member *Member
	for i := range members.Data {
		if members.Data[i].Email == email {
			member = &members.Data[i]
		}
	}
	if member == nil || member.Object != "member" || member.Name != "Go Member" || member.Role != RoleDeveloper || member.CreatedAt == "" {
		t.Fatalf("the member who joined: %+v in %+v", member, members.Data)
	}
	removed := false
	defer func() {
		if !removed {
			if _, err := client.Members.Remove(member.Id); err != nil {
				t.Errorf("removing %s: %v", member.Id, err)
			}
		}
	}()
	for _, pending := range members.Invitations {
		if pending.Id == invitation.Id {
			t.Fatalf("an accepted invitation is no longer pending: %+v", pending)
		}
	}
	_, err = client.Members.RevokeInvitation(invitation.Id)
	apiError(t, err, NameNotFound, 404)
	// A member's address cannot be invited again.
	again, err := client.Members.Invite(&InviteMemberRequest{Email: email, Role: RoleViewer})
	if again != nil {
		revokeIfPending(t, client, again.Id)
	}
	apiError(t, err, NameConflict, 409)

	changed, err := client.Members.UpdateRole(member.Id, &UpdateMemberRoleRequest{Role: RoleViewer})
	want := *member
	want.Role = RoleViewer
	if err != nil || *changed != want {
		t.Fatalf("update role: %+v (%v), want %+v", changed, err, want)
	}
	// Only owners make owners: a key may not, and the member keeps their role.
	_, err = client.Members.UpdateRoleWithContext(context.Background(), member.Id, &UpdateMemberRoleRequest{Role: RoleOwner})
	apiError(t, err, NameInsufficientScope, 403)
	_, err = client.Members.UpdateRole(member.Id, &UpdateMemberRoleRequest{Role: "boss"})
	apiError(t, err, NameValidationError, 400)
	if after, err := client.Members.List(); err != nil {
		t.Fatalf("members: %v", err)
	} else {
		for _, m := range after.Data {
			if m.Id == member.Id && m.Role != RoleViewer {
				t.Fatalf("the member keeps the viewer role: %+v", m)
			}
		}
	}

	gone, err := client.Members.Remove(member.Id)
	if err != nil || *gone != (DeletedObject{Object: "member", Id: member.Id, Deleted: true}) {
		t.Fatalf("remove: %+v (%v)", gone, err)
	}
	removed = true
	if after, err := client.Members.List(); err != nil {
		t.Fatalf("members: %v", err)
	} else {
		for _, m := range after.Data {
			if m.Id == member.Id {
				t.Fatalf("a removed member is not listed: %+v", m)
			}
		}
	}
	_, err = client.Members.Remove(member.Id)
	apiError(t, err, NameNotFound, 404)
	_, err = client.Members.UpdateRole(member.Id, &UpdateMemberRoleRequest{Role: RoleAdmin})
	apiError(t, err, NameNotFound, 404)

	roleChanged := auditOf(t, client, "member.role_changed", member.Id)
	if len(roleChanged) != 1 || roleChanged[0].Actor.Type != "api_key" ||
		*roleChanged[0].Target != (AuditTarget{Type: "user", Id: member.Id, Name: email}) {
		t.Fatalf("one member.role_changed event: %+v", roleChanged)
	}
	if role, _ := roleChanged[0].Changes["role"].(map[string]interface{}); role["from"] != RoleDeveloper || role["to"] != RoleViewer {
		t.Fatalf("the change from developer to viewer: %+v", roleChanged[0].Changes)
	}
	for _, action := range []string{"member.removed", "invitation.accepted"} {
		if events := auditOf(t, client, action, member.Id); len(events) != 1 {
			t.Fatalf("one %s event: %+v", action, events)
		}
	}
}

func TestLiveTeamsRefusals(t *testing.T) {
	env := live(t)
	client := env.client()
	for role, name := range map[string]string{RoleOwner: NameInsufficientScope, "boss": NameValidationError} {
		made, err := client.Members.Invite(&InviteMemberRequest{Email: unique(role) + "@example.org", Role: role})
		if made != nil {
			// Had the server taken it, the invitation must not outlive the test.
			revokeIfPending(t, client, made.Id)
		}
		refused := apiError(t, err, name, map[string]int{NameInsufficientScope: 403, NameValidationError: 400}[name])
		if role == "boss" && !hasDetail(refused.Details, "role") {
			t.Fatalf("an unknown role is named: %+v", refused)
		}
	}
	_, err := client.Members.Invite(&InviteMemberRequest{Email: "not an address", Role: RoleViewer})
	apiError(t, err, NameValidationError, 400)
	const nobody = "00000000-0000-4000-8000-000000000000"
	_, err = client.Members.Remove(nobody)
	apiError(t, err, NameNotFound, 404)
	_, err = client.Members.UpdateRole(nobody, &UpdateMemberRoleRequest{Role: RoleViewer})
	apiError(t, err, NameNotFound, 404)
	_, err = client.Members.RevokeInvitation(nobody)
	apiError(t, err, NameNotFound, 404)

	sending := NewClient(env.sendingKey, WithBaseURL(env.baseURL))
	_, err = sending.Organizations.List()
	apiError(t, err, NameInsufficientScope, 403)
	_, err = sending.Members.List()
	apiError(t, err, NameInsufficientScope, 403)
	_, err = sending.AuditLog.List(nil)
	apiError(t, err, NameInsufficientScope, 403)
	_, err = sending.Members.Invite(&InviteMemberRequest{Email: unique("nobody") + "@example.org", Role: RoleViewer})
	apiError(t, err, NameInsufficientScope, 403)
}
