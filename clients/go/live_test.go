// Tests against a real Mailroom server (no mocks), configured by the repository's harness test/clients.test.ts
// through MAILROOM_BASE_URL, MAILROOM_API_KEY, MAILROOM_SENDING_KEY, MAILROOM_LIMITED_KEY, MAILROOM_FROM and
// MAILROOM_INBOUND_SUBJECT. Without MAILROOM_BASE_URL they skip, so `go test` passes offline. Each test creates
// what it needs under unique names, so they run in parallel; a test that changes the organisation's settings runs
// alone, before them (liveAlone).
package mailroom

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/mail"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

type liveEnv struct {
	baseURL        string
	apiKey         string
	sendingKey     string
	limitedKey     string
	from           string
	inboundSubject string
	// publicURL is the server's configured address, which the links it hands out start with.
	publicURL string
}

// live answers the server's settings, or skips the test when no server is configured, and runs the test in
// parallel with the others.
func live(t *testing.T) liveEnv {
	t.Helper()
	env := liveAlone(t)
	t.Parallel()
	return env
}

// liveAlone is live for a test that changes what every other test relies on, such as the organisation's daily
// quota: it does not call t.Parallel, so it runs before the parallel tests start, none of them beside it.
func liveAlone(t *testing.T) liveEnv {
	t.Helper()
	env := liveEnv{
		baseURL:        os.Getenv("MAILROOM_BASE_URL"),
		apiKey:         os.Getenv("MAILROOM_API_KEY"),
		sendingKey:     os.Getenv("MAILROOM_SENDING_KEY"),
		limitedKey:     os.Getenv("MAILROOM_LIMITED_KEY"),
		from:           os.Getenv("MAILROOM_FROM"),
		inboundSubject: os.Getenv("MAILROOM_INBOUND_SUBJECT"),
		publicURL:      os.Getenv("MAILROOM_PUBLIC_URL"),
	}
	if env.baseURL == "" {
		t.Skip("MAILROOM_BASE_URL is not set: no Mailroom server to test against")
	}
	if env.from == "" {
		env.from = "Acme <hello@example.com>"
	}
	return env
}

func (e liveEnv) client(options ...Option) *Client {
	return NewClient(e.apiKey, append([]Option{WithBaseURL(e.baseURL)}, options...)...)
}

// unique is a name no other test or run uses.
func unique(prefix string) string {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return prefix + "-" + hex.EncodeToString(b)
}

func recipient() string {
	return unique("go") + "@example.org"
}

// eventually retries check every 200 ms until it succeeds or timeout passes.
func eventually(t *testing.T, timeout time.Duration, what string, check func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		done, err := check()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s (last error: %v)", what, timeout, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func apiError(t *testing.T, err error, name string, status int) *Error {
	t.Helper()
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("want a *mailroom.Error %s, got %v", name, err)
	}
	if apiErr.Name != name || apiErr.StatusCode != status {
		t.Fatalf("want %s (%d), got %s (%d): %s", name, status, apiErr.Name, apiErr.StatusCode, apiErr.Message)
	}
	return apiErr
}

// hookRequest is one POST a test's endpoint received.
type hookRequest struct {
	header http.Header
	body   []byte
}

// hookServer is an HTTP endpoint on 127.0.0.1:0 that records the webhooks Mailroom posts to it.
type hookServer struct {
	url      string
	mu       sync.Mutex
	received []hookRequest
}

func newHookServer(t *testing.T) *hookServer {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	hooks := &hookServer{url: "http://" + listener.Addr().String() + "/hooks/mailroom"}
	server := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		hooks.mu.Lock()
		hooks.received = append(hooks.received, hookRequest{header: r.Header.Clone(), body: body})
		hooks.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})}
	go func() { _ = server.Serve(listener) }()
	t.Cleanup(func() { _ = server.Close() })
	return hooks
}

// await waits up to 15 s for a request whose payload matches.
func (h *hookServer) await(t *testing.T, what string, match func(payload map[string]interface{}) bool) hookRequest {
	t.Helper()
	var found *hookRequest
	eventually(t, 15*time.Second, what, func() (bool, error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		for i := range h.received {
			var payload map[string]interface{}
			if json.Unmarshal(h.received[i].body, &payload) == nil && match(payload) {
				found = &h.received[i]
				return true, nil
			}
		}
		return false, nil
	})
	return *found
}

func dataField(payload map[string]interface{}, name string) interface{} {
	data, _ := payload["data"].(map[string]interface{})
	return data[name]
}

