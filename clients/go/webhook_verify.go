// Standard Webhooks verification of what Mailroom POSTs to an endpoint: the webhook-id, webhook-timestamp and
// webhook-signature headers (or their svix-* twins), an HMAC-SHA256 over "id.timestamp.body" with the endpoint's
// whsec_ secret, compared in constant time, and a timestamp close to now so a captured request cannot be replayed.
package mailroom

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultWebhookTolerance is how far a webhook's timestamp may be from now.
const DefaultWebhookTolerance = 5 * time.Minute

// Reasons of a WebhookVerificationError.
const (
	WebhookMissingHeaders      = "missing_headers"
	WebhookInvalidSecret       = "invalid_secret"
	WebhookInvalidTimestamp    = "invalid_timestamp"
	WebhookTimestampTooOld     = "timestamp_too_old"
	WebhookTimestampTooNew     = "timestamp_too_new"
	WebhookNoMatchingSignature = "no_matching_signature"
	WebhookInvalidPayload      = "invalid_payload"
)

// WebhookVerificationError says why a request is not a genuine, fresh webhook of this endpoint. Answer it with a
// 4xx (e.g. 400) and do not act on its body.
type WebhookVerificationError struct {
	// Reason is one of the Webhook… reason constants.
	Reason  string
	Message string
}

func (e *WebhookVerificationError) Error() string {
	return "mailroom: webhook verification failed: " + e.Message
}

// WebhookEvent is a verified webhook: {type, created_at, data}. Id is the webhook-id header, the same on every
// retry of one event: delivery is at least once, so use it to process each event once.
type WebhookEvent struct {
	Id        string          `json:"-"`
	Type      string          `json:"type"`
	CreatedAt string          `json:"created_at"`
	Data      json.RawMessage `json:"data"`
}

// DecodeData decodes Data into v, e.g. an *EmailEventData for email.* events.
func (e *WebhookEvent) DecodeData(v interface{}) error {
	return json.Unmarshal(e.Data, v)
}

// EmailEventData is the data of email.* events (Resend's shape; tags as a name → value map). Bounce and Click are
// set on email.bounced and email.clicked.
type EmailEventData struct {
	EmailId    string            `json:"email_id"`
	MessageId  string            `json:"message_id"`
	CreatedAt  string            `json:"created_at"`
	From       string            `json:"from"`
	To         []string          `json:"to"`
	Cc         []string          `json:"cc"`
	Subject    string            `json:"subject"`
	Recipient  string            `json:"recipient"`
	Tags       map[string]string `json:"tags"`
	TemplateId string            `json:"template_id"`
	Bounce     *EmailBounce      `json:"bounce,omitempty"`
	Click      *EmailClick       `json:"click,omitempty"`
}

// EmailBounce details an email.bounced event: Type is Permanent, Transient or Undetermined.
type EmailBounce struct {
	Type           string `json:"type"`
	SubType        string `json:"subType"`
	Message        string `json:"message"`
	DiagnosticCode string `json:"diagnostic_code"`
}

// EmailClick details an email.clicked event.
type EmailClick struct {
	Link      string `json:"link"`
	IpAddress string `json:"ipAddress"`
	UserAgent string `json:"userAgent"`
	Timestamp string `json:"timestamp"`
}

// WebhookVerifier checks webhooks signed with one endpoint's secret.
type WebhookVerifier struct {
	// Tolerance is how far the webhook-timestamp may be from now (0: DefaultWebhookTolerance).
	Tolerance time.Duration

	key       []byte
	secretErr *WebhookVerificationError
	now       func() time.Time
}

// NewWebhookVerifier takes the endpoint's signing secret as Mailroom answered it ("whsec_" + base64 key).
func NewWebhookVerifier(secret string) *WebhookVerifier {
	v := &WebhookVerifier{now: time.Now}
	encoded := strings.TrimPrefix(strings.TrimSpace(secret), "whsec_")
	key, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		key, err = base64.RawStdEncoding.DecodeString(encoded)
	}
	if err != nil || len(key) == 0 {
		v.secretErr = &WebhookVerificationError{Reason: WebhookInvalidSecret, Message: "the signing secret is not whsec_ followed by a base64 key"}
	}
	v.key = key
	return v
}

// Verify checks the headers and the raw body of a webhook request (read the body before any JSON decoding: one
// changed byte fails the check) and answers the parsed event.
func (v *WebhookVerifier) Verify(headers http.Header, body []byte) (*WebhookEvent, error) {
	if v.secretErr != nil {
		return nil, v.secretErr
	}
	id, timestamp, signatures := signatureHeaders(headers)
	if id == "" || timestamp == "" || signatures == "" {
		return nil, &WebhookVerificationError{Reason: WebhookMissingHeaders, Message: "webhook-id, webhook-timestamp and webhook-signature are required"}
	}
	seconds, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return nil, &WebhookVerificationError{Reason: WebhookInvalidTimestamp, Message: "webhook-timestamp is not a number of seconds"}
	}
	tolerance := v.Tolerance
	if tolerance <= 0 {
		tolerance = DefaultWebhookTolerance
	}
	now := v.now()
	sent := time.Unix(seconds, 0)
	if now.Sub(sent) > tolerance {
		return nil, &WebhookVerificationError{Reason: WebhookTimestampTooOld, Message: "webhook-timestamp is older than the tolerance"}
	}
	if sent.Sub(now) > tolerance {
		return nil, &WebhookVerificationError{Reason: WebhookTimestampTooNew, Message: "webhook-timestamp is ahead of the tolerance"}
	}

	mac := hmac.New(sha256.New, v.key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	expected := mac.Sum(nil)
	// After a rotation several signatures arrive, one per active secret: any valid one is enough.
	matched := false
	for _, entry := range strings.Fields(signatures) {
		version, encoded, ok := strings.Cut(entry, ",")
		if !ok || version != "v1" {
			continue
		}
		signature, err := base64.StdEncoding.DecodeString(encoded)
		if err != nil {
			continue
		}
		if hmac.Equal(signature, expected) {
			matched = true
		}
	}
	if !matched {
		return nil, &WebhookVerificationError{Reason: WebhookNoMatchingSignature, Message: "no signature matches the body with this secret"}
	}

	event := &WebhookEvent{}
	if err := json.Unmarshal(body, event); err != nil {
		return nil, &WebhookVerificationError{Reason: WebhookInvalidPayload, Message: "the signed body is not a JSON event"}
	}
	event.Id = id
	return event, nil
}

// signatureHeaders reads the Standard Webhooks headers, falling back to their svix-* names.
func signatureHeaders(headers http.Header) (id, timestamp, signatures string) {
	read := func(name string) string {
		if value := headerValue(headers, "webhook-"+name); value != "" {
			return value
		}
		return headerValue(headers, "svix-"+name)
	}
	return read("id"), read("timestamp"), read("signature")
}

// headerValue also finds names that were not canonicalised (an http.Header built by hand from another framework).
func headerValue(headers http.Header, name string) string {
	if value := strings.TrimSpace(headers.Get(name)); value != "" {
		return value
	}
	for key, values := range headers {
		if strings.EqualFold(key, name) && len(values) > 0 {
			return strings.TrimSpace(values[0])
		}
	}
	return ""
}
