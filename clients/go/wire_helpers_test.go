// What the wire tests (wire_*_test.go) share: a recorder of the requests a test's own HTTP server receives (method,
// URI, body), checked against the expected list request by request.
package mailroom

import (
	"io"
	"net/http"
	"sync"
	"testing"
)

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
