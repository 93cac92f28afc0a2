// Live tests of webhooks: a real delivery to an endpoint of the test's own (hookServer) verified with the signing
// secret and refused once tampered with; and the round trip: made, read, listed, updated, the secret rotated (both
// secrets sign during the overlap), a test event and its delivery detail, events, attempts and replay, removed.
package mailroom

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

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