func TestLiveSendWithAttachmentsAndTagsIsSent(t *testing.T) {
	env := live(t)
	client := env.client()
	to := recipient()
	subject := unique("Receipt")
	sent, err := client.Emails.Send(&SendEmailRequest{
		From:        env.from,
		To:          []string{to},
		Subject:     subject,
		Html:        "<p>Thanks for your order.</p>",
		Tags:        []Tag{{Name: "kind", Value: "receipt"}, {Name: "order", Value: "A-1001"}},
		Attachments: []*Attachment{{Filename: "receipt.txt", Content: []byte("Thanks!"), ContentType: "text/plain"}},
	})
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if sent.Id == "" {
		t.Fatal("a send answers the email's id")
	}

	var email *Email
	eventually(t, 15*time.Second, "the email reaches the smarthost (status sent)", func() (bool, error) {
		email, err = client.Emails.Get(sent.Id)
		if err != nil {
			return false, err
		}
		if email.Status == "bounced" || email.Status == "failed" {
			t.Fatalf("the email %s: %+v", email.Status, email.Recipients)
		}
		return email.Status == "sent" || email.Status == "delivered", nil
	})
	if email.Subject != subject || len(email.To) != 1 || email.To[0] != to || len(email.Tags) != 2 || len(email.Events) == 0 {
		t.Fatalf("look-up record %+v", email)
	}
	if len(email.Recipients) != 1 || email.Recipients[0].Attempts < 1 {
		t.Fatalf("recipients %+v", email.Recipients)
	}
	if email.ContentRemovedAt != "" {
		t.Fatalf("retention removed the content of a message sent just now, at %s", email.ContentRemovedAt)
	}

	attachments, err := client.Emails.ListAttachments(sent.Id, nil)
	if err != nil || len(attachments.Data) != 1 || attachments.Data[0].Filename != "receipt.txt" || attachments.Data[0].DownloadUrl == "" {
		t.Fatalf("attachments %+v (%v)", attachments, err)
	}
	attachment, err := client.Emails.GetAttachment(sent.Id, attachments.Data[0].Id)
	if err != nil || attachment.Filename != "receipt.txt" {
		t.Fatalf("attachment %+v (%v)", attachment, err)
	}
	raw, err := client.Emails.Raw(sent.Id)
	if err != nil || !strings.Contains(string(raw), subject) {
		t.Fatalf("raw message (%v): %.200s", err, raw)
	}

	listed, err := client.Emails.List(&ListEmailsOptions{To: to, Tag: "kind:receipt", Limit: 10})
	if err != nil || listed.Object != "list" || len(listed.Data) != 1 || listed.Data[0].Id != sent.Id {
		t.Fatalf("list filtered by to and tag: %+v (%v)", listed, err)
	}
}

func TestLiveBatchStrictAndPermissive(t *testing.T) {
	env := live(t)
	client := env.client()
	valid := func() *SendEmailRequest {
		return &SendEmailRequest{From: env.from, To: []string{recipient()}, Subject: "Batch", Html: "<p>One of several.</p>"}
	}
	invalid := &SendEmailRequest{From: env.from, Subject: "No recipient", Html: "<p>Missing to.</p>"}

	strict, err := client.Batch.Send([]*SendEmailRequest{valid(), valid()})
	if err != nil || len(strict.Data) != 2 || strict.Data[0].Id == "" || len(strict.Errors) != 0 {
		t.Fatalf("strict batch: %+v (%v)", strict, err)
	}

	_, err = client.Batch.SendWithOptions(context.Background(), []*SendEmailRequest{valid(), invalid}, &BatchSendEmailOptions{BatchValidation: BatchValidationStrict})
	refused := apiError(t, err, NameValidationError, 400)
	if len(refused.Details) == 0 || !strings.HasPrefix(refused.Details[0].Path, "1") {
		t.Fatalf("a strict batch names the invalid item: %+v", refused.Details)
	}

	permissive, err := client.Batch.SendWithOptions(context.Background(), []*SendEmailRequest{valid(), invalid}, &BatchSendEmailOptions{BatchValidation: BatchValidationPermissive})
	if err != nil {
		t.Fatalf("permissive batch: %v", err)
	}
	if len(permissive.Data) != 1 || permissive.Data[0].Id == "" || len(permissive.Errors) != 1 || permissive.Errors[0].Index != 1 || permissive.Errors[0].Message == "" {
		t.Fatalf("permissive batch: %+v", permissive)
	}
}

func TestLiveIdempotencyKey(t *testing.T) {
	env := live(t)
	client := env.client()
	key := unique("order")
	email := &SendEmailRequest{From: env.from, To: []string{recipient()}, Subject: "Once", Html: "<p>Sent once.</p>"}
	options := &SendEmailOptions{IdempotencyKey: key}
	first, err := client.Emails.SendWithOptions(context.Background(), email, options)
	if err != nil {
		t.Fatalf("first send: %v", err)
	}
	second, err := client.Emails.SendWithOptions(context.Background(), email, options)
	if err != nil {
		t.Fatalf("repeated send: %v", err)
	}
	if first.Id != second.Id {
		t.Fatalf("the same key answered two ids: %s and %s", first.Id, second.Id)
	}
	other := *email
	other.Subject = "Something else"
	_, err = client.Emails.SendWithOptions(context.Background(), &other, options)
	apiError(t, err, NameInvalidIdempotentRequest, 409)

	// With retries on, the client's own key makes the send safe to repeat; it still sends exactly one email.
	retried, err := env.client(WithRetries(2)).Emails.Send(&SendEmailRequest{From: env.from, To: []string{recipient()}, Subject: "Retried", Html: "<p>Safe.</p>"})
	if err != nil || retried.Id == "" {
		t.Fatalf("send with retries on: %+v (%v)", retried, err)
	}
}

