// How one API call travels: the URL under /v1, the headers (auth, User-Agent, Idempotency-Key), a timeout per
// attempt, the opt-in retry loop with its backoff, and the translation of failures into *Error.
package mailroom

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// call describes one API operation before it is sent.
type call struct {
	method string
	// path below /v1, each id already escaped (see escape).
	path  string
	query url.Values
	// body is sent as JSON when not nil.
	body interface{}
	// raw, when not nil, is sent as it is with contentType instead of body (a multipart upload).
	raw         []byte
	contentType string
	header      http.Header
	// send marks POST /emails and /emails/batch: with retries on they always carry an idempotency key.
	send bool
}

// required refuses an empty id before it turns into another route's path.
func required(name, value string) error {
	if value == "" {
		return fmt.Errorf("mailroom: %s is required", name)
	}
	return nil
}

func requiredPair(firstName, first, secondName, second string) error {
	if err := required(firstName, first); err != nil {
		return err
	}
	return required(secondName, second)
}

// escape makes an id, alias or address one path segment.
func escape(segment string) string {
	return url.PathEscape(segment)
}

// fetch runs the call and answers its JSON answer as a *T (nil with the error when it fails).
func fetch[T any](ctx context.Context, c *Client, cl call) (*T, error) {
	out := new(T)
	if err := c.decode(ctx, cl, out); err != nil {
		return nil, err
	}
	return out, nil
}

// decode runs the call and decodes its JSON answer into out (when out is not nil).
func (c *Client) decode(ctx context.Context, cl call, out interface{}) error {
	data, err := c.do(ctx, cl)
	if err != nil {
		return err
	}
	if out == nil || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("mailroom: %s /v1/%s answered JSON this client cannot read: %w", cl.method, cl.path, err)
	}
	return nil
}

// do runs the call, retrying as configured, and answers the body of its 2xx response.
func (c *Client) do(ctx context.Context, cl call) ([]byte, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	payload := cl.raw
	if payload == nil && cl.body != nil {
		var err error
		if payload, err = json.Marshal(cl.body); err != nil {
			return nil, fmt.Errorf("mailroom: encoding the request body: %w", err)
		}
	}
	header := http.Header{}
	for name, values := range cl.header {
		for _, value := range values {
			if value != "" {
				header.Add(name, value)
			}
		}
	}
	// Every attempt of a retried send carries the same key: the server answers a repeat with the first result
	// instead of sending again.
	if cl.send && c.maxRetries > 0 && header.Get("Idempotency-Key") == "" {
		header.Set("Idempotency-Key", newIdempotencyKey())
	}

	for attempt := 0; ; attempt++ {
		data, err := c.attempt(ctx, cl, payload, header)
		if err == nil {
			return data, nil
		}
		wait, retry := c.retryDelay(ctx, err, attempt)
		if !retry {
			return nil, err
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, transportError(ctx, ctx, ctx.Err(), 0)
		case <-timer.C:
		}
	}
}

// attempt sends the request once.
func (c *Client) attempt(ctx context.Context, cl call, payload []byte, header http.Header) ([]byte, error) {
	attemptCtx, cancel := ctx, context.CancelFunc(func() {})
	contentType := "application/json"
	if cl.contentType != "" {
		contentType = cl.contentType
	}
	if c.timeout > 0 {
		attemptCtx, cancel = context.WithTimeout(ctx, c.timeout)
	}
	defer cancel()

	target := c.baseURL + "/v1/" + cl.path
	if len(cl.query) > 0 {
		target += "?" + cl.query.Encode()
	}
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(attemptCtx, cl.method, target, body)
	if err != nil {
		return nil, fmt.Errorf("mailroom: building %s %s: %w", cl.method, target, err)
	}
	for name, values := range header {
		req.Header[name] = values
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", contentType)
	}

	resp, err := c.httpClient.Do(req)
	if err != nil {
		return nil, transportError(ctx, attemptCtx, err, c.timeout)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, transportError(ctx, attemptCtx, err, c.timeout)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, errorFromResponse(resp, data)
	}
	return data, nil
}

