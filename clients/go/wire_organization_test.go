// The organisation and its teams on the wire, against a local HTTP server (no Mailroom needed): the organisation's
// settings (nulls sent and decoded), the organisations a key lists, members and invitations (ids escaped, an empty id
// refused before any request), and the audit log with its filters and null fields.
package mailroom

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestOrganizationPathsBodiesAndNulls(t *testing.T) {
	var recorder requestRecorder
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		quota := `null`
		if recorder.record(r) > 1 {
			quota = `500`
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"object":"organization","id":"o-1","name":"Acme","rate_limit":600,"daily_quota":` + quota + `,` +
			`"usage_today":12,"retention":{"content_days":30,"metadata_days":400},"paused":false,"storage":null,` +
			`"created_at":"2026-01-01T00:00:00.000Z"}`))
	}))
	defer server.Close()
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	ctx := context.Background()

	org, err := client.Organization.Get()
	if err != nil || org.Object != "organization" || org.Name != "Acme" || org.RateLimit != 600 || org.UsageToday != 12 {
		t.Fatalf("get: %+v (%v)", org, err)
	}
	if org.DailyQuota != nil || org.Storage != nil || org.Retention != (OrganizationRetention{ContentDays: 30, MetadataDays: 400}) {
		t.Fatalf("nulls and retention: %+v", org)
	}
	updated, err := client.Organization.Update(&UpdateOrganizationRequest{
		DailyQuota: Value(500),
		Retention:  &UpdateRetentionRequest{ContentDays: Null[int](), MetadataDays: Value(90)},
	})
	if err != nil || updated.DailyQuota == nil || *updated.DailyQuota != 500 {
		t.Fatalf("update: %+v (%v)", updated, err)
	}
	if _, err := client.Organization.UpdateWithContext(ctx, &UpdateOrganizationRequest{Name: "Acme Mail", RateLimit: Null[int](), DailyQuota: Null[int]()}); err != nil {
		t.Fatalf("update with a context: %v", err)
	}
	if _, err := client.Organization.GetWithContext(ctx); err != nil {
		t.Fatalf("get with a context: %v", err)
	}
	if _, err := client.Organization.Update(nil); err != nil {
		t.Fatalf("update nil: %v", err)
	}

	want := []recordedRequest{
		{"GET", "/v1/organization", ""},
		{"PATCH", "/v1/organization", `{"daily_quota":500,"retention":{"content_days":null,"metadata_days":90}}`},
		{"PATCH", "/v1/organization", `{"name":"Acme Mail","rate_limit":null,"daily_quota":null}`},
		{"GET", "/v1/organization", ""},
		{"PATCH", "/v1/organization", `{}`},
	}
	recorder.expect(t, want)
}

func TestTeamsPathsBodiesAndNulls(t *testing.T) {
	var recorder requestRecorder
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		recorder.record(r)
		w.Header().Set("Content-Type", "application/json")
		invitation := `{"object":"invitation","id":"i-1","email":"dev@example.org","role":"developer","created_at":"2026-01-01T00:00:00.000Z","expires_at":"2026-01-08T00:00:00.000Z"`
		member := `{"object":"member","id":"u-1","email":"ada@example.org","name":"Ada","role":"viewer","created_at":"2026-01-01T00:00:00.000Z"}`
		switch {
		case r.URL.Path == "/v1/organizations":
			_, _ = w.Write([]byte(`{"object":"list","has_more":false,"data":[{"object":"organization","id":"o-1","name":"Acme","role":"owner"}]}`))
		case r.URL.Path == "/v1/members":
			_, _ = w.Write([]byte(`{"object":"list","has_more":false,"data":[` + member + `],"invitations":[` + invitation + `}]}`))
		case r.URL.Path == "/v1/members/invitations":
			_, _ = w.Write([]byte(invitation + `,"url":"http://127.0.0.1/invite#token"}`))
		case r.Method == http.MethodPatch:
			_, _ = w.Write([]byte(member))
		case r.Method == http.MethodDelete:
			_, _ = w.Write([]byte(`{"object":"member","id":"u-1","deleted":true}`))
		default:
			_, _ = w.Write([]byte(`{"object":"list","has_more":true,"data":[{"object":"audit_event","id":"a-1","created_at":"2026-01-01T00:00:00.000Z",` +
				`"organization_id":"o-1","actor":{"type":"cli","id":null,"name":"operator"},"action":"organization.created","target":null,` +
				`"ip":null,"user_agent":null,"changes":null},{"object":"audit_event","id":"a-0","created_at":"2026-01-01T00:00:00.000Z",` +
				`"organization_id":"o-1","actor":{"type":"api_key","id":"k-1","name":"deploy"},"action":"member.role_changed",` +
				`"target":{"type":"user","id":"u-1","name":"ada@example.org"},"ip":"127.0.0.1","user_agent":"curl","changes":{"role":{"from":"developer","to":"viewer"}}}]}`))
		}
	}))
	defer server.Close()
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	ctx := context.Background()

	organizations, err := client.Organizations.List()
	if err != nil || len(organizations.Data) != 1 || organizations.Data[0] != (OrganizationMembership{Object: "organization", Id: "o-1", Name: "Acme", Role: RoleOwner}) {
		t.Fatalf("organizations: %+v (%v)", organizations, err)
	}
	members, err := client.Members.List()
	if err != nil || members.Object != "list" || members.HasMore || len(members.Data) != 1 || members.Data[0].Name != "Ada" ||
		len(members.Invitations) != 1 || members.Invitations[0].ExpiresAt != "2026-01-08T00:00:00.000Z" {
		t.Fatalf("members: %+v (%v)", members, err)
	}
	invited, err := client.Members.Invite(&InviteMemberRequest{Email: "dev@example.org", Role: RoleDeveloper})
	if err != nil || invited.Id != "i-1" || invited.Role != RoleDeveloper || invited.Url != "http://127.0.0.1/invite#token" {
		t.Fatalf("invite: %+v (%v)", invited, err)
	}
	if revoked, err := client.Members.RevokeInvitation("i/1"); err != nil || !revoked.Deleted {
		t.Fatalf("revoke: %+v (%v)", revoked, err)
	}
	if member, err := client.Members.UpdateRole("u/1", &UpdateMemberRoleRequest{Role: RoleViewer}); err != nil || member.Role != RoleViewer {
		t.Fatalf("update role: %+v (%v)", member, err)
	}
	if _, err := client.Members.UpdateRoleWithContext(ctx, "u-2", nil); err != nil {
		t.Fatalf("update role nil: %v", err)
	}
	if _, err := client.Members.InviteWithContext(ctx, nil); err != nil {
		t.Fatalf("invite nil: %v", err)
	}
	if removed, err := client.Members.RemoveWithContext(ctx, "u-2"); err != nil || removed.Object != "member" || !removed.Deleted {
		t.Fatalf("remove: %+v (%v)", removed, err)
	}
	log, err := client.AuditLog.List(nil)
	if err != nil || !log.HasMore || len(log.Data) != 2 {
		t.Fatalf("audit log: %+v (%v)", log, err)
	}
	if e := log.Data[0]; e.Target != nil || e.Changes != nil || e.Actor != (AuditActor{Type: "cli", Name: "operator"}) || e.Ip != "" || e.OrganizationId != "o-1" {
		t.Fatalf("an event with null fields: %+v", e)
	}
	if e := log.Data[1]; e.Target == nil || *e.Target != (AuditTarget{Type: "user", Id: "u-1", Name: "ada@example.org"}) ||
		e.Changes["role"].(map[string]interface{})["to"] != "viewer" || e.Actor.Id != "k-1" || e.UserAgent != "curl" {
		t.Fatalf("an event with a target and changes: %+v", e)
	}
	if _, err := client.AuditLog.ListWithContext(ctx, &ListAuditLogOptions{Action: "member.invited", ActorId: "k-1", Limit: 5, Before: "a0"}); err != nil {
		t.Fatalf("audit log filtered: %v", err)
	}
	if _, err := client.Organizations.ListWithContext(ctx); err != nil {
		t.Fatalf("organizations with a context: %v", err)
	}
	// An empty id would address the collection: refused before any request.
	if _, err := client.Members.RevokeInvitation(""); err == nil {
		t.Fatal("an empty invitation id is an error")
	}
	if _, err := client.Members.UpdateRole("", &UpdateMemberRoleRequest{Role: RoleAdmin}); err == nil {
		t.Fatal("an empty member id is an error")
	}
	if _, err := client.Members.Remove(""); err == nil {
		t.Fatal("an empty member id is an error")
	}

	want := []recordedRequest{
		{"GET", "/v1/organizations", ""},
		{"GET", "/v1/members", ""},
		{"POST", "/v1/members/invitations", `{"email":"dev@example.org","role":"developer"}`},
		{"DELETE", "/v1/members/invitations/i%2F1", ""},
		{"PATCH", "/v1/members/u%2F1", `{"role":"viewer"}`},
		{"PATCH", "/v1/members/u-2", `{}`},
		{"POST", "/v1/members/invitations", `{}`},
		{"DELETE", "/v1/members/u-2", ""},
		{"GET", "/v1/audit-log", ""},
		{"GET", "/v1/audit-log?action=member.invited&actor_id=k-1&before=a0&limit=5", ""},
		{"GET", "/v1/organizations", ""},
	}
	recorder.expect(t, want)
}
