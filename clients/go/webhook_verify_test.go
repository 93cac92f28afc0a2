// Tests of the Standard Webhooks verifier on requests signed here: genuine, tampered, stale, rotated (several
// signatures), svix-* headers, a bad secret and missing headers.
package mailroom

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"
)

const (
	testSecret  = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	otherSecret = "whsec_c2VjcmV0LW9mLWFub3RoZXItZW5kcG9pbnQ="
)

var testBody = []byte(`{"type":"email.sent","created_at":"2026-11-23T10:00:00.000Z","data":{"email_id":"0a1b2c3d-0000-4000-8000-000000000001","from":"Acme <hello@example.com>","to":["a@example.org"],"subject":"Hi","tags":{"kind":"receipt"}}}`)

func sign(t *testing.T, secret, id string, timestamp int64, body []byte) string {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(secret[len("whsec_"):])
	if err != nil {
		t.Fatal(err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + strconv.FormatInt(timestamp, 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

func signedHeaders(prefix, id string, timestamp int64, signature string) http.Header {
	h := http.Header{}
	h.Set(prefix+"-id", id)
	h.Set(prefix+"-timestamp", strconv.FormatInt(timestamp, 10))
	h.Set(prefix+"-signature", signature)
	return h
}

func verificationReason(err error) string {
	var verr *WebhookVerificationError
	if errors.As(err, &verr) {
		return verr.Reason
	}
	return ""
}

func TestVerifyAcceptsAGenuineWebhook(t *testing.T) {
	now := time.Now().Unix()
	headers := signedHeaders("webhook", "msg_1", now, sign(t, testSecret, "msg_1", now, testBody))
	event, err := NewWebhookVerifier(testSecret).Verify(headers, testBody)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if event.Id != "msg_1" || event.Type != EventEmailSent {
		t.Fatalf("event %+v", event)
	}
	var data EmailEventData
	if err := event.DecodeData(&data); err != nil || data.Tags["kind"] != "receipt" || data.To[0] != "a@example.org" {
		t.Fatalf("data %+v (%v)", data, err)
	}
}

func TestVerifyRefusesATamperedBody(t *testing.T) {
	now := time.Now().Unix()
	headers := signedHeaders("webhook", "msg_1", now, sign(t, testSecret, "msg_1", now, testBody))
	tampered := append([]byte{}, testBody...)
	tampered[len(tampered)-3] = 'X'
	if _, err := NewWebhookVerifier(testSecret).Verify(headers, tampered); verificationReason(err) != WebhookNoMatchingSignature {
		t.Fatalf("want no_matching_signature, got %v", err)
	}
}

func TestVerifyRefusesAnotherEndpointsSecret(t *testing.T) {
	now := time.Now().Unix()
	headers := signedHeaders("webhook", "msg_1", now, sign(t, otherSecret, "msg_1", now, testBody))
	if _, err := NewWebhookVerifier(testSecret).Verify(headers, testBody); verificationReason(err) != WebhookNoMatchingSignature {
		t.Fatalf("want no_matching_signature, got %v", err)
	}
}

func TestVerifyAcceptsAnyOfSeveralSignatures(t *testing.T) {
	now := time.Now().Unix()
	both := sign(t, otherSecret, "msg_2", now, testBody) + " " + sign(t, testSecret, "msg_2", now, testBody)
	headers := signedHeaders("webhook", "msg_2", now, both)
	for _, secret := range []string{testSecret, otherSecret} {
		if _, err := NewWebhookVerifier(secret).Verify(headers, testBody); err != nil {
			t.Fatalf("a rotated endpoint's request verifies with either secret: %v", err)
		}
	}
}

func TestVerifyAcceptsSvixHeaders(t *testing.T) {
	now := time.Now().Unix()
	headers := signedHeaders("svix", "msg_3", now, sign(t, testSecret, "msg_3", now, testBody))
	if _, err := NewWebhookVerifier(testSecret).Verify(headers, testBody); err != nil {
		t.Fatalf("svix headers: %v", err)
	}
}

func TestVerifyReadsHeadersThatWereNotCanonicalised(t *testing.T) {
	now := time.Now().Unix()
	headers := http.Header{
		"webhook-id":        {"msg_4"},
		"webhook-timestamp": {strconv.FormatInt(now, 10)},
		"webhook-signature": {sign(t, testSecret, "msg_4", now, testBody)},
	}
	if _, err := NewWebhookVerifier(testSecret).Verify(headers, testBody); err != nil {
		t.Fatalf("lower-case header map: %v", err)
	}
}

func TestVerifyRefusesStaleAndFutureTimestamps(t *testing.T) {
	verifier := NewWebhookVerifier(testSecret)
	old := time.Now().Add(-6 * time.Minute).Unix()
	headers := signedHeaders("webhook", "msg_5", old, sign(t, testSecret, "msg_5", old, testBody))
	if _, err := verifier.Verify(headers, testBody); verificationReason(err) != WebhookTimestampTooOld {
		t.Fatalf("want timestamp_too_old, got %v", err)
	}
	ahead := time.Now().Add(6 * time.Minute).Unix()
	headers = signedHeaders("webhook", "msg_5", ahead, sign(t, testSecret, "msg_5", ahead, testBody))
	if _, err := verifier.Verify(headers, testBody); verificationReason(err) != WebhookTimestampTooNew {
		t.Fatalf("want timestamp_too_new, got %v", err)
	}
	verifier.Tolerance = 10 * time.Minute
	if _, err := verifier.Verify(headers, testBody); err != nil {
		t.Fatalf("a wider tolerance accepts it: %v", err)
	}
}

func TestVerifyWithAFixedClock(t *testing.T) {
	sent := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	verifier := NewWebhookVerifier(testSecret)
	verifier.now = func() time.Time { return sent.Add(4 * time.Minute) }
	headers := signedHeaders("webhook", "msg_6", sent.Unix(), sign(t, testSecret, "msg_6", sent.Unix(), testBody))
	if _, err := verifier.Verify(headers, testBody); err != nil {
		t.Fatalf("within 5 minutes: %v", err)
	}
}

func TestVerifyReportsMissingHeadersAndBadSecrets(t *testing.T) {
	if _, err := NewWebhookVerifier(testSecret).Verify(http.Header{}, testBody); verificationReason(err) != WebhookMissingHeaders {
		t.Fatalf("want missing_headers, got %v", err)
	}
	now := time.Now().Unix()
	headers := signedHeaders("webhook", "msg_7", now, sign(t, testSecret, "msg_7", now, testBody))
	if _, err := NewWebhookVerifier("whsec_***not base64***").Verify(headers, testBody); verificationReason(err) != WebhookInvalidSecret {
		t.Fatalf("want invalid_secret, got %v", err)
	}
	headers.Set("webhook-timestamp", "yesterday")
	if _, err := NewWebhookVerifier(testSecret).Verify(headers, testBody); verificationReason(err) != WebhookInvalidTimestamp {
		t.Fatalf("want invalid_timestamp, got %v", err)
	}
}
