// Tests of the transport against small local HTTP servers of the tests' own (no Mailroom needed): retries on 429
// and 503, the idempotency key kept across retries, no retry of other 4xx or of a used-up daily quota, error
// decoding (410 gone included), timeouts, network failures, headers and the base URL; and the paths, bodies and null
// fields of the delivery queue, of sending pauses, of the organisation's settings, of organisations, members and the
// audit log, of deliverability (domain settings, sending health, DMARC reports and summary), and of sending IPs (the
// pools listed, a domain's IP pool set and cleared).
package mailroom

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// scriptedServer answers each request with the next status of its script (the last one repeats) and records the
// requests' headers.
type scriptedServer struct {
	*httptest.Server
	mu       sync.Mutex
	statuses []int
	headers  []http.Header
	paths    []string
}

func newScriptedServer(t *testing.T, statuses ...int) *scriptedServer {
	s := &scriptedServer{statuses: statuses}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		index := len(s.headers)
		s.headers = append(s.headers, r.Header.Clone())
		s.paths = append(s.paths, r.URL.RequestURI())
		s.mu.Unlock()
		status := s.statuses[len(s.statuses)-1]
		if index < len(s.statuses) {
			status = s.statuses[index]
		}
		w.Header().Set("Content-Type", "application/json")
		switch status {
		case http.StatusOK:
			_, _ = w.Write([]byte(`{"id":"0a1b2c3d-0000-4000-8000-000000000001","message":"Email sent."}`))
		case http.StatusTooManyRequests:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"error":"Too Many Requests","name":"rate_limit_exceeded","message":"Too many requests; retry after 1 s.","statusCode":429}`))
		case http.StatusServiceUnavailable:
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"error":"Service Unavailable","name":"service_unavailable","message":"Shutting down.","statusCode":503}`))
		case http.StatusBadRequest:
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"error":"Bad Request","name":"validation_error","message":"to: is required","statusCode":400,"details":[{"path":"to","message":"is required"}]}`))
		default:
			w.WriteHeader(status)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *scriptedServer) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.headers)
}

func (s *scriptedServer) header(i int) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.headers[i]
}

func testEmail() *SendEmailRequest {
	return &SendEmailRequest{From: "Acme <hello@example.com>", To: []string{"someone@example.org"}, Subject: "Hi", Html: "<p>Hello</p>"}
}

func fastRetries(n int) []Option {
	return []Option{WithRetries(n), WithRetryBackoff(10*time.Millisecond, 50*time.Millisecond)}
}

func TestRetryHonoursRetryAfterOn429(t *testing.T) {
	server := newScriptedServer(t, http.StatusTooManyRequests, http.StatusOK)
	client := NewClient("mr_test_key", append(fastRetries(2), WithBaseURL(server.URL))...)
	started := time.Now()
	sent, err := client.Emails.Send(testEmail())
	if err != nil {
		t.Fatalf("send with retries: %v", err)
	}
	if sent.Id == "" || server.requests() != 2 {
		t.Fatalf("want one retry and an id, got %d requests and %+v", server.requests(), sent)
	}
	if waited := time.Since(started); waited < 900*time.Millisecond {
		t.Fatalf("the retry came after %s, before Retry-After (1 s)", waited)
	}
}

func TestRateLimitWithoutRetriesIsTheError(t *testing.T) {
	server := newScriptedServer(t, http.StatusTooManyRequests, http.StatusOK)
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	_, err := client.Emails.Send(testEmail())
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Name != NameRateLimitExceeded || apiErr.StatusCode != 429 {
		t.Fatalf("want rate_limit_exceeded, got %v", err)
	}
	if apiErr.RetryAfter != time.Second || !IsRateLimited(err) {
		t.Fatalf("want RetryAfter 1s, got %s", apiErr.RetryAfter)
	}
	if server.requests() != 1 {
		t.Fatalf("retries are off by default, yet %d requests were made", server.requests())
	}
}

func TestRetryAfter503(t *testing.T) {
	server := newScriptedServer(t, http.StatusServiceUnavailable, http.StatusOK)
	client := NewClient("mr_test_key", append(fastRetries(3), WithBaseURL(server.URL))...)
	if _, err := client.Emails.Send(testEmail()); err != nil {
		t.Fatalf("send with retries: %v", err)
	}
	if server.requests() != 2 {
		t.Fatalf("want exactly one retry, got %d requests", server.requests())
	}
}

func Test503WithoutRetriesIsTheError(t *testing.T) {
	server := newScriptedServer(t, http.StatusServiceUnavailable, http.StatusOK)
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	_, err := client.Emails.Send(testEmail())
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Name != NameServiceUnavailable || apiErr.StatusCode != 503 {
		t.Fatalf("want service_unavailable, got %v", err)
	}
	if server.requests() != 1 {
		t.Fatalf("want one request, got %d", server.requests())
	}
}

func TestRetriesStopAfterMaxRetries(t *testing.T) {
	server := newScriptedServer(t, http.StatusServiceUnavailable)
	client := NewClient("mr_test_key", append(fastRetries(2), WithBaseURL(server.URL))...)
	_, err := client.Domains.List(nil)
	if err == nil || server.requests() != 3 {
		t.Fatalf("want the error after 1 + 2 attempts, got %v after %d", err, server.requests())
	}
}

func TestRetriedSendKeepsOneGeneratedIdempotencyKey(t *testing.T) {
	server := newScriptedServer(t, http.StatusServiceUnavailable, http.StatusServiceUnavailable, http.StatusOK)
	client := NewClient("mr_test_key", append(fastRetries(3), WithBaseURL(server.URL))...)
	if _, err := client.Emails.Send(testEmail()); err != nil {
		t.Fatalf("send: %v", err)
	}
	key := server.header(0).Get("Idempotency-Key")
	if key == "" {
		t.Fatal("a send with retries on carries a generated Idempotency-Key")
	}
	for i := 1; i < server.requests(); i++ {
		if got := server.header(i).Get("Idempotency-Key"); got != key {
			t.Fatalf("attempt %d carried key %q, the first %q", i+1, got, key)
		}
	}
}

func TestCallerIdempotencyKeyIsSentAsGiven(t *testing.T) {
	server := newScriptedServer(t, http.StatusOK)
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	if _, err := client.Emails.SendWithOptions(context.Background(), testEmail(), &SendEmailOptions{IdempotencyKey: "order-1001"}); err != nil {
		t.Fatalf("send: %v", err)
	}
	if got := server.header(0).Get("Idempotency-Key"); got != "order-1001" {
		t.Fatalf("Idempotency-Key %q", got)
	}
	if _, err := client.Batch.SendWithOptions(context.Background(), []*SendEmailRequest{testEmail()}, &BatchSendEmailOptions{IdempotencyKey: "batch-7", BatchValidation: BatchValidationPermissive}); err != nil {
		t.Fatalf("batch: %v", err)
	}
	if got := server.header(1); got.Get("Idempotency-Key") != "batch-7" || got.Get("X-Batch-Validation") != "permissive" {
		t.Fatalf("batch headers %v", got)
	}
}

func TestNoKeyIsInventedWithoutRetries(t *testing.T) {
	server := newScriptedServer(t, http.StatusOK)
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	if _, err := client.Emails.Send(testEmail()); err != nil {
		t.Fatalf("send: %v", err)
	}
	if got := server.header(0).Get("Idempotency-Key"); got != "" {
		t.Fatalf("no retries, no generated key; got %q", got)
	}
}

func TestOther4xxIsNeverRetried(t *testing.T) {
	server := newScriptedServer(t, http.StatusBadRequest, http.StatusOK)
	client := NewClient("mr_test_key", append(fastRetries(3), WithBaseURL(server.URL))...)
	_, err := client.Emails.Send(testEmail())
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Name != NameValidationError || server.requests() != 1 {
		t.Fatalf("want one validation_error, got %v after %d requests", err, server.requests())
	}
	if len(apiErr.Details) != 1 || apiErr.Details[0].Path != "to" || apiErr.Reason != "Bad Request" {
		t.Fatalf("details %+v reason %q", apiErr.Details, apiErr.Reason)
	}
}

func TestUsedUpDailyQuotaIsNeverRetried(t *testing.T) {
	var requests int32
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		atomic.AddInt32(&requests, 1)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":"Too Many Requests","name":"daily_quota_exceeded","message":"Used up.","statusCode":429}`))
	}))
	defer server.Close()
	client := NewClient("mr_test_key", append(fastRetries(3), WithBaseURL(server.URL))...)
	_, err := client.Emails.Send(testEmail())
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Name != NameDailyQuotaExceeded || apiErr.StatusCode != 429 {
		t.Fatalf("want daily_quota_exceeded, got %v", err)
	}
	if apiErr.RetryAfter != time.Hour || !IsDailyQuotaExceeded(err) || IsRateLimited(err) {
		t.Fatalf("RetryAfter %s, IsDailyQuotaExceeded %v, IsRateLimited %v", apiErr.RetryAfter, IsDailyQuotaExceeded(err), IsRateLimited(err))
	}
	if n := atomic.LoadInt32(&requests); n != 1 {
		t.Fatalf("waiting for the next UTC day is the caller's decision, yet %d requests were made", n)
	}
}

