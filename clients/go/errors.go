// The typed error every failed call returns (*Error) and the closed set of error names Mailroom answers, plus the
// two names this client adds for failures without an HTTP answer.
package mailroom

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Error names: the server's closed set (docs/errors.md), then the client's own for failures without an answer.
const (
	NameValidationError              = "validation_error"
	NameInvalidIdempotencyKey        = "invalid_idempotency_key"
	NameUnauthorized                 = "unauthorized"
	NameInsufficientScope            = "insufficient_scope"
	NameNotFound                     = "not_found"
	NameMethodNotAllowed             = "method_not_allowed"
	NameInvalidIdempotentRequest     = "invalid_idempotent_request"
	NameConcurrentIdempotentRequests = "concurrent_idempotent_requests"
	NameConflict                     = "conflict"
	NamePayloadTooLarge              = "payload_too_large"
	NameDomainNotVerified            = "domain_not_verified"
	NameRateLimitExceeded            = "rate_limit_exceeded"
	NameDailyQuotaExceeded           = "daily_quota_exceeded"
	NameGone                         = "gone"
	NameInternalError                = "internal_error"
	NameServiceUnavailable           = "service_unavailable"

	// NameNetworkError: the request got no answer (connection refused or reset, DNS, a cancelled context).
	NameNetworkError = "network_error"
	// NameTimeout: no answer within the timeout (WithTimeout) or the context's deadline.
	NameTimeout = "timeout"
)

// ErrorDetail is one problem of a validation error: where (a dotted path such as "to" or "1.to") and what.
type ErrorDetail struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Error is a failed call: an error answer of the server, or a network failure or timeout (StatusCode 0).
// Use errors.As(err, &mailroomErr) and branch on Name.
type Error struct {
	// Name is one of the Name… constants.
	Name string
	// StatusCode is the HTTP status; 0 when no answer came.
	StatusCode int
	Message    string
	// Details lists each problem of a validation_error.
	Details []ErrorDetail
	// RetryAfter is the server's Retry-After (429, some 503); 0 when absent.
	RetryAfter time.Duration
	// Reason is the HTTP reason phrase of the answer (the body's "error" field).
	Reason string
	// RequestId is the server's x-request-id, for its logs.
	RequestId string
	// Err is the underlying network error when StatusCode is 0.
	Err error
}

func (e *Error) Error() string {
	if e.StatusCode == 0 {
		return fmt.Sprintf("mailroom: %s: %s", e.Name, e.Message)
	}
	return fmt.Sprintf("mailroom: %s (%d): %s", e.Name, e.StatusCode, e.Message)
}

// Unwrap gives the network error under a network_error or timeout, so errors.Is(err, context.Canceled) works.
func (e *Error) Unwrap() error {
	return e.Err
}

// IsRateLimited tells whether err is a 429 rate_limit_exceeded; the *Error's RetryAfter says when to come back.
func IsRateLimited(err error) bool {
	return hasName(err, NameRateLimitExceeded)
}

// IsDailyQuotaExceeded tells whether err is a 429 daily_quota_exceeded: the organisation's or the key's live
// messages of the UTC day are used up. The *Error's RetryAfter runs to 00:00 UTC, when the count starts again.
func IsDailyQuotaExceeded(err error) bool {
	return hasName(err, NameDailyQuotaExceeded)
}

// IsGone tells whether err is a 410 gone: retention removed the email's content (its record remains).
func IsGone(err error) bool {
	return hasName(err, NameGone)
}

// IsNotFound tells whether err is a 404 not_found.
func IsNotFound(err error) bool {
	return hasName(err, NameNotFound)
}

// IsValidationError tells whether err is a 400 validation_error; the *Error's Details list the problems.
func IsValidationError(err error) bool {
	return hasName(err, NameValidationError)
}

func hasName(err error, name string) bool {
	var apiErr *Error
	return errors.As(err, &apiErr) && apiErr.Name == name
}

// nameForStatus names an error answer that came without Mailroom's body (a proxy in between, for instance).
func nameForStatus(status int) string {
	switch status {
	case http.StatusBadRequest:
		return NameValidationError
	case http.StatusUnauthorized:
		return NameUnauthorized
	case http.StatusForbidden:
		return NameInsufficientScope
	case http.StatusNotFound:
		return NameNotFound
	case http.StatusMethodNotAllowed:
		return NameMethodNotAllowed
	case http.StatusConflict:
		return NameConflict
	case http.StatusGone:
		return NameGone
	case http.StatusRequestEntityTooLarge:
		return NamePayloadTooLarge
	case http.StatusUnprocessableEntity:
		return NameDomainNotVerified
	case http.StatusTooManyRequests:
		return NameRateLimitExceeded
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return NameServiceUnavailable
	}
	if status >= 500 {
		return NameInternalError
	}
	return NameValidationError
}