// retryDelay says whether a failed attempt is tried again, and after how long.
func (c *Client) retryDelay(ctx context.Context, err error, attempt int) (time.Duration, bool) {
	if attempt >= c.maxRetries || ctx.Err() != nil {
		return 0, false
	}
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		return 0, false
	}
	switch {
	case apiErr.Name == NameDailyQuotaExceeded:
		// The quota frees up at 00:00 UTC: waiting out its Retry-After would hold the call for hours.
		return 0, false
	case apiErr.StatusCode == http.StatusTooManyRequests:
		if apiErr.RetryAfter > 0 {
			return apiErr.RetryAfter, true
		}
		return c.backoff(attempt), true
	case apiErr.StatusCode >= 500, apiErr.StatusCode == 0:
		return c.backoff(attempt), true
	}
	return 0, false
}

// backoff is base·2^attempt capped at max, of which a random half is dropped ("equal jitter"), so clients that
// failed together do not come back together.
func (c *Client) backoff(attempt int) time.Duration {
	wait := c.backoffBase
	for i := 0; i < attempt && wait < c.backoffMax; i++ {
		wait *= 2
	}
	if wait > c.backoffMax {
		wait = c.backoffMax
	}
	if wait <= 0 {
		return 0
	}
	half := wait / 2
	c.jitterMu.Lock()
	defer c.jitterMu.Unlock()
	return half + time.Duration(c.jitter.Int63n(int64(half)+1))
}

// transportError names a failure that produced no HTTP answer: a timeout, or any other network failure.
func transportError(parent, attemptCtx context.Context, err error, timeout time.Duration) *Error {
	var netErr net.Error
	timedOut := errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout())
	if parent.Err() == context.Canceled {
		timedOut = false
	}
	if timedOut {
		message := "the request timed out"
		if attemptCtx.Err() == context.DeadlineExceeded && parent.Err() == nil && timeout > 0 {
			message = fmt.Sprintf("no answer within %s", timeout)
		}
		return &Error{Name: NameTimeout, Message: message, Err: err}
	}
	return &Error{Name: NameNetworkError, Message: err.Error(), Err: err}
}

// errorFromResponse reads Mailroom's error body; an answer from something else (a proxy) still gets a name.
func errorFromResponse(resp *http.Response, data []byte) *Error {
	var wire struct {
		Error      string        `json:"error"`
		Name       string        `json:"name"`
		Message    string        `json:"message"`
		StatusCode int           `json:"statusCode"`
		Details    []ErrorDetail `json:"details"`
	}
	_ = json.Unmarshal(data, &wire)
	apiErr := &Error{
		Name:       wire.Name,
		StatusCode: resp.StatusCode,
		Message:    wire.Message,
		Reason:     wire.Error,
		Details:    wire.Details,
		RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After")),
		RequestId:  resp.Header.Get("X-Request-Id"),
	}
	if apiErr.Name == "" {
		apiErr.Name = nameForStatus(resp.StatusCode)
	}
	if apiErr.Reason == "" {
		apiErr.Reason = http.StatusText(resp.StatusCode)
	}
	if apiErr.Message == "" {
		apiErr.Message = strings.TrimSpace(string(data))
		if apiErr.Message == "" || len(apiErr.Message) > 200 {
			apiErr.Message = apiErr.Reason
		}
	}
	return apiErr
}

// parseRetryAfter reads Retry-After as seconds or as an HTTP date.
func parseRetryAfter(value string) time.Duration {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0
	}
	if seconds, err := strconv.ParseFloat(value, 64); err == nil {
		if seconds < 0 {
			return 0
		}
		return time.Duration(seconds * float64(time.Second))
	}
	if at, err := http.ParseTime(value); err == nil {
		if wait := time.Until(at); wait > 0 {
			return wait
		}
	}
	return 0
}

// newIdempotencyKey is a random UUID (version 4).
func newIdempotencyKey() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand does not fail on supported platforms; a time-based key still keeps retries together.
		return fmt.Sprintf("mailroom-go-%d", time.Now().UnixNano())
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