func TestGoneIsTypedWithOrWithoutMailroomBody(t *testing.T) {
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/raw") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusGone)
			_, _ = w.Write([]byte(`{"error":"Gone","name":"gone","message":"Retention removed it.","statusCode":410}`))
			return
		}
		w.WriteHeader(http.StatusGone)
	}))
	defer server.Close()
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	_, err := client.Emails.Raw("e-1")
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Name != NameGone || apiErr.StatusCode != 410 || !IsGone(err) {
		t.Fatalf("want gone, got %v", err)
	}
	if _, err := client.Emails.GetAttachment("e-1", "a-1"); !IsGone(err) {
		t.Fatalf("a bare 410 is gone too, got %v", err)
	}
}

func TestErrorWithoutMailroomBodyStillHasAName(t *testing.T) {
	server := newScriptedServer(t, http.StatusBadGateway)
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	_, err := client.Emails.Get("0a1b2c3d-0000-4000-8000-000000000001")
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Name != NameServiceUnavailable || apiErr.StatusCode != 502 {
		t.Fatalf("got %v", err)
	}
}

func TestTimeoutIsATypedError(t *testing.T) {
	release := make(chan struct{})
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer server.Close()
	defer close(release)
	client := NewClient("mr_test_key", WithBaseURL(server.URL), WithTimeout(100*time.Millisecond))
	_, err := client.Domains.List(nil)
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Name != NameTimeout || apiErr.StatusCode != 0 {
		t.Fatalf("want timeout, got %v", err)
	}
}

