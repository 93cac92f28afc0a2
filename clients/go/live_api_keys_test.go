// Live tests of API keys and of what a key is refused: keys made, listed, renamed and revoked (the token then
// unauthorized), a key's own daily quota; an unknown key (401), a sending key reading domains (403), a send without a
// recipient (400 naming it), an unknown id (404), and a key limited to 2 requests a minute (429 with Retry-After).
package mailroom

import (
	"strings"
	"testing"
)

func TestLiveApiKeysRoundTrip(t *testing.T) {
	env := live(t)
	client := env.client()
	name := unique("go-key")
	created, err := client.ApiKeys.Create(&CreateApiKeyRequest{Name: name, Permission: PermissionSendingAccess})
	if err != nil || created.Id == "" || !strings.HasPrefix(created.Token, "mr_") {
		t.Fatalf("create: %+v (%v)", created, err)
	}
	listed, err := client.ApiKeys.List(&ListApiKeysOptions{Limit: 100})
	if err != nil || !containsKey(listed.Data, created.Id) {
		t.Fatalf("list: %+v (%v)", listed, err)
	}
	if _, err := client.ApiKeys.Update(created.Id, &UpdateApiKeyRequest{Name: name + "-renamed"}); err != nil {
		t.Fatalf("rename: %v", err)
	}

	// The new token is a working sending key: known to the server, without the scope to read domains.
	_, err = NewClient(created.Token, WithBaseURL(env.baseURL)).Domains.List(nil)
	apiError(t, err, NameInsufficientScope, 403)

	removed, err := client.ApiKeys.Remove(created.Id)
	if err != nil || !removed.Deleted || removed.Id != created.Id {
		t.Fatalf("remove: %+v (%v)", removed, err)
	}
	_, err = NewClient(created.Token, WithBaseURL(env.baseURL)).Domains.List(nil)
	apiError(t, err, NameUnauthorized, 401)
}

func TestLiveApiKeyDailyQuota(t *testing.T) {
	env := live(t)
	client := env.client()
	created, err := client.ApiKeys.Create(&CreateApiKeyRequest{Name: unique("go-quota"), Permission: PermissionSendingAccess, DailyQuota: 1})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	defer func() { _, _ = client.ApiKeys.Remove(created.Id) }()
	if created.DailyQuota == nil || *created.DailyQuota != 1 {
		t.Fatalf("the key shows its quota: %+v", created)
	}
	limited := NewClient(created.Token, WithBaseURL(env.baseURL))
	send := func() error {
		_, err := limited.Emails.Send(&SendEmailRequest{From: env.from, To: []string{recipient()}, Subject: unique("Quota"), Html: "<p>Quota</p>"})
		return err
	}
	if err := send(); err != nil {
		t.Fatalf("the first message of the day: %v", err)
	}
	if quotaErr := apiError(t, send(), NameDailyQuotaExceeded, 429); quotaErr.RetryAfter <= 0 {
		t.Fatalf("a used-up quota carries Retry-After: %+v", quotaErr)
	}

	_, err = client.ApiKeys.Create(&CreateApiKeyRequest{Name: unique("go-quota"), DailyQuota: -1})
	apiError(t, err, NameValidationError, 400)

	plain, err := client.ApiKeys.Create(&CreateApiKeyRequest{Name: unique("go-key"), Permission: PermissionSendingAccess})
	if err != nil {
		t.Fatalf("create without a quota: %v", err)
	}
	defer func() { _, _ = client.ApiKeys.Remove(plain.Id) }()
	if plain.DailyQuota != nil {
		t.Fatalf("a key created without a quota has none: %d", *plain.DailyQuota)
	}
}

func containsKey(keys []ApiKey, id string) bool {
	for _, key := range keys {
		if key.Id == id {
			return true
		}
	}
	return false
}

func TestLiveErrors(t *testing.T) {
	env := live(t)

	_, err := NewClient("mr_live_not_a_real_key", WithBaseURL(env.baseURL)).Domains.List(nil)
	apiError(t, err, NameUnauthorized, 401)

	_, err = NewClient(env.sendingKey, WithBaseURL(env.baseURL)).Domains.List(nil)
	apiError(t, err, NameInsufficientScope, 403)

	_, err = env.client().Emails.Send(&SendEmailRequest{From: env.from, Subject: "No recipient", Html: "<p>Missing to.</p>"})
	invalid := apiError(t, err, NameValidationError, 400)
	found := false
	for _, detail := range invalid.Details {
		found = found || detail.Path == "to"
	}
	if !found || !IsValidationError(err) {
		t.Fatalf("a send without to names it in details: %+v", invalid.Details)
	}

	_, err = env.client().Emails.Get("00000000-0000-4000-8000-000000000000")
	apiError(t, err, NameNotFound, 404)
	if !IsNotFound(err) {
		t.Fatal("IsNotFound")
	}
}

func TestLiveRateLimit(t *testing.T) {
	env := live(t)
	if env.limitedKey == "" {
		t.Skip("MAILROOM_LIMITED_KEY is not set")
	}
	limited := NewClient(env.limitedKey, WithBaseURL(env.baseURL))
	var err error
	for i := 0; i < 3 && err == nil; i++ {
		_, err = limited.Domains.List(nil)
		if err != nil && i < 2 {
			t.Fatalf("request %d of a key allowed 2 a minute: %v", i+1, err)
		}
	}
	limitErr := apiError(t, err, NameRateLimitExceeded, 429)
	if limitErr.RetryAfter <= 0 || !IsRateLimited(err) {
		t.Fatalf("a 429 carries Retry-After: %+v", limitErr)
	}
}
