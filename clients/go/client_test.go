// Tests of the transport against small local HTTP servers of the tests' own (no Mailroom needed): retries on 429
// and 503, the idempotency key kept across retries, no retry of other 4xx or of a used-up daily quota, error
// decoding (410 gone included), timeouts, network failures, a cancelled context, headers and the base URL, and an
// empty id refused before any request. The paths, bodies and null fields of each area of the API are in
// wire_*_test.go.
package mailroom

import (
	"context"
	"errors"
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