func TestNetworkErrorIsATypedError(t *testing.T) {
	server := httptest.NewServer(http.NotFoundHandler())
	address := server.URL
	server.Close()
	client := NewClient("mr_test_key", WithBaseURL(address))
	_, err := client.Domains.List(nil)
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Name != NameNetworkError || apiErr.StatusCode != 0 || apiErr.Err == nil {
		t.Fatalf("want network_error, got %v", err)
	}
}

func TestCancelledContextStopsRetrying(t *testing.T) {
	server := newScriptedServer(t, http.StatusTooManyRequests)
	client := NewClient("mr_test_key", append(fastRetries(5), WithBaseURL(server.URL))...)
	// Shorter than the server's Retry-After (1 s), long enough for the first request on a loaded machine.
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	_, err := client.Emails.SendWithContext(ctx, testEmail())
	if err == nil || server.requests() != 1 {
		t.Fatalf("want the wait for Retry-After cut short by the context, got %v after %d requests", err, server.requests())
	}
}

func TestHeadersAndPaths(t *testing.T) {
	server := newScriptedServer(t, http.StatusOK)
	client := NewClient("mr_test_key", WithBaseURL(server.URL+"/v1/"))
	if _, err := client.Suppressions.Get("a+b@example.org"); err != nil {
		t.Fatalf("get: %v", err)
	}
	header := server.header(0)
	if header.Get("Authorization") != "Bearer mr_test_key" || header.Get("User-Agent") != "mailroom-go/0.1.0" {
		t.Fatalf("headers %v", header)
	}
	if got := server.paths[0]; got != "/v1/suppressions/a+b@example.org" {
		t.Fatalf("path %q", got)
	}
	if _, err := client.Emails.List(&ListEmailsOptions{Limit: 5, Status: "sent", Tag: "kind:receipt"}); err != nil {
		t.Fatalf("list: %v", err)
	}
	if got := server.paths[1]; got != "/v1/emails?limit=5&status=sent&tag=kind%3Areceipt" {
		t.Fatalf("list path %q", got)
	}
}

func TestEmptyIdIsRefusedBeforeAnyRequest(t *testing.T) {
	server := newScriptedServer(t, http.StatusOK)
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	if _, err := client.Emails.Get(""); err == nil {
		t.Fatal("an empty id is an error")
	}
	if server.requests() != 0 {
		t.Fatal("no request for an empty id")
	}
}

