// What the live tests (live_*_test.go) share. They run against a real Mailroom server (no mocks), configured by the
// repository's harness test/clients.test.ts through MAILROOM_BASE_URL, MAILROOM_API_KEY, MAILROOM_SENDING_KEY,
// MAILROOM_LIMITED_KEY, MAILROOM_FROM, MAILROOM_INBOUND_SUBJECT and MAILROOM_PUBLIC_URL. Without MAILROOM_BASE_URL they
// skip, so `go test` passes offline. Each test creates what it needs under unique names, so they run in parallel; a
// test that changes the organisation's settings runs alone, before them (liveAlone). Here: the server's settings, the
// skip, unique names, polling, and the checks of an API error and of its details.
package mailroom

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
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

func hasDetail(details []ErrorDetail, path string) bool {
	for _, detail := range details {
		if detail.Path == path {
			return true
		}
	}
	return false
}
