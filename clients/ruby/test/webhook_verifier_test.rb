# frozen_string_literal: true

# The Standard Webhooks verifier on its own, with requests signed here: rotated secrets, svix and Rack header
# forms, the timestamp window, and the ways a request is refused.
require "minitest/autorun"
require "test_helper"
require "json"
require "openssl"

class WebhookVerifierTest < Minitest::Test
  KEY = "0123456789abcdef0123456789abcdef"
  SECRET = "whsec_#{[KEY].pack('m0')}".freeze
  OLD_SECRET = "whsec_#{['an older key, before rotation'].pack('m0')}".freeze
  BODY = JSON.generate(type: "email.sent", created_at: "2026-11-22T10:00:00.000Z", data: { email_id: "e1", to: ["a@x.org"] })

  # One timestamp per test: read twice, a second could pass between signing and the headers, and they would differ.
  def now
    @now ||= Time.now.to_i
  end

  def sign(body, secret, id: "msg_1", timestamp: now)
    key = secret.delete_prefix("whsec_").unpack1("m0")
    "v1,#{[OpenSSL::HMAC.digest('SHA256', key, "#{id}.#{timestamp}.#{body}")].pack('m0')}"
  end

  def headers(signature, id: "msg_1", timestamp: now)
    { "webhook-id" => id, "webhook-timestamp" => timestamp.to_s, "webhook-signature" => signature }
  end

  def verify(**args)
    Mailroom::WebhookVerifier.verify(**{ payload: BODY, secret: SECRET }.merge(args))
  end

  def test_a_valid_signature_returns_the_payload
    payload = verify(headers: headers(sign(BODY, SECRET)))
    assert_equal "email.sent", payload[:type]
    assert_equal ["a@x.org"], payload[:data][:to]
  end

  def test_a_non_ascii_body_verifies_byte_for_byte
    body = JSON.generate(type: "email.sent", data: { subject: "Café ✓ — 注文" })
    assert_equal "Café ✓ — 注文", verify(payload: body, headers: headers(sign(body, SECRET)))[:data][:subject]
    assert_equal "email.sent", verify(payload: body.b, headers: headers(sign(body, SECRET)))[:type]
  end

  def test_any_of_several_signatures_may_match
    signatures = "v1,#{['not it'].pack('m0')} #{sign(BODY, OLD_SECRET)} #{sign(BODY, SECRET)}"
    assert_equal "email.sent", verify(headers: headers(signatures))[:type]
    assert_equal "email.sent", verify(headers: headers(signatures), secret: OLD_SECRET)[:type]
  end

  def test_svix_symbol_and_rack_header_forms
    now = Time.now.to_i
    signature = sign(BODY, SECRET, timestamp: now)
    assert verify(headers: { "Svix-Id" => "msg_1", "Svix-Timestamp" => now.to_s, "Svix-Signature" => signature })
    assert verify(headers: { webhook_id: "msg_1", webhook_timestamp: now.to_s, webhook_signature: signature })
    assert verify(headers: { "HTTP_WEBHOOK_ID" => "msg_1", "HTTP_WEBHOOK_TIMESTAMP" => now.to_s,
                             "HTTP_WEBHOOK_SIGNATURE" => signature })
  end

  def test_a_tampered_body_is_refused
    signature = sign(BODY, SECRET)
    assert_raises(Mailroom::WebhookVerificationError) do
      verify(payload: BODY.sub("a@x.org", "b@x.org"), headers: headers(signature))
    end
  end

  def test_a_changed_id_is_refused
    assert_raises(Mailroom::WebhookVerificationError) { verify(headers: headers(sign(BODY, SECRET), id: "msg_2")) }
  end

  def test_an_old_timestamp_is_refused_unless_the_tolerance_allows_it
    old = Time.now.to_i - 600
    signed = headers(sign(BODY, SECRET, timestamp: old), timestamp: old)
    error = assert_raises(Mailroom::WebhookVerificationError) { verify(headers: signed) }
    assert_match(/tolerance/, error.message)
    assert_equal "email.sent", verify(headers: signed, tolerance: 900)[:type]
  end

  def test_a_future_timestamp_is_refused
    future = Time.now.to_i + 600
    assert_raises(Mailroom::WebhookVerificationError) do
      verify(headers: headers(sign(BODY, SECRET, timestamp: future), timestamp: future))
    end
  end

  def test_missing_headers_and_unknown_versions_are_refused
    assert_raises(Mailroom::WebhookVerificationError) { verify(headers: {}) }
    assert_raises(Mailroom::WebhookVerificationError) do
      verify(headers: headers(sign(BODY, SECRET)).reject { |k, _| k == "webhook-signature" })
    end
    assert_raises(Mailroom::WebhookVerificationError) do
      verify(headers: headers(sign(BODY, SECRET).sub("v1,", "v2,")))
    end
    assert_raises(Mailroom::WebhookVerificationError) { verify(headers: headers(sign(BODY, SECRET), timestamp: "soon")) }
  end

  def test_a_secret_without_the_prefix_works_and_a_missing_one_is_an_argument_error
    assert verify(headers: headers(sign(BODY, SECRET)), secret: SECRET.delete_prefix("whsec_"))
    assert_raises(ArgumentError) { verify(headers: headers(sign(BODY, SECRET)), secret: nil) }
  end
end
