// Live tests of the organisation: its settings and daily quota (a message past the quota refused, the quota lifted,
// retention changed and returned, bad values named, a sending key refused), run alone since every test sends; and the
// organisations a key lists (its own).
package mailroom

import (
	"strings"
	"testing"
	"time"
)

// The organisation's daily quota refuses every live message past it, whoever sends it: this test runs alone, and
// every language's suite changes the same organisation, so each change is undone whatever happens.
func TestLiveOrganizationSettingsAndDailyQuota(t *testing.T) {
	env := liveAlone(t)
	client := env.client()
	org, err := client.Organization.Get()
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if org.Object != "organization" || org.Id == "" || org.Name == "" || org.RateLimit < 1 || org.CreatedAt == "" ||
		org.UsageToday < 0 || org.Retention.ContentDays < 1 || org.Retention.MetadataDays < 1 {
		t.Fatalf("the organisation's settings in force: %+v", org)
	}
	if org.DailyQuota != nil && *org.DailyQuota < 1 {
		t.Fatalf("a daily quota is at least 1: %d", *org.DailyQuota)
	}
	if org.Storage != nil && org.Storage.MeasuredAt == "" {
		t.Fatalf("storage, once counted, says when: %+v", org.Storage)
	}

	defer func() {
		if _, err := client.Organization.Update(&UpdateOrganizationRequest{DailyQuota: Null[int]()}); err != nil {
			t.Errorf("lifting the daily quota: %v", err)
		}
	}()
	// The server reserves a second's expected sends ahead and gives back what it did not use when the second ends:
	// past that, usage_today is exact.
	time.Sleep(1100 * time.Millisecond)
	if org, err = client.Organization.Get(); err != nil {
		t.Fatalf("get the organisation: %v", err)
	}
	limited, err := client.Organization.Update(&UpdateOrganizationRequest{DailyQuota: Value(org.UsageToday + 1)})
	if err != nil || limited.Object != "organization" || limited.DailyQuota == nil || *limited.DailyQuota != org.UsageToday+1 {
		t.Fatalf("set the quota to %d: %+v (%v)", org.UsageToday+1, limited, err)
	}
	send := func() error {
		_, err := client.Emails.Send(&SendEmailRequest{From: env.from, To: []string{recipient()}, Subject: unique("Quota"), Html: "<p>Quota</p>"})
		return err
	}
	if err := send(); err != nil {
		t.Fatalf("the last message the quota allows: %v", err)
	}
	err = send()
	quotaErr := apiError(t, err, NameDailyQuotaExceeded, 429)
	// Retry-After runs to 00:00 UTC, when the count starts again.
	if quotaErr.RetryAfter <= 0 || quotaErr.RetryAfter > 24*time.Hour || !IsDailyQuotaExceeded(err) {
		t.Fatalf("a used-up quota says when it starts again: %+v", quotaErr)
	}
	if after, err := client.Organization.Get(); err != nil || after.UsageToday != org.UsageToday+1 {
		t.Fatalf("the refused message is not counted: %+v (%v)", after, err)
	}
	lifted, err := client.Organization.Update(&UpdateOrganizationRequest{DailyQuota: Null[int]()})
	if err != nil || lifted.DailyQuota != nil {
		t.Fatalf("null lifts the quota: %+v (%v)", lifted, err)
	}
	if err := send(); err != nil {
		t.Fatalf("a message once the quota is lifted: %v", err)
	}

	defer func() {
		if _, err := client.Organization.Update(&UpdateOrganizationRequest{Retention: &UpdateRetentionRequest{ContentDays: Null[int]()}}); err != nil {
			t.Errorf("returning retention to its default: %v", err)
		}
	}()
	changed, err := client.Organization.Update(&UpdateOrganizationRequest{Retention: &UpdateRetentionRequest{ContentDays: Value(90)}})
	if err != nil || changed.Retention != (OrganizationRetention{ContentDays: 90, MetadataDays: org.Retention.MetadataDays}) {
		t.Fatalf("content retention of 90 days: %+v (%v)", changed, err)
	}
	restored, err := client.Organization.Update(&UpdateOrganizationRequest{Retention: &UpdateRetentionRequest{ContentDays: Null[int]()}})
	if err != nil || restored.Retention != org.Retention {
		t.Fatalf("null returns retention to %+v: %+v (%v)", org.Retention, restored, err)
	}

	for path, params := range map[string]*UpdateOrganizationRequest{
		"daily_quota":            {DailyQuota: Value(0)},
		"rate_limit":             {RateLimit: Value(-5)},
		"retention.content_days": {Retention: &UpdateRetentionRequest{ContentDays: Value(36501)}},
	} {
		_, err := client.Organization.Update(params)
		refused := apiError(t, err, NameValidationError, 400)
		if !strings.Contains(refused.Message, path) && !hasDetail(refused.Details, path) {
			t.Fatalf("a bad %s is named: %+v", path, refused)
		}
	}

	sending := NewClient(env.sendingKey, WithBaseURL(env.baseURL))
	_, err = sending.Organization.Get()
	apiError(t, err, NameInsufficientScope, 403)
	_, err = sending.Organization.Update(&UpdateOrganizationRequest{DailyQuota: Value(1)})
	apiError(t, err, NameInsufficientScope, 403)
}

func TestLiveOrganizationsListsTheKeysOwn(t *testing.T) {
	env := live(t)
	client := env.client()
	listed, err := client.Organizations.List()
	if err != nil || listed.Object != "list" || listed.HasMore || len(listed.Data) != 1 {
		t.Fatalf("one organisation: %+v (%v)", listed, err)
	}
	own, err := client.Organization.Get()
	if err != nil {
		t.Fatalf("the organisation: %v", err)
	}
	organization := listed.Data[0]
	if organization.Object != "organization" || organization.Id != own.Id || organization.Name != own.Name {
		t.Fatalf("the key's own organisation %s (%s): %+v", own.Id, own.Name, organization)
	}
	switch organization.Role {
	case RoleOwner, RoleAdmin, RoleDeveloper, RoleViewer:
	default:
		t.Fatalf("a role: %q", organization.Role)
	}
}