// recordedRequest is comparable, so a recorded list can be checked against the expected one element by element.
type recordedRequest struct{ method, uri, body string }

// requestRecorder keeps the requests a test server's handler sees; the handler runs on the server's goroutines
// while the test reads the list, hence the lock.
type requestRecorder struct {
	mu       sync.Mutex
	requests []recordedRequest
}

// record returns how many requests have been seen, this one included, so that a handler can answer by position.
func (rec *requestRecorder) record(r *http.Request) int {
	body, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.requests = append(rec.requests, recordedRequest{r.Method, r.URL.RequestURI(), string(body)})
	return len(rec.requests)
}

func (rec *requestRecorder) expect(t *testing.T, want []recordedRequest) {
	t.Helper()
	rec.mu.Lock()
	got := append([]recordedRequest(nil), rec.requests...)
	rec.mu.Unlock()
	if len(got) != len(want) {
		t.Fatalf("requests %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("request %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
}

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

func TestDeliverabilityPathsBodiesAndNulls(t *testing.T) {
	var recorder requestRecorder
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		recorder.record(r)
		w.Header().Set("Content-Type", "application/json")
		health := `{"bounce_rate":0.05,"complaint_rate":0,"window":"24h","recipients":400,"status":"warning","reason":"bounce rate 5.0 % over 24 h","evaluated_at":"2026-01-01T00:00:00.000Z"}`
		fresh := `{"bounce_rate":0,"complaint_rate":0,"window":"24h","recipients":0,"status":"ok","reason":null,"evaluated_at":null}`
		switch {
		case r.URL.Path == "/v1/sending/health":
			_, _ = w.Write([]byte(`{"object":"sending_health","health":` + health + `,"domains":[{"id":"d-1","name":"example.com","health":` + fresh + `}]}`))
		case strings.HasSuffix(r.URL.Path, "/rows"):
			_, _ = w.Write([]byte(`{"object":"list","has_more":false,"data":[{"id":"w-2","source_ip":"203.0.113.6","count":3,` +
				`"disposition":"none","dkim":"pass","spf":"pass","header_from":"example.com"}]}`))
		case strings.HasSuffix(r.URL.Path, "/dmarc"):
			_, _ = w.Write([]byte(`{"object":"list","has_more":true,"data":[{"object":"dmarc_report","id":"r-2","reporter":"google.com","report_id":"123",` +
				`"begin":"2026-01-01T00:00:00.000Z","end":"2026-01-02T00:00:00.000Z","rows":[{"source_ip":"203.0.113.5","count":12,` +
				`"disposition":"none","dkim":"pass","spf":"fail","header_from":"example.com"}],"row_count":40}]}`))
		case strings.HasSuffix(r.URL.Path, "/dmarc/summary"):
			_, _ = w.Write([]byte(`{"object":"dmarc_summary","domain":"example.com","days":7,"reports":3,"data":[{"source_ip":"203.0.113.5","messages":12,"aligned_pass_rate":0.75,"own":true}]}`))
		default:
			_, _ = w.Write([]byte(`{"object":"domain","id":"d-1","name":"example.com","status":"verified","records":[{"record":"Tracking","name":"links.example.com",` +
				`"type":"CNAME","value":"mail.example.net","ttl":"Auto","status":"pending","found":["elsewhere.example.org"]},{"record":"DKIM","name":"s._domainkey.example.com",` +
				`"type":"TXT","value":"v=DKIM1","ttl":"Auto","status":"pending","found":null}],"dkim":{"ed25519":true},"tracking_subdomain":"links",` +
				`"tls":"enforced","health":` + fresh + `}`))
		}
	}))
	defer server.Close()
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	ctx := context.Background()

	domain, err := client.Domains.Update("example.com", &UpdateDomainRequest{TrackingSubdomain: Value("links"), Tls: TlsEnforced, Dkim: &UpdateDomainOptionsDkim{Ed25519: Bool(true)}})
	if err != nil || !domain.Dkim.Ed25519 || domain.TrackingSubdomain != "links" || domain.Tls != TlsEnforced || domain.Health.Status != HealthOk ||
		domain.Health.EvaluatedAt != "" || domain.Health.Window != "24h" {
		t.Fatalf("update: %+v (%v)", domain, err)
	}
	if r := domain.Records[0]; r.Record != "Tracking" || r.Type != "CNAME" || len(r.Found) != 1 || r.Found[0] != "elsewhere.example.org" || domain.Records[1].Found != nil {
		t.Fatalf("records: %+v", domain.Records)
	}
	if _, err := client.Domains.UpdateWithContext(ctx, "d/1", &UpdateDomainRequest{TrackingSubdomain: Null[string](), Dkim: &UpdateDomainOptionsDkim{Ed25519: Bool(false)}}); err != nil {
		t.Fatalf("update with a null tracking host: %v", err)
	}
	if _, err := client.Domains.Create(&CreateDomainRequest{Name: "example.org", TrackingSubdomain: "links", Tls: TlsOpportunistic, Dkim: &CreateDomainOptionsDkim{Ed25519: Bool(true)}}); err != nil {
		t.Fatalf("create: %v", err)
	}
	overview, err := client.Sending.Health()
	if err != nil || overview.Object != "sending_health" || overview.Health.Status != HealthWarning || overview.Health.BounceRate != 0.05 ||
		overview.Health.Recipients != 400 || overview.Health.Reason == "" || len(overview.Domains) != 1 ||
		overview.Domains[0].Name != "example.com" || overview.Domains[0].Health.Reason != "" {
		t.Fatalf("health: %+v (%v)", overview, err)
	}
	if _, err := client.Sending.HealthWithContext(ctx); err != nil {
		t.Fatalf("health with a context: %v", err)
	}
	reports, err := client.Domains.DmarcReports("example.com", nil)
	if err != nil || !reports.HasMore || len(reports.Data) != 1 || reports.Data[0].ReportId != "123" || len(reports.Data[0].Rows) != 1 ||
		reports.Data[0].RowCount != 40 ||
		reports.Data[0].Rows[0] != (DmarcRow{SourceIp: "203.0.113.5", Count: 12, Disposition: "none", Dkim: "pass", Spf: "fail", HeaderFrom: "example.com"}) {
		t.Fatalf("dmarc reports: %+v (%v)", reports, err)
	}
	if _, err := client.Domains.DmarcReportsWithContext(ctx, "d/1", &ListDmarcReportsOptions{Limit: 5, Before: "r-2"}); err != nil {
		t.Fatalf("dmarc reports paged: %v", err)
	}
	if _, err := client.Domains.DmarcReports("d/1", &ListDmarcReportsOptions{After: "r-2"}); err != nil {
		t.Fatalf("dmarc reports after: %v", err)
	}
	rows, err := client.Domains.DmarcReportRows("d/1", "r/2", &ListOptions{Limit: 100, After: "w-1"})
	if err != nil || len(rows.Data) != 1 || rows.Data[0].Id != "w-2" || rows.Data[0].Count != 3 || rows.Data[0].SourceIp != "203.0.113.6" {
		t.Fatalf("dmarc report rows: %+v (%v)", rows, err)
	}
	if _, err := client.Domains.DmarcReportRows("d/1", "", nil); err == nil {
		t.Fatal("an empty report id is an error")
	}
	summary, err := client.Domains.DmarcSummary("example.com", nil)
	if err != nil || summary.Object != "dmarc_summary" || summary.Days != 7 || summary.Reports != 3 || len(summary.Data) != 1 ||
		summary.Data[0] != (DmarcSource{SourceIp: "203.0.113.5", Messages: 12, AlignedPassRate: 0.75, Own: true}) {
		t.Fatalf("dmarc summary: %+v (%v)", summary, err)
	}
	if _, err := client.Domains.DmarcSummaryWithContext(ctx, "d/1", &DmarcSummaryOptions{Days: 30}); err != nil {
		t.Fatalf("dmarc summary of 30 days: %v", err)
	}
	// An empty id would address another route: refused before any request.
	if _, err := client.Domains.DmarcReports("", nil); err == nil {
		t.Fatal("an empty domain id is an error")
	}
	if _, err := client.Domains.DmarcSummary("", &DmarcSummaryOptions{Days: 7}); err == nil {
		t.Fatal("an empty domain id is an error")
	}

	want := []recordedRequest{
		{"PATCH", "/v1/domains/example.com", `{"tracking_subdomain":"links","tls":"enforced","dkim":{"ed25519":true}}`},
		{"PATCH", "/v1/domains/d%2F1", `{"tracking_subdomain":null,"dkim":{"ed25519":false}}`},
		{"POST", "/v1/domains", `{"name":"example.org","tracking_subdomain":"links","tls":"opportunistic","dkim":{"ed25519":true}}`},
		{"GET", "/v1/sending/health", ""},
		{"GET", "/v1/sending/health", ""},
		{"GET", "/v1/domains/example.com/dmarc", ""},
		{"GET", "/v1/domains/d%2F1/dmarc?before=r-2&limit=5", ""},
		{"GET", "/v1/domains/d%2F1/dmarc?after=r-2", ""},
		{"GET", "/v1/domains/d%2F1/dmarc/r%2F2/rows?after=w-1&limit=100", ""},
		{"GET", "/v1/domains/example.com/dmarc/summary", ""},
		{"GET", "/v1/domains/d%2F1/dmarc/summary?days=30", ""},
	}
	recorder.expect(t, want)
}

