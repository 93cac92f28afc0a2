// The delivery queue and sending pauses on the wire, against a local HTTP server (no Mailroom needed): their paths,
// query filters and bodies (nil sent as {}), ids escaped, and the null fields of deliveries and pauses decoded.
package mailroom

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestDeliveriesPathsBodiesAndNulls(t *testing.T) {
	var recorder requestRecorder
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		recorder.record(r)
		w.Header().Set("Content-Type", "application/json")
		delivery := `{"object":"delivery","id":"d-1","email_id":"e-1","recipient":"a@example.org","status":"queued","provider":null,"attempts":0,"next_attempt_at":null,"last_response":null,"created_at":"2026-01-01T00:00:00.000Z","updated_at":"2026-01-01T00:00:00.000Z"}`
		switch {
		case r.URL.Path == "/v1/deliveries":
			_, _ = w.Write([]byte(`{"object":"list","has_more":false,"data":[` + delivery + `]}`))
		case r.URL.Path == "/v1/deliveries/summary":
			_, _ = w.Write([]byte(`{"object":"queue_summary","by_status":{"queued":2,"deferred":1,"held":0,"sending":0},"by_domain":[{"domain":"example.org","queued":2,"deferred":1,"held":0,"sending":0,"oldest_at":"2026-01-01T00:00:00.000Z"}],"by_provider":[{"provider":null,"queued":2,"deferred":0,"held":0,"sending":0,"oldest_at":"2026-01-01T00:00:00.000Z"}],"oldest_waiting_at":"2026-01-01T00:00:00.000Z"}`))
		case strings.Count(r.URL.EscapedPath(), "/") == 4:
			_, _ = w.Write([]byte(strings.Replace(delivery, `"queued"`, `"canceled"`, 1)))
		default:
			_, _ = w.Write([]byte(`{"object":"bulk","matched":3,"changed":2}`))
		}
	}))
	defer server.Close()
	client := NewClient("mr_test_key", WithBaseURL(server.URL))

	listed, err := client.Deliveries.List(&ListDeliveriesOptions{Limit: 5, Status: DeliveryStatusDeferred, Domain: "example.org", Provider: "smtp", EmailId: "e-1"})
	if err != nil || len(listed.Data) != 1 {
		t.Fatalf("list: %+v (%v)", listed, err)
	}
	if d := listed.Data[0]; d.Provider != "" || d.NextAttemptAt != "" || d.LastResponse != "" || d.EmailId != "e-1" || d.Recipient != "a@example.org" {
		t.Fatalf("a delivery with null fields: %+v", d)
	}
	summary, err := client.Deliveries.Summary()
	if err != nil || summary.ByStatus.Queued != 2 || summary.ByStatus.Deferred != 1 || len(summary.ByDomain) != 1 || summary.ByDomain[0].Domain != "example.org" ||
		summary.ByDomain[0].Deferred != 1 || summary.ByDomain[0].OldestAt == "" || len(summary.ByProvider) != 1 || summary.ByProvider[0].Provider != "" || summary.ByProvider[0].Queued != 2 {
		t.Fatalf("summary: %+v (%v)", summary, err)
	}
	for _, act := range []func(string) (*Delivery, error){client.Deliveries.Retry, client.Deliveries.Cancel, client.Deliveries.Release} {
		if delivery, err := act("d/1"); err != nil || delivery.Status != "canceled" {
			t.Fatalf("an action on one delivery: %+v (%v)", delivery, err)
		}
	}
	bulk, err := client.Deliveries.Bulk.Cancel(&BulkDeliveriesRequest{Status: DeliveryStatusHeld, EmailId: "e-1"})
	if err != nil || bulk.Matched != 3 || bulk.Changed != 2 {
		t.Fatalf("bulk: %+v (%v)", bulk, err)
	}
	if _, err := client.Deliveries.Bulk.Retry(&BulkDeliveriesRequest{Domain: "example.org", Provider: "ses"}); err != nil {
		t.Fatalf("bulk retry: %v", err)
	}
	if _, err := client.Deliveries.Bulk.Release(nil); err != nil {
		t.Fatalf("bulk release: %v", err)
	}

	want := []recordedRequest{
		{"GET", "/v1/deliveries?domain=example.org&email_id=e-1&limit=5&provider=smtp&status=deferred", ""},
		{"GET", "/v1/deliveries/summary", ""},
		{"POST", "/v1/deliveries/d%2F1/retry", ""},
		{"POST", "/v1/deliveries/d%2F1/cancel", ""},
		{"POST", "/v1/deliveries/d%2F1/release", ""},
		{"POST", "/v1/deliveries/cancel", `{"status":"held","email_id":"e-1"}`},
		{"POST", "/v1/deliveries/retry", `{"domain":"example.org","provider":"ses"}`},
		{"POST", "/v1/deliveries/release", `{}`},
	}
	if _, err := client.Deliveries.Cancel(""); err == nil {
		t.Fatal("an empty delivery id is an error")
	}

	// The refused empty id must not add a request to the list.
	recorder.expect(t, want)
}