func TestLiveRescheduleAndCancel(t *testing.T) {
	env := live(t)
	client := env.client()
	at := time.Now().Add(24 * time.Hour).UTC().Truncate(time.Second)
	sent, err := client.Emails.Send(&SendEmailRequest{From: env.from, To: []string{recipient()}, Subject: "Later", Html: "<p>Tomorrow.</p>", ScheduledAt: at.Format(time.RFC3339)})
	if err != nil {
		t.Fatalf("scheduled send: %v", err)
	}
	email, err := client.Emails.Get(sent.Id)
	if err != nil || email.Status != "scheduled" {
		t.Fatalf("scheduled email %+v (%v)", email, err)
	}

	later := at.Add(24 * time.Hour)
	updated, err := client.Emails.Update(&UpdateEmailRequest{Id: sent.Id, ScheduledAt: later.Format(time.RFC3339)})
	if err != nil || updated.Id != sent.Id {
		t.Fatalf("reschedule: %+v (%v)", updated, err)
	}
	email, err = client.Emails.Get(sent.Id)
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if scheduled, err := time.Parse(time.RFC3339, email.ScheduledAt); err != nil || !scheduled.Equal(later) {
		t.Fatalf("scheduled_at %q, want %s", email.ScheduledAt, later)
	}

	canceled, err := client.Emails.Cancel(sent.Id)
	if err != nil || canceled.Id != sent.Id {
		t.Fatalf("cancel: %+v (%v)", canceled, err)
	}
	email, err = client.Emails.Get(sent.Id)
	if err != nil || email.Status != "canceled" {
		t.Fatalf("canceled email %+v (%v)", email, err)
	}
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

func TestLiveWebhookDeliveryVerifies(t *testing.T) {
	env := live(t)
	client := env.client()
	hooks := newHookServer(t)
	webhook, err := client.Webhooks.Create(&CreateWebhookRequest{Endpoint: hooks.url, Events: []string{EventEmailSent}})
	if err != nil {
		t.Fatalf("create webhook: %v", err)
	}
	t.Cleanup(func() { _, _ = client.Webhooks.Remove(webhook.Id) })
	if !strings.HasPrefix(webhook.SigningSecret, "whsec_") {
		t.Fatalf("signing secret %q", webhook.SigningSecret)
	}

	sent, err := client.Emails.Send(&SendEmailRequest{From: env.from, To: []string{recipient()}, Subject: unique("Hooked"), Html: "<p>Watch for email.sent.</p>"})
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	delivery := hooks.await(t, "the email.sent webhook", func(payload map[string]interface{}) bool {
		return payload["type"] == EventEmailSent && dataField(payload, "email_id") == sent.Id
	})

	event, err := NewWebhookVerifier(webhook.SigningSecret).Verify(delivery.header, delivery.body)
	if err != nil {
		t.Fatalf("verify a real delivery: %v", err)
	}
	var data EmailEventData
	if event.Type != EventEmailSent || event.Id == "" || event.DecodeData(&data) != nil || data.EmailId != sent.Id {
		t.Fatalf("verified event %+v data %+v", event, data)
	}

	tampered := []byte(strings.Replace(string(delivery.body), sent.Id, "00000000-0000-4000-8000-000000000000", 1))
	_, err = NewWebhookVerifier(webhook.SigningSecret).Verify(delivery.header, tampered)
	var verr *WebhookVerificationError
	if !errors.As(err, &verr) || verr.Reason != WebhookNoMatchingSignature {
		t.Fatalf("a tampered body fails verification, got %v", err)
	}
}

func TestLiveWebhooksRoundTrip(t *testing.T) {
	env := live(t)
	client := env.client()
	ctx := context.Background()
	hooks := newHookServer(t)

	created, err := client.Webhooks.CreateWithContext(ctx, &CreateWebhookRequest{Endpoint: hooks.url, Events: []string{EventEmailBounced}, Description: "round trip"})
	if err != nil || created.Object != "webhook" || created.Id == "" {
		t.Fatalf("create: %+v (%v)", created, err)
	}
	got, err := client.Webhooks.Get(created.Id)
	if err != nil || got.Endpoint != hooks.url || got.SigningSecret != "" || got.Status != "enabled" {
		t.Fatalf("get: %+v (%v)", got, err)
	}
	listed, err := client.Webhooks.List(&ListOptions{Limit: 100})
	if err != nil || !containsWebhook(listed.Data, created.Id) {
		t.Fatalf("list: %+v (%v)", listed, err)
	}
	updated, err := client.Webhooks.Update(created.Id, &UpdateWebhookRequest{Events: []string{EventEmailBounced, EventEmailComplained}, Description: Value("updated")})
	if err != nil || len(updated.Events) != 2 || updated.Description != "updated" {
		t.Fatalf("update: %+v (%v)", updated, err)
	}

	rotated, err := client.Webhooks.RotateSigningSecret(created.Id)
	if err != nil || !strings.HasPrefix(rotated.SigningSecret, "whsec_") || rotated.SigningSecret == created.SigningSecret {
		t.Fatalf("rotate: %+v (%v)", rotated, err)
	}

	test, err := client.Webhooks.Test(created.Id, &TestWebhookRequest{Type: EventEmailSent})
	if err != nil || test.Id == "" || test.WebhookId != created.Id {
		t.Fatalf("test event: %+v (%v)", test, err)
	}
	// Both secrets sign during the overlap after a rotation: the request verifies with either.
	request := hooks.await(t, "the test event", func(payload map[string]interface{}) bool { return payload["type"] == EventEmailSent })
	for _, secret := range []string{created.SigningSecret, rotated.SigningSecret} {
		if _, err := NewWebhookVerifier(secret).Verify(request.header, request.body); err != nil {
			t.Fatalf("verify the test event after rotation: %v", err)
		}
	}

	var detail *WebhookDeliveryDetail
	eventually(t, 15*time.Second, "the test event succeeds", func() (bool, error) {
		detail, err = client.Webhooks.GetEvent(created.Id, test.Id)
		return err == nil && detail.Status == "success", err
	})
	if detail.Payload.Type != EventEmailSent || len(detail.Attempts) == 0 || detail.Attempts[0].HttpStatusCode == nil || *detail.Attempts[0].HttpStatusCode != http.StatusNoContent {
		t.Fatalf("event detail %+v", detail)
	}
	events, err := client.Webhooks.ListEvents(created.Id, &ListWebhookEventsOptions{Limit: 10})
	if err != nil || len(events.Data) == 0 || events.Data[0].Id != test.Id {
		t.Fatalf("list events: %+v (%v)", events, err)
	}
	attempts, err := client.Webhooks.ListEventAttempts(created.Id, test.Id, nil)
	if err != nil || len(attempts.Data) == 0 || attempts.Data[0].Object != "webhook_attempt" {
		t.Fatalf("attempts: %+v (%v)", attempts, err)
	}
	replayed, err := client.Webhooks.ReplayEvent(created.Id, test.Id)
	if err != nil || replayed.Id != test.Id {
		t.Fatalf("replay: %+v (%v)", replayed, err)
	}

	removed, err := client.Webhooks.Remove(created.Id)
	if err != nil || !removed.Deleted || removed.Id != created.Id {
		t.Fatalf("remove: %+v (%v)", removed, err)
	}
	_, err = client.Webhooks.Get(created.Id)
	apiError(t, err, NameNotFound, 404)
}

func containsWebhook(webhooks []Webhook, id string) bool {
	for _, webhook := range webhooks {
		if webhook.Id == id {
			return true
		}
	}
	return false
}

func TestLiveTemplatesSendWithVariables(t *testing.T) {
	env := live(t)
	client := env.client()
	alias := unique("order-shipped")
	created, err := client.Templates.Create(&CreateTemplateRequest{
		Name:    "Order shipped " + alias,
		Alias:   alias,
		Subject: "Order {{order}} shipped",
		Html:    "<p>Hi {{name}}, order {{order}} is on its way.</p>",
		Variables: []CreateTemplateOptionsVariable{
			{Key: "order", Type: "string"},
			{Key: "name", Type: "string", FallbackValue: "there"},
		},
	})
	if err != nil || created.Id == "" {
		t.Fatalf("create: %+v (%v)", created, err)
	}
	t.Cleanup(func() { _, _ = client.Templates.Remove(created.Id) })

	byAlias, err := client.Templates.Get(alias)
	if err != nil || byAlias.Id != created.Id || byAlias.Status != "draft" || len(byAlias.Variables) != 2 {
		t.Fatalf("get by alias: %+v (%v)", byAlias, err)
	}
	listed, err := client.Templates.List(&ListOptions{Limit: 100})
	if err != nil || listed.Object != "list" || len(listed.Data) == 0 {
		t.Fatalf("list: %+v (%v)", listed, err)
	}
	if _, err := client.Templates.Update(alias, &UpdateTemplateRequest{Subject: Value("Your order {{order}} shipped")}); err != nil {
		t.Fatalf("update: %v", err)
	}
	rendered, err := client.Templates.Render(alias, &RenderTemplateRequest{Variables: map[string]interface{}{"order": "A-1"}})
	if err != nil || rendered.Subject != "Your order A-1 shipped" || !strings.Contains(rendered.Html, "Hi there") {
		t.Fatalf("render: %+v (%v)", rendered, err)
	}
	validation, err := client.Templates.Validate(&ValidateTemplateRequest{Html: "<p>{{#if x}}never closed</p>"})
	if err != nil || validation.Valid || len(validation.Errors) == 0 || validation.Errors[0].Line != 1 {
		t.Fatalf("validate: %+v (%v)", validation, err)
	}
	duplicate, err := client.Templates.Duplicate(alias)
	if err != nil || duplicate.Id == "" || duplicate.Id == created.Id {
		t.Fatalf("duplicate: %+v (%v)", duplicate, err)
	}
	if removed, err := client.Templates.Remove(duplicate.Id); err != nil || !removed.Deleted {
		t.Fatalf("remove the copy: %+v (%v)", removed, err)
	}
	if _, err := client.Templates.Publish(alias); err != nil {
		t.Fatalf("publish: %v", err)
	}

	order := unique("A")
	sent, err := client.Emails.Send(&SendEmailRequest{From: env.from, To: []string{recipient()}, Template: &EmailTemplate{Id: alias, Variables: map[string]interface{}{"order": order, "name": "Ada"}}})
	if err != nil {
		t.Fatalf("send with the template: %v", err)
	}
	email, err := client.Emails.Get(sent.Id)
	if err != nil || !strings.Contains(email.Html, order) || !strings.Contains(email.Html, "Hi Ada") || email.TemplateId != created.Id {
		t.Fatalf("the email rendered from the template: %+v (%v)", email, err)
	}
}

func TestLiveReceiving(t *testing.T) {
	env := live(t)
	if env.inboundSubject == "" {
		t.Skip("MAILROOM_INBOUND_SUBJECT is not set")
	}
	client := env.client()
	var match *ReceivedEmail
	options := &ListOptions{Limit: 100}
	for match == nil {
		page, err := client.Emails.Receiving.List(options)
		if err != nil {
			t.Fatalf("list received: %v", err)
		}
		for i := range page.Data {
			if page.Data[i].Subject == env.inboundSubject {
				match = &page.Data[i]
			}
		}
		if match != nil || !page.HasMore || len(page.Data) == 0 {
			break
		}
		options.After = page.Data[len(page.Data)-1].Id
	}
	if match == nil {
		t.Fatalf("no received email has the subject %q", env.inboundSubject)
	}
	received, err := client.Emails.Receiving.Get(match.Id)
	if err != nil || received.Subject != env.inboundSubject || received.Text == "" || received.Raw.DownloadUrl == "" || received.Authentication.Header == "" {
		t.Fatalf("get received: %+v (%v)", received, err)
	}
	attachments, err := client.Emails.Receiving.ListAttachments(match.Id, nil)
	if err != nil || attachments.Object != "list" {
		t.Fatalf("received attachments: %+v (%v)", attachments, err)
	}
	raw, err := client.Emails.Receiving.Raw(match.Id)
	if err != nil || !strings.Contains(string(raw), env.inboundSubject) {
		t.Fatalf("raw received (%v): %.200s", err, raw)
	}
}

func TestLiveDomainsRoundTrip(t *testing.T) {
	env := live(t)
	client := env.client()
	name := unique("go") + ".example.net"
	created, err := client.Domains.Create(&CreateDomainRequest{Name: name})
	if err != nil || created.Id == "" || created.Name != name || len(created.Records) == 0 {
		t.Fatalf("create: %+v (%v)", created, err)
	}
	t.Cleanup(func() {
		_, _ = client.Domains.RemoveWithOptions(context.Background(), created.Id, &RemoveDomainOptions{Force: true})
	})

	byName, err := client.Domains.Get(name)
	if err != nil || byName.Id != created.Id {
		t.Fatalf("get by name: %+v (%v)", byName, err)
	}
	listed, err := client.Domains.List(&ListOptions{Limit: 100})
	if err != nil || !containsDomain(listed.Data, created.Id) {
		t.Fatalf("list: %+v (%v)", listed, err)
	}
	updated, err := client.Domains.Update(created.Id, &UpdateDomainRequest{OpenTracking: Bool(true), ClickTracking: Bool(false)})
	if err != nil || !updated.OpenTracking || updated.ClickTracking {
		t.Fatalf("update: %+v (%v)", updated, err)
	}
	verified, err := client.Domains.Verify(created.Id)
	if err != nil || verified.Id != created.Id || verified.Status == "" {
		t.Fatalf("verify: %+v (%v)", verified, err)
	}
	removed, err := client.Domains.Remove(created.Id)
	if err != nil || !removed.Deleted || removed.Id != created.Id {
		t.Fatalf("remove: %+v (%v)", removed, err)
	}
	_, err = client.Domains.Get(created.Id)
	apiError(t, err, NameNotFound, 404)
}

// A domain of the test's own gets a tracking host, the enforced TLS policy and an Ed25519 key (example.com, which
// every suite sends from, keeps its settings); the sending health lists it ok; the verified sending domain has no
// DMARC report yet, so its list and summary are empty. The server configures no IP pool: the list is empty, naming
// one is a validation error, and null clears the domain's.
func TestLiveDeliverability(t *testing.T) {
	env := live(t)
	client := env.client()
	name := unique("go-dlv") + ".example.net"
	created, err := client.Domains.Create(&CreateDomainRequest{Name: name})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	t.Cleanup(func() {
		_, _ = client.Domains.RemoveWithOptions(context.Background(), created.Id, &RemoveDomainOptions{Force: true})
	})
	if created.TrackingSubdomain != "" || created.Tls != TlsOpportunistic || created.Dkim.Ed25519 || created.IpPool != "" || created.Health.Status != HealthOk ||
		created.Health.Reason != "" || created.Health.Window == "" || len(trackingRecords(created)) != 0 {
		t.Fatalf("a new domain's defaults: %+v", created)
	}
	rsaKeys := countRecords(created, "DKIM")

	updated, err := client.Domains.Update(created.Id, &UpdateDomainRequest{TrackingSubdomain: Value("links"), Tls: TlsEnforced})
	if err != nil || updated.TrackingSubdomain != "links" || updated.Tls != TlsEnforced || updated.Dkim.Ed25519 {
		t.Fatalf("update: %+v (%v)", updated, err)
	}
	tracking := trackingRecords(updated)
	if len(tracking) != 1 || tracking[0].Type != "CNAME" || tracking[0].Name != "links."+name || tracking[0].Value == "" {
		t.Fatalf("the tracking host's CNAME among the records: %+v", updated.Records)
	}
	// What a call leaves out stays: the tracking host and the TLS policy survive the key's change.
	signed, err := client.Domains.Update(created.Id, &UpdateDomainRequest{Dkim: &UpdateDomainOptionsDkim{Ed25519: Bool(true)}})
	if err != nil || !signed.Dkim.Ed25519 || signed.TrackingSubdomain != "links" || signed.Tls != TlsEnforced || countRecords(signed, "DKIM") != rsaKeys+1 {
		t.Fatalf("the Ed25519 key: %+v (%v)", signed, err)
	}
	if got, err := client.Domains.Get(name); err != nil || !got.Dkim.Ed25519 || got.Tls != TlsEnforced {
		t.Fatalf("get: %+v (%v)", got, err)
	}

	from, err := mail.ParseAddress(env.from)
	if err != nil {
		t.Fatalf("MAILROOM_FROM %q: %v", env.from, err)
	}
	sendingDomain := from.Address[strings.LastIndex(from.Address, "@")+1:]
	overview, err := client.Sending.Health()
	if err != nil || overview.Object != "sending_health" || overview.Health.Status == "" || overview.Health.Window == "" {
		t.Fatalf("health: %+v (%v)", overview, err)
	}
	listed := map[string]DomainHealthEntry{}
	for _, entry := range overview.Domains {
		listed[entry.Name] = entry
	}
	if ours, ok := listed[name]; !ok || ours.Id != created.Id || ours.Health.Status != HealthOk {
		t.Fatalf("the new domain listed ok: %+v", overview.Domains)
	}
	if listed[sendingDomain].Health.Status != HealthOk {
		t.Fatalf("the sending domain listed ok: %+v", overview.Domains)
	}

	summary, err := client.Domains.DmarcSummary(sendingDomain, &DmarcSummaryOptions{Days: 7})
	if err != nil || summary.Object != "dmarc_summary" || summary.Domain != sendingDomain || summary.Days != 7 || summary.Reports != 0 ||
		summary.Data == nil || len(summary.Data) != 0 {
		t.Fatalf("dmarc summary: %+v (%v)", summary, err)
	}
	reports, err := client.Domains.DmarcReports(sendingDomain, &ListDmarcReportsOptions{Limit: 10})
	if err != nil || reports.Object != "list" || reports.HasMore || reports.Data == nil || len(reports.Data) != 0 {
		t.Fatalf("dmarc reports: %+v (%v)", reports, err)
	}
	if byDefault, err := client.Domains.DmarcSummary(created.Id, nil); err != nil || byDefault.Days != 7 {
		t.Fatalf("seven days unless asked: %+v (%v)", byDefault, err)
	}
	_, err = client.Domains.DmarcSummary(created.Id, &DmarcSummaryOptions{Days: 91})
	if refused := apiError(t, err, NameValidationError, 400); !hasDetail(refused.Details, "days") {
		t.Fatalf("days out of range is named in details: %+v", refused.Details)
	}
	_, err = client.Domains.DmarcReports(unique("go")+".example.net", nil)
	apiError(t, err, NameNotFound, 404)
	pools, err := client.IpPools.List()
	if err != nil || pools.Object != "list" || pools.Data == nil || len(pools.Data) != 0 {
		t.Fatalf("ip pools: %+v (%v)", pools, err)
	}
	_, err = client.Domains.Update(created.Id, &UpdateDomainRequest{IpPool: Value("nowhere")})
	if refused := apiError(t, err, NameValidationError, 400); !hasDetail(refused.Details, "ip_pool") {
		t.Fatalf("an unknown pool is named in details: %+v", refused.Details)
	}
	cleared, err := client.Domains.Update(created.Id, &UpdateDomainRequest{IpPool: Null[string]()})
	if err != nil || cleared.IpPool != "" || cleared.TrackingSubdomain != "links" || cleared.Tls != TlsEnforced {
		t.Fatalf("ip pool cleared: %+v (%v)", cleared, err)
	}

	sending := NewClient(env.sendingKey, WithBaseURL(env.baseURL))
	_, err = sending.Sending.Health()
	apiError(t, err, NameInsufficientScope, 403)
	_, err = sending.IpPools.List()
	apiError(t, err, NameInsufficientScope, 403)

	undone, err := client.Domains.Update(created.Id, &UpdateDomainRequest{TrackingSubdomain: Null[string](), Tls: TlsOpportunistic, Dkim: &UpdateDomainOptionsDkim{Ed25519: Bool(false)}})
	if err != nil || undone.TrackingSubdomain != "" || undone.Tls != TlsOpportunistic || undone.Dkim.Ed25519 || len(trackingRecords(undone)) != 0 {
		t.Fatalf("undone: %+v (%v)", undone, err)
	}
}

func trackingRecords(domain *Domain) []DomainRecord {
	var records []DomainRecord
	for _, record := range domain.Records {
		if record.Record == "Tracking" {
			records = append(records, record)
		}
	}
	return records
}

func countRecords(domain *Domain, kind string) int {
	count := 0
	for _, record := range domain.Records {
		if record.Record == kind {
			count++
		}
	}
	return count
}

func containsDomain(domains []Domain, id string) bool {
	for _, domain := range domains {
		if domain.Id == id {
			return true
		}
	}
	return false
}

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

func TestLiveSuppressionsRoundTrip(t *testing.T) {
	env := live(t)
	client := env.client()
	address := recipient()
	added, err := client.Suppressions.Add(&AddSuppressionRequest{Email: address, Reason: "asked by phone"})
	if err != nil || added.Id == "" || added.Origin != SuppressionOriginManual || added.Reason != "asked by phone" {
		t.Fatalf("add: %+v (%v)", added, err)
	}
	byId, err := client.Suppressions.Get(added.Id)
	if err != nil || byId.Email != address {
		t.Fatalf("get by id: %+v (%v)", byId, err)
	}
	byEmail, err := client.Suppressions.Get(address)
	if err != nil || byEmail.Id != added.Id {
		t.Fatalf("get by address: %+v (%v)", byEmail, err)
	}
	listed, err := client.Suppressions.List(&ListSuppressionsOptions{Search: address, Origin: SuppressionOriginManual})
	if err != nil || len(listed.Data) != 1 || listed.Data[0].Id != added.Id {
		t.Fatalf("list: %+v (%v)", listed, err)
	}
	removed, err := client.Suppressions.Remove(address)
	if err != nil || !removed.Deleted || removed.Id != added.Id {
		t.Fatalf("remove: %+v (%v)", removed, err)
	}
	_, err = client.Suppressions.Get(address)
	apiError(t, err, NameNotFound, 404)

	first, second := recipient(), recipient()
	batch, err := client.Suppressions.Batch.Add(&BatchAddSuppressionsRequest{Emails: []string{first, second}, Reason: "import"})
	if err != nil || len(batch.Data) != 2 || batch.Data[0].Id == "" {
		t.Fatalf("batch add: %+v (%v)", batch, err)
	}
	unsuppressed := recipient()
	batchRemoved, err := client.Suppressions.Batch.Remove(&BatchRemoveSuppressionsRequest{Emails: []string{first, second, unsuppressed}})
	if err != nil || len(batchRemoved.Data) != 3 || !batchRemoved.Data[0].Deleted || !batchRemoved.Data[1].Deleted || batchRemoved.Data[2].Deleted {
		t.Fatalf("batch remove: %+v (%v)", batchRemoved, err)
	}
}

func TestLiveAIStatus(t *testing.T) {
	env := live(t)
	status, err := env.client().AI.Status()
	if err != nil {
		t.Fatalf("AI status: %v", err)
	}
	// The test server has no model: the status says so and what to configure, in the words of Write's 503.
	if status.Object != "ai" || status.ModelConfigured || status.Model != "" || !strings.Contains(status.Message, "[ai] base_url") {
		t.Fatalf("status %+v", status)
	}
	_, err = env.client().AI.Write(&WriteRequest{Brief: "Tell {{first_name}} their trial ends in 3 days"})
	if refused := apiError(t, err, NameServiceUnavailable, 503); refused.Message != status.Message {
		t.Fatalf("write without a model: %q, the status said %q", refused.Message, status.Message)
	}
}

func TestLiveAISubjectScoring(t *testing.T) {
	env := live(t)
	analysis, err := env.client().AI.Subject(&SubjectRequest{Subject: "FREE!!! Open now", Html: "<p>Your March invoice is ready.</p>"})
	if err != nil {
		t.Fatalf("score a subject: %v", err)
	}
	if analysis.Score < 0 || analysis.Score > 100 || len(analysis.Findings) == 0 || analysis.Findings[0].Rule == "" {
		t.Fatalf("analysis %+v", analysis)
	}
	better, err := env.client().AI.Subject(&SubjectRequest{Subject: "Your March invoice is ready"})
	if err != nil || better.Score <= analysis.Score {
		t.Fatalf("a plain subject scores higher than a shouting one: %+v (%v)", better, err)
	}
}

func TestLiveDeliveriesQueue(t *testing.T) {
	env := live(t)
	client := env.client()
	// Scheduled an hour ahead: both recipients wait, queued and not yet attempted, for the whole test.
	first, second := recipient(), recipient()
	at := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	sent, err := client.Emails.Send(&SendEmailRequest{From: env.from, To: []string{first, second}, Subject: unique("Queued"), Html: "<p>In an hour.</p>", ScheduledAt: at.Format(time.RFC3339)})
	if err != nil {
		t.Fatalf("scheduled send: %v", err)
	}

	listed, err := client.Deliveries.List(&ListDeliveriesOptions{EmailId: sent.Id, Limit: 10})
	if err != nil || listed.Object != "list" || len(listed.Data) != 2 {
		t.Fatalf("list by email id: %+v (%v)", listed, err)
	}
	recipients := map[string]bool{}
	for _, delivery := range listed.Data {
		if delivery.Object != "delivery" || delivery.Id == "" || delivery.EmailId != sent.Id || delivery.Status != DeliveryStatusQueued || delivery.Attempts != 0 || delivery.CreatedAt == "" {
			t.Fatalf("a waiting recipient: %+v", delivery)
		}
		recipients[delivery.Recipient] = true
	}
	if !recipients[first] || !recipients[second] {
		t.Fatalf("the list names both recipients: %+v", listed.Data)
	}
	queued, err := client.Deliveries.List(&ListDeliveriesOptions{EmailId: sent.Id, Status: DeliveryStatusQueued})
	if err != nil || len(queued.Data) != 2 {
		t.Fatalf("list by email id and status: %+v (%v)", queued, err)
	}

	summary, err := client.Deliveries.Summary()
	if err != nil || summary.Object != "queue_summary" || summary.ByStatus.Queued < 2 || summary.OldestWaitingAt == "" || len(summary.ByDomain) == 0 {
		t.Fatalf("summary: %+v (%v)", summary, err)
	}

	one, other := listed.Data[0], listed.Data[1]
	// Only a deferred delivery can be retried, only a held one released.
	_, err = client.Deliveries.Retry(one.Id)
	apiError(t, err, NameConflict, 409)
	_, err = client.Deliveries.Release(one.Id)
	apiError(t, err, NameConflict, 409)
	_, err = client.Deliveries.Retry("00000000-0000-4000-8000-000000000000")
	apiError(t, err, NameNotFound, 404)

	canceled, err := client.Deliveries.Cancel(one.Id)
	if err != nil || canceled.Id != one.Id || canceled.Status != "canceled" || canceled.Recipient != one.Recipient {
		t.Fatalf("cancel one: %+v (%v)", canceled, err)
	}
	_, err = client.Deliveries.Cancel(one.Id)
	apiError(t, err, NameConflict, 409)

	bulk, err := client.Deliveries.Bulk.Cancel(&BulkDeliveriesRequest{EmailId: sent.Id})
	if err != nil || bulk.Object != "bulk" || bulk.Matched != 1 || bulk.Changed != 1 {
		t.Fatalf("bulk cancel of the email's other recipient (%s): %+v (%v)", other.Id, bulk, err)
	}
	left, err := client.Deliveries.List(&ListDeliveriesOptions{EmailId: sent.Id})
	if err != nil || len(left.Data) != 0 {
		t.Fatalf("nothing of the email waits any more: %+v (%v)", left, err)
	}
	email, err := client.Emails.Get(sent.Id)
	if err != nil || len(email.Recipients) != 2 || email.Recipients[0].Status != "canceled" || email.Recipients[1].Status != "canceled" {
		t.Fatalf("the look-up record shows both recipients canceled: %+v (%v)", email, err)
	}

	// A bulk action needs a filter; nil is sent as {} and refused the same way.
	_, err = client.Deliveries.Bulk.Release(&BulkDeliveriesRequest{})
	if refused := apiError(t, err, NameValidationError, 400); !IsValidationError(err) || refused.Message == "" {
		t.Fatalf("an empty filter: %+v", refused)
	}
	_, err = client.Deliveries.Bulk.Retry(nil)
	apiError(t, err, NameValidationError, 400)

	_, err = NewClient(env.sendingKey, WithBaseURL(env.baseURL)).Deliveries.List(nil)
	apiError(t, err, NameInsufficientScope, 403)
	_, err = NewClient(env.sendingKey, WithBaseURL(env.baseURL)).Deliveries.Bulk.Cancel(&BulkDeliveriesRequest{EmailId: sent.Id})
	apiError(t, err, NameInsufficientScope, 403)
}

func TestLiveSendingPauseHoldsAndResumeReleases(t *testing.T) {
	env := live(t)
	client := env.client()
	from, err := mail.ParseAddress(env.from)
	if err != nil {
		t.Fatalf("MAILROOM_FROM %q: %v", env.from, err)
	}
	domain := from.Address[strings.LastIndex(from.Address, "@")+1:]
	// Other suites (and this one's other tests) send from the same domain and may pause it too: this test ends its
	// own pause whatever happens, tolerates what others' pauses hold and release, and looks only at its domain's.
	reason := unique("go pause")
	state, err := client.Sending.Pause(&PauseSendingRequest{Scope: PauseScopeDomain, Name: domain, Reason: reason})
	if err != nil {
		t.Fatalf("pause %s: %v", domain, err)
	}
	paused := true
	defer func() {
		if paused {
			_, _ = client.Sending.Resume(&ResumeSendingRequest{Scope: PauseScopeDomain, Name: domain})
		}
	}()
	if state.Object != "sending" || domainPause(state.Pauses, domain) == nil {
		t.Fatalf("the pause answers the state with it: %+v", state)
	}

	state, err = client.Sending.Get()
	if err != nil || state.Object != "sending" {
		t.Fatalf("get: %+v (%v)", state, err)
	}
	pause := domainPause(state.Pauses, domain)
	if pause == nil || pause.PausedAt == "" || pause.PausedBy == "" {
		t.Fatalf("the pause of %s is listed: %+v", domain, state.Pauses)
	}
	// Pausing what is paused keeps the first pause: another suite's, if it paused the domain first.
	if pause.Reason != reason {
		t.Logf("%s was paused first by another suite (reason %q)", domain, pause.Reason)
	}

	to := recipient()
	sent, err := client.Emails.Send(&SendEmailRequest{From: env.from, To: []string{to}, Subject: unique("Held"), Html: "<p>Held until resumed.</p>"})
	if err != nil {
		t.Fatalf("send while paused: %v", err)
	}
	var held *Delivery
	eventually(t, 5*time.Second, "the recipient is held", func() (bool, error) {
		listed, err := client.Deliveries.List(&ListDeliveriesOptions{EmailId: sent.Id, Status: DeliveryStatusHeld})
		if err != nil || len(listed.Data) == 0 {
			return false, err
		}
		held = &listed.Data[0]
		return true, nil
	})
	if held.Recipient != to || held.Status != DeliveryStatusHeld || held.Attempts != 0 || !strings.Contains(held.LastResponse, "paused") {
		t.Fatalf("a held recipient, never attempted: %+v", held)
	}

	resumed, err := client.Sending.Resume(&ResumeSendingRequest{Scope: PauseScopeDomain, Name: domain})
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	paused = false
	// Released counts every held recipient the resume let go, others' included.
	if resumed.Object != "sending" || resumed.Released < 1 || domainPause(resumed.Pauses, domain) != nil {
		t.Fatalf("resume releases the held recipient and leaves no pause of %s: %+v", domain, resumed)
	}
	_, err = client.Sending.Resume(&ResumeSendingRequest{Scope: PauseScopeDomain, Name: domain})
	apiError(t, err, NameNotFound, 404)
	eventually(t, 15*time.Second, "the released email is sent", func() (bool, error) {
		email, err := client.Emails.Get(sent.Id)
		if err != nil {
			return false, err
		}
		return email.Status == "sent" || email.Status == "delivered", nil
	})

	_, err = client.Sending.Pause(&PauseSendingRequest{Scope: PauseScopeProvider, Name: unique("no-such-provider")})
	if refused := apiError(t, err, NameValidationError, 400); len(refused.Details) == 0 || refused.Details[0].Path != "name" {
		t.Fatalf("an unknown provider is named in details: %+v", refused.Details)
	}
	_, err = client.Sending.Pause(&PauseSendingRequest{Scope: PauseScopeDomain, Name: unique("go") + ".example.net"})
	apiError(t, err, NameNotFound, 404)
	_, err = client.Sending.Pause(&PauseSendingRequest{Scope: PauseScopeOrganization, Name: domain})
	apiError(t, err, NameValidationError, 400)

	sending := NewClient(env.sendingKey, WithBaseURL(env.baseURL))
	_, err = sending.Sending.Get()
	apiError(t, err, NameInsufficientScope, 403)
	_, err = sending.Sending.Pause(&PauseSendingRequest{Scope: PauseScopeDomain, Name: domain})
	apiError(t, err, NameInsufficientScope, 403)
}

// domainPause finds the pause of one sending domain among the pauses, or nil.
func domainPause(pauses []SendingPause, domain string) *SendingPause {
	for i := range pauses {
		if pauses[i].Scope == PauseScopeDomain && pauses[i].Name == domain {
			return &pauses[i]
		}
	}
	return nil
}

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

func hasDetail(details []ErrorDetail, path string) bool {
	for _, detail := range details {
		if detail.Path == path {
			return true
		}
	}
	return false
}

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