func TestIpPoolsPathsBodiesAndNulls(t *testing.T) {
	var recorder requestRecorder
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		recorder.record(r)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/ip-pools" {
			_, _ = w.Write([]byte(`{"object":"list","data":[{"name":"main","warmup":"30d","addresses":[` +
				`{"address":"203.0.113.5","ehlo_name":"mta1.example.com","warmup_day":3,"daily_cap":200,"today":{"gmail":12,"other":3},` +
				`"backed_off":[{"provider":"gmail","messages_per_minute":300,"until":"2026-01-01T01:00:00.000Z"}]},` +
				`{"address":"203.0.113.6","ehlo_name":null,"warmup_day":null,"daily_cap":null,"today":{},"backed_off":[]}]}]}`))
			return
		}
		_, _ = w.Write([]byte(`{"object":"domain","id":"d-1","name":"example.com","status":"verified","records":[],"ip_pool":"main"}`))
	}))
	defer server.Close()
	client := NewClient("mr_test_key", WithBaseURL(server.URL))
	ctx := context.Background()

	pools, err := client.IpPools.List()
	if err != nil || pools.Object != "list" || len(pools.Data) != 1 || pools.Data[0].Name != "main" || pools.Data[0].Warmup != "30d" ||
		len(pools.Data[0].Addresses) != 2 {
		t.Fatalf("ip pools: %+v (%v)", pools, err)
	}
	warming, warm := pools.Data[0].Addresses[0], pools.Data[0].Addresses[1]
	if warming.Address != "203.0.113.5" || warming.EhloName != "mta1.example.com" || warming.WarmupDay == nil || *warming.WarmupDay != 3 ||
		warming.DailyCap == nil || *warming.DailyCap != 200 || warming.Today["gmail"] != 12 || warming.Today["other"] != 3 ||
		len(warming.BackedOff) != 1 || warming.BackedOff[0] != (IpPoolBackOff{Provider: "gmail", MessagesPerMinute: 300, Until: "2026-01-01T01:00:00.000Z"}) {
		t.Fatalf("a warming address: %+v", warming)
	}
	if warm.EhloName != "" || warm.WarmupDay != nil || warm.DailyCap != nil || len(warm.Today) != 0 || warm.BackedOff == nil || len(warm.BackedOff) != 0 {
		t.Fatalf("a warm address: %+v", warm)
	}
	if _, err := client.IpPools.ListWithContext(ctx); err != nil {
		t.Fatalf("ip pools with a context: %v", err)
	}
	domain, err := client.Domains.Update("example.com", &UpdateDomainRequest{IpPool: Value("main")})
	if err != nil || domain.IpPool != "main" {
		t.Fatalf("update: %+v (%v)", domain, err)
	}
	if _, err := client.Domains.UpdateWithContext(ctx, "d/1", &UpdateDomainRequest{IpPool: Null[string]()}); err != nil {
		t.Fatalf("update with a null ip pool: %v", err)
	}
	if _, err := client.Domains.Create(&CreateDomainRequest{Name: "example.org", IpPool: "main"}); err != nil {
		t.Fatalf("create: %v", err)
	}

	want := []recordedRequest{
		{"GET", "/v1/ip-pools", ""},
		{"GET", "/v1/ip-pools", ""},
		{"PATCH", "/v1/domains/example.com", `{"ip_pool":"main"}`},
		{"PATCH", "/v1/domains/d%2F1", `{"ip_pool":null}`},
		{"POST", "/v1/domains", `{"name":"example.org","ip_pool":"main"}`},
	}
	recorder.expect(t, want)
}