func TestSendingPathsBodiesAndNulls(t *testing.T) {
	var recorder requestRecorder
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		recorder.record(r)
		w.Header().Set("Content-Type", "application/json")
		pauses := `"pauses":[{"scope":"organization","name":null,"reason":null,"paused_at":"2026-01-01T00:00:00.000Z","paused_by":null},` +
			`{"scope":"domain","name":"example.com","reason":"bounce spike","paused_at":"2026-01-01T00:01:00.000Z","paused_by":"k-1"}]`
		switch r.URL.Path {
		case "/v1/sending/resume":
			_, _ = w.Write([]byte(`{"object":"sending","pauses":[],"released":3}`))
		default:
			_, _ = w.Write([]byte(`{"object":"sending",` + pauses + `}`))
		}
	}))
	defer server.Close()
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	ctx := context.Background()

	state, err := client.Sending.Get()
	if err != nil || state.Object != "sending" || len(state.Pauses) != 2 {
		t.Fatalf("get: %+v (%v)", state, err)
	}
	if p := state.Pauses[0]; p.Scope != PauseScopeOrganization || p.Name != "" || p.Reason != "" || p.PausedBy != "" || p.PausedAt == "" {
		t.Fatalf("an organisation pause with null fields: %+v", p)
	}
	if p := state.Pauses[1]; p.Scope != PauseScopeDomain || p.Name != "example.com" || p.Reason != "bounce spike" || p.PausedBy != "k-1" {
		t.Fatalf("a domain pause: %+v", p)
	}
	if _, err := client.Sending.GetWithContext(ctx); err != nil {
		t.Fatalf("get with a context: %v", err)
	}
	paused, err := client.Sending.Pause(&PauseSendingRequest{Scope: PauseScopeDomain, Name: "example.com", Reason: "bounce spike"})
	if err != nil || len(paused.Pauses) != 2 {
		t.Fatalf("pause: %+v (%v)", paused, err)
	}
	if _, err := client.Sending.PauseWithContext(ctx, &PauseSendingRequest{Scope: PauseScopeOrganization}); err != nil {
		t.Fatalf("pause the organisation: %v", err)
	}
	if _, err := client.Sending.Pause(nil); err != nil {
		t.Fatalf("pause nil: %v", err)
	}
	resumed, err := client.Sending.Resume(&ResumeSendingRequest{Scope: PauseScopeProvider, Name: "ses"})
	if err != nil || resumed.Object != "sending" || resumed.Released != 3 || resumed.Pauses == nil || len(resumed.Pauses) != 0 {
		t.Fatalf("resume: %+v (%v)", resumed, err)
	}
	if _, err := client.Sending.ResumeWithContext(ctx, &ResumeSendingRequest{Scope: PauseScopeOrganization}); err != nil {
		t.Fatalf("resume the organisation: %v", err)
	}
	if _, err := client.Sending.Resume(nil); err != nil {
		t.Fatalf("resume nil: %v", err)
	}

	want := []recordedRequest{
		{"GET", "/v1/sending", ""},
		{"GET", "/v1/sending", ""},
		{"POST", "/v1/sending/pause", `{"scope":"domain","name":"example.com","reason":"bounce spike"}`},
		{"POST", "/v1/sending/pause", `{"scope":"organization"}`},
		{"POST", "/v1/sending/pause", `{}`},
		{"POST", "/v1/sending/resume", `{"scope":"provider","name":"ses"}`},
		{"POST", "/v1/sending/resume", `{"scope":"organization"}`},
		{"POST", "/v1/sending/resume", `{}`},
	}
	recorder.expect(t, want)
}
